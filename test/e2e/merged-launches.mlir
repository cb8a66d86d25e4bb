// Independent kernels side by side run as one launch on GPUs
// (--google-gpu-merge-launches): attention's Q, K and V projections (three
// split-K matmuls reading x), two column sums, the transposes of three
// weights; each member runs its own blocks of the merged grid. Two layers
// in a row stay apart (the second reads the first's result: merged, the
// emulation's race check reports it), as do a layer's gradients (dX's
// split K reads the transpose before it; dW's kernel sits behind a run-time
// alignment check).
// RUN: %python %e2e run %s google-run | FileCheck %s
// RUN: google-opt %s --google-test-gpu-mapping-on-host --mlir-disable-threading --mlir-print-ir-after=google-gpu-merge-launches -o /dev/null 2>&1 | FileCheck %s --check-prefix=LAUNCHES
// CHECK: e2e: 5 cases match numpy

// E2E: @projections(x: 32x256xf32, wq: 256x64xf32, wk: 256x64xf32, wv: 256x64xf32) -> (x @ wq, x @ wk, x @ wv)
// E2E: @column_sums(a: 64x32xf32, b: 96x48xf32) -> (a.sum(axis=0), b.sum(axis=0))
// E2E: @layers(x: 8x512xf32[-1:1], w1: 512x512xf32[-0.1:0.1], w2: 512x64xf32[-0.1:0.1]) -> (x @ w1) @ w2
// E2E: @gradients(dy: 32x64xf32, x: 32x512xf32, w: 512x64xf32) -> (dy @ w.T, x.T @ dy)
// E2E: @transposes(a: 64x32xf32, b: 64x32xf32, c: 64x32xf32) -> (a.T, b.T, c.T)

// LAUNCHES-LABEL: func.func @projections
// LAUNCHES-COUNT-1: gpu.launch
// LAUNCHES-NOT: gpu.launch
// LAUNCHES: return
func.func @projections(%x: tensor<32x256xf32>, %wq: tensor<256x64xf32>, %wk: tensor<256x64xf32>, %wv: tensor<256x64xf32>) -> (tensor<32x64xf32>, tensor<32x64xf32>, tensor<32x64xf32>) {
  %q = google.matmul %x, %wq : tensor<32x256xf32>, tensor<256x64xf32> -> tensor<32x64xf32>
  %k = google.matmul %x, %wk : tensor<32x256xf32>, tensor<256x64xf32> -> tensor<32x64xf32>
  %v = google.matmul %x, %wv : tensor<32x256xf32>, tensor<256x64xf32> -> tensor<32x64xf32>
  return %q, %k, %v : tensor<32x64xf32>, tensor<32x64xf32>, tensor<32x64xf32>
}

// LAUNCHES-LABEL: func.func @column_sums
// LAUNCHES-COUNT-1: gpu.launch
// LAUNCHES-NOT: gpu.launch
// LAUNCHES: return
func.func @column_sums(%a: tensor<64x32xf32>, %b: tensor<96x48xf32>) -> (tensor<32xf32>, tensor<48xf32>) {
  %0 = google.reduce_sum %a {axes = array<i64: 0>, keep_dims = false} : tensor<64x32xf32> -> tensor<32xf32>
  %1 = google.reduce_sum %b {axes = array<i64: 0>, keep_dims = false} : tensor<96x48xf32> -> tensor<48xf32>
  return %0, %1 : tensor<32xf32>, tensor<48xf32>
}

// LAUNCHES-LABEL: func.func @layers
// LAUNCHES-COUNT-2: gpu.launch
// LAUNCHES-NOT: gpu.launch
// LAUNCHES: return
func.func @layers(%x: tensor<8x512xf32>, %w1: tensor<512x512xf32>, %w2: tensor<512x64xf32>) -> tensor<8x64xf32> {
  %0 = google.matmul %x, %w1 : tensor<8x512xf32>, tensor<512x512xf32> -> tensor<8x512xf32>
  %1 = google.matmul %0, %w2 : tensor<8x512xf32>, tensor<512x64xf32> -> tensor<8x64xf32>
  return %1 : tensor<8x64xf32>
}

func.func @gradients(%dy: tensor<32x64xf32>, %x: tensor<32x512xf32>, %w: tensor<512x64xf32>) -> (tensor<32x512xf32>, tensor<512x64xf32>) {
  %wt = google.transpose %w {perm = array<i64: 1, 0>} : tensor<512x64xf32> -> tensor<64x512xf32>
  %dx = google.matmul %dy, %wt : tensor<32x64xf32>, tensor<64x512xf32> -> tensor<32x512xf32>
  %xt = google.transpose %x {perm = array<i64: 1, 0>} : tensor<32x512xf32> -> tensor<512x32xf32>
  %dw = google.matmul %xt, %dy : tensor<512x32xf32>, tensor<32x64xf32> -> tensor<512x64xf32>
  return %dx, %dw : tensor<32x512xf32>, tensor<512x64xf32>
}

// LAUNCHES-LABEL: func.func @transposes
// LAUNCHES-COUNT-1: gpu.launch
// LAUNCHES-NOT: gpu.launch
// LAUNCHES: return
func.func @transposes(%a: tensor<64x32xf32>, %b: tensor<64x32xf32>, %c: tensor<64x32xf32>) -> (tensor<32x64xf32>, tensor<32x64xf32>, tensor<32x64xf32>) {
  %0 = google.transpose %a {perm = array<i64: 1, 0>} : tensor<64x32xf32> -> tensor<32x64xf32>
  %1 = google.transpose %b {perm = array<i64: 1, 0>} : tensor<64x32xf32> -> tensor<32x64xf32>
  %2 = google.transpose %c {perm = array<i64: 1, 0>} : tensor<64x32xf32> -> tensor<32x64xf32>
  return %0, %1, %2 : tensor<32x64xf32>, tensor<32x64xf32>, tensor<32x64xf32>
}
