// Attention's heads: a matmul's result reshaped and transposed (0, 2, 1, 3)
// into heads, and the heads' results back. On GPUs the kernel writing the
// result stores each element where the transpose puts it (no transpose
// kernel, no buffer for the result); where something else reads the result,
// or the innermost dimension moves, the transpose stays a kernel.
// RUN: %python %e2e run %s google-run | FileCheck %s
// CHECK: e2e: 9 cases match numpy

// E2E: @split_heads(x: 16x32xf32, w: 32x48xf32) -> np.transpose((x @ w).reshape(2, 8, 3, 16), (0, 2, 1, 3))
// E2E: @merge_heads(p: 6x8x8xf32, v: 6x8x16xf32, w: 48x20xf32) -> np.transpose((p @ v).reshape(2, 3, 8, 16), (0, 2, 1, 3)).reshape(16, 48) @ w
// E2E: @split_sum(a: 64x96xf32, b: 64x96xf32) -> np.transpose(np.maximum(a + b, 0).reshape(4, 16, 6, 16), (0, 2, 1, 3))
// E2E: @split_softmax(x: 2x8x48xf32) -> np.transpose(softmax(x).reshape(2, 8, 3, 16), (0, 2, 1, 3))
// E2E: @qkv(x: 256x64xf32, wq: 64x64xf32, wk: 64x64xf32) -> np.transpose((x @ wq).reshape(2, 128, 4, 16), (0, 2, 1, 3)), np.transpose((x @ wk).reshape(2, 128, 4, 16), (0, 2, 1, 3))
// E2E: @read_again(x: 16x32xf32, w: 32x48xf32) -> (np.transpose((x @ w).reshape(2, 8, 3, 16), (0, 2, 1, 3)), x @ w)
// E2E: @innermost_moves(x: 16x32xf32, w: 32x48xf32) -> (x @ w).T
// E2E: @heads_int(x: 12x40xi32, y: 12x40xi32) -> np.transpose((x * y).reshape(3, 4, 5, 8), (0, 2, 1, 3))
// E2E: @heads_f16(x: 8x64xf16, w: 64x32xf16) -> np.transpose((x.astype(np.float32) @ w.astype(np.float32)).astype(np.float16).reshape(8, 2, 16), (1, 0, 2))

func.func @split_heads(%x: tensor<16x32xf32>, %w: tensor<32x48xf32>) -> tensor<2x3x8x16xf32> {
  %p = google.matmul %x, %w : tensor<16x32xf32>, tensor<32x48xf32> -> tensor<16x48xf32>
  %r = google.reshape %p : tensor<16x48xf32> -> tensor<2x8x3x16xf32>
  %t = google.transpose %r {perm = array<i64: 0, 2, 1, 3>} : tensor<2x8x3x16xf32> -> tensor<2x3x8x16xf32>
  return %t : tensor<2x3x8x16xf32>
}
func.func @merge_heads(%p: tensor<6x8x8xf32>, %v: tensor<6x8x16xf32>, %w: tensor<48x20xf32>) -> tensor<16x20xf32> {
  %o = google.matmul %p, %v : tensor<6x8x8xf32>, tensor<6x8x16xf32> -> tensor<6x8x16xf32>
  %r = google.reshape %o : tensor<6x8x16xf32> -> tensor<2x3x8x16xf32>
  %t = google.transpose %r {perm = array<i64: 0, 2, 1, 3>} : tensor<2x3x8x16xf32> -> tensor<2x8x3x16xf32>
  %m = google.reshape %t : tensor<2x8x3x16xf32> -> tensor<16x48xf32>
  %y = google.matmul %m, %w : tensor<16x48xf32>, tensor<48x20xf32> -> tensor<16x20xf32>
  return %y : tensor<16x20xf32>
}
func.func @split_sum(%a: tensor<64x96xf32>, %b: tensor<64x96xf32>) -> tensor<4x6x16x16xf32> {
  %s = google.add %a, %b : tensor<64x96xf32>, tensor<64x96xf32> -> tensor<64x96xf32>
  %z = google.relu %s : tensor<64x96xf32>
  %r = google.reshape %z : tensor<64x96xf32> -> tensor<4x16x6x16xf32>
  %t = google.transpose %r {perm = array<i64: 0, 2, 1, 3>} : tensor<4x16x6x16xf32> -> tensor<4x6x16x16xf32>
  return %t : tensor<4x6x16x16xf32>
}
func.func @split_softmax(%x: tensor<2x8x48xf32>) -> tensor<2x3x8x16xf32> {
  %s = google.softmax %x {axis = -1 : i64} : tensor<2x8x48xf32>
  %r = google.reshape %s : tensor<2x8x48xf32> -> tensor<2x8x3x16xf32>
  %t = google.transpose %r {perm = array<i64: 0, 2, 1, 3>} : tensor<2x8x3x16xf32> -> tensor<2x3x8x16xf32>
  return %t : tensor<2x3x8x16xf32>
}
func.func @qkv(%x: tensor<256x64xf32>, %wq: tensor<64x64xf32>, %wk: tensor<64x64xf32>) -> (tensor<2x4x128x16xf32>, tensor<2x4x128x16xf32>) {
  %q = google.matmul %x, %wq : tensor<256x64xf32>, tensor<64x64xf32> -> tensor<256x64xf32>
  %qr = google.reshape %q : tensor<256x64xf32> -> tensor<2x128x4x16xf32>
  %qt = google.transpose %qr {perm = array<i64: 0, 2, 1, 3>} : tensor<2x128x4x16xf32> -> tensor<2x4x128x16xf32>
  %k = google.matmul %x, %wk : tensor<256x64xf32>, tensor<64x64xf32> -> tensor<256x64xf32>
  %kr = google.reshape %k : tensor<256x64xf32> -> tensor<2x128x4x16xf32>
  %kt = google.transpose %kr {perm = array<i64: 0, 2, 1, 3>} : tensor<2x128x4x16xf32> -> tensor<2x4x128x16xf32>
  return %qt, %kt : tensor<2x4x128x16xf32>, tensor<2x4x128x16xf32>
}
func.func @read_again(%x: tensor<16x32xf32>, %w: tensor<32x48xf32>) -> (tensor<2x3x8x16xf32>, tensor<16x48xf32>) {
  %p = google.matmul %x, %w : tensor<16x32xf32>, tensor<32x48xf32> -> tensor<16x48xf32>
  %r = google.reshape %p : tensor<16x48xf32> -> tensor<2x8x3x16xf32>
  %t = google.transpose %r {perm = array<i64: 0, 2, 1, 3>} : tensor<2x8x3x16xf32> -> tensor<2x3x8x16xf32>
  return %t, %p : tensor<2x3x8x16xf32>, tensor<16x48xf32>
}
func.func @innermost_moves(%x: tensor<16x32xf32>, %w: tensor<32x48xf32>) -> tensor<48x16xf32> {
  %p = google.matmul %x, %w : tensor<16x32xf32>, tensor<32x48xf32> -> tensor<16x48xf32>
  %t = google.transpose %p {perm = array<i64: 1, 0>} : tensor<16x48xf32> -> tensor<48x16xf32>
  return %t : tensor<48x16xf32>
}
func.func @heads_int(%x: tensor<12x40xi32>, %y: tensor<12x40xi32>) -> tensor<3x5x4x8xi32> {
  %m = google.mul %x, %y : tensor<12x40xi32>, tensor<12x40xi32> -> tensor<12x40xi32>
  %r = google.reshape %m : tensor<12x40xi32> -> tensor<3x4x5x8xi32>
  %t = google.transpose %r {perm = array<i64: 0, 2, 1, 3>} : tensor<3x4x5x8xi32> -> tensor<3x5x4x8xi32>
  return %t : tensor<3x5x4x8xi32>
}
func.func @heads_f16(%x: tensor<8x64xf16>, %w: tensor<64x32xf16>) -> tensor<2x8x16xf16> {
  %p = google.matmul %x, %w : tensor<8x64xf16>, tensor<64x32xf16> -> tensor<8x32xf16>
  %r = google.reshape %p : tensor<8x32xf16> -> tensor<8x2x16xf16>
  %t = google.transpose %r {perm = array<i64: 1, 0, 2>} : tensor<8x2x16xf16> -> tensor<2x8x16xf16>
  return %t : tensor<2x8x16xf16>
}
