// RUN: google-opt %s -split-input-file -google-cse | FileCheck %s

// CHECK-LABEL: func @duplicates
// CHECK-SAME: (%[[X:.*]]: tensor<4x8xf32>, %[[W:.*]]: tensor<8x8xf32>)
// CHECK-NEXT: %[[R:.*]] = google.relu %[[X]]
// CHECK-NEXT: %[[M:.*]] = google.matmul %[[R]], %[[W]]
// CHECK-NEXT: %[[A:.*]] = google.add %[[M]], %[[M]]
// CHECK-NEXT: return %[[A]]
func.func @duplicates(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>) -> tensor<4x8xf32> {
  %0 = google.relu %x : tensor<4x8xf32>
  %1 = google.relu %x : tensor<4x8xf32>
  %2 = google.matmul %0, %w : tensor<4x8xf32>, tensor<8x8xf32> -> tensor<4x8xf32>
  %3 = google.matmul %1, %w : tensor<4x8xf32>, tensor<8x8xf32> -> tensor<4x8xf32>
  %4 = google.add %2, %3 : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  return %4 : tensor<4x8xf32>
}

// -----

// CHECK-LABEL: func @constants
// CHECK-COUNT-1: google.constant
// CHECK-NOT: google.constant
func.func @constants() -> (tensor<2xf32>, tensor<2xf32>) {
  %0 = google.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %1 = google.constant dense<[1.0, 2.0]> : tensor<2xf32>
  return %0, %1 : tensor<2xf32>, tensor<2xf32>
}

// -----

// Different attributes: both reductions stay.
// CHECK-LABEL: func @negative_different_attributes
// CHECK: google.reduce_sum %{{.*}} {axes = array<i64: 0>
// CHECK: google.reduce_sum %{{.*}} {axes = array<i64: 1>
func.func @negative_different_attributes(%x: tensor<4x4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %0 = google.reduce_sum %x {axes = array<i64: 0>, keep_dims = false} : tensor<4x4xf32> -> tensor<4xf32>
  %1 = google.reduce_sum %x {axes = array<i64: 1>, keep_dims = false} : tensor<4x4xf32> -> tensor<4xf32>
  return %0, %1 : tensor<4xf32>, tensor<4xf32>
}

// -----

// Different operand order: sub is not commutative.
// CHECK-LABEL: func @negative_different_operands
// CHECK-COUNT-2: google.sub
func.func @negative_different_operands(%a: tensor<4xf32>, %b: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %0 = google.sub %a, %b : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  %1 = google.sub %b, %a : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  return %0, %1 : tensor<4xf32>, tensor<4xf32>
}

// -----

// Different result types (a refined and a dynamic one) are different values.
// CHECK-LABEL: func @negative_different_result_types
// CHECK-COUNT-2: google.add
func.func @negative_different_result_types(%a: tensor<?xf32>, %b: tensor<4xf32>) -> (tensor<4xf32>, tensor<?xf32>) {
  %0 = google.add %a, %b : tensor<?xf32>, tensor<4xf32> -> tensor<4xf32>
  %1 = google.add %a, %b : tensor<?xf32>, tensor<4xf32> -> tensor<?xf32>
  return %0, %1 : tensor<4xf32>, tensor<?xf32>
}

// -----

// Duplicates in separate functions are separate.
// CHECK-LABEL: func @first
// CHECK: google.exp
// CHECK-LABEL: func @second
// CHECK: google.exp
func.func @first(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = google.exp %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func @second(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = google.exp %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}
