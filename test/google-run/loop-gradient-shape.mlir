// The gradient of a loop whose state changes shape from one iteration to
// the next: the tape (trip count x the initial state's shape) rejects the
// second iteration's state with a run-time error of the call, compiled and
// interpreted, never a wrong gradient.
// RUN: not google-run %s --input=3xf64=0 --input=12xf64=1 2>&1 | FileCheck %s
// RUN: not google-run %s --interpret --input=3xf64=0 --input=12xf64=1 2>&1 | FileCheck %s
// CHECK: error: @main: google.scatter_add: dimension 0 of the updates is 6, expected 3

func.func private @f(%x: tensor<?xf64>) -> tensor<?xf64> {
  %zero = google.constant dense<0> : tensor<i64>
  %r:2 = google.while %zero, %x {trip_count = 2 : i64} : (tensor<i64>, tensor<?xf64>) -> (tensor<i64>, tensor<?xf64>) cond {
  ^bb0(%i: tensor<i64>, %y: tensor<?xf64>):
    %n = google.constant dense<2> : tensor<i64>
    %c = google.lt %i, %n : tensor<i64>, tensor<i64> -> tensor<i1>
    google.condition %c : tensor<i1>
  } do {
  ^bb0(%i: tensor<i64>, %y: tensor<?xf64>):
    %one = google.constant dense<1> : tensor<i64>
    %next = google.add %i, %one : tensor<i64>, tensor<i64> -> tensor<i64>
    %z = google.concat %y, %y {axis = 0 : i64} : tensor<?xf64>, tensor<?xf64> -> tensor<?xf64>
    google.yield %next, %z : tensor<i64>, tensor<?xf64>
  }
  return %r#1 : tensor<?xf64>
}
func.func private @f_vjp(tensor<?xf64>, tensor<?xf64>) -> (tensor<?xf64>, tensor<?xf64>) attributes {google.vjp = {of = @f, wrt = array<i64: 0>}}
func.func @main(%x: tensor<?xf64>, %ct: tensor<?xf64>) -> (tensor<?xf64>, tensor<?xf64>) {
  %r:2 = call @f_vjp(%x, %ct) : (tensor<?xf64>, tensor<?xf64>) -> (tensor<?xf64>, tensor<?xf64>)
  return %r#0, %r#1 : tensor<?xf64>, tensor<?xf64>
}
