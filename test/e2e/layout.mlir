// RUN: %python %e2e run %s google-run | FileCheck %s
// CHECK: e2e: 6 cases match numpy

// E2E: @transpose2d(x: 3x5xf32) -> x.T
// E2E: @transpose3d(x: 2x3x4xi32) -> np.transpose(x, (2, 0, 1))
// E2E: @reshape_general(x: 4x6xf32) -> x.reshape(3, 8)
// E2E: @reshape_dynamic(x: 5x8xf32) -> x.reshape(5, 2, 4)
// E2E: @reshape_dynamic(x: 2x8xf32) -> x.reshape(2, 2, 4)
// E2E: @reshape_to_scalar(x: 1x1xf64) -> x.reshape(())

func.func @transpose2d(%x: tensor<3x5xf32>) -> tensor<5x3xf32> {
  %0 = google.transpose %x {perm = array<i64: 1, 0>} : tensor<3x5xf32> -> tensor<5x3xf32>
  return %0 : tensor<5x3xf32>
}
func.func @transpose3d(%x: tensor<2x3x4xi32>) -> tensor<4x2x3xi32> {
  %0 = google.transpose %x {perm = array<i64: 2, 0, 1>} : tensor<2x3x4xi32> -> tensor<4x2x3xi32>
  return %0 : tensor<4x2x3xi32>
}
func.func @reshape_general(%x: tensor<4x6xf32>) -> tensor<3x8xf32> {
  %0 = google.reshape %x : tensor<4x6xf32> -> tensor<3x8xf32>
  return %0 : tensor<3x8xf32>
}
func.func @reshape_dynamic(%x: tensor<?x8xf32>) -> tensor<?x2x4xf32> {
  %0 = google.reshape %x : tensor<?x8xf32> -> tensor<?x2x4xf32>
  return %0 : tensor<?x2x4xf32>
}
func.func @reshape_to_scalar(%x: tensor<1x1xf64>) -> tensor<f64> {
  %0 = google.reshape %x : tensor<1x1xf64> -> tensor<f64>
  return %0 : tensor<f64>
}
