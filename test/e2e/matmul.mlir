// RUN: %python %e2e run %s google-run | FileCheck %s
// CHECK: e2e: 4 cases match numpy

// E2E: @matmul(a: 16x32xf32, b: 32x8xf32) -> a @ b
// E2E: @matmul_rect(a: 1x7xf32, b: 7x13xf32) -> a @ b
// E2E: @batch_matmul(a: 3x4x5xf32, b: 3x5x6xf32) -> a @ b
// E2E: @fused(a: 8x16xf32, b: 16x12xf32, bias: 12xf32) -> relu(a @ b + bias)

func.func @matmul(%a: tensor<16x32xf32>, %b: tensor<32x8xf32>) -> tensor<16x8xf32> {
  %0 = google.matmul %a, %b : tensor<16x32xf32>, tensor<32x8xf32> -> tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
}
func.func @matmul_rect(%a: tensor<1x7xf32>, %b: tensor<7x13xf32>) -> tensor<1x13xf32> {
  %0 = google.matmul %a, %b : tensor<1x7xf32>, tensor<7x13xf32> -> tensor<1x13xf32>
  return %0 : tensor<1x13xf32>
}
func.func @batch_matmul(%a: tensor<3x4x5xf32>, %b: tensor<3x5x6xf32>) -> tensor<3x4x6xf32> {
  %0 = google.matmul %a, %b : tensor<3x4x5xf32>, tensor<3x5x6xf32> -> tensor<3x4x6xf32>
  return %0 : tensor<3x4x6xf32>
}
func.func @fused(%a: tensor<8x16xf32>, %b: tensor<16x12xf32>, %bias: tensor<12xf32>) -> tensor<8x12xf32> {
  %0 = google.matmul_bias_relu %a, %b, %bias : tensor<8x16xf32>, tensor<16x12xf32>, tensor<12xf32> -> tensor<8x12xf32>
  return %0 : tensor<8x12xf32>
}
