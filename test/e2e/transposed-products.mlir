// RUN: %python %e2e run %s google-run | FileCheck %s
// RUN: google-opt %s --google-extreme-pipeline --mlir-disable-threading --mlir-print-ir-after=google-swap-matmul-transposes -o /dev/null 2>&1 | FileCheck %s --check-prefix=SWAPPED
// CHECK: e2e: 5 cases match numpy
// Transposed matrix products, as reverse-mode autodiff of x @ w.T gives
// the weight gradient ((x.T @ dy).T): --google-swap-matmul-transposes
// computes them as dy.T @ x, the operands' transposes cancelling (one
// operand transposed, both, batched, f16, and a product also read as it
// is, left alone).
// SWAPPED-LABEL: func.func @weight_gradient
// SWAPPED: google.matmul %{{.*}}, %{{.*}} : tensor<40x64xf32>, tensor<64x96xf32> -> tensor<40x96xf32>
// SWAPPED-LABEL: func.func @rhs
// SWAPPED: google.matmul %{{.*}}, %{{.*}} : tensor<50x17xf32>, tensor<17x33xf32> -> tensor<50x33xf32>
// SWAPPED-LABEL: func.func @both
// SWAPPED: google.matmul %{{.*}}, %{{.*}} : tensor<3x13x24xf32>, tensor<3x24x9xf32> -> tensor<3x13x9xf32>
// SWAPPED-LABEL: func.func @f16
// SWAPPED: google.matmul %{{.*}}, %{{.*}} : tensor<96x128xf16>, tensor<128x64xf16> -> tensor<96x64xf16>
// SWAPPED-LABEL: func.func @also_read
// SWAPPED: google.matmul %{{.*}}, %{{.*}} : tensor<8x16xf32>, tensor<16x12xf32> -> tensor<8x12xf32>

// E2E: @weight_gradient(x: 64x96xf32[-1:1], dy: 64x40xf32[-1:1]) -> (x.T @ dy).T
func.func @weight_gradient(%x: tensor<64x96xf32>, %dy: tensor<64x40xf32>) -> tensor<40x96xf32> {
  %xt = google.transpose %x {perm = array<i64: 1, 0>} : tensor<64x96xf32> -> tensor<96x64xf32>
  %m = google.matmul %xt, %dy : tensor<96x64xf32>, tensor<64x40xf32> -> tensor<96x40xf32>
  %t = google.transpose %m {perm = array<i64: 1, 0>} : tensor<96x40xf32> -> tensor<40x96xf32>
  return %t : tensor<40x96xf32>
}

// E2E: @rhs(a: 33x17xf32[-1:1], w: 50x17xf32[-1:1]) -> (a @ w.T).T
func.func @rhs(%a: tensor<33x17xf32>, %w: tensor<50x17xf32>) -> tensor<50x33xf32> {
  %wt = google.transpose %w {perm = array<i64: 1, 0>} : tensor<50x17xf32> -> tensor<17x50xf32>
  %m = google.matmul %a, %wt : tensor<33x17xf32>, tensor<17x50xf32> -> tensor<33x50xf32>
  %t = google.transpose %m {perm = array<i64: 1, 0>} : tensor<33x50xf32> -> tensor<50x33xf32>
  return %t : tensor<50x33xf32>
}

// E2E: @both(a: 3x24x9xf32[-1:1], b: 3x13x24xf32[-1:1]) -> (a.transpose(0, 2, 1) @ b.transpose(0, 2, 1)).transpose(0, 2, 1)
func.func @both(%a: tensor<3x24x9xf32>, %b: tensor<3x13x24xf32>) -> tensor<3x13x9xf32> {
  %at = google.transpose %a {perm = array<i64: 0, 2, 1>} : tensor<3x24x9xf32> -> tensor<3x9x24xf32>
  %bt = google.transpose %b {perm = array<i64: 0, 2, 1>} : tensor<3x13x24xf32> -> tensor<3x24x13xf32>
  %m = google.matmul %at, %bt : tensor<3x9x24xf32>, tensor<3x24x13xf32> -> tensor<3x9x13xf32>
  %t = google.transpose %m {perm = array<i64: 0, 2, 1>} : tensor<3x9x13xf32> -> tensor<3x13x9xf32>
  return %t : tensor<3x13x9xf32>
}

// E2E: @f16(x: 128x64xf16[-1:1], dy: 128x96xf16[-1:1]) -> (x.T @ dy).T
func.func @f16(%x: tensor<128x64xf16>, %dy: tensor<128x96xf16>) -> tensor<96x64xf16> {
  %xt = google.transpose %x {perm = array<i64: 1, 0>} : tensor<128x64xf16> -> tensor<64x128xf16>
  %m = google.matmul %xt, %dy : tensor<64x128xf16>, tensor<128x96xf16> -> tensor<64x96xf16>
  %t = google.transpose %m {perm = array<i64: 1, 0>} : tensor<64x96xf16> -> tensor<96x64xf16>
  return %t : tensor<96x64xf16>
}

// E2E: @also_read(x: 16x8xf32[-1:1], dy: 16x12xf32[-1:1]) -> ((x.T @ dy).T, x.T @ dy)
func.func @also_read(%x: tensor<16x8xf32>, %dy: tensor<16x12xf32>) -> (tensor<12x8xf32>, tensor<8x12xf32>) {
  %xt = google.transpose %x {perm = array<i64: 1, 0>} : tensor<16x8xf32> -> tensor<8x16xf32>
  %m = google.matmul %xt, %dy : tensor<8x16xf32>, tensor<16x12xf32> -> tensor<8x12xf32>
  %t = google.transpose %m {perm = array<i64: 1, 0>} : tensor<8x12xf32> -> tensor<12x8xf32>
  return %t, %m : tensor<12x8xf32>, tensor<8x12xf32>
}
