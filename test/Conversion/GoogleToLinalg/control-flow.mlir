// RUN: google-opt %s -split-input-file -convert-google-to-linalg | FileCheck %s

// google.if => scf.if on the extracted condition; the regions' ops are
// lowered in place and their checks stay in their branch.
// CHECK-LABEL: func @branch
// CHECK: %[[P:.*]] = tensor.extract %{{.*}}[] : tensor<i1>
// CHECK: scf.if %[[P]] -> (tensor<4xf32>) {
// CHECK:   linalg.generic
// CHECK:   math.exp
// CHECK:   scf.yield
// CHECK: } else {
// CHECK:   cf.assert %{{.*}}, "google.gather: {0} indices are outside [-4, 4) for axis 0 (expected {1})"
// CHECK:   scf.yield
// CHECK: }
func.func @branch(%p: tensor<i1>, %x: tensor<4xf32>, %ids: tensor<4xi64>) -> tensor<4xf32> {
  %r = google.if %p : tensor<i1> -> (tensor<4xf32>) {
    %e = google.exp %x : tensor<4xf32>
    google.yield %e : tensor<4xf32>
  } else {
    %g = google.gather %x, %ids {axis = 0 : i64} : tensor<4xf32>, tensor<4xi64> -> tensor<4xf32>
    google.yield %g : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

// A google.while that counts (i < n, i + 1) => scf.for: the trip count is
// computed on entry from the counter's start and the bound (read once),
// the counter each iteration from the induction variable (a scalar the
// host knows), its final value after the loop. Only the other state is
// carried.
// CHECK-LABEL: func @loop
// CHECK: %[[FIRST:.*]] = tensor.extract %{{.*}}[] : tensor<i64>
// CHECK: %[[BOUND:.*]] = tensor.extract %arg0[] : tensor<i64>
// CHECK: %[[RUNS:.*]] = arith.cmpi slt, %[[FIRST]], %[[BOUND]] : i64
// CHECK: %[[DISTANCE:.*]] = arith.subi %[[BOUND]], %[[FIRST]] : i64
// CHECK: %[[STEPS:.*]] = arith.ceildivui %[[DISTANCE]],
// CHECK: %[[COUNT:.*]] = arith.select %[[RUNS]], %[[STEPS]],
// CHECK: %[[TRIPS:.*]] = arith.index_cast %{{.*}} : i64 to index
// CHECK: %[[R:.*]] = scf.for %{{.*}} = %{{.*}} to %[[TRIPS]] step %{{.*}} iter_args(%{{.*}} = %arg1) -> (tensor<2xf32>) {
// CHECK:   math.tanh
// CHECK:   scf.yield %{{.*}} : tensor<2xf32>
// CHECK: }
// CHECK: %[[LAST:.*]] = arith.addi %[[FIRST]], %{{.*}} : i64
// CHECK: %[[FINAL:.*]] = tensor.from_elements %[[LAST]] : tensor<i64>
// CHECK: return %[[FINAL]], %[[R]]
func.func @loop(%n: tensor<i64>, %x: tensor<2xf32>) -> (tensor<i64>, tensor<2xf32>) {
  %zero = google.constant dense<0> : tensor<i64>
  %r:2 = google.while %zero, %x : (tensor<i64>, tensor<2xf32>) -> (tensor<i64>, tensor<2xf32>) cond {
  ^bb0(%i: tensor<i64>, %y: tensor<2xf32>):
    %c = google.lt %i, %n : tensor<i64>, tensor<i64> -> tensor<i1>
    google.condition %c : tensor<i1>
  } do {
  ^bb0(%i: tensor<i64>, %y: tensor<2xf32>):
    %one = google.constant dense<1> : tensor<i64>
    %next = google.add %i, %one : tensor<i64>, tensor<i64> -> tensor<i64>
    %z = google.tanh %y : tensor<2xf32>
    google.yield %next, %z : tensor<i64>, tensor<2xf32>
  }
  return %r#0, %r#1 : tensor<i64>, tensor<2xf32>
}

// -----

// The counter used by the body: its index check and the gather's offset
// are scalar ops on the induction variable (no rank-0 linalg.generic, no
// read of a tensor in the loop).
// CHECK-LABEL: func @gather_by_counter
// CHECK: scf.for %[[IV:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args
// CHECK-NOT: tensor.extract
// CHECK-NOT: iterator_types = []
// CHECK:   cf.assert %{{.*}}, "google.gather: {0} indices are outside [-4, 4) for axis 0
// CHECK:   tensor.extract_slice %arg0[%{{.*}}, 0] [1, 3] [1, 1]
// CHECK: scf.yield
func.func @gather_by_counter(%t: tensor<4x3xf32>) -> tensor<3xf32> {
  %zero = google.constant dense<0> : tensor<i64>
  %acc0 = google.constant dense<0.0> : tensor<3xf32>
  %r:2 = google.while %zero, %acc0 : (tensor<i64>, tensor<3xf32>) -> (tensor<i64>, tensor<3xf32>) cond {
  ^bb0(%i: tensor<i64>, %acc: tensor<3xf32>):
    %four = google.constant dense<4> : tensor<i64>
    %c = google.lt %i, %four : tensor<i64>, tensor<i64> -> tensor<i1>
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

// -----

// Loops that do not count stay scf.while: the cond decides (scf.condition
// forwards the state), the body yields the next state. Here the bound is
// state.
// CHECK-LABEL: func @bound_in_state
// CHECK: scf.while (%[[I:.*]] = %{{.*}}, %[[N:.*]] = %{{.*}}) : (tensor<i64>, tensor<i64>) -> (tensor<i64>, tensor<i64>) {
// CHECK:   arith.cmpi slt
// CHECK:   %[[C:.*]] = tensor.extract %{{.*}}[] : tensor<i1>
// CHECK:   scf.condition(%[[C]]) %[[I]], %[[N]] : tensor<i64>, tensor<i64>
// CHECK: } do {
// CHECK: ^bb0(%{{.*}}: tensor<i64>, %{{.*}}: tensor<i64>):
// CHECK:   scf.yield
func.func @bound_in_state(%n: tensor<i64>) -> tensor<i64> {
  %zero = google.constant dense<0> : tensor<i64>
  %r:2 = google.while %zero, %n : (tensor<i64>, tensor<i64>) -> (tensor<i64>, tensor<i64>) cond {
  ^bb0(%i: tensor<i64>, %m: tensor<i64>):
    %c = google.lt %i, %m : tensor<i64>, tensor<i64> -> tensor<i1>
    google.condition %c : tensor<i1>
  } do {
  ^bb0(%i: tensor<i64>, %m: tensor<i64>):
    %one = google.constant dense<1> : tensor<i64>
    %next = google.add %i, %one : tensor<i64>, tensor<i64> -> tensor<i64>
    %fewer = google.sub %m, %one : tensor<i64>, tensor<i64> -> tensor<i64>
    google.yield %next, %fewer : tensor<i64>, tensor<i64>
  }
  return %r#0 : tensor<i64>
}

// -----

// A step that is not a constant.
// CHECK-LABEL: func @step_not_constant
// CHECK: scf.while
func.func @step_not_constant(%n: tensor<i64>, %s: tensor<i64>) -> tensor<i64> {
  %zero = google.constant dense<0> : tensor<i64>
  %r = google.while %zero : (tensor<i64>) -> tensor<i64> cond {
  ^bb0(%i: tensor<i64>):
    %c = google.lt %i, %n : tensor<i64>, tensor<i64> -> tensor<i1>
    google.condition %c : tensor<i1>
  } do {
  ^bb0(%i: tensor<i64>):
    %next = google.add %i, %s : tensor<i64>, tensor<i64> -> tensor<i64>
    google.yield %next : tensor<i64>
  }
  return %r : tensor<i64>
}

// -----

// Counters that could wrap around before the comparison stops them: up by
// 2 to i < 2^31 - 1 (the step past the last value overflows), up to a
// dynamic bound by 2, and down while i >= bound by a positive step.
// CHECK-LABEL: func @may_wrap
// CHECK: scf.while
// CHECK: scf.while
// CHECK: scf.while
// CHECK-NOT: scf.for
func.func @may_wrap(%s: tensor<i32>, %n: tensor<i32>) -> (tensor<i32>, tensor<i32>, tensor<i32>) {
  %r0 = google.while %s : (tensor<i32>) -> tensor<i32> cond {
  ^bb0(%i: tensor<i32>):
    %max = google.constant dense<2147483647> : tensor<i32>
    %c = google.lt %i, %max : tensor<i32>, tensor<i32> -> tensor<i1>
    google.condition %c : tensor<i1>
  } do {
  ^bb0(%i: tensor<i32>):
    %two = google.constant dense<2> : tensor<i32>
    %next = google.add %i, %two : tensor<i32>, tensor<i32> -> tensor<i32>
    google.yield %next : tensor<i32>
  }
  %r1 = google.while %s : (tensor<i32>) -> tensor<i32> cond {
  ^bb0(%i: tensor<i32>):
    %c = google.lt %i, %n : tensor<i32>, tensor<i32> -> tensor<i1>
    google.condition %c : tensor<i1>
  } do {
  ^bb0(%i: tensor<i32>):
    %two = google.constant dense<2> : tensor<i32>
    %next = google.add %i, %two : tensor<i32>, tensor<i32> -> tensor<i32>
    google.yield %next : tensor<i32>
  }
  %r2 = google.while %s : (tensor<i32>) -> tensor<i32> cond {
  ^bb0(%i: tensor<i32>):
    %c = google.ge %i, %n : tensor<i32>, tensor<i32> -> tensor<i1>
    google.condition %c : tensor<i1>
  } do {
  ^bb0(%i: tensor<i32>):
    %one = google.constant dense<1> : tensor<i32>
    %next = google.add %i, %one : tensor<i32>, tensor<i32> -> tensor<i32>
    google.yield %next : tensor<i32>
  }
  return %r0, %r1, %r2 : tensor<i32>, tensor<i32>, tensor<i32>
}

// -----

// Up to and including the largest i32 (a loop that never ends): not
// counted either.
// CHECK-LABEL: func @never_ends
// CHECK: scf.while
func.func @never_ends(%s: tensor<i32>) -> tensor<i32> {
  %r = google.while %s : (tensor<i32>) -> tensor<i32> cond {
  ^bb0(%i: tensor<i32>):
    %max = google.constant dense<2147483647> : tensor<i32>
    %c = google.le %i, %max : tensor<i32>, tensor<i32> -> tensor<i1>
    google.condition %c : tensor<i1>
  } do {
  ^bb0(%i: tensor<i32>):
    %one = google.constant dense<1> : tensor<i32>
    %next = google.add %i, %one : tensor<i32>, tensor<i32> -> tensor<i32>
    google.yield %next : tensor<i32>
  }
  return %r : tensor<i32>
}

// -----

// A check on the extents of branch results: the checks move up, but the
// scf.ifs they depend on stay in order (the second's region uses the
// first's result; moving it up once broke dominance).
// CHECK-LABEL: func @checks_after_branches
// CHECK: %[[A:.*]] = scf.if
// CHECK: scf.if
// CHECK:   linalg.generic {{.*}} ins(%[[A]] :
// CHECK: cf.assert
func.func @checks_after_branches(%p: tensor<i1>, %q: tensor<i1>, %x: tensor<?xf32>) -> tensor<?xf32> {
  %a = google.if %p : tensor<i1> -> (tensor<?xf32>) {
    google.yield %x : tensor<?xf32>
  } else {
    %n = google.neg %x : tensor<?xf32>
    google.yield %n : tensor<?xf32>
  }
  %b = google.if %q : tensor<i1> -> (tensor<?xf32>) {
    %n = google.neg %a : tensor<?xf32>
    google.yield %n : tensor<?xf32>
  } else {
    google.yield %a : tensor<?xf32>
  }
  %c = google.add %a, %b : tensor<?xf32>, tensor<?xf32> -> tensor<?xf32>
  return %c : tensor<?xf32>
}
