// A 2-layer MLP with softmax: fused by the pipeline, or left unfused.
// RUN: %python %e2e run %s google-run | FileCheck %s
// RUN: %python %e2e run %s google-run "--pipeline-options=fuse=false fold=false cse=false dce=false" | FileCheck %s
// RUN: %python %e2e run %s google-run "--pipeline-options=opt-level=0" | FileCheck %s
// CHECK: e2e: 2 cases match numpy

// E2E: @mlp(x: 8x32xf32, w1: 32x64xf32[-0.3:0.3], b1: 64xf32, w2: 64x10xf32[-0.3:0.3], b2: 1x10xf32) -> softmax(relu(relu(x @ w1 + b1) @ w2 + b2))
// E2E: @mlp(x: 3x32xf32, w1: 32x64xf32[-0.3:0.3], b1: 64xf32, w2: 64x10xf32[-0.3:0.3], b2: 1x10xf32) -> softmax(relu(relu(x @ w1 + b1) @ w2 + b2))

func.func @mlp(%x: tensor<?x32xf32>, %w1: tensor<32x64xf32>, %b1: tensor<64xf32>, %w2: tensor<64x10xf32>, %b2: tensor<1x10xf32>) -> tensor<?x10xf32> {
  %0 = google.matmul %x, %w1 : tensor<?x32xf32>, tensor<32x64xf32> -> tensor<?x64xf32>
  %1 = google.add %0, %b1 : tensor<?x64xf32>, tensor<64xf32> -> tensor<?x64xf32>
  %2 = google.relu %1 : tensor<?x64xf32>
  %3 = google.matmul %2, %w2 : tensor<?x64xf32>, tensor<64x10xf32> -> tensor<?x10xf32>
  %4 = google.add %b2, %3 : tensor<1x10xf32>, tensor<?x10xf32> -> tensor<?x10xf32>
  %5 = google.relu %4 : tensor<?x10xf32>
  %6 = google.softmax %5 {axis = -1 : i64} : tensor<?x10xf32>
  return %6 : tensor<?x10xf32>
}
