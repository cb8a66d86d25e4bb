// RUN: google-opt %s -split-input-file -google-dce | FileCheck %s

// CHECK-LABEL: func @dead_chain
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>)
// CHECK-NEXT: %[[R:.*]] = google.relu %[[X]]
// CHECK-NEXT: return %[[R]]
func.func @dead_chain(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c = google.constant dense<1.0> : tensor<4xf32>
  %0 = google.add %x, %c : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  %1 = google.exp %0 : tensor<4xf32>
  %2 = google.relu %x : tensor<4xf32>
  return %2 : tensor<4xf32>
}

// -----

// CHECK-LABEL: func @public_kept
// CHECK: func private @used
// CHECK-NOT: @unused
// CHECK-NOT: @only_used_by_unused
func.func @public_kept(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = call @used(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func private @used(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = google.neg %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func private @unused(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = call @only_used_by_unused(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func private @only_used_by_unused(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

// -----

// A public function is an entry point even when nothing calls it.
// CHECK-LABEL: func @negative_public_unused
func.func @negative_public_unused() {
  return
}

// -----

// Ops of other dialects are not google-dce's business.
// CHECK-LABEL: func @negative_other_dialects
// CHECK: arith.constant
func.func @negative_other_dialects() {
  %0 = arith.constant 1.0 : f32
  return
}
