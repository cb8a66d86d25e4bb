// RUN: google-opt %s -split-input-file -canonicalize | FileCheck %s
// The ops' folds: cheap identities only, no evaluation of tensors.

// The additive identity of floats is -0: x + -0 is x for every x.
// CHECK-LABEL: func @add_zero
// CHECK-SAME: (%[[X:.*]]: tensor<4x8xf32>, %[[I:.*]]: tensor<4xi32>)
// CHECK-NEXT: return %[[X]], %[[X]], %[[I]]
func.func @add_zero(%x: tensor<4x8xf32>, %i: tensor<4xi32>) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4xi32>) {
  %zero = google.constant dense<-0.0> : tensor<8xf32>
  %0 = google.add %x, %zero : tensor<4x8xf32>, tensor<8xf32> -> tensor<4x8xf32>
  %1 = google.add %zero, %x : tensor<8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %izero = google.constant dense<0> : tensor<i32>
  %2 = google.add %izero, %i : tensor<i32>, tensor<4xi32> -> tensor<4xi32>
  return %0, %1, %2 : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4xi32>
}

// -----

// x + +0 is +0 for x = -0 (IEEE, SPEC section 2), and x - -0 is x + +0:
// neither is x.
// CHECK-LABEL: func @negative_add_positive_zero
// CHECK: google.add
// CHECK: google.add
// CHECK: google.sub
func.func @negative_add_positive_zero(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %zero = google.constant dense<0.0> : tensor<4xf32>
  %0 = google.add %x, %zero : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  %1 = google.add %zero, %x : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  %minus = google.constant dense<-0.0> : tensor<4xf32>
  %2 = google.sub %x, %minus : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  return %0, %1, %2 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
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

// A dynamic extent of x must equal the constant's 5 (a run-time check):
// x / 1 and x * 1 stay. Against size-1 or static extents they fold.
// CHECK-LABEL: func @negative_identity_checks_dynamic_extent
// CHECK-SAME: (%[[X:.*]]: tensor<2x?x5xf16>)
// CHECK: %[[D:.*]] = google.div %[[X]]
// CHECK: %[[M:.*]] = google.mul
// CHECK: return %[[D]], %[[M]], %[[X]]
func.func @negative_identity_checks_dynamic_extent(%x: tensor<2x?x5xf16>) -> (tensor<2x?x5xf16>, tensor<2x?x5xf16>, tensor<2x?x5xf16>) {
  %one = google.constant dense<1.0> : tensor<2x5x1xf16>
  %0 = google.div %x, %one : tensor<2x?x5xf16>, tensor<2x5x1xf16> -> tensor<2x?x5xf16>
  %1 = google.mul %one, %x : tensor<2x5x1xf16>, tensor<2x?x5xf16> -> tensor<2x?x5xf16>
  %ones = google.constant dense<1.0> : tensor<2x1x5xf16>
  %2 = google.mul %x, %ones : tensor<2x?x5xf16>, tensor<2x1x5xf16> -> tensor<2x?x5xf16>
  return %0, %1, %2 : tensor<2x?x5xf16>, tensor<2x?x5xf16>, tensor<2x?x5xf16>
}

// -----

// x + -0 broadcasts x to a bigger shape here, so it must stay.
// CHECK-LABEL: func @negative_add_zero_broadcasts
// CHECK: google.add
func.func @negative_add_zero_broadcasts(%x: tensor<8xf32>) -> tensor<4x8xf32> {
  %zero = google.constant dense<-0.0> : tensor<4x8xf32>
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

// -----

// A dynamic intermediate hides a size that only the run-time check of the
// outer reshape compares: skipping the inner reshape would give an invalid
// 8 -> 2x3 reshape (canonicalize once failed to verify here).
// CHECK-LABEL: func @negative_reshape_reshape_dynamic_intermediate
// CHECK-SAME: (%[[X:.*]]: tensor<8xf32>)
// CHECK: %[[A:.*]] = google.reshape %[[X]] : tensor<8xf32> -> tensor<?xf32>
// CHECK: google.reshape %[[A]] : tensor<?xf32> -> tensor<2x3xf32>
func.func @negative_reshape_reshape_dynamic_intermediate(%x: tensor<8xf32>) -> tensor<2x3xf32> {
  %0 = google.reshape %x : tensor<8xf32> -> tensor<?xf32>
  %1 = google.reshape %0 : tensor<?xf32> -> tensor<2x3xf32>
  return %1 : tensor<2x3xf32>
}

// -----

// The inner reshape's own run-time check (6 elements into ?x4) would be
// lost: keep it.
// CHECK-LABEL: func @negative_reshape_reshape_inner_check
// CHECK: google.reshape %{{.*}} : tensor<?x6xf32> -> tensor<?x4xf32>
// CHECK: google.reshape %{{.*}} : tensor<?x4xf32> -> tensor<?xf32>
func.func @negative_reshape_reshape_inner_check(%x: tensor<?x6xf32>) -> tensor<?xf32> {
  %0 = google.reshape %x : tensor<?x6xf32> -> tensor<?x4xf32>
  %1 = google.reshape %0 : tensor<?x4xf32> -> tensor<?xf32>
  return %1 : tensor<?xf32>
}

// -----

// Here the inner reshape cannot fail (a multiple of 8 always splits into
// ?x4), so it goes.
// CHECK-LABEL: func @reshape_reshape_dynamic
// CHECK-SAME: (%[[X:.*]]: tensor<?x8xf32>)
// CHECK-NEXT: %[[R:.*]] = google.reshape %[[X]] : tensor<?x8xf32> -> tensor<?x2xf32>
// CHECK-NEXT: return %[[R]]
func.func @reshape_reshape_dynamic(%x: tensor<?x8xf32>) -> tensor<?x2xf32> {
  %0 = google.reshape %x : tensor<?x8xf32> -> tensor<?x4xf32>
  %1 = google.reshape %0 : tensor<?x4xf32> -> tensor<?x2xf32>
  return %1 : tensor<?x2xf32>
}

// -----

// A transposed intermediate that claims a static extent of a dynamic
// source carries a run-time check; composing would drop it.
// CHECK-LABEL: func @negative_transpose_transpose_refining_intermediate
// CHECK: google.transpose %{{.*}} : tensor<?x4xf32> -> tensor<4x2xf32>
// CHECK: google.transpose %{{.*}} : tensor<4x2xf32> -> tensor<?x4xf32>
func.func @negative_transpose_transpose_refining_intermediate(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %0 = google.transpose %x {perm = array<i64: 1, 0>} : tensor<?x4xf32> -> tensor<4x2xf32>
  %1 = google.transpose %0 {perm = array<i64: 1, 0>} : tensor<4x2xf32> -> tensor<?x4xf32>
  return %1 : tensor<?x4xf32>
}

// -----

// A dynamic intermediate whose outer result contradicts the source: the
// composition would be invalid (canonicalize once failed to verify here).
// CHECK-LABEL: func @negative_transpose_transpose_contradiction
// CHECK-COUNT-2: google.transpose
func.func @negative_transpose_transpose_contradiction(%x: tensor<2x3xf32>) -> tensor<3x2xf32> {
  %0 = google.transpose %x {perm = array<i64: 1, 0>} : tensor<2x3xf32> -> tensor<?x?xf32>
  %1 = google.transpose %0 {perm = array<i64: 1, 0>} : tensor<?x?xf32> -> tensor<3x2xf32>
  return %1 : tensor<3x2xf32>
}

// -----

// A dynamic intermediate that only relaxes the source's extents composes.
// CHECK-LABEL: func @transpose_transpose_relaxed_intermediate
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32>)
// CHECK-NEXT: return %[[X]]
func.func @transpose_transpose_relaxed_intermediate(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = google.transpose %x {perm = array<i64: 1, 0>} : tensor<2x3xf32> -> tensor<?x?xf32>
  %1 = google.transpose %0 {perm = array<i64: 1, 0>} : tensor<?x?xf32> -> tensor<2x3xf32>
  return %1 : tensor<2x3xf32>
}

// -----

// x < x and x > x are false for every x, NaN included; integers also equal
// themselves. A float may not (NaN), and a dynamic shape has no constant.
// CHECK-LABEL: func @self_comparison
// CHECK-DAG: %[[FALSE:.*]] = google.constant dense<false> : tensor<4x8xi1>
// CHECK-DAG: %[[TRUE:.*]] = google.constant dense<true> : tensor<4xi1>
// CHECK-DAG: %[[IFALSE:.*]] = google.constant dense<false> : tensor<4xi1>
// CHECK-DAG: %[[EQ:.*]] = google.eq %{{.*}}, %{{.*}} : tensor<4x8xf32>
// CHECK-DAG: %[[NE:.*]] = google.ne %{{.*}}, %{{.*}} : tensor<4x8xf32>
// CHECK-DAG: %[[LE:.*]] = google.le %{{.*}}, %{{.*}} : tensor<4x8xf32>
// CHECK-DAG: %[[DYN:.*]] = google.lt %{{.*}}, %{{.*}} : tensor<?xf32>
// CHECK: return %[[FALSE]], %[[FALSE]], %[[EQ]], %[[NE]], %[[LE]], %[[TRUE]], %[[TRUE]], %[[IFALSE]], %[[IFALSE]], %[[DYN]]
func.func @self_comparison(%x: tensor<4x8xf32>, %i: tensor<4xi32>, %d: tensor<?xf32>) -> (tensor<4x8xi1>, tensor<4x8xi1>, tensor<4x8xi1>, tensor<4x8xi1>, tensor<4x8xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<?xi1>) {
  %0 = google.lt %x, %x : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xi1>
  %1 = google.gt %x, %x : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xi1>
  %2 = google.eq %x, %x : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xi1>
  %3 = google.ne %x, %x : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xi1>
  %4 = google.le %x, %x : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xi1>
  %5 = google.eq %i, %i : tensor<4xi32>, tensor<4xi32> -> tensor<4xi1>
  %6 = google.ge %i, %i : tensor<4xi32>, tensor<4xi32> -> tensor<4xi1>
  %7 = google.ne %i, %i : tensor<4xi32>, tensor<4xi32> -> tensor<4xi1>
  %8 = google.lt %i, %i : tensor<4xi32>, tensor<4xi32> -> tensor<4xi1>
  %9 = google.lt %d, %d : tensor<?xf32>, tensor<?xf32> -> tensor<?xi1>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9 : tensor<4x8xi1>, tensor<4x8xi1>, tensor<4x8xi1>, tensor<4x8xi1>, tensor<4x8xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<?xi1>
}

// -----

// Folded, the comparison would leave x unused, and the run-time checks of
// what computes x would go with it: x from an add that checks a dynamic
// extent (8 at run time, or the call fails), from a gather (an index out
// of range fails the call). x from ops that cannot fail still folds.
// CHECK-LABEL: func @self_comparison_keeps_checks
// CHECK-DAG: %[[FALSE:.*]] = google.constant dense<false> : tensor<4x8xi1>
// CHECK-DAG: %[[ADD:.*]] = google.add %arg0, %arg1 : tensor<4x?xi32>, tensor<4x8xi32> -> tensor<4x8xi32>
// CHECK-DAG: %[[LT:.*]] = google.lt %[[ADD]], %[[ADD]]
// CHECK-DAG: %[[GATHER:.*]] = google.gather
// CHECK-DAG: %[[GT:.*]] = google.gt %[[GATHER]], %[[GATHER]]
// CHECK: return %[[LT]], %[[GT]], %[[FALSE]]
func.func @self_comparison_keeps_checks(%d: tensor<4x?xi32>, %s: tensor<4x8xi32>, %idx: tensor<4xi64>) -> (tensor<4x8xi1>, tensor<4x8xi1>, tensor<4x8xi1>) {
  %0 = google.add %d, %s : tensor<4x?xi32>, tensor<4x8xi32> -> tensor<4x8xi32>
  %1 = google.lt %0, %0 : tensor<4x8xi32>, tensor<4x8xi32> -> tensor<4x8xi1>
  %2 = google.gather %s, %idx {axis = 0 : i64} : tensor<4x8xi32>, tensor<4xi64> -> tensor<4x8xi32>
  %3 = google.gt %2, %2 : tensor<4x8xi32>, tensor<4x8xi32> -> tensor<4x8xi1>
  %4 = google.mul %s, %s : tensor<4x8xi32>, tensor<4x8xi32> -> tensor<4x8xi32>
  %5 = google.lt %4, %4 : tensor<4x8xi32>, tensor<4x8xi32> -> tensor<4x8xi1>
  return %1, %3, %5 : tensor<4x8xi1>, tensor<4x8xi1>, tensor<4x8xi1>
}
