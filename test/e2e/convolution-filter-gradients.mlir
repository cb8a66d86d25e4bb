// RUN: %python %e2e run %s google-run | FileCheck %s
// CHECK: e2e: 5 cases match numpy
// A filter's gradient as --google-differentiate writes it: a convolution
// of the (padded, cropped) input and the cotangent with batch and channels
// swapped, transposed back. The CPU pipeline computes it as the forward's
// windows, transposed, times the cotangent (one matmul, the windows shared
// with the forward convolution): padded, strided and dilated, cropped to
// the rows the forward reads, and f64.

// E2E: @padded(x: 4x6x6x3xf32, w: 3x3x3x5xf32, ct: 4x6x6x5xf32) -> (conv(x, w, (1, 1), (1, 1), (1, 1, 1, 1), 1), conv(np.pad(x, ((0, 0), (1, 1), (1, 1), (0, 0))).transpose(3, 1, 2, 0), ct.transpose(1, 2, 0, 3), (1, 1), (1, 1), (0, 0, 0, 0), 1).transpose(1, 2, 0, 3))
// E2E: @strided_dilated(x: 2x6x8x4xf32, w: 2x3x4x5xf32, ct: 2x3x4x5xf32) -> (conv(x, w, (2, 1), (1, 2), (0, 0, 0, 0), 1), conv(x.transpose(3, 1, 2, 0), ct.transpose(1, 2, 0, 3), (1, 2), (2, 1), (0, 0, 0, 0), 1).transpose(1, 2, 0, 3))
// E2E: @cropped(x: 3x7x9x2xf32, w: 2x2x2x3xf32, ct: 3x3x4x3xf32) -> (conv(x, w, (2, 2), (1, 1), (0, 0, 0, 0), 1), conv(x[:, :6, :8].transpose(3, 1, 2, 0), ct.transpose(1, 2, 0, 3), (1, 1), (2, 2), (0, 0, 0, 0), 1).transpose(1, 2, 0, 3))
// E2E: @alone(x: 5x4x4x8xf32, ct: 5x2x2x16xf32) -> conv(x.transpose(3, 1, 2, 0), ct.transpose(1, 2, 0, 3), (1, 1), (1, 1), (0, 0, 0, 0), 1).transpose(1, 2, 0, 3)
// E2E: @f64(x: 2x5x5x3xf64, ct: 2x3x3x4xf64) -> conv(x.transpose(3, 1, 2, 0), ct.transpose(1, 2, 0, 3), (1, 1), (1, 1), (0, 0, 0, 0), 1).transpose(1, 2, 0, 3)

func.func @padded(%x: tensor<4x6x6x3xf32>, %w: tensor<3x3x3x5xf32>, %ct: tensor<4x6x6x5xf32>) -> (tensor<4x6x6x5xf32>, tensor<3x3x3x5xf32>) {
  %y = google.conv2d %x, %w {strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, padding = array<i64: 1, 1, 1, 1>, groups = 1 : i64} : tensor<4x6x6x3xf32>, tensor<3x3x3x5xf32> -> tensor<4x6x6x5xf32>
  %zero = google.constant dense<0.0> : tensor<f32>
  %p = google.pad %x, %zero {low = array<i64: 0, 1, 1, 0>, high = array<i64: 0, 1, 1, 0>} : tensor<4x6x6x3xf32>, tensor<f32> -> tensor<4x8x8x3xf32>
  %t = google.transpose %p {perm = array<i64: 3, 1, 2, 0>} : tensor<4x8x8x3xf32> -> tensor<3x8x8x4xf32>
  %u = google.transpose %ct {perm = array<i64: 1, 2, 0, 3>} : tensor<4x6x6x5xf32> -> tensor<6x6x4x5xf32>
  %r = google.conv2d %t, %u {strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, padding = array<i64: 0, 0, 0, 0>, groups = 1 : i64} : tensor<3x8x8x4xf32>, tensor<6x6x4x5xf32> -> tensor<3x3x3x5xf32>
  %g = google.transpose %r {perm = array<i64: 1, 2, 0, 3>} : tensor<3x3x3x5xf32> -> tensor<3x3x3x5xf32>
  return %y, %g : tensor<4x6x6x5xf32>, tensor<3x3x3x5xf32>
}
func.func @strided_dilated(%x: tensor<2x6x8x4xf32>, %w: tensor<2x3x4x5xf32>, %ct: tensor<2x3x4x5xf32>) -> (tensor<2x3x4x5xf32>, tensor<2x3x4x5xf32>) {
  %y = google.conv2d %x, %w {strides = array<i64: 2, 1>, dilations = array<i64: 1, 2>, padding = array<i64: 0, 0, 0, 0>, groups = 1 : i64} : tensor<2x6x8x4xf32>, tensor<2x3x4x5xf32> -> tensor<2x3x4x5xf32>
  %t = google.transpose %x {perm = array<i64: 3, 1, 2, 0>} : tensor<2x6x8x4xf32> -> tensor<4x6x8x2xf32>
  %u = google.transpose %ct {perm = array<i64: 1, 2, 0, 3>} : tensor<2x3x4x5xf32> -> tensor<3x4x2x5xf32>
  %r = google.conv2d %t, %u {strides = array<i64: 1, 2>, dilations = array<i64: 2, 1>, padding = array<i64: 0, 0, 0, 0>, groups = 1 : i64} : tensor<4x6x8x2xf32>, tensor<3x4x2x5xf32> -> tensor<4x2x3x5xf32>
  %g = google.transpose %r {perm = array<i64: 1, 2, 0, 3>} : tensor<4x2x3x5xf32> -> tensor<2x3x4x5xf32>
  return %y, %g : tensor<2x3x4x5xf32>, tensor<2x3x4x5xf32>
}
func.func @cropped(%x: tensor<3x7x9x2xf32>, %w: tensor<2x2x2x3xf32>, %ct: tensor<3x3x4x3xf32>) -> (tensor<3x3x4x3xf32>, tensor<2x2x2x3xf32>) {
  %y = google.conv2d %x, %w {strides = array<i64: 2, 2>, dilations = array<i64: 1, 1>, padding = array<i64: 0, 0, 0, 0>, groups = 1 : i64} : tensor<3x7x9x2xf32>, tensor<2x2x2x3xf32> -> tensor<3x3x4x3xf32>
  %c = google.slice %x {starts = array<i64: 0, 0, 0, 0>, limits = array<i64: 3, 6, 8, 2>, strides = array<i64: 1, 1, 1, 1>} : tensor<3x7x9x2xf32> -> tensor<3x6x8x2xf32>
  %t = google.transpose %c {perm = array<i64: 3, 1, 2, 0>} : tensor<3x6x8x2xf32> -> tensor<2x6x8x3xf32>
  %u = google.transpose %ct {perm = array<i64: 1, 2, 0, 3>} : tensor<3x3x4x3xf32> -> tensor<3x4x3x3xf32>
  %r = google.conv2d %t, %u {strides = array<i64: 1, 1>, dilations = array<i64: 2, 2>, padding = array<i64: 0, 0, 0, 0>, groups = 1 : i64} : tensor<2x6x8x3xf32>, tensor<3x4x3x3xf32> -> tensor<2x2x2x3xf32>
  %g = google.transpose %r {perm = array<i64: 1, 2, 0, 3>} : tensor<2x2x2x3xf32> -> tensor<2x2x2x3xf32>
  return %y, %g : tensor<3x3x4x3xf32>, tensor<2x2x2x3xf32>
}
func.func @alone(%x: tensor<5x4x4x8xf32>, %ct: tensor<5x2x2x16xf32>) -> tensor<3x3x8x16xf32> {
  %t = google.transpose %x {perm = array<i64: 3, 1, 2, 0>} : tensor<5x4x4x8xf32> -> tensor<8x4x4x5xf32>
  %u = google.transpose %ct {perm = array<i64: 1, 2, 0, 3>} : tensor<5x2x2x16xf32> -> tensor<2x2x5x16xf32>
  %r = google.conv2d %t, %u {strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, padding = array<i64: 0, 0, 0, 0>, groups = 1 : i64} : tensor<8x4x4x5xf32>, tensor<2x2x5x16xf32> -> tensor<8x3x3x16xf32>
  %g = google.transpose %r {perm = array<i64: 1, 2, 0, 3>} : tensor<8x3x3x16xf32> -> tensor<3x3x8x16xf32>
  return %g : tensor<3x3x8x16xf32>
}
func.func @f64(%x: tensor<2x5x5x3xf64>, %ct: tensor<2x3x3x4xf64>) -> tensor<3x3x3x4xf64> {
  %t = google.transpose %x {perm = array<i64: 3, 1, 2, 0>} : tensor<2x5x5x3xf64> -> tensor<3x5x5x2xf64>
  %u = google.transpose %ct {perm = array<i64: 1, 2, 0, 3>} : tensor<2x3x3x4xf64> -> tensor<3x3x2x4xf64>
  %r = google.conv2d %t, %u {strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, padding = array<i64: 0, 0, 0, 0>, groups = 1 : i64} : tensor<3x5x5x2xf64>, tensor<3x3x2x4xf64> -> tensor<3x3x3x4xf64>
  %g = google.transpose %r {perm = array<i64: 1, 2, 0, 3>} : tensor<3x3x3x4xf64> -> tensor<3x3x3x4xf64>
  return %g : tensor<3x3x3x4xf64>
}
