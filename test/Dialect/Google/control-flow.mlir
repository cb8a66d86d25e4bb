// RUN: google-opt %s -split-input-file | google-opt | FileCheck %s

// google.if and google.while round-trip; regions use values from above.
// CHECK-LABEL: func @branch
// CHECK: %[[R:.*]] = google.if %{{.*}} : tensor<i1> -> (tensor<4xf32>) {
// CHECK:   google.exp
// CHECK:   google.yield %{{.*}} : tensor<4xf32>
// CHECK: } else {
// CHECK:   google.yield %{{.*}} : tensor<4xf32>
// CHECK: }
func.func @branch(%p: tensor<i1>, %x: tensor<4xf32>) -> tensor<4xf32> {
  %r = google.if %p : tensor<i1> -> (tensor<4xf32>) {
    %e = google.exp %x : tensor<4xf32>
    google.yield %e : tensor<4xf32>
  } else {
    google.yield %x : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// CHECK-LABEL: func @loop
// CHECK: google.while %{{.*}}, %{{.*}} : (tensor<i64>, tensor<?xf32>) -> (tensor<i64>, tensor<?xf32>) cond {
// CHECK: ^bb0(%{{.*}}: tensor<i64>, %{{.*}}: tensor<?xf32>):
// CHECK:   google.condition %{{.*}} : tensor<i1>
// CHECK: } do {
// CHECK:   google.yield %{{.*}}, %{{.*}} : tensor<i64>, tensor<?xf32>
func.func @loop(%n: tensor<i64>, %x: tensor<?xf32>) -> tensor<?xf32> {
  %zero = google.constant dense<0> : tensor<i64>
  %r:2 = google.while %zero, %x : (tensor<i64>, tensor<?xf32>) -> (tensor<i64>, tensor<?xf32>) cond {
  ^bb0(%i: tensor<i64>, %y: tensor<?xf32>):
    %c = google.lt %i, %n : tensor<i64>, tensor<i64> -> tensor<i1>
    google.condition %c : tensor<i1>
  } do {
  ^bb0(%i: tensor<i64>, %y: tensor<?xf32>):
    %one = google.constant dense<1> : tensor<i64>
    %next = google.add %i, %one : tensor<i64>, tensor<i64> -> tensor<i64>
    %z = google.tanh %y : tensor<?xf32>
    google.yield %next, %z : tensor<i64>, tensor<?xf32>
  }
  return %r#1 : tensor<?xf32>
}
