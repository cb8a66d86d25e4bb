// RUN: google-opt %s -split-input-file -google-swap-matmul-transposes | FileCheck %s

// The weight gradient of x @ w.T, as reverse-mode autodiff gives it:
// (x.T @ dy).T becomes dy.T @ x (x's transpose cancels; dy's, 64x256, is
// smaller than the two that go).
// CHECK-LABEL: func @weight_gradient
// CHECK-SAME: (%[[X:.*]]: tensor<64x784xf32>, %[[DY:.*]]: tensor<64x256xf32>)
// CHECK-NEXT: %[[DYT:.*]] = google.transpose %[[DY]] {perm = array<i64: 1, 0>} : tensor<64x256xf32> -> tensor<256x64xf32>
// CHECK-NEXT: %[[M:.*]] = google.matmul %[[DYT]], %[[X]] : tensor<256x64xf32>, tensor<64x784xf32> -> tensor<256x784xf32>
// CHECK-NEXT: return %[[M]]
func.func @weight_gradient(%x: tensor<64x784xf32>, %dy: tensor<64x256xf32>) -> tensor<256x784xf32> {
  %xt = google.transpose %x {perm = array<i64: 1, 0>} : tensor<64x784xf32> -> tensor<784x64xf32>
  %m = google.matmul %xt, %dy : tensor<784x64xf32>, tensor<64x256xf32> -> tensor<784x256xf32>
  %t = google.transpose %m {perm = array<i64: 1, 0>} : tensor<784x256xf32> -> tensor<256x784xf32>
  return %t : tensor<256x784xf32>
}

// -----

// Both operands transposed (batched; dynamic rows of A^T): no transpose
// left.
// CHECK-LABEL: func @both
// CHECK-SAME: (%[[A:.*]]: tensor<2x8x?xf16>, %[[B:.*]]: tensor<2x6x8xf16>)
// CHECK-NEXT: %[[M:.*]] = google.matmul %[[B]], %[[A]] : tensor<2x6x8xf16>, tensor<2x8x?xf16> -> tensor<2x6x?xf16>
// CHECK-NEXT: return %[[M]]
func.func @both(%a: tensor<2x8x?xf16>, %b: tensor<2x6x8xf16>) -> tensor<2x6x?xf16> {
  %at = google.transpose %a {perm = array<i64: 0, 2, 1>} : tensor<2x8x?xf16> -> tensor<2x?x8xf16>
  %bt = google.transpose %b {perm = array<i64: 0, 2, 1>} : tensor<2x6x8xf16> -> tensor<2x8x6xf16>
  %m = google.matmul %at, %bt : tensor<2x?x8xf16>, tensor<2x8x6xf16> -> tensor<2x?x6xf16>
  %t = google.transpose %m {perm = array<i64: 0, 2, 1>} : tensor<2x?x6xf16> -> tensor<2x6x?xf16>
  return %t : tensor<2x6x?xf16>
}

// -----

// B transposed: (a @ w.T).T = w @ a.T.
// CHECK-LABEL: func @rhs
// CHECK-SAME: (%[[A:.*]]: tensor<16x8xf32>, %[[W:.*]]: tensor<32x8xf32>)
// CHECK-NEXT: %[[AT:.*]] = google.transpose %[[A]] {perm = array<i64: 1, 0>} : tensor<16x8xf32> -> tensor<8x16xf32>
// CHECK-NEXT: %[[M:.*]] = google.matmul %[[W]], %[[AT]] : tensor<32x8xf32>, tensor<8x16xf32> -> tensor<32x16xf32>
// CHECK-NEXT: return %[[M]]
func.func @rhs(%a: tensor<16x8xf32>, %w: tensor<32x8xf32>) -> tensor<32x16xf32> {
  %wt = google.transpose %w {perm = array<i64: 1, 0>} : tensor<32x8xf32> -> tensor<8x32xf32>
  %m = google.matmul %a, %wt : tensor<16x8xf32>, tensor<8x32xf32> -> tensor<16x32xf32>
  %t = google.transpose %m {perm = array<i64: 1, 0>} : tensor<16x32xf32> -> tensor<32x16xf32>
  return %t : tensor<32x16xf32>
}

// -----

// Left alone: no operand transposed; the product read elsewhere; another
// permutation; a new transpose larger than those that go (a is 4x4096, the
// result 8x4, and w.T stays for its other user); one operand transposed
// with dynamic shapes; a dynamic batch or K, whose run-time checks would
// name the operands the other way round.
// CHECK-LABEL: func @plain
// CHECK: google.matmul %{{.*}}, %{{.*}} : tensor<4x8xf32>, tensor<8x16xf32>
// CHECK: google.transpose
// CHECK-LABEL: func @also_read
// CHECK: google.transpose %{{.*}} : tensor<8x4xf32> -> tensor<4x8xf32>
// CHECK: google.matmul
// CHECK: google.transpose %{{.*}} : tensor<4x16xf32> -> tensor<16x4xf32>
// CHECK-LABEL: func @batch_swap
// CHECK: google.matmul
// CHECK: google.transpose %{{.*}} {perm = array<i64: 1, 0, 2>}
// CHECK-LABEL: func @larger
// CHECK: google.matmul %{{.*}}, %{{.*}} : tensor<4x4096xf32>, tensor<4096x8xf32>
// CHECK: google.transpose
// CHECK-LABEL: func @dynamic_one
// CHECK: google.matmul %{{.*}}, %{{.*}} : tensor<?x8xf32>, tensor<8x16xf32>
// CHECK: google.transpose
// CHECK-LABEL: func @dynamic_batch
// CHECK: google.matmul %{{.*}}, %{{.*}} : tensor<?x4x8xf32>, tensor<?x8x6xf32>
// CHECK: google.transpose
// CHECK-LABEL: func @dynamic_k
// CHECK: google.matmul %{{.*}}, %{{.*}} : tensor<4x?xf32>, tensor<?x6xf32>
// CHECK: google.transpose
func.func @plain(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>) -> tensor<16x4xf32> {
  %m = google.matmul %a, %b : tensor<4x8xf32>, tensor<8x16xf32> -> tensor<4x16xf32>
  %t = google.transpose %m {perm = array<i64: 1, 0>} : tensor<4x16xf32> -> tensor<16x4xf32>
  return %t : tensor<16x4xf32>
}
func.func @also_read(%a: tensor<8x4xf32>, %b: tensor<8x16xf32>) -> (tensor<16x4xf32>, tensor<4x16xf32>) {
  %at = google.transpose %a {perm = array<i64: 1, 0>} : tensor<8x4xf32> -> tensor<4x8xf32>
  %m = google.matmul %at, %b : tensor<4x8xf32>, tensor<8x16xf32> -> tensor<4x16xf32>
  %t = google.transpose %m {perm = array<i64: 1, 0>} : tensor<4x16xf32> -> tensor<16x4xf32>
  return %t, %m : tensor<16x4xf32>, tensor<4x16xf32>
}
func.func @batch_swap(%a: tensor<2x4x8xf32>, %b: tensor<2x8x16xf32>) -> tensor<4x2x16xf32> {
  %at = google.transpose %a {perm = array<i64: 0, 2, 1>} : tensor<2x4x8xf32> -> tensor<2x8x4xf32>
  %bt = google.transpose %b {perm = array<i64: 0, 1, 2>} : tensor<2x8x16xf32> -> tensor<2x8x16xf32>
  %m = google.matmul %a, %b : tensor<2x4x8xf32>, tensor<2x8x16xf32> -> tensor<2x4x16xf32>
  %t = google.transpose %m {perm = array<i64: 1, 0, 2>} : tensor<2x4x16xf32> -> tensor<4x2x16xf32>
  return %t : tensor<4x2x16xf32>
}
func.func @larger(%a: tensor<4x4096xf32>, %w: tensor<8x4096xf32>) -> (tensor<8x4xf32>, tensor<4096x8xf32>) {
  %wt = google.transpose %w {perm = array<i64: 1, 0>} : tensor<8x4096xf32> -> tensor<4096x8xf32>
  %m = google.matmul %a, %wt : tensor<4x4096xf32>, tensor<4096x8xf32> -> tensor<4x8xf32>
  %t = google.transpose %m {perm = array<i64: 1, 0>} : tensor<4x8xf32> -> tensor<8x4xf32>
  return %t, %wt : tensor<8x4xf32>, tensor<4096x8xf32>
}
func.func @dynamic_one(%a: tensor<?x8xf32>, %w: tensor<16x8xf32>) -> tensor<16x?xf32> {
  %wt = google.transpose %w {perm = array<i64: 1, 0>} : tensor<16x8xf32> -> tensor<8x16xf32>
  %m = google.matmul %a, %wt : tensor<?x8xf32>, tensor<8x16xf32> -> tensor<?x16xf32>
  %t = google.transpose %m {perm = array<i64: 1, 0>} : tensor<?x16xf32> -> tensor<16x?xf32>
  return %t : tensor<16x?xf32>
}
func.func @dynamic_batch(%a: tensor<?x8x4xf32>, %b: tensor<?x6x8xf32>) -> tensor<?x6x4xf32> {
  %at = google.transpose %a {perm = array<i64: 0, 2, 1>} : tensor<?x8x4xf32> -> tensor<?x4x8xf32>
  %bt = google.transpose %b {perm = array<i64: 0, 2, 1>} : tensor<?x6x8xf32> -> tensor<?x8x6xf32>
  %m = google.matmul %at, %bt : tensor<?x4x8xf32>, tensor<?x8x6xf32> -> tensor<?x4x6xf32>
  %t = google.transpose %m {perm = array<i64: 0, 2, 1>} : tensor<?x4x6xf32> -> tensor<?x6x4xf32>
  return %t : tensor<?x6x4xf32>
}
func.func @dynamic_k(%a: tensor<?x4xf32>, %b: tensor<6x?xf32>) -> tensor<6x4xf32> {
  %at = google.transpose %a {perm = array<i64: 1, 0>} : tensor<?x4xf32> -> tensor<4x?xf32>
  %bt = google.transpose %b {perm = array<i64: 1, 0>} : tensor<6x?xf32> -> tensor<?x6xf32>
  %m = google.matmul %at, %bt : tensor<4x?xf32>, tensor<?x6xf32> -> tensor<4x6xf32>
  %t = google.transpose %m {perm = array<i64: 1, 0>} : tensor<4x6xf32> -> tensor<6x4xf32>
  return %t : tensor<6x4xf32>
}
