// RUN: %python %e2e run %s google-run | FileCheck %s
// CHECK: e2e: 11 cases match numpy

// E2E: @relu(x: 4x8xf32) -> relu(x)
// E2E: @neg(x: 7xf32) -> -x
// E2E: @abs(x: 2x3xf32) -> np.abs(x)
// E2E: @exp(x: 16xf32) -> np.exp(x)
// E2E: @log(x: 16xf32[0.01:10]) -> np.log(x)
// E2E: @tanh(x: 3x5xf32[-5:5]) -> np.tanh(x)
// E2E: @sigmoid(x: 3x5xf32[-20:20]) -> sigmoid(x)
// E2E: @sqrt(x: 9xf32[0:100]) -> np.sqrt(x)
// E2E: @erf(x: 3x17xf32[-4:4]) -> erf(x)
// E2E: @matmul_erf(a: 100x70xf32[-0.2:0.2], b: 70x96xf32) -> erf(a @ b)
// E2E: @erf_narrow(x: 16xf16[-3:3], y: 16xbf16[-3:3]) -> erf(x), erf(y)

func.func @relu(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = google.relu %x : tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}
func.func @neg(%x: tensor<7xf32>) -> tensor<7xf32> {
  %0 = google.neg %x : tensor<7xf32>
  return %0 : tensor<7xf32>
}
func.func @abs(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = google.abs %x : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
func.func @exp(%x: tensor<16xf32>) -> tensor<16xf32> {
  %0 = google.exp %x : tensor<16xf32>
  return %0 : tensor<16xf32>
}
func.func @log(%x: tensor<16xf32>) -> tensor<16xf32> {
  %0 = google.log %x : tensor<16xf32>
  return %0 : tensor<16xf32>
}
func.func @tanh(%x: tensor<3x5xf32>) -> tensor<3x5xf32> {
  %0 = google.tanh %x : tensor<3x5xf32>
  return %0 : tensor<3x5xf32>
}
func.func @sigmoid(%x: tensor<3x5xf32>) -> tensor<3x5xf32> {
  %0 = google.sigmoid %x : tensor<3x5xf32>
  return %0 : tensor<3x5xf32>
}
func.func @sqrt(%x: tensor<9xf32>) -> tensor<9xf32> {
  %0 = google.sqrt %x : tensor<9xf32>
  return %0 : tensor<9xf32>
}
func.func @erf(%x: tensor<3x17xf32>) -> tensor<3x17xf32> {
  %0 = google.erf %x : tensor<3x17xf32>
  return %0 : tensor<3x17xf32>
}
func.func @erf_narrow(%x: tensor<16xf16>, %y: tensor<16xbf16>) -> (tensor<16xf16>, tensor<16xbf16>) {
  %0 = google.erf %x : tensor<16xf16>
  %1 = google.erf %y : tensor<16xbf16>
  return %0, %1 : tensor<16xf16>, tensor<16xbf16>
}
// The matmul's vectorized epilogue (found by the differential tester).
func.func @matmul_erf(%a: tensor<100x?xf32>, %b: tensor<?x96xf32>) -> tensor<100x96xf32> {
  %0 = google.matmul %a, %b : tensor<100x?xf32>, tensor<?x96xf32> -> tensor<100x96xf32>
  %1 = google.erf %0 : tensor<100x96xf32>
  return %1 : tensor<100x96xf32>
}
