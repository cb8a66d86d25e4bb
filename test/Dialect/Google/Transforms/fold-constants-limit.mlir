// RUN: google-opt %s -split-input-file -google-fold-constants="max-elements=4" | FileCheck %s
// The element limit keeps big constants from being evaluated.

// CHECK-LABEL: func @small_folds
// CHECK-NOT: google.add
func.func @small_folds() -> tensor<4xf32> {
  %a = google.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %0 = google.add %a, %a : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Five elements exceed max-elements=4.
// CHECK-LABEL: func @negative_too_large
// CHECK: google.add
func.func @negative_too_large() -> tensor<5xf32> {
  %a = google.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0]> : tensor<5xf32>
  %0 = google.add %a, %a : tensor<5xf32>, tensor<5xf32> -> tensor<5xf32>
  return %0 : tensor<5xf32>
}

// -----

// A large operand blocks evaluation even when the result is small.
// CHECK-LABEL: func @negative_large_operand
// CHECK: google.reduce_sum
func.func @negative_large_operand() -> tensor<f32> {
  %a = google.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]> : tensor<6xf32>
  %0 = google.reduce_sum %a {axes = array<i64: 0>, keep_dims = false} : tensor<6xf32> -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

// Identities still apply to big tensors.
// CHECK-LABEL: func @identity_on_large
// CHECK-SAME: (%[[X:.*]]: tensor<64xf32>)
// CHECK-NEXT: return %[[X]]
func.func @identity_on_large(%x: tensor<64xf32>) -> tensor<64xf32> {
  %zero = google.constant dense<-0.0> : tensor<64xf32>
  %0 = google.add %x, %zero : tensor<64xf32>, tensor<64xf32> -> tensor<64xf32>
  return %0 : tensor<64xf32>
}

// -----

// A reduction expands a splat operand: its real size counts (2^32 elements
// once ran out of memory here).
// CHECK-LABEL: func @negative_reduce_huge_splat
// CHECK: google.reduce_sum
func.func @negative_reduce_huge_splat() -> tensor<65536xf32> {
  %a = google.constant dense<1.0> : tensor<65536x65536xf32>
  %0 = google.reduce_sum %a {axes = array<i64: 1>, keep_dims = false} : tensor<65536x65536xf32> -> tensor<65536xf32>
  return %0 : tensor<65536xf32>
}

// -----

// An elementwise op reads a splat as one element: a small splat operand of a
// big result folds while the result fits.
// CHECK-LABEL: func @splat_operand_of_small_result
// CHECK-NEXT: google.constant dense<[2.000000e+00, 3.000000e+00]> : tensor<2xf32>
func.func @splat_operand_of_small_result() -> tensor<2xf32> {
  %a = google.constant dense<1.0> : tensor<2xf32>
  %b = google.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %0 = google.add %a, %b : tensor<2xf32>, tensor<2xf32> -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
