// RUN: %python %e2e run %s google-run | FileCheck %s
// CHECK: e2e: 6 cases match numpy

// E2E: @div(x: 4x8xf64, y: 8xf64[1:2]) -> x / y
// E2E: @matmul(a: 5x6xf64, b: 6x7xf64) -> a @ b
// E2E: @mean(x: 4x9xf64) -> x.mean(axis=0)
// E2E: @softmax(x: 2x5xf64) -> softmax(x)
// E2E: @erf(x: 33xf64[-6:6]) -> erf(x)
// E2E: @matmul_erf(a: 9x20xf64[-0.2:0.2], b: 20x40xf64) -> erf(a @ b)

func.func @div(%x: tensor<4x8xf64>, %y: tensor<8xf64>) -> tensor<4x8xf64> {
  %0 = google.div %x, %y : tensor<4x8xf64>, tensor<8xf64> -> tensor<4x8xf64>
  return %0 : tensor<4x8xf64>
}
func.func @matmul(%a: tensor<5x6xf64>, %b: tensor<6x7xf64>) -> tensor<5x7xf64> {
  %0 = google.matmul %a, %b : tensor<5x6xf64>, tensor<6x7xf64> -> tensor<5x7xf64>
  return %0 : tensor<5x7xf64>
}
func.func @mean(%x: tensor<4x9xf64>) -> tensor<9xf64> {
  %0 = google.reduce_mean %x {axes = array<i64: 0>, keep_dims = false} : tensor<4x9xf64> -> tensor<9xf64>
  return %0 : tensor<9xf64>
}
func.func @softmax(%x: tensor<2x5xf64>) -> tensor<2x5xf64> {
  %0 = google.softmax %x {axis = 1 : i64} : tensor<2x5xf64>
  return %0 : tensor<2x5xf64>
}
func.func @erf(%x: tensor<33xf64>) -> tensor<33xf64> {
  %0 = google.erf %x : tensor<33xf64>
  return %0 : tensor<33xf64>
}
// f64 erf calls the C library (no polynomial), after a matmul too.
func.func @matmul_erf(%a: tensor<9x20xf64>, %b: tensor<20x40xf64>) -> tensor<9x40xf64> {
  %0 = google.matmul %a, %b : tensor<9x20xf64>, tensor<20x40xf64> -> tensor<9x40xf64>
  %1 = google.erf %0 : tensor<9x40xf64>
  return %1 : tensor<9x40xf64>
}
