// Matmuls with a small output over a long K (on the GPU, split-K kernels:
// 32 outputs x up to 8 chunks of K per block, partials added in shared
// memory): an MLP layer at batch 32 with its fused bias + relu, a partial
// block and a K that the chunks do not divide, a batch of integers, f16,
// B transposed, a chain of two layers, a dot product, and a K just below
// the split's threshold (tiles of C). Where A is M x K and B is read as
// N x K (x @ w.T), with warp-dots=true (off by default), warp dots instead (a warp per column of up to 8 rows
// of C, fewer where that leaves under 4096 warps; its lanes along K,
// their sums added by shuffles, or in shared memory for 64-bit sums and
// on AMD): nn.Linear's layer with bias + relu (2 rows), a partial block
// with a K that 32 does not divide, 8 rows with a partial block of them,
// more rows than columns (neighbouring warps take rows), batched
// integers, f16, and f64 (8 rows, a partial block).
// RUN: %python %e2e run %s google-run | FileCheck %s
// CHECK: e2e: 15 cases match numpy

// E2E: @layer(x: 32x784xf32, w: 784x256xf32, b: 256xf32) -> np.maximum(x @ w + b, 0)
// E2E: @odd(a: 5x301xf32, b: 301x7xf32) -> a @ b
// E2E: @ints(a: 3x5x130xi32, b: 3x130x7xi32) -> a @ b
// E2E: @half(a: 4x256xf16[-1:1], b: 256x24xf16[-1:1]) -> a @ b
// E2E: @transposed(a: 16x512xf32, bt: 40x512xf32) -> a @ bt.T
// E2E: @mlp(x: 8x784xf32[-1:1], w1: 784x128xf32[-0.1:0.1], b1: 128xf32, w2: 128x10xf32[-0.1:0.1]) -> np.maximum(x @ w1 + b1, 0) @ w2
// E2E: @dot(a: 1x2048xf32, b: 2048x1xf32) -> a @ b
// E2E: @tiny_depth(a: 64x127xf32, b: 127x64xf32) -> a @ b
// E2E: @linear(x: 32x784xf32, w: 256x784xf32, b: 256xf32) -> np.maximum(x @ w.T + b, 0)
// E2E: @linear_odd(x: 5x301xf32, w: 7x301xf32) -> x @ w.T
// E2E: @linear_rows(x: 12x256xf32, w: 4096x256xf32) -> x @ w.T
// E2E: @tall_t(x: 4096x256xf32, w: 16x256xf32) -> x @ w.T
// E2E: @ints_t(a: 3x5x130xi32, bt: 3x7x130xi32) -> a @ bt.transpose(0, 2, 1)
// E2E: @half_t(a: 4x256xf16[-1:1], bt: 24x256xf16[-1:1]) -> a @ bt.T
// E2E: @wide_t(a: 9x300xf64, bt: 2048x300xf64) -> a @ bt.T

func.func @layer(%x: tensor<32x784xf32>, %w: tensor<784x256xf32>, %b: tensor<256xf32>) -> tensor<32x256xf32> {
  %0 = google.matmul_bias_relu %x, %w, %b : tensor<32x784xf32>, tensor<784x256xf32>, tensor<256xf32> -> tensor<32x256xf32>
  return %0 : tensor<32x256xf32>
}

func.func @odd(%a: tensor<5x301xf32>, %b: tensor<301x7xf32>) -> tensor<5x7xf32> {
  %0 = google.matmul %a, %b : tensor<5x301xf32>, tensor<301x7xf32> -> tensor<5x7xf32>
  return %0 : tensor<5x7xf32>
}

func.func @ints(%a: tensor<3x5x130xi32>, %b: tensor<3x130x7xi32>) -> tensor<3x5x7xi32> {
  %0 = google.matmul %a, %b : tensor<3x5x130xi32>, tensor<3x130x7xi32> -> tensor<3x5x7xi32>
  return %0 : tensor<3x5x7xi32>
}

func.func @half(%a: tensor<4x256xf16>, %b: tensor<256x24xf16>) -> tensor<4x24xf16> {
  %0 = google.matmul %a, %b : tensor<4x256xf16>, tensor<256x24xf16> -> tensor<4x24xf16>
  return %0 : tensor<4x24xf16>
}

func.func @transposed(%a: tensor<16x512xf32>, %bt: tensor<40x512xf32>) -> tensor<16x40xf32> {
  %b = google.transpose %bt {perm = array<i64: 1, 0>} : tensor<40x512xf32> -> tensor<512x40xf32>
  %0 = google.matmul %a, %b : tensor<16x512xf32>, tensor<512x40xf32> -> tensor<16x40xf32>
  return %0 : tensor<16x40xf32>
}

func.func @mlp(%x: tensor<8x784xf32>, %w1: tensor<784x128xf32>, %b1: tensor<128xf32>, %w2: tensor<128x10xf32>) -> tensor<8x10xf32> {
  %h = google.matmul_bias_relu %x, %w1, %b1 : tensor<8x784xf32>, tensor<784x128xf32>, tensor<128xf32> -> tensor<8x128xf32>
  %0 = google.matmul %h, %w2 : tensor<8x128xf32>, tensor<128x10xf32> -> tensor<8x10xf32>
  return %0 : tensor<8x10xf32>
}

func.func @dot(%a: tensor<1x2048xf32>, %b: tensor<2048x1xf32>) -> tensor<1x1xf32> {
  %0 = google.matmul %a, %b : tensor<1x2048xf32>, tensor<2048x1xf32> -> tensor<1x1xf32>
  return %0 : tensor<1x1xf32>
}

func.func @tiny_depth(%a: tensor<64x127xf32>, %b: tensor<127x64xf32>) -> tensor<64x64xf32> {
  %0 = google.matmul %a, %b : tensor<64x127xf32>, tensor<127x64xf32> -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}

func.func @linear(%x: tensor<32x784xf32>, %w: tensor<256x784xf32>, %b: tensor<256xf32>) -> tensor<32x256xf32> {
  %wt = google.transpose %w {perm = array<i64: 1, 0>} : tensor<256x784xf32> -> tensor<784x256xf32>
  %0 = google.matmul_bias_relu %x, %wt, %b : tensor<32x784xf32>, tensor<784x256xf32>, tensor<256xf32> -> tensor<32x256xf32>
  return %0 : tensor<32x256xf32>
}

func.func @linear_odd(%x: tensor<5x301xf32>, %w: tensor<7x301xf32>) -> tensor<5x7xf32> {
  %wt = google.transpose %w {perm = array<i64: 1, 0>} : tensor<7x301xf32> -> tensor<301x7xf32>
  %0 = google.matmul %x, %wt : tensor<5x301xf32>, tensor<301x7xf32> -> tensor<5x7xf32>
  return %0 : tensor<5x7xf32>
}

func.func @linear_rows(%x: tensor<12x256xf32>, %w: tensor<4096x256xf32>) -> tensor<12x4096xf32> {
  %wt = google.transpose %w {perm = array<i64: 1, 0>} : tensor<4096x256xf32> -> tensor<256x4096xf32>
  %0 = google.matmul %x, %wt : tensor<12x256xf32>, tensor<256x4096xf32> -> tensor<12x4096xf32>
  return %0 : tensor<12x4096xf32>
}

func.func @tall_t(%x: tensor<4096x256xf32>, %w: tensor<16x256xf32>) -> tensor<4096x16xf32> {
  %wt = google.transpose %w {perm = array<i64: 1, 0>} : tensor<16x256xf32> -> tensor<256x16xf32>
  %0 = google.matmul %x, %wt : tensor<4096x256xf32>, tensor<256x16xf32> -> tensor<4096x16xf32>
  return %0 : tensor<4096x16xf32>
}

func.func @ints_t(%a: tensor<3x5x130xi32>, %bt: tensor<3x7x130xi32>) -> tensor<3x5x7xi32> {
  %b = google.transpose %bt {perm = array<i64: 0, 2, 1>} : tensor<3x7x130xi32> -> tensor<3x130x7xi32>
  %0 = google.matmul %a, %b : tensor<3x5x130xi32>, tensor<3x130x7xi32> -> tensor<3x5x7xi32>
  return %0 : tensor<3x5x7xi32>
}

func.func @half_t(%a: tensor<4x256xf16>, %bt: tensor<24x256xf16>) -> tensor<4x24xf16> {
  %b = google.transpose %bt {perm = array<i64: 1, 0>} : tensor<24x256xf16> -> tensor<256x24xf16>
  %0 = google.matmul %a, %b : tensor<4x256xf16>, tensor<256x24xf16> -> tensor<4x24xf16>
  return %0 : tensor<4x24xf16>
}

func.func @wide_t(%a: tensor<9x300xf64>, %bt: tensor<2048x300xf64>) -> tensor<9x2048xf64> {
  %b = google.transpose %bt {perm = array<i64: 1, 0>} : tensor<2048x300xf64> -> tensor<300x2048xf64>
  %0 = google.matmul %a, %b : tensor<9x300xf64>, tensor<300x2048xf64> -> tensor<9x2048xf64>
  return %0 : tensor<9x2048xf64>
}
