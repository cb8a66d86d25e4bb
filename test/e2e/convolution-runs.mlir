// RUN: %python %e2e run %s google-run | FileCheck %s
// CHECK: e2e: 5 cases match numpy
// Window copies built run by run (kw*C contiguous elements, at least 256:
// convolutions with many channels, as a filter's gradient has with the
// batch as its channels): padding, strides, a dilated height, a dynamic
// batch (empty too), and runs that start at every column of the input.

// E2E: @runs(x: 2x6x6x128xf32, w: 3x3x128x4xf32) -> conv(x, w, (1, 1), (1, 1), (1, 1, 1, 1), 1)
// E2E: @strided(x: 1x9x8x96xf32, w: 3x3x96x5xf32) -> conv(x, w, (2, 2), (2, 1), (1, 0, 0, 2), 1)
// E2E: @dynamic(x: 3x5x5x300xf32, w: 2x1x300x2xf32) -> conv(x, w, (1, 1), (1, 1), (0, 0, 0, 0), 1)
// E2E: @dynamic(x: 1x5x5x300xf32, w: 2x1x300x2xf32) -> conv(x, w, (1, 1), (1, 1), (0, 0, 0, 0), 1)
// E2E: @dynamic(x: 0x5x5x300xf32, w: 2x1x300x2xf32) -> conv(x, w, (1, 1), (1, 1), (0, 0, 0, 0), 1)

func.func @runs(%x: tensor<2x6x6x128xf32>, %w: tensor<3x3x128x4xf32>) -> tensor<2x6x6x4xf32> {
  %0 = google.conv2d %x, %w {strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, padding = array<i64: 1, 1, 1, 1>, groups = 1 : i64} : tensor<2x6x6x128xf32>, tensor<3x3x128x4xf32> -> tensor<2x6x6x4xf32>
  return %0 : tensor<2x6x6x4xf32>
}
func.func @strided(%x: tensor<1x9x8x96xf32>, %w: tensor<3x3x96x5xf32>) -> tensor<1x3x4x5xf32> {
  %0 = google.conv2d %x, %w {strides = array<i64: 2, 2>, dilations = array<i64: 2, 1>, padding = array<i64: 1, 0, 0, 2>, groups = 1 : i64} : tensor<1x9x8x96xf32>, tensor<3x3x96x5xf32> -> tensor<1x3x4x5xf32>
  return %0 : tensor<1x3x4x5xf32>
}
func.func @dynamic(%x: tensor<?x5x5x300xf32>, %w: tensor<2x1x300x2xf32>) -> tensor<?x4x5x2xf32> {
  %0 = google.conv2d %x, %w {strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, padding = array<i64: 0, 0, 0, 0>, groups = 1 : i64} : tensor<?x5x5x300xf32>, tensor<2x1x300x2xf32> -> tensor<?x4x5x2xf32>
  return %0 : tensor<?x4x5x2xf32>
}
