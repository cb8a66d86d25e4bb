// Casts between narrow floats and integers, in both directions.
// RUN: %python %e2e run %s google-run | FileCheck %s
// CHECK: e2e: 6 cases match numpy

// E2E: @i32_to_bf16(x: 6xi32[-100:100]) -> bf16(x.astype(np.float32))
// E2E: @bf16_to_i64(x: 6xbf16[-100:100]) -> x.astype(np.int64)
// E2E: @f16_to_i32(x: 6xf16[-100:100]) -> x.astype(np.int32)
// E2E: @i64_to_f16(x: 6xi64) -> x.astype(np.float16)
// E2E: @bf16_to_f64(x: 6xbf16) -> x
// E2E: @f64_to_bf16(x: 6xf64) -> bf16(x.astype(np.float32))
func.func @i32_to_bf16(%x: tensor<6xi32>) -> tensor<6xbf16> {
  %0 = google.cast %x : tensor<6xi32> -> tensor<6xbf16>
  return %0 : tensor<6xbf16>
}
func.func @bf16_to_i64(%x: tensor<6xbf16>) -> tensor<6xi64> {
  %0 = google.cast %x : tensor<6xbf16> -> tensor<6xi64>
  return %0 : tensor<6xi64>
}
func.func @f16_to_i32(%x: tensor<6xf16>) -> tensor<6xi32> {
  %0 = google.cast %x : tensor<6xf16> -> tensor<6xi32>
  return %0 : tensor<6xi32>
}
func.func @i64_to_f16(%x: tensor<6xi64>) -> tensor<6xf16> {
  %0 = google.cast %x : tensor<6xi64> -> tensor<6xf16>
  return %0 : tensor<6xf16>
}
func.func @bf16_to_f64(%x: tensor<6xbf16>) -> tensor<6xf64> {
  %0 = google.cast %x : tensor<6xbf16> -> tensor<6xf64>
  return %0 : tensor<6xf64>
}
func.func @f64_to_bf16(%x: tensor<6xf64>) -> tensor<6xbf16> {
  %0 = google.cast %x : tensor<6xf64> -> tensor<6xbf16>
  return %0 : tensor<6xbf16>
}
