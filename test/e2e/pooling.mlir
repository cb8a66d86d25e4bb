// RUN: %python %e2e run %s google-run | FileCheck %s
// CHECK: e2e: 5 cases match numpy
// Poolings of f32 and f64 in vector tiles (one output row, a tile of
// columns and channels at a time): the CNN's 2x2 windows, overlapping
// and padded windows over a dynamic batch with channels that no vector
// tile divides evenly, windows with gaps between them, and rows of
// columns cut into several tiles.

// E2E: @cnn_pools(x: 64x8x8x8xf32) -> (pool(x, np.max, (2, 2), (2, 2), (0, 0, 0, 0)), pool(x, np.mean, (2, 2), (2, 2), (0, 0, 0, 0)))
// E2E: @overlapping(x: 3x9x7x70xf32) -> (pool(x, np.max, (3, 3), (2, 2), (1, 1, 1, 1)), pool(x, np.mean, (3, 3), (2, 2), (1, 1, 1, 1)))
// E2E: @overlapping(x: 1x9x7x70xf32) -> (pool(x, np.max, (3, 3), (2, 2), (1, 1, 1, 1)), pool(x, np.mean, (3, 3), (2, 2), (1, 1, 1, 1)))
// E2E: @gaps_f64(x: 2x6x11x5xf64) -> (pool(x, np.max, (2, 2), (3, 4), (0, 0, 0, 1)), pool(x, np.mean, (1, 2), (3, 4), (0, 0, 0, 1)))
// E2E: @long_rows(x: 2x5x29x3xf32) -> (pool(x, np.max, (2, 2), (1, 1), (0, 0, 0, 0)), pool(x, np.mean, (3, 1), (1, 1), (0, 0, 0, 0)))

func.func @cnn_pools(%x: tensor<64x8x8x8xf32>) -> (tensor<64x4x4x8xf32>, tensor<64x4x4x8xf32>) {
  %0 = google.max_pool2d %x {window = array<i64: 2, 2>, strides = array<i64: 2, 2>, padding = array<i64: 0, 0, 0, 0>} : tensor<64x8x8x8xf32> -> tensor<64x4x4x8xf32>
  %1 = google.avg_pool2d %x {window = array<i64: 2, 2>, strides = array<i64: 2, 2>, padding = array<i64: 0, 0, 0, 0>} : tensor<64x8x8x8xf32> -> tensor<64x4x4x8xf32>
  return %0, %1 : tensor<64x4x4x8xf32>, tensor<64x4x4x8xf32>
}
func.func @overlapping(%x: tensor<?x9x7x70xf32>) -> (tensor<?x5x4x70xf32>, tensor<?x5x4x70xf32>) {
  %0 = google.max_pool2d %x {window = array<i64: 3, 3>, strides = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>} : tensor<?x9x7x70xf32> -> tensor<?x5x4x70xf32>
  %1 = google.avg_pool2d %x {window = array<i64: 3, 3>, strides = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>} : tensor<?x9x7x70xf32> -> tensor<?x5x4x70xf32>
  return %0, %1 : tensor<?x5x4x70xf32>, tensor<?x5x4x70xf32>
}
func.func @gaps_f64(%x: tensor<2x6x11x5xf64>) -> (tensor<2x2x3x5xf64>, tensor<2x2x3x5xf64>) {
  %0 = google.max_pool2d %x {window = array<i64: 2, 2>, strides = array<i64: 3, 4>, padding = array<i64: 0, 0, 0, 1>} : tensor<2x6x11x5xf64> -> tensor<2x2x3x5xf64>
  %1 = google.avg_pool2d %x {window = array<i64: 1, 2>, strides = array<i64: 3, 4>, padding = array<i64: 0, 0, 0, 1>} : tensor<2x6x11x5xf64> -> tensor<2x2x3x5xf64>
  return %0, %1 : tensor<2x2x3x5xf64>, tensor<2x2x3x5xf64>
}
func.func @long_rows(%x: tensor<2x5x29x3xf32>) -> (tensor<2x4x28x3xf32>, tensor<2x3x29x3xf32>) {
  %0 = google.max_pool2d %x {window = array<i64: 2, 2>, strides = array<i64: 1, 1>, padding = array<i64: 0, 0, 0, 0>} : tensor<2x5x29x3xf32> -> tensor<2x4x28x3xf32>
  %1 = google.avg_pool2d %x {window = array<i64: 3, 1>, strides = array<i64: 1, 1>, padding = array<i64: 0, 0, 0, 0>} : tensor<2x5x29x3xf32> -> tensor<2x3x29x3xf32>
  return %0, %1 : tensor<2x4x28x3xf32>, tensor<2x3x29x3xf32>
}
