// LLVM optimizes and emits a module in parts, on threads, and the objects
// link into one: the parallel loops' outlined bodies (called directly from
// the serial path and by address from their OpenMP regions) in other parts
// than the function calling them, private constants and error messages
// shared across parts, two public functions. Split into 2 and 5 parts
// (every part at least one instruction), and whole.
// RUN: env GOOGLE_MLIR_COMPILE_THREADS=2 GOOGLE_MLIR_COMPILE_PART_MIN=1 %python %e2e run %s google-run | FileCheck %s
// RUN: env GOOGLE_MLIR_COMPILE_THREADS=5 GOOGLE_MLIR_COMPILE_PART_MIN=1 GOOGLE_E2E_OPT_LEVELS=3 %python %e2e run %s google-run | FileCheck %s
// RUN: env GOOGLE_MLIR_COMPILE_THREADS=1 GOOGLE_E2E_OPT_LEVELS=3 %python %e2e run %s google-run | FileCheck %s
// CHECK: e2e: 4 cases match numpy

// How many parts: as many as threads while each part is large enough.
// RUN: rm -rf %t.cache
// RUN: env GOOGLE_MLIR_CACHE_DIR=%t.cache/a GOOGLE_MLIR_LOG_COMPILES=1 GOOGLE_MLIR_COMPILE_THREADS=2 GOOGLE_MLIR_COMPILE_PART_MIN=1 google-run %s --function=mlp --emit-object=%t.so 2>&1 | FileCheck %s --check-prefix=TWO
// RUN: env GOOGLE_MLIR_CACHE_DIR=%t.cache/b GOOGLE_MLIR_LOG_COMPILES=1 GOOGLE_MLIR_COMPILE_THREADS=5 GOOGLE_MLIR_COMPILE_PART_MIN=1 google-run %s --function=mlp --emit-object=%t.so 2>&1 | FileCheck %s --check-prefix=FIVE
// RUN: env GOOGLE_MLIR_CACHE_DIR=%t.cache/c GOOGLE_MLIR_LOG_COMPILES=1 GOOGLE_MLIR_COMPILE_THREADS=1 GOOGLE_MLIR_COMPILE_PART_MIN=1 google-run %s --function=mlp --emit-object=%t.so 2>&1 | FileCheck %s --check-prefix=ONE
// RUN: env GOOGLE_MLIR_CACHE_DIR=%t.cache/d GOOGLE_MLIR_LOG_COMPILES=1 GOOGLE_MLIR_COMPILE_THREADS=2 GOOGLE_MLIR_COMPILE_PART_MIN=100000 google-run %s --function=mlp --emit-object=%t.so 2>&1 | FileCheck %s --check-prefix=ONE
// TWO: codegen in 2 parts]
// FIVE: codegen in 5 parts]
// ONE: codegen in 1 part]

// E2E: @mlp(x: 200x64xf32, w1: 64x256xf32[-0.2:0.2], b1: 256xf32, w2: 256x10xf32[-0.2:0.2]) -> (np.maximum(x @ w1 + b1, 0) @ w2, (np.maximum(x @ w1 + b1, 0) @ w2).sum(axis=0), x.T)
// E2E: @mlp(x: 13x64xf32, w1: 64x256xf32[-0.2:0.2], b1: 256xf32, w2: 256x10xf32[-0.2:0.2]) -> (np.maximum(x @ w1 + b1, 0) @ w2, (np.maximum(x @ w1 + b1, 0) @ w2).sum(axis=0), x.T)
// E2E: @scaled(x: 300x128xf32, y: 300x128xf32) -> (np.exp(x) * y + np.float32(2.5), (x * y).sum(axis=1))
// E2E: @scaled(x: 0x128xf32, y: 0x128xf32) -> (np.exp(x) * y + np.float32(2.5), (x * y).sum(axis=1))

func.func @mlp(%x: tensor<?x64xf32>, %w1: tensor<64x256xf32>, %b1: tensor<256xf32>, %w2: tensor<256x10xf32>) -> (tensor<?x10xf32>, tensor<10xf32>, tensor<64x?xf32>) {
  %0 = google.matmul %x, %w1 : tensor<?x64xf32>, tensor<64x256xf32> -> tensor<?x256xf32>
  %1 = google.add %0, %b1 : tensor<?x256xf32>, tensor<256xf32> -> tensor<?x256xf32>
  %2 = google.relu %1 : tensor<?x256xf32>
  %3 = google.matmul %2, %w2 : tensor<?x256xf32>, tensor<256x10xf32> -> tensor<?x10xf32>
  %4 = google.reduce_sum %3 {axes = array<i64: 0>, keep_dims = false} : tensor<?x10xf32> -> tensor<10xf32>
  %5 = google.transpose %x {perm = array<i64: 1, 0>} : tensor<?x64xf32> -> tensor<64x?xf32>
  return %3, %4, %5 : tensor<?x10xf32>, tensor<10xf32>, tensor<64x?xf32>
}

func.func @scaled(%x: tensor<?x128xf32>, %y: tensor<?x128xf32>) -> (tensor<?x128xf32>, tensor<?xf32>) {
  %c = google.constant dense<2.5> : tensor<f32>
  %0 = google.exp %x : tensor<?x128xf32>
  %1 = google.mul %0, %y : tensor<?x128xf32>, tensor<?x128xf32> -> tensor<?x128xf32>
  %2 = google.add %1, %c : tensor<?x128xf32>, tensor<f32> -> tensor<?x128xf32>
  %3 = google.mul %x, %y : tensor<?x128xf32>, tensor<?x128xf32> -> tensor<?x128xf32>
  %4 = google.reduce_sum %3 {axes = array<i64: 1>, keep_dims = false} : tensor<?x128xf32> -> tensor<?xf32>
  return %2, %4 : tensor<?x128xf32>, tensor<?xf32>
}
