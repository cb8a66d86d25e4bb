// RUN: google-opt %s -split-input-file -canonicalize | FileCheck %s
// The ops' folds: cheap identities only, no evaluation of tensors.

// CHECK-LABEL: func @add_zero
// CHECK-SAME: (%[[X:.*]]: tensor<4x8xf32>)
// CHECK-NEXT: return %[[X]], %[[X]]
func.func @add_zero(%x: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %zero = google.constant dense<0.0> : tensor<8xf32>
  %0 = google.add %x, %zero : tensor<4x8xf32>, tensor<8xf32> -> tensor<4x8xf32>
  %1 = google.add %zero, %x : tensor<8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  return %0, %1 : tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// CHECK-LABEL: func @mul_one_sub_zero_div_one
// CHECK-SAME: (%[[X:.*]]: tensor<4xi32>, %[[Y:.*]]: tensor<4xf32>)
// CHECK-NEXT: return %[[X]], %[[X]], %[[Y]]
func.func @mul_one_sub_zero_div_one(%x: tensor<4xi32>, %y: tensor<4xf32>) -> (tensor<4xi32>, tensor<4xi32>, tensor<4xf32>) {
  %one = google.constant dense<1> : tensor<4xi32>
  %zero = google.constant dense<[0, 0, 0, 0]> : tensor<4xi32>
  %fone = google.constant dense<1.0> : tensor<f32>
  %0 = google.mul %one, %x : tensor<4xi32>, tensor<4xi32> -> tensor<4xi32>
  %1 = google.sub %0, %zero : tensor<4xi32>, tensor<4xi32> -> tensor<4xi32>
  %2 = google.div %y, %fone : tensor<4xf32>, tensor<f32> -> tensor<4xf32>
  return %0, %1, %2 : tensor<4xi32>, tensor<4xi32>, tensor<4xf32>
}

// -----

// x + 0 broadcasts x to a bigger shape here, so it must stay.
// CHECK-LABEL: func @negative_add_zero_broadcasts
// CHECK: google.add
func.func @negative_add_zero_broadcasts(%x: tensor<8xf32>) -> tensor<4x8xf32> {
  %zero = google.constant dense<0.0> : tensor<4x8xf32>
  %0 = google.add %x, %zero : tensor<8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// 0 - x is not x.
// CHECK-LABEL: func @negative_zero_minus_x
// CHECK: google.sub
func.func @negative_zero_minus_x(%x: tensor<4xf32>) -> tensor<4xf32> {
  %zero = google.constant dense<0.0> : tensor<4xf32>
  %0 = google.sub %zero, %x : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Not all elements are one.
// CHECK-LABEL: func @negative_mul_not_one
// CHECK: google.mul
func.func @negative_mul_not_one(%x: tensor<2xf32>) -> tensor<2xf32> {
  %c = google.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %0 = google.mul %x, %c : tensor<2xf32>, tensor<2xf32> -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// CHECK-LABEL: func @relu_relu
// CHECK-NEXT: %[[R:.*]] = google.relu
// CHECK-NEXT: return %[[R]]
func.func @relu_relu(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = google.relu %x : tensor<4xf32>
  %1 = google.relu %0 : tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----

// CHECK-LABEL: func @transpose_transpose_identity
// CHECK-SAME: (%[[X:.*]]: tensor<4x8xf32>)
// CHECK-NEXT: return %[[X]]
func.func @transpose_transpose_identity(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = google.transpose %x {perm = array<i64: 1, 0>} : tensor<4x8xf32> -> tensor<8x4xf32>
  %1 = google.transpose %0 {perm = array<i64: 1, 0>} : tensor<8x4xf32> -> tensor<4x8xf32>
  return %1 : tensor<4x8xf32>
}

// -----

// CHECK-LABEL: func @transpose_transpose_composed
// CHECK-SAME: (%[[X:.*]]: tensor<2x3x4xf32>)
// CHECK-NEXT: %[[T:.*]] = google.transpose %[[X]] {perm = array<i64: 2, 0, 1>} : tensor<2x3x4xf32> -> tensor<4x2x3xf32>
// CHECK-NEXT: return %[[T]]
func.func @transpose_transpose_composed(%x: tensor<2x3x4xf32>) -> tensor<4x2x3xf32> {
  %0 = google.transpose %x {perm = array<i64: 1, 2, 0>} : tensor<2x3x4xf32> -> tensor<3x4x2xf32>
  %1 = google.transpose %0 {perm = array<i64: 1, 2, 0>} : tensor<3x4x2xf32> -> tensor<4x2x3xf32>
  return %1 : tensor<4x2x3xf32>
}

// -----

// CHECK-LABEL: func @reshape_reshape
// CHECK-SAME: (%[[X:.*]]: tensor<4x8xf32>)
// CHECK-NEXT: %[[R:.*]] = google.reshape %[[X]] : tensor<4x8xf32> -> tensor<2x16xf32>
// CHECK-NEXT: return %[[R]]
func.func @reshape_reshape(%x: tensor<4x8xf32>) -> tensor<2x16xf32> {
  %0 = google.reshape %x : tensor<4x8xf32> -> tensor<32xf32>
  %1 = google.reshape %0 : tensor<32xf32> -> tensor<2x16xf32>
  return %1 : tensor<2x16xf32>
}

// -----

// CHECK-LABEL: func @reshape_cast_identity
// CHECK-SAME: (%[[X:.*]]: tensor<4x8xf32>)
// CHECK-NEXT: return %[[X]], %[[X]]
func.func @reshape_cast_identity(%x: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %0 = google.reshape %x : tensor<4x8xf32> -> tensor<32xf32>
  %1 = google.reshape %0 : tensor<32xf32> -> tensor<4x8xf32>
  %2 = google.cast %x : tensor<4x8xf32> -> tensor<4x8xf32>
  return %1, %2 : tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// Canonicalization never evaluates tensors; that is --google-fold-constants.
// CHECK-LABEL: func @negative_no_evaluation
// CHECK: google.add
func.func @negative_no_evaluation() -> tensor<2xf32> {
  %a = google.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %b = google.constant dense<[3.0, 4.0]> : tensor<2xf32>
  %0 = google.add %a, %b : tensor<2xf32>, tensor<2xf32> -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
