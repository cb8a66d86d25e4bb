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

// google.while => scf.while: the cond region decides (scf.condition
// forwards the state), the body yields the next state.
// CHECK-LABEL: func @loop
// CHECK: scf.while (%[[I:.*]] = %{{.*}}, %[[Y:.*]] = %{{.*}}) : (tensor<i64>, tensor<2xf32>) -> (tensor<i64>, tensor<2xf32>) {
// CHECK:   arith.cmpi slt
// CHECK:   %[[C:.*]] = tensor.extract %{{.*}}[] : tensor<i1>
// CHECK:   scf.condition(%[[C]]) %[[I]], %[[Y]] : tensor<i64>, tensor<2xf32>
// CHECK: } do {
// CHECK: ^bb0(%{{.*}}: tensor<i64>, %{{.*}}: tensor<2xf32>):
// CHECK:   math.tanh
// CHECK:   scf.yield
func.func @loop(%n: tensor<i64>, %x: tensor<2xf32>) -> tensor<2xf32> {
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
  return %r#1 : tensor<2xf32>
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
