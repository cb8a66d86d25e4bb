// RUN: %python %e2e run %s google-run | FileCheck %s
// CHECK: e2e: 8 cases match numpy, 1 fail as expected
// google.if and google.while: scf.if / scf.while around the lowered ops,
// at every opt-level; a check inside a branch fires only when it runs.

// E2E: @branch(p: i1, x: 4x8xf32, w: 8x3xf32) -> np.exp(x) @ w if p else x @ w * 2
// E2E: @branch(p: i1, x: 4x8xf32, w: 8x3xf32) -> np.exp(x) @ w if p else x @ w * 2
// E2E: @power(n: i64[0:6], x: 5xf32) -> x ** (2 ** int(n))
// E2E: @grow(n: i64[0:4], x: 3xf32) -> np.concatenate([x, np.repeat(x[:1], int(n))]) * 2.0 ** int(n)
// E2E: @grow_while(n: i64[0:4], x: 2xf32) -> np.concatenate([x, np.repeat(x[:1], int(n))]) * 2.0 ** int(n)
// E2E: @resize(n: i64[0:4], x: 3xf32, w: 5xf32) -> x if int(n) == 0 else x.sum() * w.sum() ** (int(n) - 1) * w
// E2E: @pick(p: i1, t: 6x3xf32, ids: 4xi64[0:6]) -> np.take(t, ids, axis=0) if p else t[:4]
// E2E: @pick(p: i1[0:0], t: 6x3xf32, ids: 4xi64[7:9]) -> t[:4]
// E2E-ERROR: @pick(p: i1[1:1], t: 6x3xf32, ids: 4xi64[7:9]) -> google.gather: 4 indices are outside [-6, 6) for axis 0

func.func @branch(%p: tensor<i1>, %x: tensor<4x8xf32>, %w: tensor<8x3xf32>) -> tensor<4x3xf32> {
  %r = google.if %p : tensor<i1> -> (tensor<4x3xf32>) {
    %e = google.exp %x : tensor<4x8xf32>
    %m = google.matmul %e, %w : tensor<4x8xf32>, tensor<8x3xf32> -> tensor<4x3xf32>
    google.yield %m : tensor<4x3xf32>
  } else {
    %m = google.matmul %x, %w : tensor<4x8xf32>, tensor<8x3xf32> -> tensor<4x3xf32>
    %two = google.constant dense<2.0> : tensor<f32>
    %d = google.mul %m, %two : tensor<4x3xf32>, tensor<f32> -> tensor<4x3xf32>
    google.yield %d : tensor<4x3xf32>
  }
  return %r : tensor<4x3xf32>
}
func.func @power(%n: tensor<i64>, %x: tensor<?xf32>) -> tensor<?xf32> {
  %zero = google.constant dense<0> : tensor<i64>
  %r:2 = google.while %zero, %x : (tensor<i64>, tensor<?xf32>) -> (tensor<i64>, tensor<?xf32>) cond {
  ^bb0(%i: tensor<i64>, %y: tensor<?xf32>):
    %c = google.lt %i, %n : tensor<i64>, tensor<i64> -> tensor<i1>
    google.condition %c : tensor<i1>
  } do {
  ^bb0(%i: tensor<i64>, %y: tensor<?xf32>):
    %one = google.constant dense<1> : tensor<i64>
    %next = google.add %i, %one : tensor<i64>, tensor<i64> -> tensor<i64>
    %z = google.mul %y, %y : tensor<?xf32>, tensor<?xf32> -> tensor<?xf32>
    google.yield %next, %z : tensor<i64>, tensor<?xf32>
  }
  return %r#1 : tensor<?xf32>
}
func.func @pick(%p: tensor<i1>, %t: tensor<6x3xf32>, %ids: tensor<4xi64>) -> tensor<4x3xf32> {
  %r = google.if %p : tensor<i1> -> (tensor<4x3xf32>) {
    %g = google.gather %t, %ids {axis = 0 : i64} : tensor<6x3xf32>, tensor<4xi64> -> tensor<4x3xf32>
    google.yield %g : tensor<4x3xf32>
  } else {
    %s = google.slice %t {starts = array<i64: 0, 0>, limits = array<i64: 4, 3>, strides = array<i64: 1, 1>} : tensor<6x3xf32> -> tensor<4x3xf32>
    google.yield %s : tensor<4x3xf32>
  }
  return %r : tensor<4x3xf32>
}
// A state whose new extent is another value's, read only before its new
// value is computed: still not computed in the old one's buffer.
func.func @resize(%n: tensor<i64>, %x: tensor<?xf32>, %w: tensor<?xf32>) -> tensor<?xf32> {
  %zero = google.constant dense<0> : tensor<i64>
  %r:2 = google.while %zero, %x : (tensor<i64>, tensor<?xf32>) -> (tensor<i64>, tensor<?xf32>) cond {
  ^bb0(%i: tensor<i64>, %y: tensor<?xf32>):
    %c = google.lt %i, %n : tensor<i64>, tensor<i64> -> tensor<i1>
    google.condition %c : tensor<i1>
  } do {
  ^bb0(%i: tensor<i64>, %y: tensor<?xf32>):
    %one = google.constant dense<1> : tensor<i64>
    %next = google.add %i, %one : tensor<i64>, tensor<i64> -> tensor<i64>
    %s = google.reduce_sum %y {axes = array<i64: 0>, keep_dims = false} : tensor<?xf32> -> tensor<f32>
    %z = google.mul %s, %w : tensor<f32>, tensor<?xf32> -> tensor<?xf32>
    google.yield %next, %z : tensor<i64>, tensor<?xf32>
  }
  return %r#1 : tensor<?xf32>
}
// A state that grows each iteration (a counted loop, and a while loop: !=
// does not count): its new value cannot be computed in the old one's
// buffer.
func.func @grow(%n: tensor<i64>, %x: tensor<?xf32>) -> tensor<?xf32> {
  %zero = google.constant dense<0> : tensor<i64>
  %r:2 = google.while %zero, %x : (tensor<i64>, tensor<?xf32>) -> (tensor<i64>, tensor<?xf32>) cond {
  ^bb0(%i: tensor<i64>, %y: tensor<?xf32>):
    %c = google.lt %i, %n : tensor<i64>, tensor<i64> -> tensor<i1>
    google.condition %c : tensor<i1>
  } do {
  ^bb0(%i: tensor<i64>, %y: tensor<?xf32>):
    %one = google.constant dense<1> : tensor<i64>
    %next = google.add %i, %one : tensor<i64>, tensor<i64> -> tensor<i64>
    %at0 = google.constant dense<0> : tensor<1xi64>
    %first = google.gather %y, %at0 {axis = 0 : i64} : tensor<?xf32>, tensor<1xi64> -> tensor<1xf32>
    %longer = google.concat %y, %first {axis = 0 : i64} : tensor<?xf32>, tensor<1xf32> -> tensor<?xf32>
    %two = google.constant dense<2.0> : tensor<f32>
    %z = google.mul %longer, %two : tensor<?xf32>, tensor<f32> -> tensor<?xf32>
    google.yield %next, %z : tensor<i64>, tensor<?xf32>
  }
  return %r#1 : tensor<?xf32>
}
func.func @grow_while(%n: tensor<i64>, %x: tensor<?xf32>) -> tensor<?xf32> {
  %zero = google.constant dense<0> : tensor<i64>
  %r:2 = google.while %zero, %x : (tensor<i64>, tensor<?xf32>) -> (tensor<i64>, tensor<?xf32>) cond {
  ^bb0(%i: tensor<i64>, %y: tensor<?xf32>):
    %c = google.ne %i, %n : tensor<i64>, tensor<i64> -> tensor<i1>
    google.condition %c : tensor<i1>
  } do {
  ^bb0(%i: tensor<i64>, %y: tensor<?xf32>):
    %one = google.constant dense<1> : tensor<i64>
    %next = google.add %i, %one : tensor<i64>, tensor<i64> -> tensor<i64>
    %at0 = google.constant dense<0> : tensor<1xi64>
    %first = google.gather %y, %at0 {axis = 0 : i64} : tensor<?xf32>, tensor<1xi64> -> tensor<1xf32>
    %longer = google.concat %y, %first {axis = 0 : i64} : tensor<?xf32>, tensor<1xf32> -> tensor<?xf32>
    %two = google.constant dense<2.0> : tensor<f32>
    %z = google.mul %longer, %two : tensor<?xf32>, tensor<f32> -> tensor<?xf32>
    google.yield %next, %z : tensor<i64>, tensor<?xf32>
  }
  return %r#1 : tensor<?xf32>
}
