// Reductions feeding broadcasts: centering, layer normalization, softmax
// followed by a normalization, and attention. Each once gave wrong results
// at opt-level 1-3 (a lowering read its outs operand and elementwise fusion
// broadcast it), right ones at opt-level 0.
// RUN: %python %e2e run %s google-run | FileCheck %s
// CHECK: e2e: 8 cases match numpy

// E2E: @center(x: 2x3xf32) -> x - x.mean(axis=1, keepdims=True)
func.func @center(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %m = google.reduce_mean %x {axes = array<i64: 1>, keep_dims = true} : tensor<2x3xf32> -> tensor<2x1xf32>
  %d = google.sub %x, %m : tensor<2x3xf32>, tensor<2x1xf32> -> tensor<2x3xf32>
  return %d : tensor<2x3xf32>
}

// E2E: @layer_norm(x: 4x16xf32, g: 16xf32, b: 16xf32) -> (x - x.mean(axis=-1, keepdims=True)) / np.sqrt(((x - x.mean(axis=-1, keepdims=True)) ** 2).mean(axis=-1, keepdims=True) + 1e-5) * g + b
// E2E: @layer_norm(x: 1x16xf32, g: 16xf32, b: 16xf32) -> (x - x.mean(axis=-1, keepdims=True)) / np.sqrt(((x - x.mean(axis=-1, keepdims=True)) ** 2).mean(axis=-1, keepdims=True) + 1e-5) * g + b
func.func @layer_norm(%x: tensor<?x16xf32>, %g: tensor<16xf32>, %b: tensor<16xf32>) -> tensor<?x16xf32> {
  %mean = google.reduce_mean %x {axes = array<i64: -1>, keep_dims = true} : tensor<?x16xf32> -> tensor<?x1xf32>
  %c = google.sub %x, %mean : tensor<?x16xf32>, tensor<?x1xf32> -> tensor<?x16xf32>
  %sq = google.mul %c, %c : tensor<?x16xf32>, tensor<?x16xf32> -> tensor<?x16xf32>
  %var = google.reduce_mean %sq {axes = array<i64: -1>, keep_dims = true} : tensor<?x16xf32> -> tensor<?x1xf32>
  %eps = google.constant dense<1.0e-5> : tensor<f32>
  %ve = google.add %var, %eps : tensor<?x1xf32>, tensor<f32> -> tensor<?x1xf32>
  %sd = google.sqrt %ve : tensor<?x1xf32>
  %n = google.div %c, %sd : tensor<?x16xf32>, tensor<?x1xf32> -> tensor<?x16xf32>
  %s = google.mul %n, %g : tensor<?x16xf32>, tensor<16xf32> -> tensor<?x16xf32>
  %r = google.add %s, %b : tensor<?x16xf32>, tensor<16xf32> -> tensor<?x16xf32>
  return %r : tensor<?x16xf32>
}

// Softmax, then each row divided by its maximum.
// E2E: @softmax_normalized(x: 3x5xf32) -> softmax(x, axis=1) / softmax(x, axis=1).max(axis=1, keepdims=True)
func.func @softmax_normalized(%x: tensor<3x5xf32>) -> tensor<3x5xf32> {
  %p = google.softmax %x {axis = 1 : i64} : tensor<3x5xf32>
  %m = google.reduce_max %p {axes = array<i64: 1>, keep_dims = true} : tensor<3x5xf32> -> tensor<3x1xf32>
  %r = google.div %p, %m : tensor<3x5xf32>, tensor<3x1xf32> -> tensor<3x5xf32>
  return %r : tensor<3x5xf32>
}

// Column sums broadcast back over rows (the reduction over the leading
// axis).
// E2E: @column_share(x: 4x3xf32[0.5:2]) -> x / x.sum(axis=0, keepdims=True)
func.func @column_share(%x: tensor<4x3xf32>) -> tensor<4x3xf32> {
  %s = google.reduce_sum %x {axes = array<i64: 0>, keep_dims = true} : tensor<4x3xf32> -> tensor<1x3xf32>
  %r = google.div %x, %s : tensor<4x3xf32>, tensor<1x3xf32> -> tensor<4x3xf32>
  return %r : tensor<4x3xf32>
}

// softmax(q k^T / sqrt(d)) v, with the scores' row maxima subtracted by
// hand as well (a reduction and a broadcast before the softmax).
// E2E: @attention(q: 2x4x8xf32, k: 2x6x8xf32, v: 2x6x8xf32) -> softmax(q @ np.transpose(k, (0, 2, 1)) / np.sqrt(8.0), axis=-1) @ v
// E2E: @attention(q: 1x4x8xf32, k: 1x6x8xf32, v: 1x6x8xf32) -> softmax(q @ np.transpose(k, (0, 2, 1)) / np.sqrt(8.0), axis=-1) @ v
func.func @attention(%q: tensor<?x4x8xf32>, %k: tensor<?x6x8xf32>, %v: tensor<?x6x8xf32>) -> tensor<?x4x8xf32> {
  %kt = google.transpose %k {perm = array<i64: 0, 2, 1>} : tensor<?x6x8xf32> -> tensor<?x8x6xf32>
  %s = google.matmul %q, %kt : tensor<?x4x8xf32>, tensor<?x8x6xf32> -> tensor<?x4x6xf32>
  %d = google.constant dense<8.0> : tensor<f32>
  %sd = google.sqrt %d : tensor<f32>
  %scaled = google.div %s, %sd : tensor<?x4x6xf32>, tensor<f32> -> tensor<?x4x6xf32>
  %mx = google.reduce_max %scaled {axes = array<i64: -1>, keep_dims = true} : tensor<?x4x6xf32> -> tensor<?x4x1xf32>
  %shifted = google.sub %scaled, %mx : tensor<?x4x6xf32>, tensor<?x4x1xf32> -> tensor<?x4x6xf32>
  %p = google.softmax %shifted {axis = -1 : i64} : tensor<?x4x6xf32>
  %o = google.matmul %p, %v : tensor<?x4x6xf32>, tensor<?x6x8xf32> -> tensor<?x4x8xf32>
  return %o : tensor<?x4x8xf32>
}

// A masked softmax: the -1e9 entries are exactly 0 (their numerators are
// flushed, not computed on exp's slow underflow path).
// E2E: @masked_softmax(x: 6x200xf32) -> softmax(np.where(x > 1, -1e9, x))
func.func @masked_softmax(%x: tensor<6x200xf32>) -> tensor<6x200xf32> {
  %one = google.constant dense<1.0> : tensor<f32>
  %ninf = google.constant dense<-1.0e9> : tensor<f32>
  %big = google.gt %x, %one : tensor<6x200xf32>, tensor<f32> -> tensor<6x200xi1>
  %m = google.select %big, %ninf, %x : tensor<6x200xi1>, tensor<f32>, tensor<6x200xf32> -> tensor<6x200xf32>
  %p = google.softmax %m {axis = 1 : i64} : tensor<6x200xf32>
  return %p : tensor<6x200xf32>
}
