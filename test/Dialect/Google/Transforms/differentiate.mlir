// RUN: google-opt %s -split-input-file -google-differentiate="function=f wrt=0,1" | FileCheck %s

// @f_vjp clones f's ops, then runs the adjoints backwards: mul's operands
// get ct * the other operand; the broadcast bias's cotangent is summed over
// the rows it was broadcast along; the sum's cotangent is broadcast back
// (a select on x < x, false for every x); @f_grad calls the VJP with
// cotangent 1.
// CHECK-LABEL: func.func @f_vjp(
// CHECK-SAME: %[[X:.*]]: tensor<2x3xf32>, %[[B:.*]]: tensor<3xf32>, %[[CT:.*]]: tensor<f32>) -> (tensor<f32>, tensor<2x3xf32>, tensor<3xf32>)
// CHECK: %[[A:.*]] = google.add %[[X]], %[[B]]
// CHECK: %[[M:.*]] = google.mul %[[A]], %[[A]]
// CHECK: %[[S:.*]] = google.reduce_sum %[[M]]
// CHECK: %[[N:.*]] = google.lt %[[M]], %[[M]]
// CHECK: %[[DS:.*]] = google.select %[[N]], %[[M]], %[[CT]] : tensor<2x3xi1>, tensor<2x3xf32>, tensor<f32> -> tensor<2x3xf32>
// CHECK: %[[D1:.*]] = google.mul %[[DS]], %[[A]]
// CHECK: %[[D2:.*]] = google.mul %[[DS]], %[[A]]
// CHECK: %[[DA:.*]] = google.add %[[D1]], %[[D2]]
// CHECK: %[[DB:.*]] = google.reduce_sum %[[DA]] {axes = array<i64: 0>, keep_dims = false} : tensor<2x3xf32> -> tensor<3xf32>
// CHECK: return %[[S]], %[[DA]], %[[DB]]
// CHECK-LABEL: func.func @f_grad(
// CHECK: %[[ONE:.*]] = google.constant dense<1.000000e+00> : tensor<f32>
// CHECK: %[[R:.*]]:3 = call @f_vjp(%{{.*}}, %{{.*}}, %[[ONE]])
// CHECK: return %[[R]]#1, %[[R]]#2
func.func @f(%x: tensor<2x3xf32>, %b: tensor<3xf32>) -> tensor<f32> {
  %a = google.add %x, %b : tensor<2x3xf32>, tensor<3xf32> -> tensor<2x3xf32>
  %m = google.mul %a, %a : tensor<2x3xf32>, tensor<2x3xf32> -> tensor<2x3xf32>
  %s = google.reduce_sum %m {axes = array<i64: 0, 1>, keep_dims = false} : tensor<2x3xf32> -> tensor<f32>
  return %s : tensor<f32>
}

// -----

// A sum over inner axes: its cotangent gets the reduced axes back as 1s
// (a reshape) and broadcasts; with at most one dynamic extent no
// transposes are needed.
// CHECK-LABEL: func.func @f_vjp(
// CHECK-SAME: %[[X:.*]]: tensor<?x3x4xf32>, %[[Y:.*]]: tensor<5xf32>, %[[CT:.*]]: tensor<?xf32>)
// CHECK-NOT: google.transpose
// CHECK: %[[K:.*]] = google.reshape %[[CT]] : tensor<?xf32> -> tensor<?x1x1xf32>
// CHECK: %[[N:.*]] = google.lt %[[X]], %[[X]]
// CHECK: %[[DX:.*]] = google.select %[[N]], %[[X]], %[[K]] : tensor<?x3x4xi1>, tensor<?x3x4xf32>, tensor<?x1x1xf32> -> tensor<?x3x4xf32>
// CHECK-NOT: google.transpose
// CHECK: return %{{.*}}, %[[DX]]
func.func @f(%x: tensor<?x3x4xf32>, %y: tensor<5xf32>) -> tensor<?xf32> {
  %s = google.reduce_sum %x {axes = array<i64: 1, 2>, keep_dims = false} : tensor<?x3x4xf32> -> tensor<?xf32>
  return %s : tensor<?xf32>
}

// -----

// relu's derivative is read from its result (z > 0 exactly where x > 0),
// so that x = a + y has one user left, the relu, which fusion takes it
// into.
// CHECK-LABEL: func.func @f_vjp(
// CHECK-SAME: %[[X:.*]]: tensor<4xf32>, %[[Y:.*]]: tensor<4xf32>, %[[CT:.*]]: tensor<4xf32>)
// CHECK: %[[A:.*]] = google.add %[[X]], %[[Y]]
// CHECK: %[[Z:.*]] = google.relu %[[A]]
// CHECK: %[[ACTIVE:.*]] = google.gt %[[Z]], %{{.*}} : tensor<4xf32>, tensor<f32> -> tensor<4xi1>
// CHECK: %[[D:.*]] = google.cast %[[ACTIVE]] : tensor<4xi1> -> tensor<4xf32>
// CHECK: %[[DX:.*]] = google.mul %[[CT]], %[[D]]
// CHECK: return %[[Z]], %[[DX]], %[[DX]]
func.func @f(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %a = google.add %x, %y : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  %z = google.relu %a : tensor<4xf32>
  return %z : tensor<4xf32>
}

// -----

// Integer values carry no cotangents (the comparison feeding select is a
// constant to the gradient); an argument nothing depends on gets zeros.
// CHECK-LABEL: func.func @f_vjp(
// CHECK-SAME: %[[X:.*]]: tensor<4xf32>, %[[Y:.*]]: tensor<4xf32>
// CHECK: %[[C:.*]] = google.gt %[[X]], %[[Y]]
// CHECK: %[[Z:.*]] = google.constant dense<0.000000e+00> : tensor<f32>
// CHECK: google.select %[[C]], %{{.*}}, %[[Z]]
// CHECK: %[[ZEROS:.*]] = google.constant dense<0.000000e+00> : tensor<4xf32>
// CHECK: return %{{.*}}, %{{.*}}, %[[ZEROS]]
func.func @f(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<f32> {
  %c = google.gt %x, %y : tensor<4xf32>, tensor<4xf32> -> tensor<4xi1>
  %z = google.constant dense<0.0> : tensor<4xf32>
  %s = google.select %c, %x, %z : tensor<4xi1>, tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  %r = google.reduce_sum %s {axes = array<i64: 0>, keep_dims = false} : tensor<4xf32> -> tensor<f32>
  return %r : tensor<f32>
}

// -----

// A function whose result is not a rank-0 float gets a VJP but no grad.
// CHECK-LABEL: func.func @f_vjp(
// CHECK-SAME: -> (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>)
// CHECK: google.mul
// CHECK-NOT: func.func @f_grad
func.func @f(%x: tensor<2xf32>, %y: tensor<2xf32>) -> tensor<2xf32> {
  %e = google.exp %x : tensor<2xf32>
  return %e : tensor<2xf32>
}

// -----

// A gather's cotangent goes back to the rows it picked, adding up where a
// row was picked twice: a scatter_add into zeros of the (dynamic) input's
// shape.
// CHECK-LABEL: func.func @f_vjp(
// CHECK-SAME: %[[T:.*]]: tensor<?x4xf32>, %[[W:.*]]: tensor<4xf32>, %[[CT:.*]]: tensor<f32>)
// CHECK: %[[IDS:.*]] = google.constant dense<{{\[}}[1, 1], [-1, 0]]> : tensor<2x2xi32>
// CHECK: %[[Z:.*]] = google.constant dense<0.000000e+00> : tensor<f32>
// CHECK: %[[ZEROS:.*]] = google.select %{{.*}}, %{{.*}}, %[[Z]] : tensor<?x4xi1>, tensor<?x4xf32>, tensor<f32> -> tensor<?x4xf32>
// CHECK: %[[DT:.*]] = google.scatter_add %[[ZEROS]], %[[IDS]], %{{.*}} {axis = 0 : i64} : tensor<?x4xf32>, tensor<2x2xi32>, tensor<2x2x4xf32> -> tensor<?x4xf32>
// CHECK: return %{{.*}}, %[[DT]], %{{.*}} : tensor<f32>, tensor<?x4xf32>, tensor<4xf32>
func.func @f(%t: tensor<?x4xf32>, %w: tensor<4xf32>) -> tensor<f32> {
  %ids = google.constant dense<[[1, 1], [-1, 0]]> : tensor<2x2xi32>
  %g = google.gather %t, %ids {axis = 0 : i64} : tensor<?x4xf32>, tensor<2x2xi32> -> tensor<2x2x4xf32>
  %m = google.mul %g, %w : tensor<2x2x4xf32>, tensor<4xf32> -> tensor<2x2x4xf32>
  %s = google.reduce_sum %m {axes = array<i64: 0, 1, 2>, keep_dims = false} : tensor<2x2x4xf32> -> tensor<f32>
  return %s : tensor<f32>
}

// -----

// Two gathers of one index each from one tensor: the second cotangent is
// scattered into the first (the same sums, no zeros added), not a
// scatter_add into zeros and an add.
// CHECK-LABEL: func.func @f_vjp(
// CHECK-SAME: %[[T:.*]]: tensor<5x3xf32>, %[[S:.*]]: tensor<3xf32>, %[[I:.*]]: tensor<i32>, %[[J:.*]]: tensor<i64>, %[[CT:.*]]: tensor<3xf32>)
// CHECK: %[[ZEROS:.*]] = google.constant dense<0.000000e+00> : tensor<5x3xf32>
// CHECK: %[[FIRST:.*]] = google.scatter_add %[[ZEROS]], %[[J]], %{{.*}} {axis = 0 : i64} : tensor<5x3xf32>, tensor<i64>, tensor<3xf32> -> tensor<5x3xf32>
// CHECK: %[[BOTH:.*]] = google.scatter_add %[[FIRST]], %[[I]], %{{.*}} {axis = 0 : i64} : tensor<5x3xf32>, tensor<i32>, tensor<3xf32> -> tensor<5x3xf32>
// CHECK-NOT: google.add
// CHECK: return %{{.*}}, %[[BOTH]], %{{.*}} : tensor<3xf32>, tensor<5x3xf32>, tensor<3xf32>
func.func @f(%t: tensor<5x3xf32>, %s: tensor<3xf32>, %i: tensor<i32>, %j: tensor<i64>) -> tensor<3xf32> {
  %a = google.gather %t, %i {axis = 0 : i64} : tensor<5x3xf32>, tensor<i32> -> tensor<3xf32>
  %b = google.gather %t, %j {axis = 0 : i64} : tensor<5x3xf32>, tensor<i64> -> tensor<3xf32>
  %m = google.mul %a, %b : tensor<3xf32>, tensor<3xf32> -> tensor<3xf32>
  %r = google.mul %m, %s : tensor<3xf32>, tensor<3xf32> -> tensor<3xf32>
  return %r : tensor<3xf32>
}

// -----

// Both cotangents of add(t, t) are the one scattered into zeros by the
// gather's adjoint: the second scatters into it (the scatter it reads
// stays).
// CHECK-LABEL: func.func @f_vjp(
// CHECK-SAME: %[[T:.*]]: tensor<5x3xf32>, %[[S:.*]]: tensor<3xf32>, %[[I:.*]]: tensor<i32>, %[[CT:.*]]: tensor<3xf32>)
// CHECK: %[[DA:.*]] = google.mul %[[CT]], %[[S]]
// CHECK: %[[ONCE:.*]] = google.scatter_add %{{.*}}, %[[I]], %[[DA]]
// CHECK: %[[TWICE:.*]] = google.scatter_add %[[ONCE]], %[[I]], %[[DA]]
// CHECK: return %{{.*}}, %[[TWICE]], %{{.*}}
func.func @f(%t: tensor<5x3xf32>, %s: tensor<3xf32>, %i: tensor<i32>) -> tensor<3xf32> {
  %z = google.add %t, %t : tensor<5x3xf32>, tensor<5x3xf32> -> tensor<5x3xf32>
  %a = google.gather %z, %i {axis = 0 : i64} : tensor<5x3xf32>, tensor<i32> -> tensor<3xf32>
  %r = google.mul %a, %s : tensor<3xf32>, tensor<3xf32> -> tensor<3xf32>
  return %r : tensor<3xf32>
}

// -----

// A loop reading its input a step at a time (a scan): each backward step
// scatters its cotangent into the one carried for the input, instead of
// into zeros of the input's shape added to it (a pass over the whole
// input per step).
// CHECK-LABEL: func.func @f_vjp(
// CHECK-SAME: %[[XS:.*]]: tensor<4x2xf32>, %[[H:.*]]: tensor<2xf32>, %[[CT:.*]]: tensor<2xf32>)
// CHECK: %[[B:.*]]:3 = google.while %{{.*}}, %[[CT]], %{{.*}} {trip_count = 4 : i64}
// CHECK: } do {
// CHECK-NEXT: ^bb0(%{{.*}}: tensor<i64>, %{{.*}}: tensor<2xf32>, %[[DXS:.*]]: tensor<4x2xf32>):
// CHECK-NOT: google.add %[[DXS]]
// CHECK:   %[[NEXT:.*]] = google.scatter_add %[[DXS]], %{{.*}}, %{{.*}} {axis = 0 : i64} : tensor<4x2xf32>, tensor<i64>, tensor<2xf32> -> tensor<4x2xf32>
// CHECK-NEXT: google.yield %{{.*}}, %{{.*}}, %[[NEXT]]
// CHECK: return %{{.*}}, %[[B]]#2, %[[B]]#1
func.func @f(%xs: tensor<4x2xf32>, %h: tensor<2xf32>) -> tensor<2xf32> {
  %zero = google.constant dense<0> : tensor<i64>
  %r:2 = google.while %zero, %h {trip_count = 4 : i64} : (tensor<i64>, tensor<2xf32>) -> (tensor<i64>, tensor<2xf32>) cond {
  ^bb0(%i: tensor<i64>, %y: tensor<2xf32>):
    %n = google.constant dense<4> : tensor<i64>
    %c = google.lt %i, %n : tensor<i64>, tensor<i64> -> tensor<i1>
    google.condition %c : tensor<i1>
  } do {
  ^bb0(%i: tensor<i64>, %y: tensor<2xf32>):
    %one = google.constant dense<1> : tensor<i64>
    %next = google.add %i, %one : tensor<i64>, tensor<i64> -> tensor<i64>
    %x = google.gather %xs, %i {axis = 0 : i64} : tensor<4x2xf32>, tensor<i64> -> tensor<2xf32>
    %z = google.mul %y, %x : tensor<2xf32>, tensor<2xf32> -> tensor<2xf32>
    google.yield %next, %z : tensor<i64>, tensor<2xf32>
  }
  return %r#1 : tensor<2xf32>
}

// -----

// scatter_add: the base gets the cotangent, the updates gather theirs.
// CHECK-LABEL: func.func @f_vjp(
// CHECK-SAME: %[[B:.*]]: tensor<2x6xf32>, %[[U:.*]]: tensor<2x3xf32>, %[[CT:.*]]: tensor<2x6xf32>)
// CHECK: %[[IDS:.*]] = google.constant dense<[5, -1, 0]> : tensor<3xi64>
// CHECK: %[[DU:.*]] = google.gather %[[CT]], %[[IDS]] {axis = 1 : i64} : tensor<2x6xf32>, tensor<3xi64> -> tensor<2x3xf32>
// CHECK: return %{{.*}}, %[[CT]], %[[DU]]
func.func @f(%b: tensor<2x6xf32>, %u: tensor<2x3xf32>) -> tensor<2x6xf32> {
  %ids = google.constant dense<[5, -1, 0]> : tensor<3xi64>
  %s = google.scatter_add %b, %ids, %u {axis = 1 : i64} : tensor<2x6xf32>, tensor<3xi64>, tensor<2x3xf32> -> tensor<2x6xf32>
  return %s : tensor<2x6xf32>
}

// -----

// google.if: a google.if on the same condition recomputes each branch and
// differentiates it, yielding the cotangents of the values the branches
// use from above (zeros where a branch uses none).
// CHECK-LABEL: func.func @f_vjp(
// CHECK-SAME: %[[X:.*]]: tensor<3xf32>, %[[W:.*]]: tensor<3xf32>, %[[CT:.*]]: tensor<3xf32>)
// CHECK: %[[P:.*]] = google.reshape
// CHECK: %[[R:.*]] = google.if %[[P]] : tensor<i1> -> (tensor<3xf32>)
// CHECK: %[[D:.*]]:2 = google.if %[[P]] : tensor<i1> -> (tensor<3xf32>, tensor<3xf32>) {
// CHECK:   %[[E:.*]] = google.exp %[[X]]
// CHECK:   google.mul %[[E]], %[[W]]
// CHECK:   google.yield %{{.*}}, %{{.*}} : tensor<3xf32>, tensor<3xf32>
// CHECK: } else {
// CHECK:   %[[Z:.*]] = google.constant dense<0.000000e+00> : tensor<3xf32>
// CHECK:   google.yield %[[CT]], %[[Z]] : tensor<3xf32>, tensor<3xf32>
// CHECK: }
// CHECK: return %[[R]], %[[D]]#0, %[[D]]#1
func.func @f(%x: tensor<3xf32>, %w: tensor<3xf32>) -> tensor<3xf32> {
  %zero = google.constant dense<0.0> : tensor<3xf32>
  %c = google.gt %x, %zero : tensor<3xf32>, tensor<3xf32> -> tensor<3xi1>
  %s = google.slice %c {starts = array<i64: 0>, limits = array<i64: 1>, strides = array<i64: 1>} : tensor<3xi1> -> tensor<1xi1>
  %p = google.reshape %s : tensor<1xi1> -> tensor<i1>
  %r = google.if %p : tensor<i1> -> (tensor<3xf32>) {
    %e = google.exp %x : tensor<3xf32>
    %m = google.mul %e, %w : tensor<3xf32>, tensor<3xf32> -> tensor<3xf32>
    google.yield %m : tensor<3xf32>
  } else {
    google.yield %x : tensor<3xf32>
  }
  return %r : tensor<3xf32>
}

// -----

// google.while with a trip count: the forward loop becomes a taped one
// recording each iteration's starting state (scatter_add into -0.0, its
// users take its results; the old loop is left dead); a backward loop reads
// the states back (gather), recomputes the body and differentiates it; the
// cotangents of the values the body uses from above (%w) are summed. The
// counter, which the body steps by a constant, is not taped (its tape
// passes through): iteration j started from init + j * step.
// CHECK-LABEL: func.func @f_vjp(
// CHECK-SAME: %[[X:.*]]: tensor<2xf32>, %[[W:.*]]: tensor<2xf32>, %[[CT:.*]]: tensor<2xf32>)
// CHECK: %[[ZERO:.*]] = google.constant dense<0> : tensor<i64>
// CHECK: %[[T:.*]]:5 = google.while %{{.*}}, %{{.*}}, %[[X]], %{{.*}}, %{{.*}} {trip_count = 3 : i64} : (tensor<i64>, tensor<i64>, tensor<2xf32>, tensor<3xi64>, tensor<3x2xf32>)
// CHECK:   ^bb0(%{{.*}}: tensor<i64>, %{{.*}}: tensor<i64>, %{{.*}}: tensor<2xf32>, %[[COUNTER_TAPE:.*]]: tensor<3xi64>, %{{.*}}: tensor<3x2xf32>):
// CHECK:   google.scatter_add %{{.*}} : tensor<3x2xf32>, tensor<i64>, tensor<2xf32> -> tensor<3x2xf32>
// CHECK-NOT: google.scatter_add
// CHECK:   google.yield %{{.*}}, %{{.*}}, %{{.*}}, %[[COUNTER_TAPE]], %{{.*}} :
// CHECK: %[[B:.*]]:3 = google.while %[[T]]#0, %[[CT]], %{{.*}} {trip_count = 3 : i64} : (tensor<i64>, tensor<2xf32>, tensor<2xf32>)
// CHECK:   %[[J:.*]] = google.sub
// CHECK:   %[[STEPS:.*]] = google.mul %[[J]], %{{.*}} : tensor<i64>, tensor<i64> -> tensor<i64>
// CHECK:   google.add %[[ZERO]], %[[STEPS]]
// CHECK:   google.gather %[[T]]#4
// CHECK:   google.mul
// CHECK: return %[[T]]#2, %[[B]]#1, %[[B]]#2
func.func @f(%x: tensor<2xf32>, %w: tensor<2xf32>) -> tensor<2xf32> {
  %zero = google.constant dense<0> : tensor<i64>
  %r:2 = google.while %zero, %x {trip_count = 3 : i64} : (tensor<i64>, tensor<2xf32>) -> (tensor<i64>, tensor<2xf32>) cond {
  ^bb0(%i: tensor<i64>, %y: tensor<2xf32>):
    %n = google.constant dense<3> : tensor<i64>
    %c = google.lt %i, %n : tensor<i64>, tensor<i64> -> tensor<i1>
    google.condition %c : tensor<i1>
  } do {
  ^bb0(%i: tensor<i64>, %y: tensor<2xf32>):
    %one = google.constant dense<1> : tensor<i64>
    %next = google.add %i, %one : tensor<i64>, tensor<i64> -> tensor<i64>
    %z = google.mul %y, %w : tensor<2xf32>, tensor<2xf32> -> tensor<2xf32>
    google.yield %next, %z : tensor<i64>, tensor<2xf32>
  }
  return %r#1 : tensor<2xf32>
}

// -----

// A tanh in the loop body: its results are taped too, and the backward
// loop reads them (its derivative needs only the result) instead of
// recomputing tanh and the mul that feeds it.
// CHECK-LABEL: func.func @f_vjp(
// CHECK: %[[T:.*]]:6 = google.while {{.*}} : (tensor<i64>, tensor<i64>, tensor<2xf32>, tensor<3xi64>, tensor<3x2xf32>, tensor<3x2xf32>)
// CHECK:   %[[Z:.*]] = google.tanh
// CHECK:   google.scatter_add %{{.*}}, %{{.*}}, %[[Z]]
// CHECK:   google.yield
// CHECK: google.while %[[T]]#0
// CHECK:   google.gather %[[T]]#4
// CHECK:   google.gather %[[T]]#5
// CHECK-NOT: google.tanh
// CHECK: return
func.func @f(%x: tensor<2xf32>, %w: tensor<2xf32>) -> tensor<2xf32> {
  %zero = google.constant dense<0> : tensor<i64>
  %r:2 = google.while %zero, %x {trip_count = 3 : i64} : (tensor<i64>, tensor<2xf32>) -> (tensor<i64>, tensor<2xf32>) cond {
  ^bb0(%i: tensor<i64>, %y: tensor<2xf32>):
    %n = google.constant dense<3> : tensor<i64>
    %c = google.lt %i, %n : tensor<i64>, tensor<i64> -> tensor<i1>
    google.condition %c : tensor<i1>
  } do {
  ^bb0(%i: tensor<i64>, %y: tensor<2xf32>):
    %one = google.constant dense<1> : tensor<i64>
    %next = google.add %i, %one : tensor<i64>, tensor<i64> -> tensor<i64>
    %m = google.mul %y, %w : tensor<2xf32>, tensor<2xf32> -> tensor<2xf32>
    %z = google.tanh %m : tensor<2xf32>
    google.yield %next, %z : tensor<i64>, tensor<2xf32>
  }
  return %r#1 : tensor<2xf32>
}

// -----

// The stable log-sum-exp, m + log(sum(exp(x - m))), is log(sum(exp(x)))
// whatever the shift m is: the cotangents reaching m (ct through the add,
// -ct through the sub) cancel, so none flows into the max and no one-hot
// of its argmax is built; x's is the softmax times ct.
// CHECK-LABEL: func.func @f_vjp(
// CHECK-SAME: %[[X:.*]]: tensor<4x10xf32>, %[[Y:.*]]: tensor<4x1xf32>, %[[CT:.*]]: tensor<4x1xf32>)
// CHECK: %[[M:.*]] = google.reduce_max %[[X]]
// CHECK: %[[E:.*]] = google.exp
// CHECK: %[[S:.*]] = google.reduce_sum %[[E]]
// CHECK-NOT: google.argmax
// CHECK: %[[R:.*]] = google.div %{{.*}}, %[[S]]
// CHECK: google.mul %[[CT]], %[[R]]
// CHECK: %[[DX:.*]] = google.mul %{{.*}}, %[[E]]
// CHECK-NOT: google.argmax
// CHECK: return %{{.*}}, %[[DX]], %{{.*}}
func.func @f(%x: tensor<4x10xf32>, %y: tensor<4x1xf32>) -> tensor<4x1xf32> {
  %m = google.reduce_max %x {axes = array<i64: 1>, keep_dims = true} : tensor<4x10xf32> -> tensor<4x1xf32>
  %d = google.sub %x, %m : tensor<4x10xf32>, tensor<4x1xf32> -> tensor<4x10xf32>
  %e = google.exp %d : tensor<4x10xf32>
  %s = google.reduce_sum %e {axes = array<i64: 1>, keep_dims = true} : tensor<4x10xf32> -> tensor<4x1xf32>
  %l = google.log %s : tensor<4x1xf32>
  %r = google.add %m, %l : tensor<4x1xf32>, tensor<4x1xf32> -> tensor<4x1xf32>
  return %r : tensor<4x1xf32>
}

// -----

// Where the shift has another use (here it is scaled into the result too)
// its cotangent does not cancel: the max's argmax one-hot is built.
// CHECK-LABEL: func.func @f_vjp(
// CHECK: google.argmax
func.func @f(%x: tensor<4x10xf32>, %y: tensor<4x1xf32>) -> tensor<4x1xf32> {
  %m = google.reduce_max %x {axes = array<i64: 1>, keep_dims = true} : tensor<4x10xf32> -> tensor<4x1xf32>
  %d = google.sub %x, %m : tensor<4x10xf32>, tensor<4x1xf32> -> tensor<4x10xf32>
  %e = google.exp %d : tensor<4x10xf32>
  %s = google.reduce_sum %e {axes = array<i64: 1>, keep_dims = true} : tensor<4x10xf32> -> tensor<4x1xf32>
  %l = google.log %s : tensor<4x1xf32>
  %r = google.add %m, %l : tensor<4x1xf32>, tensor<4x1xf32> -> tensor<4x1xf32>
  %t = google.mul %r, %m : tensor<4x1xf32>, tensor<4x1xf32> -> tensor<4x1xf32>
  return %t : tensor<4x1xf32>
}
