// RUN: google-opt %s -split-input-file -google-lower-checks-to-runtime | FileCheck %s

// A comparison of two extents passes both to the runtime, which fills in
// the message's {0} and {1}.
// CHECK: llvm.func @google_rt_check_failed(!llvm.ptr, i64, i64)
// CHECK: llvm.mlir.global private constant @[[MSG:.*]]("google.add: dimension 0 is {0}, expected {1}\00")
// CHECK-LABEL: func @check_sizes
// CHECK-SAME: (%[[A:.*]]: index, %[[B:.*]]: index)
// CHECK: %[[OK:.*]] = arith.cmpi eq, %[[A]], %[[B]]
// CHECK: cf.cond_br %[[OK]], ^[[CONT:.*]], ^[[FAIL:.*]]
// CHECK: ^[[FAIL]]:
// CHECK: %[[P:.*]] = llvm.mlir.addressof @[[MSG]] : !llvm.ptr
// CHECK-DAG: %[[A64:.*]] = arith.index_cast %[[A]] : index to i64
// CHECK-DAG: %[[B64:.*]] = arith.index_cast %[[B]] : index to i64
// CHECK: llvm.call @google_rt_check_failed(%[[P]], %[[A64]], %[[B64]]) : (!llvm.ptr, i64, i64) -> ()
// CHECK: llvm.unreachable
// CHECK: ^[[CONT]]:
// CHECK: return
// CHECK-NOT: cf.assert
func.func @check_sizes(%a: index, %b: index) {
  %ok = arith.cmpi eq, %a, %b : index
  cf.assert %ok, "google.add: dimension 0 is {0}, expected {1}"
  return
}

// -----

// Any other condition: the placeholders become "?".
// CHECK: llvm.mlir.global private constant @[[MSG:.*]]("sizes differ: ? vs ?\00")
// CHECK-LABEL: func @check_flag
// CHECK: %[[ZERO:.*]] = llvm.mlir.constant(0 : i64) : i64
// CHECK: llvm.call @google_rt_check_failed(%{{.*}}, %[[ZERO]], %[[ZERO]])
func.func @check_flag(%ok: i1) {
  cf.assert %ok, "sizes differ: {0} vs {1}"
  return
}

// -----

// A check marked to abort (a bounds check of --google-check-bounds, which
// may fail inside a parallel region) calls google_rt_abort instead: it
// prints the message and aborts the process.
// CHECK: llvm.func @google_rt_abort(!llvm.ptr)
// CHECK-NOT: llvm.func @google_rt_check_failed
// CHECK: llvm.mlir.global private constant @[[MSG:.*]]("vector.load at here: out-of-bounds access\00")
// CHECK-LABEL: func @check_bounds
// CHECK: cf.cond_br %{{.*}}, ^[[CONT:.*]], ^[[FAIL:.*]]
// CHECK: ^[[FAIL]]:
// CHECK: %[[P:.*]] = llvm.mlir.addressof @[[MSG]] : !llvm.ptr
// CHECK-NEXT: llvm.call @google_rt_abort(%[[P]]) : (!llvm.ptr) -> ()
// CHECK-NEXT: llvm.unreachable
func.func @check_bounds(%ok: i1) {
  cf.assert %ok, "vector.load at here: out-of-bounds access" {google.abort_on_failure}
  return
}
