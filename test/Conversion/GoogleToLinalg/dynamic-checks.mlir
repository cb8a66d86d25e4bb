// RUN: google-opt %s -split-input-file -convert-google-to-linalg | FileCheck %s
// Dynamic extents that must agree are checked at run time.

// CHECK-LABEL: func @add_both_dynamic
// CHECK-SAME: (%[[A:.*]]: tensor<?x8xf32>, %[[B:.*]]: tensor<?x8xf32>)
// CHECK-DAG: %[[DA:.*]] = tensor.dim %[[A]], %{{.*}}
// CHECK-DAG: %[[DB:.*]] = tensor.dim %[[B]], %{{.*}}
// CHECK: %[[EQ:.*]] = arith.cmpi eq, %[[DB]], %[[DA]] : index
// CHECK: cf.assert %[[EQ]], "google.add: dimension 0 of operand #1 does not match the result (dynamic dimensions are not broadcast)"
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
// CHECK: cf.assert %{{.*}}, "google.matmul: lhs and rhs contracting dimensions differ"
// CHECK: cf.assert %{{.*}}, "google.matmul: lhs and rhs batch dimensions differ"
// CHECK: linalg.batch_matmul
func.func @matmul_dynamic_k(%a: tensor<?x4x?xf32>, %b: tensor<?x?x5xf32>) -> tensor<?x4x5xf32> {
  %0 = google.matmul %a, %b : tensor<?x4x?xf32>, tensor<?x?x5xf32> -> tensor<?x4x5xf32>
  return %0 : tensor<?x4x5xf32>
}

// -----

// CHECK-LABEL: func @fused_dynamic_bias
// CHECK: cf.assert %{{.*}}, "google.matmul_bias_relu: bias length differs from N"
func.func @fused_dynamic_bias(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %c: tensor<?xf32>) -> tensor<4x16xf32> {
  %0 = google.matmul_bias_relu %a, %b, %c : tensor<4x8xf32>, tensor<8x16xf32>, tensor<?xf32> -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}

// -----

// CHECK-LABEL: func @reshape_checks
// CHECK: arith.remui
// CHECK: cf.assert %{{.*}}, "google.reshape: element count is not a multiple of the static result dimensions"
// CHECK: cf.assert %{{.*}}, "google.reshape: element count differs from the result's"
func.func @reshape_checks(%a: tensor<?x6xf32>, %b: tensor<?x4xf32>) -> (tensor<?x4xf32>, tensor<2x8xf32>) {
  %0 = google.reshape %a : tensor<?x6xf32> -> tensor<?x4xf32>
  %1 = google.reshape %b : tensor<?x4xf32> -> tensor<2x8xf32>
  return %0, %1 : tensor<?x4xf32>, tensor<2x8xf32>
}
