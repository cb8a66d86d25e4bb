// RUN: google-opt %s --google-extreme-pipeline | FileCheck %s
// Only LLVM dialect ops are left.
// RUN: google-opt %s --google-extreme-pipeline | not grep -E '^\s*(%\S+ = )?"?(google|linalg|tensor|memref|bufferization|scf|affine|arith|math|func|cf)\.'
// RUN: google-opt %s --google-extreme-pipeline | mlir-translate --mlir-to-llvmir | FileCheck %s --check-prefix=LLVMIR

// The signature and the C interface survive the lowering.
// CHECK: llvm.func @mlp({{.*}}) -> !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>
// CHECK-SAME: google.signature = (tensor<?x32xf32>, tensor<32x64xf32>, tensor<64xf32>, tensor<64x10xf32>, tensor<10xf32>) -> tensor<?x10xf32>
// CHECK-SAME: llvm.emit_c_interface
// CHECK: llvm.func @_mlir_ciface_mlp(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr)
// CHECK: llvm.func @scale
// CHECK-SAME: google.results_out
// CHECK-SAME: google.signature = (tensor<4xf64>) -> (tensor<4xf64>, tensor<f64>)
// The private helper is inlined or kept, but never exported.
// CHECK-NOT: _mlir_ciface_helper
// The runtime's entry points and manifest: @mlp returns its dynamic result,
// @scale writes its static results into out-parameters.
// CHECK: llvm.func @_google_packed_mlp(%{{.*}}: !llvm.ptr)
// CHECK: llvm.func @_google_packed_scale(%{{.*}}: !llvm.ptr)
// CHECK: llvm.mlir.global external constant @google_mlir_manifest("google-mlir-manifest 1\0A{{(cpu [a-z0-9. ]+\\0A)?}}func mlp ret 5 tensor<?x32xf32> tensor<32x64xf32> tensor<64xf32> tensor<64x10xf32> tensor<10xf32> 1 tensor<?x10xf32>\0Afunc scale out 1 tensor<4xf64> 2 tensor<4xf64> tensor<f64>\0A\00")

// LLVMIR: @google_mlir_manifest = constant
// LLVMIR: define { ptr, ptr, i64, [2 x i64], [2 x i64] } @mlp(
// LLVMIR: define void @_mlir_ciface_mlp(ptr {{.*}}, ptr {{.*}}, ptr {{.*}}, ptr {{.*}}, ptr {{.*}}, ptr {{.*}})
// LLVMIR: define void @_mlir_ciface_scale(
// LLVMIR: define void @_google_packed_mlp(ptr

func.func @mlp(%x: tensor<?x32xf32>, %w1: tensor<32x64xf32>, %b1: tensor<64xf32>, %w2: tensor<64x10xf32>, %b2: tensor<10xf32>) -> tensor<?x10xf32> {
  %0 = google.matmul %x, %w1 : tensor<?x32xf32>, tensor<32x64xf32> -> tensor<?x64xf32>
  %1 = google.add %0, %b1 : tensor<?x64xf32>, tensor<64xf32> -> tensor<?x64xf32>
  %2 = google.relu %1 : tensor<?x64xf32>
  %3 = google.matmul %2, %w2 : tensor<?x64xf32>, tensor<64x10xf32> -> tensor<?x10xf32>
  %4 = google.add %3, %b2 : tensor<?x10xf32>, tensor<10xf32> -> tensor<?x10xf32>
  %5 = call @helper(%4) : (tensor<?x10xf32>) -> tensor<?x10xf32>
  return %5 : tensor<?x10xf32>
}

func.func private @helper(%x: tensor<?x10xf32>) -> tensor<?x10xf32> {
  %0 = google.softmax %x {axis = 1 : i64} : tensor<?x10xf32>
  return %0 : tensor<?x10xf32>
}

func.func @scale(%x: tensor<4xf64>) -> (tensor<4xf64>, tensor<f64>) {
  %c = google.constant dense<2.0> : tensor<f64>
  %0 = google.mul %x, %c : tensor<4xf64>, tensor<f64> -> tensor<4xf64>
  %1 = google.reduce_sum %0 {axes = array<i64: 0>, keep_dims = false} : tensor<4xf64> -> tensor<f64>
  return %0, %1 : tensor<4xf64>, tensor<f64>
}
