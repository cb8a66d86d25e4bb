// f32 convolutions with output rows of at least 16 positions, which the
// CPU computes row by row without a window copy (per-row matmuls of the
// shifted input rows, the row loop on threads): padding, a channel count
// and a filter count that are not multiples of a vector, strides (strided
// input rows) and dilations, a dynamic batch (including 0), one input
// channel, and a bias + relu after the convolution; at 1 and 3 threads.
// Narrower outputs keep the im2col copy (convolution.mlir).
// RUN: %python %e2e run %s google-run | FileCheck %s
// RUN: env GOOGLE_MLIR_NUM_THREADS=1 GOOGLE_E2E_OPT_LEVELS=3 %python %e2e run %s google-run | FileCheck %s
// RUN: env GOOGLE_MLIR_NUM_THREADS=3 GOOGLE_E2E_OPT_LEVELS=3 %python %e2e run %s google-run | FileCheck %s
// CHECK: e2e: 7 cases match numpy

// E2E: @wide(x: 2x5x20x3xf32, w: 3x3x3x5xf32) -> conv(x, w, (1, 1), (1, 1), (1, 1, 1, 1), 1)
// E2E: @strided(x: 1x9x40x4xf32, w: 2x3x4x17xf32) -> conv(x, w, (2, 2), (2, 1), (0, 1, 2, 0), 1)
// E2E: @dilated_columns(x: 2x6x36x8xf32, w: 3x3x8x32xf32) -> conv(x, w, (1, 1), (1, 3), (1, 1, 3, 3), 1)
// E2E: @dynamic_batch(x: 3x4x18x8xf32, w: 3x3x8x16xf32) -> conv(x, w, (1, 1), (1, 1), (1, 1, 1, 1), 1)
// E2E: @dynamic_batch(x: 0x4x18x8xf32, w: 3x3x8x16xf32) -> conv(x, w, (1, 1), (1, 1), (1, 1, 1, 1), 1)
// E2E: @one_channel(x: 1x16x16x1xf32, w: 5x5x1x8xf32) -> conv(x, w, (1, 1), (1, 1), (2, 2, 2, 2), 1)
// E2E: @conv_bias_relu(x: 2x8x24x16xf32, w: 3x3x16x64xf32, b: 64xf32) -> np.maximum(conv(x, w, (1, 1), (1, 1), (1, 1, 1, 1), 1) + b, 0)

func.func @wide(%x: tensor<2x5x20x3xf32>, %w: tensor<3x3x3x5xf32>) -> tensor<2x5x20x5xf32> {
  %0 = google.conv2d %x, %w {strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, padding = array<i64: 1, 1, 1, 1>, groups = 1 : i64} : tensor<2x5x20x3xf32>, tensor<3x3x3x5xf32> -> tensor<2x5x20x5xf32>
  return %0 : tensor<2x5x20x5xf32>
}
func.func @strided(%x: tensor<1x9x40x4xf32>, %w: tensor<2x3x4x17xf32>) -> tensor<1x4x20x17xf32> {
  %0 = google.conv2d %x, %w {strides = array<i64: 2, 2>, dilations = array<i64: 2, 1>, padding = array<i64: 0, 1, 2, 0>, groups = 1 : i64} : tensor<1x9x40x4xf32>, tensor<2x3x4x17xf32> -> tensor<1x4x20x17xf32>
  return %0 : tensor<1x4x20x17xf32>
}
func.func @dilated_columns(%x: tensor<2x6x36x8xf32>, %w: tensor<3x3x8x32xf32>) -> tensor<2x6x36x32xf32> {
  %0 = google.conv2d %x, %w {strides = array<i64: 1, 1>, dilations = array<i64: 1, 3>, padding = array<i64: 1, 1, 3, 3>, groups = 1 : i64} : tensor<2x6x36x8xf32>, tensor<3x3x8x32xf32> -> tensor<2x6x36x32xf32>
  return %0 : tensor<2x6x36x32xf32>
}
func.func @dynamic_batch(%x: tensor<?x4x18x8xf32>, %w: tensor<3x3x8x16xf32>) -> tensor<?x4x18x16xf32> {
  %0 = google.conv2d %x, %w {strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, padding = array<i64: 1, 1, 1, 1>, groups = 1 : i64} : tensor<?x4x18x8xf32>, tensor<3x3x8x16xf32> -> tensor<?x4x18x16xf32>
  return %0 : tensor<?x4x18x16xf32>
}
func.func @one_channel(%x: tensor<1x16x16x1xf32>, %w: tensor<5x5x1x8xf32>) -> tensor<1x16x16x8xf32> {
  %0 = google.conv2d %x, %w {strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, padding = array<i64: 2, 2, 2, 2>, groups = 1 : i64} : tensor<1x16x16x1xf32>, tensor<5x5x1x8xf32> -> tensor<1x16x16x8xf32>
  return %0 : tensor<1x16x16x8xf32>
}
func.func @conv_bias_relu(%x: tensor<2x8x24x16xf32>, %w: tensor<3x3x16x64xf32>, %b: tensor<64xf32>) -> tensor<2x8x24x64xf32> {
  %0 = google.conv2d %x, %w {strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, padding = array<i64: 1, 1, 1, 1>, groups = 1 : i64} : tensor<2x8x24x16xf32>, tensor<3x3x16x64xf32> -> tensor<2x8x24x64xf32>
  %1 = google.add %0, %b : tensor<2x8x24x64xf32>, tensor<64xf32> -> tensor<2x8x24x64xf32>
  %2 = google.relu %1 : tensor<2x8x24x64xf32>
  return %2 : tensor<2x8x24x64xf32>
}
