// RUN: google-opt %s -split-input-file -convert-google-to-linalg | FileCheck %s

// The dynamic batch extent comes from the operand that has it.
// CHECK-LABEL: func @add_dynamic_batch
// CHECK-SAME: (%[[A:.*]]: tensor<?x8xf32>, %[[B:.*]]: tensor<8xf32>)
// CHECK: %[[C0:.*]] = arith.constant 0 : index
// CHECK: %[[D:.*]] = tensor.dim %[[A]], %[[C0]] : tensor<?x8xf32>
// CHECK: %[[E:.*]] = tensor.empty(%[[D]]) : tensor<?x8xf32>
// CHECK: linalg.generic
// CHECK-SAME: ins(%[[A]], %[[B]] : tensor<?x8xf32>, tensor<8xf32>) outs(%[[E]] : tensor<?x8xf32>)
func.func @add_dynamic_batch(%a: tensor<?x8xf32>, %b: tensor<8xf32>) -> tensor<?x8xf32> {
  %0 = google.add %a, %b : tensor<?x8xf32>, tensor<8xf32> -> tensor<?x8xf32>
  return %0 : tensor<?x8xf32>
}

// -----

// The second operand provides the dynamic extent when the first stretches.
// CHECK-LABEL: func @mul_dynamic_from_rhs
// CHECK-SAME: (%[[A:.*]]: tensor<1x8xf32>, %[[B:.*]]: tensor<?x8xf32>)
// CHECK: %[[D:.*]] = tensor.dim %[[B]], %{{.*}} : tensor<?x8xf32>
// CHECK: tensor.empty(%[[D]]) : tensor<?x8xf32>
func.func @mul_dynamic_from_rhs(%a: tensor<1x8xf32>, %b: tensor<?x8xf32>) -> tensor<?x8xf32> {
  %0 = google.mul %a, %b : tensor<1x8xf32>, tensor<?x8xf32> -> tensor<?x8xf32>
  return %0 : tensor<?x8xf32>
}

// -----

// All dimensions dynamic.
// CHECK-LABEL: func @relu_all_dynamic
// CHECK: %[[D0:.*]] = tensor.dim %{{.*}}, %{{.*}} : tensor<?x?xf32>
// CHECK: %[[D1:.*]] = tensor.dim %{{.*}}, %{{.*}} : tensor<?x?xf32>
// CHECK: tensor.empty(%[[D0]], %[[D1]]) : tensor<?x?xf32>
// CHECK: arith.maximumf
func.func @relu_all_dynamic(%a: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %0 = google.relu %a : tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

// A static result refines dynamic operands: each is checked at run time,
// then cast, so the generic sees static shapes only.
// CHECK-LABEL: func @static_result_of_dynamic
// CHECK-SAME: (%[[A:.*]]: tensor<?xf32>, %[[B:.*]]: tensor<?xf32>)
// CHECK: cf.assert %{{.*}}, "google.add: dimension 0 of operand #0 is {0}, expected {1} (dynamic dimensions are not broadcast)"
// CHECK: cf.assert %{{.*}}, "google.add: dimension 0 of operand #1 is {0}, expected {1} (dynamic dimensions are not broadcast)"
// CHECK-DAG: %[[CA:.*]] = tensor.cast %[[A]] : tensor<?xf32> to tensor<4xf32>
// CHECK-DAG: %[[CB:.*]] = tensor.cast %[[B]] : tensor<?xf32> to tensor<4xf32>
// CHECK: ins(%[[CA]], %[[CB]] : tensor<4xf32>, tensor<4xf32>) outs(%{{.*}} : tensor<4xf32>)
func.func @static_result_of_dynamic(%a: tensor<?xf32>, %b: tensor<?xf32>) -> tensor<4xf32> {
  %0 = google.add %a, %b : tensor<?xf32>, tensor<?xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// A static extent of one operand refines the other's dynamic one, even
// when the declared result leaves it dynamic.
// CHECK-LABEL: func @static_operand_refines
// CHECK-SAME: (%[[A:.*]]: tensor<?x8xf32>, %[[B:.*]]: tensor<4x8xf32>)
// CHECK: cf.assert %{{.*}}, "google.sub: dimension 0 of operand #0 is {0}, expected {1} (dynamic dimensions are not broadcast)"
// CHECK: %[[CA:.*]] = tensor.cast %[[A]] : tensor<?x8xf32> to tensor<4x8xf32>
// CHECK: %[[R:.*]] = linalg.generic {{.*}} ins(%[[CA]], %[[B]] : tensor<4x8xf32>, tensor<4x8xf32>)
// CHECK: %[[RELAXED:.*]] = tensor.cast %[[R]] : tensor<4x8xf32> to tensor<?x8xf32>
// CHECK: return %[[RELAXED]]
func.func @static_operand_refines(%a: tensor<?x8xf32>, %b: tensor<4x8xf32>) -> tensor<?x8xf32> {
  %0 = google.sub %a, %b : tensor<?x8xf32>, tensor<4x8xf32> -> tensor<?x8xf32>
  return %0 : tensor<?x8xf32>
}
