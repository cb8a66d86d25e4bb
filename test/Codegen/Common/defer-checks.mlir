// RUN: google-opt %s -split-input-file --google-defer-checks | FileCheck %s

// The count's read, its comparison and the check move past the kernels to
// the return; the count's reduction stays where it was.
// CHECK-LABEL: func.func @to_the_end
// CHECK: %[[COUNT:.*]] = linalg.generic
// CHECK: linalg.matmul
// CHECK: math.tanh
// CHECK: } -> tensor<4x4xf32>
// CHECK-NEXT: %[[N:.*]] = tensor.extract %[[COUNT]][]
// CHECK-NEXT: %[[OK:.*]] = arith.cmpi eq, %[[N]]
// CHECK-NEXT: cf.assert %[[OK]], "indices" {google.deferrable_check}
// CHECK-NEXT: return
#id = affine_map<(d0) -> (d0)>
#all = affine_map<(d0) -> ()>
func.func @to_the_end(%ids: tensor<8xi64>, %count0: tensor<i64>, %a: tensor<4x4xf32>, %acc: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %c0 = arith.constant 0 : i64
  %count = linalg.generic {indexing_maps = [#id, #all], iterator_types = ["reduction"]} ins(%ids : tensor<8xi64>) outs(%count0 : tensor<i64>) {
  ^bb0(%i: i64, %n: i64):
    %s = arith.addi %i, %n : i64
    linalg.yield %s : i64
  } -> tensor<i64>
  %n = tensor.extract %count[] : tensor<i64>
  %ok = arith.cmpi eq, %n, %c0 : i64
  cf.assert %ok, "indices" {google.deferrable_check}
  %m = linalg.matmul ins(%a, %a : tensor<4x4xf32>, tensor<4x4xf32>) outs(%acc : tensor<4x4xf32>) -> tensor<4x4xf32>
  %e = tensor.empty() : tensor<4x4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%m : tensor<4x4xf32>) outs(%e : tensor<4x4xf32>) {
  ^bb0(%x: f32, %y: f32):
    %t = math.tanh %x : f32
    linalg.yield %t : f32
  } -> tensor<4x4xf32>
  return %r : tensor<4x4xf32>
}

// -----

// Another check, a call, a loop and a read of data the host acts on are
// reported in program order: deferred checks stop before each, in their
// order.
// CHECK-LABEL: func.func @stops
// CHECK: cf.assert %{{.*}}, "first" {google.deferrable_check}
// CHECK-NEXT: cf.assert %{{.*}}, "second" {google.deferrable_check}
// CHECK-NEXT: cf.assert %{{.*}}, "shape"
// CHECK: cf.assert %{{.*}}, "third" {google.deferrable_check}
// CHECK-NEXT: call @callee
// CHECK: cf.assert %{{.*}}, "fourth" {google.deferrable_check}
// CHECK-NEXT: scf.for
// CHECK: cf.assert %{{.*}}, "fifth" {google.deferrable_check}
// CHECK-NEXT: tensor.extract %{{.*}}[] : tensor<index>
func.func private @callee()
func.func @stops(%n: tensor<i64>, %d: index, %steps: tensor<index>) -> index {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : index
  %v = tensor.extract %n[] : tensor<i64>
  %ok = arith.cmpi eq, %v, %c0 : i64
  cf.assert %ok, "first" {google.deferrable_check}
  cf.assert %ok, "second" {google.deferrable_check}
  %same = arith.cmpi eq, %d, %c1 : index
  cf.assert %same, "shape"
  cf.assert %ok, "third" {google.deferrable_check}
  call @callee() : () -> ()
  cf.assert %ok, "fourth" {google.deferrable_check}
  %s = scf.for %i = %c1 to %d step %c1 iter_args(%x = %c1) -> (index) {
    %y = arith.addi %x, %i : index
    scf.yield %y : index
  }
  cf.assert %ok, "fifth" {google.deferrable_check}
  %k = tensor.extract %steps[] : tensor<index>
  %r = arith.addi %s, %k : index
  return %r : index
}

// -----

// A comparison something else reads (a branch taken only when the indices
// are in range) is made where it was; the check alone moves. Unmarked
// checks stay.
// CHECK-LABEL: func.func @shared_condition
// CHECK: tensor.extract
// CHECK-NEXT: %[[OK:.*]] = arith.cmpi
// CHECK-NEXT: cf.assert %[[OK]], "unmarked"
// CHECK-NEXT: arith.addf
// CHECK-NEXT: cf.assert %[[OK]], "marked" {google.deferrable_check}
// CHECK-NEXT: scf.if %[[OK]]
func.func @shared_condition(%n: tensor<i64>, %x: f32) -> f32 {
  %c0 = arith.constant 0 : i64
  %v = tensor.extract %n[] : tensor<i64>
  %ok = arith.cmpi eq, %v, %c0 : i64
  cf.assert %ok, "unmarked"
  cf.assert %ok, "marked" {google.deferrable_check}
  %y = arith.addf %x, %x : f32
  %r = scf.if %ok -> (f32) {
    scf.yield %y : f32
  } else {
    scf.yield %x : f32
  }
  return %r : f32
}

// -----

// In a loop's body: to the end of the iteration.
// CHECK-LABEL: func.func @in_a_loop
// CHECK: scf.for
// CHECK: arith.mulf
// CHECK-NEXT: tensor.extract
// CHECK-NEXT: arith.cmpi
// CHECK-NEXT: cf.assert
// CHECK-NEXT: scf.yield
func.func @in_a_loop(%n: tensor<i64>, %x: f32, %d: index) -> f32 {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c1 to %d step %c1 iter_args(%a = %x) -> (f32) {
    %v = tensor.extract %n[] : tensor<i64>
    %ok = arith.cmpi eq, %v, %c0 : i64
    cf.assert %ok, "in the loop" {google.deferrable_check}
    %b = arith.mulf %a, %a : f32
    scf.yield %b : f32
  }
  return %r : f32
}
