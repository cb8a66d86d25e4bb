// Dynamic shapes: one compiled function, several input sizes.
// RUN: %python %e2e run %s google-run | FileCheck %s
// CHECK: e2e: 9 cases match numpy

// E2E: @add_bias(x: 3x8xf32, b: 8xf32) -> x + b
// E2E: @add_bias(x: 1x8xf32, b: 8xf32) -> x + b
// E2E: @add_bias(x: 17x8xf32, b: 8xf32) -> x + b
// E2E: @all_dynamic(x: 2x5xf32, y: 2x5xf32) -> np.maximum(np.exp(x), y)
// E2E: @all_dynamic(x: 6x1xf32, y: 6x1xf32) -> np.maximum(np.exp(x), y)
// E2E: @matmul_dynamic(a: 3x4xf32, b: 4x7xf32) -> a @ b
// E2E: @batch_dynamic(a: 2x3x4xf32, b: 2x4x5xf32) -> a @ b
// E2E: @transpose_dynamic(x: 4x3xf32) -> x.T
// E2E: @reduce_dynamic(x: 5x6xf32) -> (x.sum(axis=0), x.max(axis=1, keepdims=True))

func.func @add_bias(%x: tensor<?x8xf32>, %b: tensor<8xf32>) -> tensor<?x8xf32> {
  %0 = google.add %x, %b : tensor<?x8xf32>, tensor<8xf32> -> tensor<?x8xf32>
  return %0 : tensor<?x8xf32>
}
func.func @all_dynamic(%x: tensor<?x?xf32>, %y: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %0 = google.exp %x : tensor<?x?xf32>
  %1 = google.max %0, %y : tensor<?x?xf32>, tensor<?x?xf32> -> tensor<?x?xf32>
  return %1 : tensor<?x?xf32>
}
func.func @matmul_dynamic(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %0 = google.matmul %a, %b : tensor<?x?xf32>, tensor<?x?xf32> -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}
func.func @batch_dynamic(%a: tensor<?x3x4xf32>, %b: tensor<?x4x5xf32>) -> tensor<?x3x5xf32> {
  %0 = google.matmul %a, %b : tensor<?x3x4xf32>, tensor<?x4x5xf32> -> tensor<?x3x5xf32>
  return %0 : tensor<?x3x5xf32>
}
func.func @transpose_dynamic(%x: tensor<?x3xf32>) -> tensor<3x?xf32> {
  %0 = google.transpose %x {perm = array<i64: 1, 0>} : tensor<?x3xf32> -> tensor<3x?xf32>
  return %0 : tensor<3x?xf32>
}
func.func @reduce_dynamic(%x: tensor<?x?xf32>) -> (tensor<?xf32>, tensor<?x1xf32>) {
  %0 = google.reduce_sum %x {axes = array<i64: 0>, keep_dims = false} : tensor<?x?xf32> -> tensor<?xf32>
  %1 = google.reduce_max %x {axes = array<i64: 1>, keep_dims = true} : tensor<?x?xf32> -> tensor<?x1xf32>
  return %0, %1 : tensor<?xf32>, tensor<?x1xf32>
}
