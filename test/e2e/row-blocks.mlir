// Chains of ops over the same static rows with row reductions between
// them (on the GPU, one kernel with a block per row): softmax over 2-D and
// 3-D tensors (rows a block's threads do not divide), layer normalization
// (per-row steps between the reductions), three reductions in a chain, a
// transposed input, f16 and f64, and a column sum next to a row chain.
// On NVIDIA, rows of 256 to 4096 elements stay in registers (a scaled
// softmax as in attention, i32 sums, a per-row result returned, a vector
// along the rows whose length is the rows' count); longer ones (4097)
// take the strided loops.
// RUN: %python %e2e run %s google-run | FileCheck %s
// CHECK: e2e: 14 cases match numpy

// E2E: @softmax(x: 64x4096xf32[-30:30]) -> softmax(x, axis=-1)
func.func @softmax(%x: tensor<64x4096xf32>) -> tensor<64x4096xf32> {
  %0 = google.softmax %x {axis = 1 : i64} : tensor<64x4096xf32>
  return %0 : tensor<64x4096xf32>
}

// E2E: @softmax_3d(x: 2x3x300xf32[-30:30]) -> softmax(x, axis=-1)
func.func @softmax_3d(%x: tensor<2x3x300xf32>) -> tensor<2x3x300xf32> {
  %0 = google.softmax %x {axis = -1 : i64} : tensor<2x3x300xf32>
  return %0 : tensor<2x3x300xf32>
}

// E2E: @layer_norm(x: 8x512xf32, g: 512xf32, b: 512xf32) -> (x - x.mean(axis=-1, keepdims=True)) / np.sqrt(((x - x.mean(axis=-1, keepdims=True)) ** 2).mean(axis=-1, keepdims=True) + 1e-5) * g + b
func.func @layer_norm(%x: tensor<8x512xf32>, %g: tensor<512xf32>, %b: tensor<512xf32>) -> tensor<8x512xf32> {
  %mean = google.reduce_mean %x {axes = array<i64: -1>, keep_dims = true} : tensor<8x512xf32> -> tensor<8x1xf32>
  %c = google.sub %x, %mean : tensor<8x512xf32>, tensor<8x1xf32> -> tensor<8x512xf32>
  %sq = google.mul %c, %c : tensor<8x512xf32>, tensor<8x512xf32> -> tensor<8x512xf32>
  %var = google.reduce_mean %sq {axes = array<i64: -1>, keep_dims = true} : tensor<8x512xf32> -> tensor<8x1xf32>
  %eps = google.constant dense<1.0e-5> : tensor<f32>
  %ve = google.add %var, %eps : tensor<8x1xf32>, tensor<f32> -> tensor<8x1xf32>
  %sd = google.sqrt %ve : tensor<8x1xf32>
  %n = google.div %c, %sd : tensor<8x512xf32>, tensor<8x1xf32> -> tensor<8x512xf32>
  %s = google.mul %n, %g : tensor<8x512xf32>, tensor<512xf32> -> tensor<8x512xf32>
  %r = google.add %s, %b : tensor<8x512xf32>, tensor<512xf32> -> tensor<8x512xf32>
  return %r : tensor<8x512xf32>
}

// E2E: @softmax_normalized(x: 3x2000xf32) -> softmax(x, axis=1) / softmax(x, axis=1).max(axis=1, keepdims=True)
func.func @softmax_normalized(%x: tensor<3x2000xf32>) -> tensor<3x2000xf32> {
  %p = google.softmax %x {axis = 1 : i64} : tensor<3x2000xf32>
  %m = google.reduce_max %p {axes = array<i64: 1>, keep_dims = true} : tensor<3x2000xf32> -> tensor<3x1xf32>
  %r = google.div %p, %m : tensor<3x2000xf32>, tensor<3x1xf32> -> tensor<3x2000xf32>
  return %r : tensor<3x2000xf32>
}

// E2E: @transposed(x: 300x6xf32[-30:30]) -> softmax(x.T, axis=-1)
func.func @transposed(%x: tensor<300x6xf32>) -> tensor<6x300xf32> {
  %t = google.transpose %x {perm = array<i64: 1, 0>} : tensor<300x6xf32> -> tensor<6x300xf32>
  %0 = google.softmax %t {axis = 1 : i64} : tensor<6x300xf32>
  return %0 : tensor<6x300xf32>
}

// E2E: @half(x: 4x1024xf16[-4:4]) -> softmax(x.astype(np.float32), axis=-1).astype(np.float16)
func.func @half(%x: tensor<4x1024xf16>) -> tensor<4x1024xf16> {
  %0 = google.softmax %x {axis = 1 : i64} : tensor<4x1024xf16>
  return %0 : tensor<4x1024xf16>
}

// E2E: @double(x: 2x256xf64[-30:30]) -> softmax(x, axis=-1)
func.func @double(%x: tensor<2x256xf64>) -> tensor<2x256xf64> {
  %0 = google.softmax %x {axis = 1 : i64} : tensor<2x256xf64>
  return %0 : tensor<2x256xf64>
}

// E2E: @column_sums(x: 9x300xf32[0.5:2]) -> (x - x.max(axis=1, keepdims=True)) / x.sum(axis=0, keepdims=True)
func.func @column_sums(%x: tensor<9x300xf32>) -> tensor<9x300xf32> {
  %m = google.reduce_max %x {axes = array<i64: 1>, keep_dims = true} : tensor<9x300xf32> -> tensor<9x1xf32>
  %c = google.reduce_sum %x {axes = array<i64: 0>, keep_dims = true} : tensor<9x300xf32> -> tensor<1x300xf32>
  %d = google.sub %x, %m : tensor<9x300xf32>, tensor<9x1xf32> -> tensor<9x300xf32>
  %r = google.div %d, %c : tensor<9x300xf32>, tensor<1x300xf32> -> tensor<9x300xf32>
  return %r : tensor<9x300xf32>
}

// E2E: @scaled(x: 32x1024xf32[-30:30]) -> softmax(x * 0.125, axis=-1)
func.func @scaled(%x: tensor<32x1024xf32>) -> tensor<32x1024xf32> {
  %c = google.constant dense<0.125> : tensor<f32>
  %s = google.mul %x, %c : tensor<32x1024xf32>, tensor<f32> -> tensor<32x1024xf32>
  %0 = google.softmax %s {axis = 1 : i64} : tensor<32x1024xf32>
  return %0 : tensor<32x1024xf32>
}

// E2E: @integers(x: 5x1000xi32[-50:50]) -> (x - x.max(axis=1, keepdims=True)) * (x - x.max(axis=1, keepdims=True)).sum(axis=1, keepdims=True)
func.func @integers(%x: tensor<5x1000xi32>) -> tensor<5x1000xi32> {
  %m = google.reduce_max %x {axes = array<i64: 1>, keep_dims = true} : tensor<5x1000xi32> -> tensor<5x1xi32>
  %d = google.sub %x, %m : tensor<5x1000xi32>, tensor<5x1xi32> -> tensor<5x1000xi32>
  %s = google.reduce_sum %d {axes = array<i64: 1>, keep_dims = true} : tensor<5x1000xi32> -> tensor<5x1xi32>
  %r = google.mul %d, %s : tensor<5x1000xi32>, tensor<5x1xi32> -> tensor<5x1000xi32>
  return %r : tensor<5x1000xi32>
}

// E2E: @long(x: 3x4097xf32[-30:30]) -> softmax(x, axis=-1)
func.func @long(%x: tensor<3x4097xf32>) -> tensor<3x4097xf32> {
  %0 = google.softmax %x {axis = 1 : i64} : tensor<3x4097xf32>
  return %0 : tensor<3x4097xf32>
}

// E2E: @with_norms(x: 6x700xf32[-3:3]) -> (x / np.sqrt((x * x).sum(axis=1, keepdims=True)), np.sqrt((x * x).sum(axis=1, keepdims=True)))
func.func @with_norms(%x: tensor<6x700xf32>) -> (tensor<6x700xf32>, tensor<6x1xf32>) {
  %sq = google.mul %x, %x : tensor<6x700xf32>, tensor<6x700xf32> -> tensor<6x700xf32>
  %s = google.reduce_sum %sq {axes = array<i64: 1>, keep_dims = true} : tensor<6x700xf32> -> tensor<6x1xf32>
  %n = google.sqrt %s : tensor<6x1xf32>
  %r = google.div %x, %n : tensor<6x700xf32>, tensor<6x1xf32> -> tensor<6x700xf32>
  return %r, %n : tensor<6x700xf32>, tensor<6x1xf32>
}

// A vector along the row as long as the rows are many: each thread reads
// its own elements of it, not one per row.
// E2E: @square(x: 256x256xf32[-3:3], g: 256xf32) -> softmax(x, axis=-1) * g
func.func @square(%x: tensor<256x256xf32>, %g: tensor<256xf32>) -> tensor<256x256xf32> {
  %s = google.softmax %x {axis = 1 : i64} : tensor<256x256xf32>
  %r = google.mul %s, %g : tensor<256x256xf32>, tensor<256xf32> -> tensor<256x256xf32>
  return %r : tensor<256x256xf32>
}

// E2E: @square_norm(x: 512x512xf32[0.5:2], g: 512xf32) -> x / x.sum(axis=1, keepdims=True) * g
func.func @square_norm(%x: tensor<512x512xf32>, %g: tensor<512xf32>) -> tensor<512x512xf32> {
  %s = google.reduce_sum %x {axes = array<i64: 1>, keep_dims = true} : tensor<512x512xf32> -> tensor<512x1xf32>
  %d = google.div %x, %s : tensor<512x512xf32>, tensor<512x1xf32> -> tensor<512x512xf32>
  %r = google.mul %d, %g : tensor<512x512xf32>, tensor<512xf32> -> tensor<512x512xf32>
  return %r : tensor<512x512xf32>
}
