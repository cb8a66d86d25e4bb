// RUN: %python %e2e run %s google-run | FileCheck %s
// CHECK: e2e: 11 cases match numpy, 1 fail as expected
// google.while loops that count (the cond compares a scalar counter with a
// bound, the body steps it by a constant) run as scf.for: the trip count is
// computed on entry, the stepped values from the induction variable. Up
// and down, strict and not, dynamic starts and bounds, strides that do not
// divide the range, loops that never run, nested loops whose bound is the
// outer counter, and loops that must stay while loops (the step moves away
// from the bound: the counter wraps around).

// E2E: @countdown(n: i64[-3:10], x: 4xf32) -> (np.minimum(n, 0), x * 0.5 ** max(int(n), 0))
// E2E: @countdown(n: i64[-3:0], x: 4xf32) -> (n, x)
// E2E: @stride(s: i32[-20:20], t: 6x3xf32) -> (np.int32(int(s) + 3 * max(0, -(-(17 - int(s)) // 3))), t * sum(range(int(s), 17, 3)))
// E2E: @stride(s: i32[17:30], t: 6x3xf32) -> (s, t * 0)
// E2E: @up_to_and_including(s: i64[-5:12], x: 3xf32) -> x * (1 + len(range(int(s), 10, 2)))
// E2E: @bound_first(n: i32[-4:8], x: 5xf32) -> (np.int32(max(int(n), 0)), x + max(int(n), 0))
// E2E: @two_counters(t: 6x3xf32) -> (sum(t[5 - i] * i for i in range(6)), np.int64(-1))
// E2E: @triangle(x: 3xf32) -> x * 7
// E2E: @wraps_around(x: 2xf32) -> (np.int32(-2147483596), x + 1)
// E2E: @indexed(t: 4x3xf32, n: i64[0:4]) -> t[:int(n)].sum(axis=0)
// E2E: @indexed(t: 4x3xf32, n: i64[4:4]) -> t.sum(axis=0)
// E2E-ERROR: @indexed(t: 4x3xf32, n: i64[6:8]) -> google.gather: 1 indices are outside [-4, 4) for axis 0

// Down from a dynamic start to a constant bound, stepping by -1.
func.func @countdown(%n: tensor<i64>, %x: tensor<4xf32>) -> (tensor<i64>, tensor<4xf32>) {
  %r:2 = google.while %n, %x : (tensor<i64>, tensor<4xf32>) -> (tensor<i64>, tensor<4xf32>) cond {
  ^bb0(%i: tensor<i64>, %y: tensor<4xf32>):
    %zero = google.constant dense<0> : tensor<i64>
    %c = google.gt %i, %zero : tensor<i64>, tensor<i64> -> tensor<i1>
    google.condition %c : tensor<i1>
  } do {
  ^bb0(%i: tensor<i64>, %y: tensor<4xf32>):
    %one = google.constant dense<1> : tensor<i64>
    %next = google.sub %i, %one : tensor<i64>, tensor<i64> -> tensor<i64>
    %half = google.constant dense<0.5> : tensor<f32>
    %z = google.mul %y, %half : tensor<4xf32>, tensor<f32> -> tensor<4xf32>
    google.yield %next, %z : tensor<i64>, tensor<4xf32>
  }
  return %r#0, %r#1 : tensor<i64>, tensor<4xf32>
}

// Up by 3 to a constant bound the stride does not divide; the counter is
// used by the body.
func.func @stride(%s: tensor<i32>, %t: tensor<6x3xf32>) -> (tensor<i32>, tensor<6x3xf32>) {
  %zero = google.constant dense<0.0> : tensor<6x3xf32>
  %r:2 = google.while %s, %zero : (tensor<i32>, tensor<6x3xf32>) -> (tensor<i32>, tensor<6x3xf32>) cond {
  ^bb0(%i: tensor<i32>, %acc: tensor<6x3xf32>):
    %bound = google.constant dense<17> : tensor<i32>
    %c = google.lt %i, %bound : tensor<i32>, tensor<i32> -> tensor<i1>
    google.condition %c : tensor<i1>
  } do {
  ^bb0(%i: tensor<i32>, %acc: tensor<6x3xf32>):
    %three = google.constant dense<3> : tensor<i32>
    %next = google.add %three, %i : tensor<i32>, tensor<i32> -> tensor<i32>
    %f = google.cast %i : tensor<i32> -> tensor<f32>
    %scaled = google.mul %t, %f : tensor<6x3xf32>, tensor<f32> -> tensor<6x3xf32>
    %sum = google.add %acc, %scaled : tensor<6x3xf32>, tensor<6x3xf32> -> tensor<6x3xf32>
    google.yield %next, %sum : tensor<i32>, tensor<6x3xf32>
  }
  return %r#0, %r#1 : tensor<i32>, tensor<6x3xf32>
}

// i <= 9, stepping by 2.
func.func @up_to_and_including(%s: tensor<i64>, %x: tensor<3xf32>) -> tensor<3xf32> {
  %r:2 = google.while %s, %x : (tensor<i64>, tensor<3xf32>) -> (tensor<i64>, tensor<3xf32>) cond {
  ^bb0(%i: tensor<i64>, %y: tensor<3xf32>):
    %bound = google.constant dense<9> : tensor<i64>
    %c = google.le %i, %bound : tensor<i64>, tensor<i64> -> tensor<i1>
    google.condition %c : tensor<i1>
  } do {
  ^bb0(%i: tensor<i64>, %y: tensor<3xf32>):
    %two = google.constant dense<2> : tensor<i64>
    %next = google.add %i, %two : tensor<i64>, tensor<i64> -> tensor<i64>
    %z = google.add %y, %x : tensor<3xf32>, tensor<3xf32> -> tensor<3xf32>
    google.yield %next, %z : tensor<i64>, tensor<3xf32>
  }
  return %r#1 : tensor<3xf32>
}

// n > i: the bound on the left, dynamic (a function argument).
func.func @bound_first(%n: tensor<i32>, %x: tensor<5xf32>) -> (tensor<i32>, tensor<5xf32>) {
  %zero = google.constant dense<0> : tensor<i32>
  %r:2 = google.while %zero, %x : (tensor<i32>, tensor<5xf32>) -> (tensor<i32>, tensor<5xf32>) cond {
  ^bb0(%i: tensor<i32>, %y: tensor<5xf32>):
    %c = google.gt %n, %i : tensor<i32>, tensor<i32> -> tensor<i1>
    google.condition %c : tensor<i1>
  } do {
  ^bb0(%i: tensor<i32>, %y: tensor<5xf32>):
    %one = google.constant dense<1> : tensor<i32>
    %next = google.add %i, %one : tensor<i32>, tensor<i32> -> tensor<i32>
    %onef = google.constant dense<1.0> : tensor<f32>
    %z = google.add %y, %onef : tensor<5xf32>, tensor<f32> -> tensor<5xf32>
    google.yield %next, %z : tensor<i32>, tensor<5xf32>
  }
  return %r#0, %r#1 : tensor<i32>, tensor<5xf32>
}

// A second stepped value (k, down from 5) besides the counter: it gathers.
func.func @two_counters(%t: tensor<6x3xf32>) -> (tensor<3xf32>, tensor<i64>) {
  %i0 = google.constant dense<0> : tensor<i64>
  %k0 = google.constant dense<5> : tensor<i64>
  %acc0 = google.constant dense<0.0> : tensor<3xf32>
  %r:3 = google.while %i0, %k0, %acc0 : (tensor<i64>, tensor<i64>, tensor<3xf32>) -> (tensor<i64>, tensor<i64>, tensor<3xf32>) cond {
  ^bb0(%i: tensor<i64>, %k: tensor<i64>, %acc: tensor<3xf32>):
    %six = google.constant dense<6> : tensor<i64>
    %c = google.lt %i, %six : tensor<i64>, tensor<i64> -> tensor<i1>
    google.condition %c : tensor<i1>
  } do {
  ^bb0(%i: tensor<i64>, %k: tensor<i64>, %acc: tensor<3xf32>):
    %one = google.constant dense<1> : tensor<i64>
    %next = google.add %i, %one : tensor<i64>, tensor<i64> -> tensor<i64>
    %down = google.sub %k, %one : tensor<i64>, tensor<i64> -> tensor<i64>
    %row = google.gather %t, %k {axis = 0 : i64} : tensor<6x3xf32>, tensor<i64> -> tensor<3xf32>
    %f = google.cast %i : tensor<i64> -> tensor<f32>
    %scaled = google.mul %row, %f : tensor<3xf32>, tensor<f32> -> tensor<3xf32>
    %sum = google.add %acc, %scaled : tensor<3xf32>, tensor<3xf32> -> tensor<3xf32>
    google.yield %next, %down, %sum : tensor<i64>, tensor<i64>, tensor<3xf32>
  }
  return %r#2, %r#1 : tensor<3xf32>, tensor<i64>
}

// for i in range(4): for j in range(i): y += x.
func.func @triangle(%x: tensor<3xf32>) -> tensor<3xf32> {
  %zero = google.constant dense<0> : tensor<i32>
  %r:2 = google.while %zero, %x : (tensor<i32>, tensor<3xf32>) -> (tensor<i32>, tensor<3xf32>) cond {
  ^bb0(%i: tensor<i32>, %y: tensor<3xf32>):
    %four = google.constant dense<4> : tensor<i32>
    %c = google.lt %i, %four : tensor<i32>, tensor<i32> -> tensor<i1>
    google.condition %c : tensor<i1>
  } do {
  ^bb0(%i: tensor<i32>, %y: tensor<3xf32>):
    %one = google.constant dense<1> : tensor<i32>
    %inner:2 = google.while %zero, %y : (tensor<i32>, tensor<3xf32>) -> (tensor<i32>, tensor<3xf32>) cond {
    ^bb0(%j: tensor<i32>, %w: tensor<3xf32>):
      %c = google.lt %j, %i : tensor<i32>, tensor<i32> -> tensor<i1>
      google.condition %c : tensor<i1>
    } do {
    ^bb0(%j: tensor<i32>, %w: tensor<3xf32>):
      %j1 = google.add %j, %one : tensor<i32>, tensor<i32> -> tensor<i32>
      %w1 = google.add %w, %x : tensor<3xf32>, tensor<3xf32> -> tensor<3xf32>
      google.yield %j1, %w1 : tensor<i32>, tensor<3xf32>
    }
    %next = google.add %i, %one : tensor<i32>, tensor<i32> -> tensor<i32>
    google.yield %next, %inner#1 : tensor<i32>, tensor<3xf32>
  }
  return %r#1 : tensor<3xf32>
}

// i >= 1000 while stepping up from near the top: the loop ends only
// because the counter wraps around (once). A while loop, as written.
func.func @wraps_around(%x: tensor<2xf32>) -> (tensor<i32>, tensor<2xf32>) {
  %start = google.constant dense<2147483600> : tensor<i32>
  %r:2 = google.while %start, %x : (tensor<i32>, tensor<2xf32>) -> (tensor<i32>, tensor<2xf32>) cond {
  ^bb0(%i: tensor<i32>, %y: tensor<2xf32>):
    %bound = google.constant dense<1000> : tensor<i32>
    %c = google.ge %i, %bound : tensor<i32>, tensor<i32> -> tensor<i1>
    google.condition %c : tensor<i1>
  } do {
  ^bb0(%i: tensor<i32>, %y: tensor<2xf32>):
    %step = google.constant dense<100> : tensor<i32>
    %next = google.add %i, %step : tensor<i32>, tensor<i32> -> tensor<i32>
    %onef = google.constant dense<1.0> : tensor<f32>
    %z = google.add %y, %onef : tensor<2xf32>, tensor<f32> -> tensor<2xf32>
    google.yield %next, %z : tensor<i32>, tensor<2xf32>
  }
  return %r#0, %r#1 : tensor<i32>, tensor<2xf32>
}

// Rows 0..n-1 gathered by the counter: the gather's index check runs on
// the counter each iteration (and fails at row 4).
func.func @indexed(%t: tensor<4x3xf32>, %n: tensor<i64>) -> tensor<3xf32> {
  %zero = google.constant dense<0> : tensor<i64>
  %acc0 = google.constant dense<0.0> : tensor<3xf32>
  %r:2 = google.while %zero, %acc0 : (tensor<i64>, tensor<3xf32>) -> (tensor<i64>, tensor<3xf32>) cond {
  ^bb0(%i: tensor<i64>, %acc: tensor<3xf32>):
    %c = google.lt %i, %n : tensor<i64>, tensor<i64> -> tensor<i1>
    google.condition %c : tensor<i1>
  } do {
  ^bb0(%i: tensor<i64>, %acc: tensor<3xf32>):
    %one = google.constant dense<1> : tensor<i64>
    %next = google.add %i, %one : tensor<i64>, tensor<i64> -> tensor<i64>
    %row = google.gather %t, %i {axis = 0 : i64} : tensor<4x3xf32>, tensor<i64> -> tensor<3xf32>
    %sum = google.add %acc, %row : tensor<3xf32>, tensor<3xf32> -> tensor<3xf32>
    google.yield %next, %sum : tensor<i64>, tensor<3xf32>
  }
  return %r#1 : tensor<3xf32>
}
