// RUN: %python %e2e run %s google-run | FileCheck %s
// CHECK: e2e: 6 cases match numpy
// conv2d (NHWC x HWIO: strides, dilations, padding, groups) and pooling.

// E2E: @conv(x: 2x9x9x3xf32, w: 3x3x3x4xf32) -> conv(x, w, (1, 1), (1, 1), (1, 1, 1, 1), 1)
// E2E: @conv_strided(x: 1x10x11x4xf32, w: 2x3x2x6xf32) -> conv(x, w, (2, 3), (2, 1), (0, 1, 2, 0), 2)
// E2E: @depthwise(x: 3x6x6x4xbf16, w: 3x3x1x8xbf16) -> conv(x, w, (1, 1), (1, 1), (1, 1, 1, 1), 4)
// E2E: @conv_dynamic(x: 3x5x5x2xf64, w: 1x1x2x3xf64) -> conv(x, w, (1, 1), (1, 1), (0, 0, 0, 0), 1)
// E2E: @pools(x: 2x7x8x3xf32) -> (pool(x, np.max, (2, 2), (2, 2), (0, 1, 0, 0)), pool(x, np.mean, (3, 3), (2, 2), (1, 1, 1, 1)))
// E2E: @int_pool(x: 1x4x4x2xi32) -> pool(x, np.max, (2, 2), (1, 1), (1, 0, 0, 1))

func.func @conv(%x: tensor<2x9x9x3xf32>, %w: tensor<3x3x3x4xf32>) -> tensor<2x9x9x4xf32> {
  %0 = google.conv2d %x, %w {strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, padding = array<i64: 1, 1, 1, 1>, groups = 1 : i64} : tensor<2x9x9x3xf32>, tensor<3x3x3x4xf32> -> tensor<2x9x9x4xf32>
  return %0 : tensor<2x9x9x4xf32>
}
func.func @conv_strided(%x: tensor<1x10x11x4xf32>, %w: tensor<2x3x2x6xf32>) -> tensor<1x5x4x6xf32> {
  %0 = google.conv2d %x, %w {strides = array<i64: 2, 3>, dilations = array<i64: 2, 1>, padding = array<i64: 0, 1, 2, 0>, groups = 2 : i64} : tensor<1x10x11x4xf32>, tensor<2x3x2x6xf32> -> tensor<1x5x4x6xf32>
  return %0 : tensor<1x5x4x6xf32>
}
func.func @depthwise(%x: tensor<3x6x6x4xbf16>, %w: tensor<3x3x1x8xbf16>) -> tensor<3x6x6x8xbf16> {
  %0 = google.conv2d %x, %w {strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, padding = array<i64: 1, 1, 1, 1>, groups = 4 : i64} : tensor<3x6x6x4xbf16>, tensor<3x3x1x8xbf16> -> tensor<3x6x6x8xbf16>
  return %0 : tensor<3x6x6x8xbf16>
}
func.func @conv_dynamic(%x: tensor<?x5x5x2xf64>, %w: tensor<1x1x2x3xf64>) -> tensor<?x5x5x3xf64> {
  %0 = google.conv2d %x, %w {strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, padding = array<i64: 0, 0, 0, 0>, groups = 1 : i64} : tensor<?x5x5x2xf64>, tensor<1x1x2x3xf64> -> tensor<?x5x5x3xf64>
  return %0 : tensor<?x5x5x3xf64>
}
func.func @pools(%x: tensor<2x7x8x3xf32>) -> (tensor<2x4x4x3xf32>, tensor<2x4x4x3xf32>) {
  %0 = google.max_pool2d %x {window = array<i64: 2, 2>, strides = array<i64: 2, 2>, padding = array<i64: 0, 1, 0, 0>} : tensor<2x7x8x3xf32> -> tensor<2x4x4x3xf32>
  %1 = google.avg_pool2d %x {window = array<i64: 3, 3>, strides = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>} : tensor<2x7x8x3xf32> -> tensor<2x4x4x3xf32>
  return %0, %1 : tensor<2x4x4x3xf32>, tensor<2x4x4x3xf32>
}
func.func @int_pool(%x: tensor<1x4x4x2xi32>) -> tensor<1x4x4x2xi32> {
  %0 = google.max_pool2d %x {window = array<i64: 2, 2>, strides = array<i64: 1, 1>, padding = array<i64: 1, 0, 0, 1>} : tensor<1x4x4x2xi32> -> tensor<1x4x4x2xi32>
  return %0 : tensor<1x4x4x2xi32>
}
