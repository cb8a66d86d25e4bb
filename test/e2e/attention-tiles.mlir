// Attention in tiles of 64 query rows and keys, whole and partial: what
// the GPU's fused kernel takes (--google-extreme-pipeline="target=nvvm
// fused-attention=true", checked through the GPU mapping on the host by
// test/Codegen/GPU/mapping-on-host-attention.test); on the CPU, the usual
// kernels.
// RUN: %python %e2e run %s google-run | FileCheck %s
// CHECK: e2e: 13 cases match numpy

// Scaled, K transposed by its own op (the kernel reads K instead).
// E2E: @scaled(q: 2x128x64xf32, k: 2x128x64xf32, v: 2x128x64xf32) -> softmax(q @ np.transpose(k, (0, 2, 1)) * 0.125) @ v
func.func @scaled(%q: tensor<2x128x64xf32>, %k: tensor<2x128x64xf32>, %v: tensor<2x128x64xf32>) -> tensor<2x128x64xf32> {
  %kt = google.transpose %k {perm = array<i64: 0, 2, 1>} : tensor<2x128x64xf32> -> tensor<2x64x128xf32>
  %s = google.matmul %q, %kt : tensor<2x128x64xf32>, tensor<2x64x128xf32> -> tensor<2x128x128xf32>
  %c = google.constant dense<0.125> : tensor<f32>
  %sc = google.mul %s, %c : tensor<2x128x128xf32>, tensor<f32> -> tensor<2x128x128xf32>
  %p = google.softmax %sc {axis = -1 : i64} : tensor<2x128x128xf32>
  %o = google.matmul %p, %v : tensor<2x128x128xf32>, tensor<2x128x64xf32> -> tensor<2x128x64xf32>
  return %o : tensor<2x128x64xf32>
}

// Large scores over three key tiles: the running maximum grows from tile
// to tile. Dynamic extents: the usual kernels (the fused one takes static
// shapes).
// E2E: @long(q: 1x192x64xf32[-6:6], k: 1x192x64xf32[-6:6], v: 1x192x64xf32) -> softmax(q @ np.transpose(k, (0, 2, 1)) * 0.125) @ v
// E2E: @long(q: 1x64x64xf32[-6:6], k: 1x192x64xf32[-6:6], v: 1x192x64xf32) -> softmax(q @ np.transpose(k, (0, 2, 1)) * 0.125) @ v
func.func @long(%q: tensor<1x?x64xf32>, %k: tensor<1x192x64xf32>, %v: tensor<1x192x64xf32>) -> tensor<1x?x64xf32> {
  %kt = google.transpose %k {perm = array<i64: 0, 2, 1>} : tensor<1x192x64xf32> -> tensor<1x64x192xf32>
  %s = google.matmul %q, %kt : tensor<1x?x64xf32>, tensor<1x64x192xf32> -> tensor<1x?x192xf32>
  %c = google.constant dense<0.125> : tensor<f32>
  %sc = google.mul %s, %c : tensor<1x?x192xf32>, tensor<f32> -> tensor<1x?x192xf32>
  %p = google.softmax %sc {axis = -1 : i64} : tensor<1x?x192xf32>
  %o = google.matmul %p, %v : tensor<1x?x192xf32>, tensor<1x192x64xf32> -> tensor<1x?x64xf32>
  return %o : tensor<1x?x64xf32>
}

// The same, static.
// E2E: @long_static(q: 1x192x64xf32[-6:6], k: 1x192x64xf32[-6:6], v: 1x192x64xf32) -> softmax(q @ np.transpose(k, (0, 2, 1)) * 0.125) @ v
func.func @long_static(%q: tensor<1x192x64xf32>, %k: tensor<1x192x64xf32>, %v: tensor<1x192x64xf32>) -> tensor<1x192x64xf32> {
  %kt = google.transpose %k {perm = array<i64: 0, 2, 1>} : tensor<1x192x64xf32> -> tensor<1x64x192xf32>
  %s = google.matmul %q, %kt : tensor<1x192x64xf32>, tensor<1x64x192xf32> -> tensor<1x192x192xf32>
  %c = google.constant dense<0.125> : tensor<f32>
  %sc = google.mul %s, %c : tensor<1x192x192xf32>, tensor<f32> -> tensor<1x192x192xf32>
  %p = google.softmax %sc {axis = -1 : i64} : tensor<1x192x192xf32>
  %o = google.matmul %p, %v : tensor<1x192x192xf32>, tensor<1x192x64xf32> -> tensor<1x192x64xf32>
  return %o : tensor<1x192x64xf32>
}

// Static, masked so that each query sees the keys from its own index on:
// the first tiles of the last rows are all -inf (exp(-inf - -inf) must
// not poison them), then a bias added to the output (the epilogue).
// E2E: @masked(q: 2x128x32xf32, k: 2x128x32xf32, v: 2x128x64xf32, b: 64xf32) -> softmax(np.where(np.arange(128)[None, :] >= np.arange(128)[:, None], q @ np.transpose(k, (0, 2, 1)) * 0.25, -np.inf)) @ v + b
func.func @masked(%q: tensor<2x128x32xf32>, %k: tensor<2x128x32xf32>, %v: tensor<2x128x64xf32>, %b: tensor<64xf32>) -> tensor<2x128x64xf32> {
  %kt = google.transpose %k {perm = array<i64: 0, 2, 1>} : tensor<2x128x32xf32> -> tensor<2x32x128xf32>
  %s = google.matmul %q, %kt : tensor<2x128x32xf32>, tensor<2x32x128xf32> -> tensor<2x128x128xf32>
  %c = google.constant dense<0.25> : tensor<f32>
  %sc = google.mul %s, %c : tensor<2x128x128xf32>, tensor<f32> -> tensor<2x128x128xf32>
  %rows = google.iota {dimension = 0 : i64} : tensor<128x128xi64>
  %cols = google.iota {dimension = 1 : i64} : tensor<128x128xi64>
  %sees = google.ge %cols, %rows : tensor<128x128xi64>, tensor<128x128xi64> -> tensor<128x128xi1>
  %ninf = google.constant dense<0xFF800000> : tensor<f32>
  %m = google.select %sees, %sc, %ninf : tensor<128x128xi1>, tensor<2x128x128xf32>, tensor<f32> -> tensor<2x128x128xf32>
  %p = google.softmax %m {axis = -1 : i64} : tensor<2x128x128xf32>
  %o = google.matmul %p, %v : tensor<2x128x128xf32>, tensor<2x128x64xf32> -> tensor<2x128x64xf32>
  %ob = google.add %o, %b : tensor<2x128x64xf32>, tensor<64xf32> -> tensor<2x128x64xf32>
  return %ob : tensor<2x128x64xf32>
}

// One head without a batch dimension, K already transposed, an additive
// mask from the caller, depth 16.
// E2E: @unbatched(q: 64x16xf32, kt: 16x256xf32, v: 256x64xf32, mask: 64x256xf32[-3:0]) -> softmax(q @ kt + mask) @ v
func.func @unbatched(%q: tensor<64x16xf32>, %kt: tensor<16x256xf32>, %v: tensor<256x64xf32>, %mask: tensor<64x256xf32>) -> tensor<64x64xf32> {
  %s = google.matmul %q, %kt : tensor<64x16xf32>, tensor<16x256xf32> -> tensor<64x256xf32>
  %sm = google.add %s, %mask : tensor<64x256xf32>, tensor<64x256xf32> -> tensor<64x256xf32>
  %p = google.softmax %sm {axis = 1 : i64} : tensor<64x256xf32>
  %o = google.matmul %p, %v : tensor<64x256xf32>, tensor<256x64xf32> -> tensor<64x64xf32>
  return %o : tensor<64x64xf32>
}

// The probabilities are a result too: the scores must reach memory, no
// fusion.
// E2E: @both(q: 1x64x64xf32, k: 1x64x64xf32, v: 1x64x64xf32) -> (softmax(q @ np.transpose(k, (0, 2, 1))) @ v, softmax(q @ np.transpose(k, (0, 2, 1))))
func.func @both(%q: tensor<1x64x64xf32>, %k: tensor<1x64x64xf32>, %v: tensor<1x64x64xf32>) -> (tensor<1x64x64xf32>, tensor<1x64x64xf32>) {
  %kt = google.transpose %k {perm = array<i64: 0, 2, 1>} : tensor<1x64x64xf32> -> tensor<1x64x64xf32>
  %s = google.matmul %q, %kt : tensor<1x64x64xf32>, tensor<1x64x64xf32> -> tensor<1x64x64xf32>
  %p = google.softmax %s {axis = -1 : i64} : tensor<1x64x64xf32>
  %o = google.matmul %p, %v : tensor<1x64x64xf32>, tensor<1x64x64xf32> -> tensor<1x64x64xf32>
  return %o, %p : tensor<1x64x64xf32>, tensor<1x64x64xf32>
}

// Heads of a wider model: 4 x 64 rows, 128 keys, rows in tiles of 64 of
// each batch.
// E2E: @heads(q: 4x64x64xf32, k: 4x128x64xf32, v: 4x128x64xf32) -> softmax(q @ np.transpose(k, (0, 2, 1)) / 8.0) @ v
func.func @heads(%q: tensor<4x64x64xf32>, %k: tensor<4x128x64xf32>, %v: tensor<4x128x64xf32>) -> tensor<4x64x64xf32> {
  %kt = google.transpose %k {perm = array<i64: 0, 2, 1>} : tensor<4x128x64xf32> -> tensor<4x64x128xf32>
  %s = google.matmul %q, %kt : tensor<4x64x64xf32>, tensor<4x64x128xf32> -> tensor<4x64x128xf32>
  %c = google.constant dense<8.0> : tensor<f32>
  %sc = google.div %s, %c : tensor<4x64x128xf32>, tensor<f32> -> tensor<4x64x128xf32>
  %p = google.softmax %sc {axis = -1 : i64} : tensor<4x64x128xf32>
  %o = google.matmul %p, %v : tensor<4x64x128xf32>, tensor<4x128x64xf32> -> tensor<4x64x64xf32>
  return %o : tensor<4x64x64xf32>
}

// Narrower values: heads of 16 and of 32 (the threads past V's columns
// compute no output), a causal mask by iota.
// E2E: @narrow(q: 3x128x16xf32, k: 3x128x16xf32, v: 3x128x16xf32) -> softmax(np.where(np.arange(128)[None, :] <= np.arange(128)[:, None], q @ np.transpose(k, (0, 2, 1)) * 0.25, -1e9)) @ v
func.func @narrow(%q: tensor<3x128x16xf32>, %k: tensor<3x128x16xf32>, %v: tensor<3x128x16xf32>) -> tensor<3x128x16xf32> {
  %kt = google.transpose %k {perm = array<i64: 0, 2, 1>} : tensor<3x128x16xf32> -> tensor<3x16x128xf32>
  %s = google.matmul %q, %kt : tensor<3x128x16xf32>, tensor<3x16x128xf32> -> tensor<3x128x128xf32>
  %c = google.constant dense<0.25> : tensor<f32>
  %sc = google.mul %s, %c : tensor<3x128x128xf32>, tensor<f32> -> tensor<3x128x128xf32>
  %rows = google.iota {dimension = 0 : i64} : tensor<128x128xi64>
  %cols = google.iota {dimension = 1 : i64} : tensor<128x128xi64>
  %sees = google.le %cols, %rows : tensor<128x128xi64>, tensor<128x128xi64> -> tensor<128x128xi1>
  %low = google.constant dense<-1.0e9> : tensor<f32>
  %m = google.select %sees, %sc, %low : tensor<128x128xi1>, tensor<3x128x128xf32>, tensor<f32> -> tensor<3x128x128xf32>
  %p = google.softmax %m {axis = -1 : i64} : tensor<3x128x128xf32>
  %o = google.matmul %p, %v : tensor<3x128x128xf32>, tensor<3x128x16xf32> -> tensor<3x128x16xf32>
  return %o : tensor<3x128x16xf32>
}

// E2E: @narrow32(q: 64x32xf32, k: 64x32xf32, v: 64x32xf32, b: 32xf32) -> np.maximum(softmax(q @ k.T) @ v + b, 0)
func.func @narrow32(%q: tensor<64x32xf32>, %k: tensor<64x32xf32>, %v: tensor<64x32xf32>, %b: tensor<32xf32>) -> tensor<64x32xf32> {
  %kt = google.transpose %k {perm = array<i64: 1, 0>} : tensor<64x32xf32> -> tensor<32x64xf32>
  %s = google.matmul %q, %kt : tensor<64x32xf32>, tensor<32x64xf32> -> tensor<64x64xf32>
  %p = google.softmax %s {axis = 1 : i64} : tensor<64x64xf32>
  %o = google.matmul %p, %v : tensor<64x64xf32>, tensor<64x32xf32> -> tensor<64x32xf32>
  %ob = google.add %o, %b : tensor<64x32xf32>, tensor<32xf32> -> tensor<64x32xf32>
  %r = google.relu %ob : tensor<64x32xf32>
  return %r : tensor<64x32xf32>
}

// Partial tiles: 100 query rows and 72 keys (last tiles of 36 rows and 8
// keys), an additive mask from the caller (read at every row and key in
// range), a causal mask with -inf, a bias on the output.
// E2E: @ragged(q: 2x100x32xf32, k: 2x72x32xf32, v: 2x72x48xf32, mask: 100x72xf32[-3:0], b: 48xf32) -> softmax(np.where(np.arange(72)[None, :] <= np.arange(100)[:, None], q @ np.transpose(k, (0, 2, 1)) * 0.25 + mask, -np.inf)) @ v + b
func.func @ragged(%q: tensor<2x100x32xf32>, %k: tensor<2x72x32xf32>, %v: tensor<2x72x48xf32>, %mask: tensor<100x72xf32>, %b: tensor<48xf32>) -> tensor<2x100x48xf32> {
  %kt = google.transpose %k {perm = array<i64: 0, 2, 1>} : tensor<2x72x32xf32> -> tensor<2x32x72xf32>
  %s = google.matmul %q, %kt : tensor<2x100x32xf32>, tensor<2x32x72xf32> -> tensor<2x100x72xf32>
  %c = google.constant dense<0.25> : tensor<f32>
  %sc = google.mul %s, %c : tensor<2x100x72xf32>, tensor<f32> -> tensor<2x100x72xf32>
  %sm = google.add %sc, %mask : tensor<2x100x72xf32>, tensor<100x72xf32> -> tensor<2x100x72xf32>
  %rows = google.iota {dimension = 0 : i64} : tensor<100x72xi64>
  %cols = google.iota {dimension = 1 : i64} : tensor<100x72xi64>
  %sees = google.le %cols, %rows : tensor<100x72xi64>, tensor<100x72xi64> -> tensor<100x72xi1>
  %ninf = google.constant dense<0xFF800000> : tensor<f32>
  %m = google.select %sees, %sm, %ninf : tensor<100x72xi1>, tensor<2x100x72xf32>, tensor<f32> -> tensor<2x100x72xf32>
  %p = google.softmax %m {axis = -1 : i64} : tensor<2x100x72xf32>
  %o = google.matmul %p, %v : tensor<2x100x72xf32>, tensor<2x72x48xf32> -> tensor<2x100x48xf32>
  %ob = google.add %o, %b : tensor<2x100x48xf32>, tensor<48xf32> -> tensor<2x100x48xf32>
  return %ob : tensor<2x100x48xf32>
}

// A few rows and keys: one partial tile of each, K given transposed.
// E2E: @tiny(q: 5x16xf32, kt: 16x3xf32, v: 3x16xf32) -> softmax(q @ kt) @ v
func.func @tiny(%q: tensor<5x16xf32>, %kt: tensor<16x3xf32>, %v: tensor<3x16xf32>) -> tensor<5x16xf32> {
  %s = google.matmul %q, %kt : tensor<5x16xf32>, tensor<16x3xf32> -> tensor<5x3xf32>
  %p = google.softmax %s {axis = 1 : i64} : tensor<5x3xf32>
  %o = google.matmul %p, %v : tensor<5x3xf32>, tensor<3x16xf32> -> tensor<5x16xf32>
  return %o : tensor<5x16xf32>
}

// V's last key has an infinite first column and a causal mask gives it
// probability 0 in every row but the last: column 0 is NaN there (0 *
// inf) and inf in the last row, as unfused. The keys past the end of the
// partial tile must add 0, not 0 * inf.
// E2E: @infinite_value(q: 70x16xf32, k: 70x16xf32, v: 70x16xf32) -> (np.where(np.arange(70)[None, :] <= np.arange(70)[:, None], np.exp(q @ k.T - (q @ k.T).max(1, keepdims=True)), 0.0)[:, :, None] * np.where((np.arange(70)[:, None] == 69) & (np.arange(16)[None, :] == 0), np.inf, v)[None, :, :]).sum(1) / np.where(np.arange(70)[None, :] <= np.arange(70)[:, None], np.exp(q @ k.T - (q @ k.T).max(1, keepdims=True)), 0.0).sum(1, keepdims=True)
func.func @infinite_value(%q: tensor<70x16xf32>, %k: tensor<70x16xf32>, %v: tensor<70x16xf32>) -> tensor<70x16xf32> {
  %vr = google.iota {dimension = 0 : i64} : tensor<70x16xi64>
  %vc = google.iota {dimension = 1 : i64} : tensor<70x16xi64>
  %c69 = google.constant dense<69> : tensor<i64>
  %c0 = google.constant dense<0> : tensor<i64>
  %last = google.eq %vr, %c69 : tensor<70x16xi64>, tensor<i64> -> tensor<70x16xi1>
  %first = google.eq %vc, %c0 : tensor<70x16xi64>, tensor<i64> -> tensor<70x16xi1>
  %corner = google.and %last, %first : tensor<70x16xi1>, tensor<70x16xi1> -> tensor<70x16xi1>
  %inf = google.constant dense<0x7F800000> : tensor<f32>
  %vi = google.select %corner, %inf, %v : tensor<70x16xi1>, tensor<f32>, tensor<70x16xf32> -> tensor<70x16xf32>
  %kt = google.transpose %k {perm = array<i64: 1, 0>} : tensor<70x16xf32> -> tensor<16x70xf32>
  %s = google.matmul %q, %kt : tensor<70x16xf32>, tensor<16x70xf32> -> tensor<70x70xf32>
  %rows = google.iota {dimension = 0 : i64} : tensor<70x70xi64>
  %cols = google.iota {dimension = 1 : i64} : tensor<70x70xi64>
  %sees = google.le %cols, %rows : tensor<70x70xi64>, tensor<70x70xi64> -> tensor<70x70xi1>
  %ninf = google.constant dense<0xFF800000> : tensor<f32>
  %m = google.select %sees, %s, %ninf : tensor<70x70xi1>, tensor<70x70xf32>, tensor<f32> -> tensor<70x70xf32>
  %p = google.softmax %m {axis = -1 : i64} : tensor<70x70xf32>
  %o = google.matmul %p, %vi : tensor<70x70xf32>, tensor<70x16xf32> -> tensor<70x16xf32>
  return %o : tensor<70x16xf32>
}
