// RUN: %python %e2e run %s google-run | FileCheck %s
// CHECK: e2e: 7 cases match numpy

// E2E: @add_sub_mul(x: 4x8xi32, y: 8xi32) -> (x + y) * y - x
// E2E: @max_min(x: 3x4xi64, y: 4xi64) -> (np.maximum(x, y), np.minimum(x, y))
// E2E: @unary(x: 10xi32) -> np.abs(-relu(x))
// E2E: @matmul(a: 3x5xi32, b: 5x2xi32) -> a @ b
// E2E: @layout(x: 2x3xi64) -> x.T.reshape(6)
// E2E: @reduce(x: 4x5xi32) -> (x.sum(axis=0), x.max(axis=1))
// E2E: @constant(x: 3xi32) -> x + np.array([1, -2, 3], np.int32)

func.func @add_sub_mul(%x: tensor<4x8xi32>, %y: tensor<8xi32>) -> tensor<4x8xi32> {
  %0 = google.add %x, %y : tensor<4x8xi32>, tensor<8xi32> -> tensor<4x8xi32>
  %1 = google.mul %0, %y : tensor<4x8xi32>, tensor<8xi32> -> tensor<4x8xi32>
  %2 = google.sub %1, %x : tensor<4x8xi32>, tensor<4x8xi32> -> tensor<4x8xi32>
  return %2 : tensor<4x8xi32>
}
func.func @max_min(%x: tensor<3x4xi64>, %y: tensor<4xi64>) -> (tensor<3x4xi64>, tensor<3x4xi64>) {
  %0 = google.max %x, %y : tensor<3x4xi64>, tensor<4xi64> -> tensor<3x4xi64>
  %1 = google.min %x, %y : tensor<3x4xi64>, tensor<4xi64> -> tensor<3x4xi64>
  return %0, %1 : tensor<3x4xi64>, tensor<3x4xi64>
}
func.func @unary(%x: tensor<10xi32>) -> tensor<10xi32> {
  %0 = google.relu %x : tensor<10xi32>
  %1 = google.neg %0 : tensor<10xi32>
  %2 = google.abs %1 : tensor<10xi32>
  return %2 : tensor<10xi32>
}
func.func @matmul(%a: tensor<3x5xi32>, %b: tensor<5x2xi32>) -> tensor<3x2xi32> {
  %0 = google.matmul %a, %b : tensor<3x5xi32>, tensor<5x2xi32> -> tensor<3x2xi32>
  return %0 : tensor<3x2xi32>
}
func.func @layout(%x: tensor<2x3xi64>) -> tensor<6xi64> {
  %0 = google.transpose %x {perm = array<i64: 1, 0>} : tensor<2x3xi64> -> tensor<3x2xi64>
  %1 = google.reshape %0 : tensor<3x2xi64> -> tensor<6xi64>
  return %1 : tensor<6xi64>
}
func.func @reduce(%x: tensor<4x5xi32>) -> (tensor<5xi32>, tensor<4xi32>) {
  %0 = google.reduce_sum %x {axes = array<i64: 0>, keep_dims = false} : tensor<4x5xi32> -> tensor<5xi32>
  %1 = google.reduce_max %x {axes = array<i64: 1>, keep_dims = false} : tensor<4x5xi32> -> tensor<4xi32>
  return %0, %1 : tensor<5xi32>, tensor<4xi32>
}
func.func @constant(%x: tensor<3xi32>) -> tensor<3xi32> {
  %c = google.constant dense<[1, -2, 3]> : tensor<3xi32>
  %0 = google.add %x, %c : tensor<3xi32>, tensor<3xi32> -> tensor<3xi32>
  return %0 : tensor<3xi32>
}
