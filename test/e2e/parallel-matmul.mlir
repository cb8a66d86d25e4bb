// Matmuls large enough that their block loops run on OpenMP threads
// (--google-parallelize-loops), with 1 thread, with the default (all cores)
// and with more threads than blocks: full and partial blocks, dynamic rows,
// batches, the fused epilogue, and B panels in per-thread slots. (Only
// opt-level 2 and 3 tile, so only they have parallel loops.)
// RUN: env GOOGLE_E2E_OPT_LEVELS="2 3" %python %e2e run %s google-run | FileCheck %s
// RUN: env GOOGLE_MLIR_NUM_THREADS=1 GOOGLE_E2E_OPT_LEVELS=3 %python %e2e run %s google-run | FileCheck %s
// RUN: env GOOGLE_MLIR_NUM_THREADS=13 GOOGLE_E2E_OPT_LEVELS=3 %python %e2e run %s google-run | FileCheck %s
// RUN: env GOOGLE_E2E_OPT_LEVELS=3 GOOGLE_E2E_PIPELINE_OPTIONS=chip=haswell %python %e2e run %s google-run | FileCheck %s
// CHECK: e2e: 10 cases match numpy

// E2E: @fused(a: 128x512xf32, b: 512x256xf32, bias: 256xf32) -> np.maximum(a @ b + bias, 0)
// E2E: @dynamic(a: 131x300xf32, b: 300x270xf32) -> a @ b
// E2E: @dynamic(a: 1x300xf32, b: 300x270xf32) -> a @ b
// E2E: @dynamic(a: 64x300xf32, b: 300x270xf32) -> a @ b
// E2E: @dynamic(a: 0x300xf32, b: 300x270xf32) -> a @ b
// E2E: @dynamic_k(a: 70x1xf32, b: 1x200xf32) -> a @ b
// E2E: @dynamic_k(a: 70x700xf32, b: 700x200xf32) -> a @ b
// E2E: @remainders(a: 77x333xf32, b: 333x101xf32) -> a @ b
// E2E: @batch(a: 4x64x128xf32, b: 4x128x64xf32) -> a @ b
// E2E: @mlp(x: 200x256xf32, w: 256x160xf32[-0.1:0.1], b: 160xf32) -> np.tanh(np.maximum(x @ w + b, 0))

func.func @fused(%a: tensor<128x512xf32>, %b: tensor<512x256xf32>, %bias: tensor<256xf32>) -> tensor<128x256xf32> {
  %0 = google.matmul_bias_relu %a, %b, %bias : tensor<128x512xf32>, tensor<512x256xf32>, tensor<256xf32> -> tensor<128x256xf32>
  return %0 : tensor<128x256xf32>
}

func.func @dynamic(%a: tensor<?x300xf32>, %b: tensor<300x270xf32>) -> tensor<?x270xf32> {
  %0 = google.matmul %a, %b : tensor<?x300xf32>, tensor<300x270xf32> -> tensor<?x270xf32>
  return %0 : tensor<?x270xf32>
}

func.func @dynamic_k(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %0 = google.matmul %a, %b : tensor<?x?xf32>, tensor<?x?xf32> -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

func.func @remainders(%a: tensor<77x333xf32>, %b: tensor<333x101xf32>) -> tensor<77x101xf32> {
  %0 = google.matmul %a, %b : tensor<77x333xf32>, tensor<333x101xf32> -> tensor<77x101xf32>
  return %0 : tensor<77x101xf32>
}

func.func @batch(%a: tensor<4x64x128xf32>, %b: tensor<4x128x64xf32>) -> tensor<4x64x64xf32> {
  %0 = google.matmul %a, %b : tensor<4x64x128xf32>, tensor<4x128x64xf32> -> tensor<4x64x64xf32>
  return %0 : tensor<4x64x64xf32>
}

func.func @mlp(%x: tensor<?x256xf32>, %w: tensor<256x160xf32>, %b: tensor<160xf32>) -> tensor<?x160xf32> {
  %0 = google.matmul %x, %w : tensor<?x256xf32>, tensor<256x160xf32> -> tensor<?x160xf32>
  %1 = google.add %0, %b : tensor<?x160xf32>, tensor<160xf32> -> tensor<?x160xf32>
  %2 = google.relu %1 : tensor<?x160xf32>
  %3 = google.tanh %2 : tensor<?x160xf32>
  return %3 : tensor<?x160xf32>
}
