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
  %zero = google.constant dense<0.0> : tensor<64xf32>
  %0 = google.add %x, %zero : tensor<64xf32>, tensor<64xf32> -> tensor<64xf32>
  return %0 : tensor<64xf32>
}
