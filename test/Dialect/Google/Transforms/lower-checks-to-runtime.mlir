// RUN: google-opt %s -google-lower-checks-to-runtime | FileCheck %s

// CHECK: llvm.func @google_rt_check_failed(!llvm.ptr)
// CHECK: llvm.mlir.global private constant @[[MSG:.*]]("sizes differ\00")
// CHECK-LABEL: func @f
// CHECK-SAME: (%[[OK:.*]]: i1)
// CHECK: cf.cond_br %[[OK]], ^[[CONT:.*]], ^[[FAIL:.*]]
// CHECK: ^[[FAIL]]:
// CHECK: %[[P:.*]] = llvm.mlir.addressof @[[MSG]] : !llvm.ptr
// CHECK: llvm.call @google_rt_check_failed(%[[P]]) : (!llvm.ptr) -> ()
// CHECK: llvm.unreachable
// CHECK: ^[[CONT]]:
// CHECK: return
// CHECK-NOT: cf.assert
func.func @f(%ok: i1) {
  cf.assert %ok, "sizes differ"
  return
}
