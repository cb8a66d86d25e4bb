// Matmuls of transposed operands, read where they lie on NVIDIA GPUs
// (--google-gpu-fold-operand-transposes), without a transposed copy:
// - f16 and bf16 x @ w.T (nn.Linear's weights): mma.sync stages B^T's
//   slices as A's and reads them by ldmatrix without .trans; wgmma=true
//   loads them by TMA in boxes of 128 rows of K and multiplies without
//   transposeB (--google-lower-k-major-wgmma). A fused bias + relu, bf16,
//   a batch, a transpose also returned (kept for it), and, for wgmma,
//   partial tiles, with a batch whose K is not a multiple of the slices;
// - f16 and bf16 x.T @ dy (weight gradients), and both transposed: the
//   mma.sync kernel stages A^T's slices as B's and reads them by
//   ldmatrix.trans (with wgmma=true too: wgmma reads A only as M x K);
// - f32 x @ w.T, x.T @ dy and x.T @ w.T, batched too:
//   the vector-tile kernel loads each operand along its innermost
//   dimension, storing the slices read along K transposed.
// Run on the host by mapping-on-host-tensor-cores.test (mma.sync, vector
// tiles), mapping-on-host-wgmma.test and mapping-on-host-mfma.test (AMD's
// MFMA kernel, which stages and reads them as mma.sync does).
// RUN: %python %e2e run %s google-run | FileCheck %s
// CHECK: e2e: 21 cases match numpy

// E2E: @xwt(x: 256x128xf16[-1:1], w: 384x128xf16[-1:1]) -> x @ w.T
func.func @xwt(%x: tensor<256x128xf16>, %w: tensor<384x128xf16>) -> tensor<256x384xf16> {
  %t = google.transpose %w {perm = array<i64: 1, 0>} : tensor<384x128xf16> -> tensor<128x384xf16>
  %0 = google.matmul %x, %t : tensor<256x128xf16>, tensor<128x384xf16> -> tensor<256x384xf16>
  return %0 : tensor<256x384xf16>
}

// E2E: @layer(x: 256x192xf16[-1:1], w: 384x192xf16[-1:1], b: 384xf16[-1:1]) -> np.maximum(x @ w.T + b, 0)
func.func @layer(%x: tensor<256x192xf16>, %w: tensor<384x192xf16>, %b: tensor<384xf16>) -> tensor<256x384xf16> {
  %t = google.transpose %w {perm = array<i64: 1, 0>} : tensor<384x192xf16> -> tensor<192x384xf16>
  %0 = google.matmul_bias_relu %x, %t, %b : tensor<256x192xf16>, tensor<192x384xf16>, tensor<384xf16> -> tensor<256x384xf16>
  return %0 : tensor<256x384xf16>
}

// E2E: @bf16(x: 384x320xbf16[-1:1], w: 256x320xbf16[-1:1]) -> x @ w.T
func.func @bf16(%x: tensor<384x320xbf16>, %w: tensor<256x320xbf16>) -> tensor<384x256xbf16> {
  %t = google.transpose %w {perm = array<i64: 1, 0>} : tensor<256x320xbf16> -> tensor<320x256xbf16>
  %0 = google.matmul %x, %t : tensor<384x320xbf16>, tensor<320x256xbf16> -> tensor<384x256xbf16>
  return %0 : tensor<384x256xbf16>
}

// E2E: @batch(q: 2x128x64xf16[-1:1], k: 2x256x64xf16[-1:1]) -> q @ k.transpose(0, 2, 1)
func.func @batch(%q: tensor<2x128x64xf16>, %k: tensor<2x256x64xf16>) -> tensor<2x128x256xf16> {
  %t = google.transpose %k {perm = array<i64: 0, 2, 1>} : tensor<2x256x64xf16> -> tensor<2x64x256xf16>
  %0 = google.matmul %q, %t : tensor<2x128x64xf16>, tensor<2x64x256xf16> -> tensor<2x128x256xf16>
  return %0 : tensor<2x128x256xf16>
}

// E2E: @also_returned(x: 128x64xf16[-1:1], w: 128x64xf16[-1:1]) -> (x @ w.T, w.T)
func.func @also_returned(%x: tensor<128x64xf16>, %w: tensor<128x64xf16>) -> (tensor<128x128xf16>, tensor<64x128xf16>) {
  %t = google.transpose %w {perm = array<i64: 1, 0>} : tensor<128x64xf16> -> tensor<64x128xf16>
  %0 = google.matmul %x, %t : tensor<128x64xf16>, tensor<64x128xf16> -> tensor<128x128xf16>
  return %0, %t : tensor<128x128xf16>, tensor<64x128xf16>
}

// E2E: @partial(x: 200x72xf16[-1:1], w: 136x72xf16[-1:1]) -> x @ w.T
func.func @partial(%x: tensor<200x72xf16>, %w: tensor<136x72xf16>) -> tensor<200x136xf16> {
  %t = google.transpose %w {perm = array<i64: 1, 0>} : tensor<136x72xf16> -> tensor<72x136xf16>
  %0 = google.matmul %x, %t : tensor<200x72xf16>, tensor<72x136xf16> -> tensor<200x136xf16>
  return %0 : tensor<200x136xf16>
}

// E2E: @partial_batch(q: 2x130x104xbf16[-1:1], k: 2x144x104xbf16[-1:1]) -> q @ k.transpose(0, 2, 1)
func.func @partial_batch(%q: tensor<2x130x104xbf16>, %k: tensor<2x144x104xbf16>) -> tensor<2x130x144xbf16> {
  %t = google.transpose %k {perm = array<i64: 0, 2, 1>} : tensor<2x144x104xbf16> -> tensor<2x104x144xbf16>
  %0 = google.matmul %q, %t : tensor<2x130x104xbf16>, tensor<2x104x144xbf16> -> tensor<2x130x144xbf16>
  return %0 : tensor<2x130x144xbf16>
}

// E2E: @weight_gradient(x: 96x256xf16[-1:1], dy: 96x384xf16[-1:1]) -> x.T @ dy
func.func @weight_gradient(%x: tensor<96x256xf16>, %dy: tensor<96x384xf16>) -> tensor<256x384xf16> {
  %t = google.transpose %x {perm = array<i64: 1, 0>} : tensor<96x256xf16> -> tensor<256x96xf16>
  %0 = google.matmul %t, %dy : tensor<256x96xf16>, tensor<96x384xf16> -> tensor<256x384xf16>
  return %0 : tensor<256x384xf16>
}

// E2E: @both_bf16(a: 2x64x256xbf16[-1:1], b: 2x256x64xbf16[-1:1]) -> a.transpose(0, 2, 1) @ b.transpose(0, 2, 1)
func.func @both_bf16(%a: tensor<2x64x256xbf16>, %b: tensor<2x256x64xbf16>) -> tensor<2x256x256xbf16> {
  %at = google.transpose %a {perm = array<i64: 0, 2, 1>} : tensor<2x64x256xbf16> -> tensor<2x256x64xbf16>
  %bt = google.transpose %b {perm = array<i64: 0, 2, 1>} : tensor<2x256x64xbf16> -> tensor<2x64x256xbf16>
  %0 = google.matmul %at, %bt : tensor<2x256x64xbf16>, tensor<2x64x256xbf16> -> tensor<2x256x256xbf16>
  return %0 : tensor<2x256x256xbf16>
}

// E2E: @weight_gradient_bias(x: 96x128xbf16[-1:1], dy: 96x256xbf16[-1:1], b: 256xbf16[-1:1]) -> np.maximum(x.T @ dy + b, 0)
func.func @weight_gradient_bias(%x: tensor<96x128xbf16>, %dy: tensor<96x256xbf16>, %b: tensor<256xbf16>) -> tensor<128x256xbf16> {
  %t = google.transpose %x {perm = array<i64: 1, 0>} : tensor<96x128xbf16> -> tensor<128x96xbf16>
  %0 = google.matmul_bias_relu %t, %dy, %b : tensor<128x96xbf16>, tensor<96x256xbf16>, tensor<256xbf16> -> tensor<128x256xbf16>
  return %0 : tensor<128x256xbf16>
}

// E2E: @f32_xwt(x: 128x48xf32[-1:1], w: 192x48xf32[-1:1]) -> x @ w.T
func.func @f32_xwt(%x: tensor<128x48xf32>, %w: tensor<192x48xf32>) -> tensor<128x192xf32> {
  %t = google.transpose %w {perm = array<i64: 1, 0>} : tensor<192x48xf32> -> tensor<48x192xf32>
  %0 = google.matmul %x, %t : tensor<128x48xf32>, tensor<48x192xf32> -> tensor<128x192xf32>
  return %0 : tensor<128x192xf32>
}

// E2E: @f32_weight_gradient(x: 96x192xf32[-1:1], dy: 96x128xf32[-1:1]) -> x.T @ dy
func.func @f32_weight_gradient(%x: tensor<96x192xf32>, %dy: tensor<96x128xf32>) -> tensor<192x128xf32> {
  %t = google.transpose %x {perm = array<i64: 1, 0>} : tensor<96x192xf32> -> tensor<192x96xf32>
  %0 = google.matmul %t, %dy : tensor<192x96xf32>, tensor<96x128xf32> -> tensor<192x128xf32>
  return %0 : tensor<192x128xf32>
}

// E2E: @f32_both(a: 2x32x128xf32[-1:1], b: 2x64x32xf32[-1:1], c: 64xf32[-1:1]) -> np.maximum(a.transpose(0, 2, 1) @ b.transpose(0, 2, 1) + c, 0)
func.func @f32_both(%a: tensor<2x32x128xf32>, %b: tensor<2x64x32xf32>, %c: tensor<64xf32>) -> tensor<2x128x64xf32> {
  %at = google.transpose %a {perm = array<i64: 0, 2, 1>} : tensor<2x32x128xf32> -> tensor<2x128x32xf32>
  %bt = google.transpose %b {perm = array<i64: 0, 2, 1>} : tensor<2x64x32xf32> -> tensor<2x32x64xf32>
  %0 = google.matmul %at, %bt : tensor<2x128x32xf32>, tensor<2x32x64xf32> -> tensor<2x128x64xf32>
  %1 = google.add %0, %c : tensor<2x128x64xf32>, tensor<64xf32> -> tensor<2x128x64xf32>
  %2 = google.relu %1 : tensor<2x128x64xf32>
  return %2 : tensor<2x128x64xf32>
}

// 512 tiles of 128x128 (8 x 8 per thread, slices of 8): A^T and B^T.
// E2E: @f32_wide(a: 8x2048xf32[-1:1], b: 4096x8xf32[-1:1]) -> a.T @ b.T
func.func @f32_wide(%a: tensor<8x2048xf32>, %b: tensor<4096x8xf32>) -> tensor<2048x4096xf32> {
  %at = google.transpose %a {perm = array<i64: 1, 0>} : tensor<8x2048xf32> -> tensor<2048x8xf32>
  %bt = google.transpose %b {perm = array<i64: 1, 0>} : tensor<4096x8xf32> -> tensor<8x4096xf32>
  %0 = google.matmul %at, %bt : tensor<2048x8xf32>, tensor<8x4096xf32> -> tensor<2048x4096xf32>
  return %0 : tensor<2048x4096xf32>
}

// Shapes off the tensor-core and vector tiles take shared tiles, which
// copy each operand into shared memory along its innermost dimension:
// B^T, A^T and both read where they lie, partial tiles, a dynamic batch
// (nn.Linear's x @ w.T + b), f16.
// E2E: @shared_xwt(x: 100x60xf32[-1:1], w: 70x60xf32[-1:1]) -> x @ w.T
func.func @shared_xwt(%x: tensor<100x60xf32>, %w: tensor<70x60xf32>) -> tensor<100x70xf32> {
  %t = google.transpose %w {perm = array<i64: 1, 0>} : tensor<70x60xf32> -> tensor<60x70xf32>
  %0 = google.matmul %x, %t : tensor<100x60xf32>, tensor<60x70xf32> -> tensor<100x70xf32>
  return %0 : tensor<100x70xf32>
}

// E2E: @shared_weight_gradient(x: 50x100xf32[-1:1], dy: 50x90xf32[-1:1]) -> x.T @ dy
func.func @shared_weight_gradient(%x: tensor<50x100xf32>, %dy: tensor<50x90xf32>) -> tensor<100x90xf32> {
  %t = google.transpose %x {perm = array<i64: 1, 0>} : tensor<50x100xf32> -> tensor<100x50xf32>
  %0 = google.matmul %t, %dy : tensor<100x50xf32>, tensor<50x90xf32> -> tensor<100x90xf32>
  return %0 : tensor<100x90xf32>
}

// E2E: @shared_both(a: 2x40x90xf32[-1:1], b: 2x80x40xf32[-1:1]) -> a.transpose(0, 2, 1) @ b.transpose(0, 2, 1)
func.func @shared_both(%a: tensor<2x40x90xf32>, %b: tensor<2x80x40xf32>) -> tensor<2x90x80xf32> {
  %at = google.transpose %a {perm = array<i64: 0, 2, 1>} : tensor<2x40x90xf32> -> tensor<2x90x40xf32>
  %bt = google.transpose %b {perm = array<i64: 0, 2, 1>} : tensor<2x80x40xf32> -> tensor<2x40x80xf32>
  %0 = google.matmul %at, %bt : tensor<2x90x40xf32>, tensor<2x40x80xf32> -> tensor<2x90x80xf32>
  return %0 : tensor<2x90x80xf32>
}

// E2E: @shared_linear(x: 130x48xf32[-1:1], w: 72x48xf32[-1:1], b: 72xf32[-1:1]) -> np.maximum(x @ w.T + b, 0)
// E2E: @shared_linear(x: 65x48xf32[-1:1], w: 72x48xf32[-1:1], b: 72xf32[-1:1]) -> np.maximum(x @ w.T + b, 0)
func.func @shared_linear(%x: tensor<?x48xf32>, %w: tensor<72x48xf32>, %b: tensor<72xf32>) -> tensor<?x72xf32> {
  %t = google.transpose %w {perm = array<i64: 1, 0>} : tensor<72x48xf32> -> tensor<48x72xf32>
  %0 = google.matmul %x, %t : tensor<?x48xf32>, tensor<48x72xf32> -> tensor<?x72xf32>
  %1 = google.add %0, %b : tensor<?x72xf32>, tensor<72xf32> -> tensor<?x72xf32>
  %2 = google.relu %1 : tensor<?x72xf32>
  return %2 : tensor<?x72xf32>
}

// Split K (a small output, long K) and register tiles (tiny) read A^T
// where it lies too: a warp's threads read the same rows of A.
// E2E: @split_k_weight_gradient(x: 512x24xf32[-1:1], dy: 512x40xf32[-1:1]) -> x.T @ dy
func.func @split_k_weight_gradient(%x: tensor<512x24xf32>, %dy: tensor<512x40xf32>) -> tensor<24x40xf32> {
  %t = google.transpose %x {perm = array<i64: 1, 0>} : tensor<512x24xf32> -> tensor<24x512xf32>
  %0 = google.matmul %t, %dy : tensor<24x512xf32>, tensor<512x40xf32> -> tensor<24x40xf32>
  return %0 : tensor<24x40xf32>
}

// E2E: @tiny_weight_gradient(x: 8x6xf32[-1:1], dy: 8x5xf32[-1:1]) -> x.T @ dy
func.func @tiny_weight_gradient(%x: tensor<8x6xf32>, %dy: tensor<8x5xf32>) -> tensor<6x5xf32> {
  %t = google.transpose %x {perm = array<i64: 1, 0>} : tensor<8x6xf32> -> tensor<6x8xf32>
  %0 = google.matmul %t, %dy : tensor<6x8xf32>, tensor<8x5xf32> -> tensor<6x5xf32>
  return %0 : tensor<6x5xf32>
}
