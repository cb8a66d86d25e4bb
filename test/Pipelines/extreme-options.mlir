// Each optimization can be switched off; the stages are always there
// (the gradients a module asks for are built first, then functions called
// once are inlined).
// RUN: google-opt %s --google-extreme-pipeline --dump-pass-pipeline 2>&1 >/dev/null | FileCheck %s --check-prefix=ALL
// RUN: google-opt %s --google-extreme-pipeline="fold=false cse=false dce=false fuse=false" --dump-pass-pipeline 2>&1 >/dev/null | FileCheck %s --check-prefix=NONE
// RUN: google-opt %s --google-extreme-pipeline="fuse=false" --dump-pass-pipeline 2>&1 >/dev/null | FileCheck %s --check-prefix=NOFUSE
// RUN: google-opt %s --google-extreme-pipeline="target=cpu chip=host opt-level=3" | FileCheck %s --check-prefix=LLVM
// RUN: google-opt %s --google-extreme-pipeline="fold=false cse=false dce=false fuse=false opt-level=0" | mlir-translate --mlir-to-llvmir | FileCheck %s --check-prefix=LLVMIR

// ALL: google-differentiate
// ALL-NEXT: google-inline-single-calls,
// ALL-NEXT: google-fold-constants
// ALL-NEXT: google-swap-matmul-transposes,
// ALL-NEXT: google-cse,
// ALL-NEXT: google-dce,
// ALL-NEXT: google-fuse-matmul-bias-relu,
// ALL-NEXT: google-export-functions,
// ALL-NEXT: convert-google-to-linalg{scatter=loops},
// ALL: one-shot-bufferize
// ALL: convert-func-to-llvm

// NONE: builtin.module(
// NONE-NEXT: google-differentiate
// NONE-NEXT: google-inline-single-calls,
// NONE-NEXT: google-export-functions,
// NONE-NEXT: convert-google-to-linalg{scatter=loops},

// NOFUSE: google-fold-constants
// NOFUSE-NEXT: google-swap-matmul-transposes,
// NOFUSE-NEXT: google-cse,
// NOFUSE-NEXT: google-dce,
// NOFUSE-NEXT: google-export-functions,

// LLVM: llvm.func @layer
// LLVMIR: define void @_mlir_ciface_layer(

func.func @layer(%x: tensor<4x8xf32>, %w: tensor<8x16xf32>, %b: tensor<16xf32>) -> tensor<4x16xf32> {
  %m = google.matmul %x, %w : tensor<4x8xf32>, tensor<8x16xf32> -> tensor<4x16xf32>
  %s = google.add %m, %b : tensor<4x16xf32>, tensor<16xf32> -> tensor<4x16xf32>
  %r = google.relu %s : tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}
