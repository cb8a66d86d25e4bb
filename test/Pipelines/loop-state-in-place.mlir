// A loop's state is updated in its own buffer: a while loop whose
// condition is data-dependent copied its whole state each iteration, and a
// counted loop allocated a new one. Now the input is copied once, into the
// result's buffer (inputs are read-only), and the loops write in place.
// RUN: google-opt %s --google-extreme-pipeline -o /dev/null --mlir-print-ir-before=convert-scf-to-cf 2>&1 | FileCheck %s
// RUN: google-opt %s --google-extreme-pipeline=opt-level=1 -o /dev/null --mlir-print-ir-before=convert-scf-to-cf 2>&1 | FileCheck %s

// CHECK-LABEL: func.func @halve_until_small(
// CHECK-SAME: %[[X:.*]]: memref<64x64xf32>, %{{.*}}: memref<f32>, %[[OUT:.*]]: memref<64x64xf32>)
// CHECK: memref.copy %[[X]], %[[OUT]]
// CHECK: scf.while
// CHECK-NOT: memref.copy
// CHECK-NOT: memref.alloc() {{.*}} : memref<64x64xf32>
// CHECK: } do {
// CHECK-NOT: memref.copy
// CHECK-NOT: memref.alloc() {{.*}} : memref<64x64xf32>
// CHECK: return
func.func @halve_until_small(%x: tensor<64x64xf32>, %limit: tensor<f32>) -> tensor<64x64xf32> {
  %r = google.while %x : (tensor<64x64xf32>) -> (tensor<64x64xf32>) cond {
  ^bb0(%y: tensor<64x64xf32>):
    %s = google.reduce_sum %y {axes = array<i64: 0, 1>, keep_dims = false} : tensor<64x64xf32> -> tensor<f32>
    %c = google.gt %s, %limit : tensor<f32>, tensor<f32> -> tensor<i1>
    google.condition %c : tensor<i1>
  } do {
  ^bb0(%y: tensor<64x64xf32>):
    %h = google.constant dense<0.5> : tensor<f32>
    %z = google.mul %y, %h : tensor<64x64xf32>, tensor<f32> -> tensor<64x64xf32>
    google.yield %z : tensor<64x64xf32>
  }
  return %r : tensor<64x64xf32>
}

// CHECK-LABEL: func.func @decay(
// CHECK-SAME: %[[X:.*]]: memref<64x64xf32>, %{{.*}}: memref<i64>, %[[OUT:.*]]: memref<64x64xf32>)
// CHECK: memref.copy %[[X]], %[[OUT]]
// CHECK: scf.for
// CHECK-NOT: memref.copy
// CHECK-NOT: memref.alloc() {{.*}} : memref<64x64xf32>
// CHECK: return
func.func @decay(%x: tensor<64x64xf32>, %n: tensor<i64>) -> tensor<64x64xf32> {
  %zero = google.constant dense<0> : tensor<i64>
  %r:2 = google.while %zero, %x : (tensor<i64>, tensor<64x64xf32>) -> (tensor<i64>, tensor<64x64xf32>) cond {
  ^bb0(%i: tensor<i64>, %y: tensor<64x64xf32>):
    %c = google.lt %i, %n : tensor<i64>, tensor<i64> -> tensor<i1>
    google.condition %c : tensor<i1>
  } do {
  ^bb0(%i: tensor<i64>, %y: tensor<64x64xf32>):
    %one = google.constant dense<1> : tensor<i64>
    %next = google.add %i, %one : tensor<i64>, tensor<i64> -> tensor<i64>
    %t = google.tanh %y : tensor<64x64xf32>
    %z = google.mul %t, %y : tensor<64x64xf32>, tensor<64x64xf32> -> tensor<64x64xf32>
    google.yield %next, %z : tensor<i64>, tensor<64x64xf32>
  }
  return %r#1 : tensor<64x64xf32>
}
