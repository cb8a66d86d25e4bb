// f16 and bf16 matmuls of B's transpose (x @ w.T, as nn.Linear stores its
// weights): on NVIDIA GPUs the tensor-core kernels read w where it lies,
// K-major (--google-gpu-fold-rhs-transposes), without a transposed copy:
// mma.sync stages B^T's slices as A's and reads them by ldmatrix without
// .trans; wgmma=true loads them by TMA in boxes of 128 rows of K and
// multiplies without transposeB (--google-lower-k-major-wgmma). A fused
// bias + relu, bf16, a batch, a transpose also returned (kept for it),
// and, for wgmma, partial tiles, with a batch whose K is not a multiple
// of the slices.
// Run on the host by mapping-on-host-tensor-cores.test (mma.sync) and
// mapping-on-host-wgmma.test.
// RUN: %python %e2e run %s google-run | FileCheck %s
// CHECK: e2e: 7 cases match numpy

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
