// RUN: %python %e2e run %s google-run | FileCheck %s
// CHECK: e2e: 5 cases match numpy

// E2E: @add(x: 4x8xf16, y: 8xf16) -> x + y
// E2E: @math(x: 16xf16[0.1:3]) -> np.sqrt(np.exp(np.tanh(np.log(x))))
// E2E: @matmul(a: 4x8xf16[-1:1], b: 8x3xf16[-1:1]) -> a @ b
// E2E: @reduce(x: 3x8xf16) -> x.sum(axis=1)
// E2E: @softmax(x: 3x8xf16) -> softmax(x)

func.func @add(%x: tensor<4x8xf16>, %y: tensor<8xf16>) -> tensor<4x8xf16> {
  %0 = google.add %x, %y : tensor<4x8xf16>, tensor<8xf16> -> tensor<4x8xf16>
  return %0 : tensor<4x8xf16>
}
func.func @math(%x: tensor<16xf16>) -> tensor<16xf16> {
  %0 = google.log %x : tensor<16xf16>
  %1 = google.tanh %0 : tensor<16xf16>
  %2 = google.exp %1 : tensor<16xf16>
  %3 = google.sqrt %2 : tensor<16xf16>
  return %3 : tensor<16xf16>
}
func.func @matmul(%a: tensor<4x8xf16>, %b: tensor<8x3xf16>) -> tensor<4x3xf16> {
  %0 = google.matmul %a, %b : tensor<4x8xf16>, tensor<8x3xf16> -> tensor<4x3xf16>
  return %0 : tensor<4x3xf16>
}
func.func @reduce(%x: tensor<3x8xf16>) -> tensor<3xf16> {
  %0 = google.reduce_sum %x {axes = array<i64: 1>, keep_dims = false} : tensor<3x8xf16> -> tensor<3xf16>
  return %0 : tensor<3xf16>
}
func.func @softmax(%x: tensor<3x8xf16>) -> tensor<3x8xf16> {
  %0 = google.softmax %x {axis = 1 : i64} : tensor<3x8xf16>
  return %0 : tensor<3x8xf16>
}
