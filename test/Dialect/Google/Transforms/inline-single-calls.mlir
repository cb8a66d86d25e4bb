// RUN: google-opt %s -split-input-file --google-inline-single-calls | FileCheck %s

// A private function called once is inlined and erased; the chain of
// single calls goes in one run.
// CHECK-LABEL: func.func @f
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>)
// CHECK-NEXT: %[[E:.*]] = google.exp %[[X]]
// CHECK-NEXT: %[[N:.*]] = google.neg %[[E]]
// CHECK-NEXT: return %[[N]]
// CHECK-NOT: func.func
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = call @g(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
func.func private @g(%y: tensor<4xf32>) -> tensor<4xf32> {
  %e = google.exp %y : tensor<4xf32>
  %n = call @h(%e) : (tensor<4xf32>) -> tensor<4xf32>
  return %n : tensor<4xf32>
}
func.func private @h(%z: tensor<4xf32>) -> tensor<4xf32> {
  %n = google.neg %z : tensor<4xf32>
  return %n : tensor<4xf32>
}

// -----

// Called twice, public, a declaration, or recursive: left alone.
// CHECK-LABEL: func.func @caller
// CHECK: call @twice
// CHECK: call @twice
// CHECK: call @public
// CHECK: call @declared
// CHECK: func.func private @twice
// CHECK: func.func @public
// CHECK: func.func private @declared
// CHECK: func.func private @recursive
// CHECK: call @recursive
func.func @caller(%x: tensor<4xf32>) -> tensor<4xf32> {
  %a = call @twice(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %b = call @twice(%a) : (tensor<4xf32>) -> tensor<4xf32>
  %c = call @public(%b) : (tensor<4xf32>) -> tensor<4xf32>
  %d = call @declared(%c) : (tensor<4xf32>) -> tensor<4xf32>
  return %d : tensor<4xf32>
}
func.func private @twice(%y: tensor<4xf32>) -> tensor<4xf32> {
  %e = google.exp %y : tensor<4xf32>
  return %e : tensor<4xf32>
}
func.func @public(%y: tensor<4xf32>) -> tensor<4xf32> {
  %e = google.exp %y : tensor<4xf32>
  return %e : tensor<4xf32>
}
func.func private @declared(tensor<4xf32>) -> tensor<4xf32>
func.func private @recursive(%y: tensor<4xf32>) -> tensor<4xf32> {
  %e = call @recursive(%y) : (tensor<4xf32>) -> tensor<4xf32>
  return %e : tensor<4xf32>
}

// -----

// A returned argument is the call's operand (a difftest gradient whose
// VJP passed an argument through crashed the pass).
// CHECK-LABEL: func.func @passes_through
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>, %[[Y:.*]]: tensor<4xf32>)
// CHECK-NEXT: %[[E:.*]] = google.exp %[[Y]]
// CHECK-NEXT: return %[[E]], %[[X]]
func.func @passes_through(%x: tensor<4xf32>, %y: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %r:2 = call @g(%y, %x) : (tensor<4xf32>, tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  return %r#0, %r#1 : tensor<4xf32>, tensor<4xf32>
}
func.func private @g(%a: tensor<4xf32>, %b: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %e = google.exp %a : tensor<4xf32>
  return %e, %b : tensor<4xf32>, tensor<4xf32>
}
