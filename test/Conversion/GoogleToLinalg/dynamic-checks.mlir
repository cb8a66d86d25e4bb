// RUN: google-opt %s -split-input-file -convert-google-to-linalg | FileCheck %s
// Dynamic extents that must agree are checked at run time, on the values
// the extents come from (the arguments here), before anything runs. The
// runtime writes the two extents where messages say {0} and {1}.

// CHECK-LABEL: func @add_both_dynamic
// CHECK-SAME: (%[[A:.*]]: tensor<?x8xf32>, %[[B:.*]]: tensor<?x8xf32>)
// CHECK-DAG: %[[DA:.*]] = tensor.dim %[[A]], %{{.*}}
// CHECK-DAG: %[[DB:.*]] = tensor.dim %[[B]], %{{.*}}
// CHECK: %[[EQ:.*]] = arith.cmpi eq, %[[DB]], %[[DA]] : index
// CHECK: cf.assert %[[EQ]], "google.add: dimension 0 of operand #1 is {0}, expected {1} like the other operand (dynamic dimensions are not broadcast)"
// CHECK: linalg.generic
func.func @add_both_dynamic(%a: tensor<?x8xf32>, %b: tensor<?x8xf32>) -> tensor<?x8xf32> {
  %0 = google.add %a, %b : tensor<?x8xf32>, tensor<?x8xf32> -> tensor<?x8xf32>
  return %0 : tensor<?x8xf32>
}

// -----

// Static against static needs no check; a static 1 stretches.
// CHECK-LABEL: func @negative_static
// CHECK-NOT: cf.assert
func.func @negative_static(%a: tensor<4x8xf32>, %b: tensor<1x8xf32>, %c: tensor<?x8xf32>) -> (tensor<4x8xf32>, tensor<?x8xf32>) {
  %0 = google.add %a, %b : tensor<4x8xf32>, tensor<1x8xf32> -> tensor<4x8xf32>
  %1 = google.mul %c, %b : tensor<?x8xf32>, tensor<1x8xf32> -> tensor<?x8xf32>
  return %0, %1 : tensor<4x8xf32>, tensor<?x8xf32>
}

// -----

// CHECK-LABEL: func @matmul_dynamic_k
// CHECK: cf.assert %{{.*}}, "google.matmul: the contracting dimension of rhs is {0}, expected {1} like lhs's"
// CHECK: cf.assert %{{.*}}, "google.matmul: the batch dimension of rhs is {0}, expected {1} like lhs's"
// CHECK: linalg.batch_matmul
func.func @matmul_dynamic_k(%a: tensor<?x4x?xf32>, %b: tensor<?x?x5xf32>) -> tensor<?x4x5xf32> {
  %0 = google.matmul %a, %b : tensor<?x4x?xf32>, tensor<?x?x5xf32> -> tensor<?x4x5xf32>
  return %0 : tensor<?x4x5xf32>
}

// -----

// A static result extent is checked against the dynamic operand extent
// that produces it, so the product never writes past a static result.
// CHECK-LABEL: func @matmul_static_result_of_dynamic
// CHECK-SAME: (%[[A:.*]]: tensor<?x4xf32>, %[[B:.*]]: tensor<4x8xf32>)
// CHECK: cf.assert %{{.*}}, "google.matmul: dimension 0 of lhs is {0}, expected {1}"
// CHECK: %[[RA:.*]] = tensor.cast %[[A]] : tensor<?x4xf32> to tensor<2x4xf32>
// CHECK: linalg.matmul ins(%[[RA]], %[[B]] : tensor<2x4xf32>, tensor<4x8xf32>) outs(%{{.*}} : tensor<2x8xf32>)
func.func @matmul_static_result_of_dynamic(%a: tensor<?x4xf32>, %b: tensor<4x8xf32>) -> tensor<2x8xf32> {
  %0 = google.matmul %a, %b : tensor<?x4xf32>, tensor<4x8xf32> -> tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}

// -----

// A static K on one side refines the other.
// CHECK-LABEL: func @matmul_static_k_refines
// CHECK-SAME: (%[[A:.*]]: tensor<3x?xf32>, %[[B:.*]]: tensor<4x5xf32>)
// CHECK: cf.assert %{{.*}}, "google.matmul: dimension 1 of lhs is {0}, expected {1}"
// CHECK: tensor.cast %[[A]] : tensor<3x?xf32> to tensor<3x4xf32>
func.func @matmul_static_k_refines(%a: tensor<3x?xf32>, %b: tensor<4x5xf32>) -> tensor<3x5xf32> {
  %0 = google.matmul %a, %b : tensor<3x?xf32>, tensor<4x5xf32> -> tensor<3x5xf32>
  return %0 : tensor<3x5xf32>
}

// -----

// CHECK-LABEL: func @fused_dynamic_bias
// CHECK: cf.assert %{{.*}}, "google.matmul_bias_relu: the bias has {0} elements, expected N = {1}"
func.func @fused_dynamic_bias(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %c: tensor<?xf32>) -> tensor<4x16xf32> {
  %0 = google.matmul_bias_relu %a, %b, %c : tensor<4x8xf32>, tensor<8x16xf32>, tensor<?xf32> -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}

// -----

// CHECK-LABEL: func @reshape_checks
// CHECK: arith.remui
// CHECK: cf.assert %{{.*}}, "google.reshape: the element count is not a multiple of 4 (the result's static extents): the remainder is {0}"
// CHECK: cf.assert %{{.*}}, "google.reshape: the input has {0} elements, expected {1}"
func.func @reshape_checks(%a: tensor<?x6xf32>, %b: tensor<?x4xf32>) -> (tensor<?x4xf32>, tensor<2x8xf32>) {
  %0 = google.reshape %a : tensor<?x6xf32> -> tensor<?x4xf32>
  %1 = google.reshape %b : tensor<?x4xf32> -> tensor<2x8xf32>
  return %0, %1 : tensor<?x4xf32>, tensor<2x8xf32>
}

// -----

// A static transposed result refines the input (this once failed to
// verify).
// CHECK-LABEL: func @transpose_static_result_of_dynamic
// CHECK-SAME: (%[[X:.*]]: tensor<?x4xf32>)
// CHECK: cf.assert %{{.*}}, "google.transpose: dimension 0 of the input is {0}, expected {1}"
// CHECK: %[[C:.*]] = tensor.cast %[[X]] : tensor<?x4xf32> to tensor<2x4xf32>
// CHECK: linalg.transpose ins(%[[C]] : tensor<2x4xf32>) outs(%{{.*}} : tensor<4x2xf32>)
func.func @transpose_static_result_of_dynamic(%x: tensor<?x4xf32>) -> tensor<4x2xf32> {
  %0 = google.transpose %x {perm = array<i64: 1, 0>} : tensor<?x4xf32> -> tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}

// -----

// CHECK-LABEL: func @cast_static_result_of_dynamic
// CHECK: cf.assert %{{.*}}, "google.cast: dimension 0 of operand #0 is {0}, expected {1} (dynamic dimensions are not broadcast)"
// CHECK: tensor.cast %{{.*}} : tensor<?xf32> to tensor<3xf32>
func.func @cast_static_result_of_dynamic(%x: tensor<?xf32>) -> tensor<3xf16> {
  %0 = google.cast %x : tensor<?xf32> -> tensor<3xf16>
  return %0 : tensor<3xf16>
}
