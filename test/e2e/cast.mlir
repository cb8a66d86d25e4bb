// RUN: %python %e2e run %s google-run | FileCheck %s
// CHECK: e2e: 5 cases match numpy

// E2E: @f32_to_f16(x: 4x8xf32) -> x.astype(np.float16)
// E2E: @f32_to_i32(x: 12xf32[-50:50]) -> x.astype(np.int32)
// E2E: @i32_to_f64(x: 3x4xi32) -> x.astype(np.float64)
// E2E: @i64_to_i32(x: 6xi64) -> x.astype(np.int32)
// E2E: @f16_to_bf16_to_f32(x: 5xf16) -> bf16(x)

func.func @f32_to_f16(%x: tensor<4x8xf32>) -> tensor<4x8xf16> {
  %0 = google.cast %x : tensor<4x8xf32> -> tensor<4x8xf16>
  return %0 : tensor<4x8xf16>
}
// Float to int truncates toward zero.
func.func @f32_to_i32(%x: tensor<12xf32>) -> tensor<12xi32> {
  %0 = google.cast %x : tensor<12xf32> -> tensor<12xi32>
  return %0 : tensor<12xi32>
}
func.func @i32_to_f64(%x: tensor<3x4xi32>) -> tensor<3x4xf64> {
  %0 = google.cast %x : tensor<3x4xi32> -> tensor<3x4xf64>
  return %0 : tensor<3x4xf64>
}
func.func @i64_to_i32(%x: tensor<6xi64>) -> tensor<6xi32> {
  %0 = google.cast %x : tensor<6xi64> -> tensor<6xi32>
  return %0 : tensor<6xi32>
}
func.func @f16_to_bf16_to_f32(%x: tensor<5xf16>) -> tensor<5xf32> {
  %0 = google.cast %x : tensor<5xf16> -> tensor<5xbf16>
  %1 = google.cast %0 : tensor<5xbf16> -> tensor<5xf32>
  return %1 : tensor<5xf32>
}
