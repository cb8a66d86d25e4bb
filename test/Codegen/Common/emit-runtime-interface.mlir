// RUN: google-opt %s -split-input-file -google-emit-runtime-interface -verify-diagnostics | FileCheck %s

// The C interface calls its function without inlining it (one copy of
// the body, not three).
// CHECK-LABEL: llvm.func @_mlir_ciface_f(
// CHECK: llvm.call @f(%{{.*}}) {no_inline} : (!llvm.ptr) -> ()
// CHECK-LABEL: llvm.func @_google_packed_f(%{{.*}}: !llvm.ptr)
// CHECK: %[[P0:.*]] = llvm.getelementptr %[[ARGS:.*]][0] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
// CHECK: %[[A0:.*]] = llvm.load %[[P0]] : !llvm.ptr -> !llvm.ptr
// CHECK: %[[P1:.*]] = llvm.getelementptr %[[ARGS]][1]
// CHECK: %[[A1:.*]] = llvm.load %[[P1]]
// CHECK: llvm.call @_mlir_ciface_f(%[[A0]], %[[A1]]) : (!llvm.ptr, !llvm.ptr) -> ()
// CHECK-LABEL: llvm.func @_google_packed_g
// CHECK: llvm.call @_mlir_ciface__google_fn.g
// CHECK: llvm.mlir.global external constant @google_mlir_manifest("google-mlir-manifest 1\0Afunc f out 1 tensor<?x4xf32> 1 tensor<4xf32>\0Afunc g ret 1 tensor<?xi32> 1 tensor<?xi32>\0A\00")
llvm.func @f(%arg0: !llvm.ptr) attributes {google.results_out, google.signature = (tensor<?x4xf32>) -> tensor<4xf32>} {
  llvm.return
}
llvm.func @_mlir_ciface_f(%arg0: !llvm.ptr, %arg1: !llvm.ptr) attributes {google.results_out, google.signature = (tensor<?x4xf32>) -> tensor<4xf32>} {
  llvm.call @f(%arg0) : (!llvm.ptr) -> ()
  llvm.return
}
llvm.func @_google_fn.g(%arg0: !llvm.ptr) attributes {google.export_name = "g", google.signature = (tensor<?xi32>) -> tensor<?xi32>} {
  llvm.return
}
llvm.func @_mlir_ciface__google_fn.g(%arg0: !llvm.ptr, %arg1: !llvm.ptr) {
  llvm.return
}

// -----

// expected-error@+1 {{google-emit-runtime-interface: @h has no C interface (_mlir_ciface_h)}}
llvm.func @h() attributes {google.signature = () -> ()} {
  llvm.return
}

// -----

// expected-error@+1 {{the runtime cannot pass 'tensor<4xcomplex<f32>>'}}
llvm.func @c(%arg0: !llvm.ptr) attributes {google.signature = (tensor<4xcomplex<f32>>) -> ()} {
  llvm.return
}
llvm.func @_mlir_ciface_c(%arg0: !llvm.ptr) {
  llvm.return
}

// -----

// Runtime hooks get weak C-library stand-ins, so the module also runs
// without the runtime.
// CHECK-LABEL: llvm.func weak @google_rt_check_failed(%{{.*}}: !llvm.ptr) attributes {google.runtime_fallback}
// CHECK: llvm.call @puts
// CHECK: llvm.call @abort()
// CHECK: llvm.unreachable
// CHECK: llvm.func weak @_mlir_memref_to_llvm_alloc(%[[SIZE:.*]]: i64) -> !llvm.ptr attributes {google.runtime_fallback}
// CHECK: %[[P:.*]] = llvm.call @malloc(%[[SIZE]]) : (i64) -> !llvm.ptr
// CHECK: llvm.return %[[P]]
llvm.func @google_rt_check_failed(!llvm.ptr)
llvm.func @_mlir_memref_to_llvm_alloc(i64) -> !llvm.ptr
