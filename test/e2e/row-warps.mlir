// Chains of row-wise ops over rows of 33-255 elements (a softmax over a
// sequence, a layer norm over a small model's features). On the GPU they
// run with a warp per row, the row in registers: rows that do not fill the
// last block, one row, rank-3 rows, several results, i32; f16 and f64
// chains (f64: no chain, no 32-bit accumulators). Reductions alone over
// such rows too (with the op that writes their input, and their scale).
// RUN: %python %e2e run %s google-run | FileCheck %s
// CHECK: e2e: 14 cases match numpy

// E2E: @softmax(x: 100x100xf32[-30:30]) -> softmax(x, axis=-1)
func.func @softmax(%x: tensor<100x100xf32>) -> tensor<100x100xf32> {
  %0 = google.softmax %x {axis = 1 : i64} : tensor<100x100xf32>
  return %0 : tensor<100x100xf32>
}

// E2E: @softmax_wide(x: 64x255xf32[-30:30]) -> softmax(x, axis=-1)
func.func @softmax_wide(%x: tensor<64x255xf32>) -> tensor<64x255xf32> {
  %0 = google.softmax %x {axis = -1 : i64} : tensor<64x255xf32>
  return %0 : tensor<64x255xf32>
}

// E2E: @softmax_one_row(x: 1x33xf32[-30:30]) -> softmax(x, axis=-1)
func.func @softmax_one_row(%x: tensor<1x33xf32>) -> tensor<1x33xf32> {
  %0 = google.softmax %x {axis = -1 : i64} : tensor<1x33xf32>
  return %0 : tensor<1x33xf32>
}

// E2E: @log_softmax(x: 3x7x50xf32[-30:30]) -> x - x.max(axis=-1, keepdims=True) - np.log(np.exp(x - x.max(axis=-1, keepdims=True)).sum(axis=-1, keepdims=True))
func.func @log_softmax(%x: tensor<3x7x50xf32>) -> tensor<3x7x50xf32> {
  %m = google.reduce_max %x {axes = array<i64: -1>, keep_dims = true} : tensor<3x7x50xf32> -> tensor<3x7x1xf32>
  %s = google.sub %x, %m : tensor<3x7x50xf32>, tensor<3x7x1xf32> -> tensor<3x7x50xf32>
  %e = google.exp %s : tensor<3x7x50xf32>
  %sum = google.reduce_sum %e {axes = array<i64: -1>, keep_dims = true} : tensor<3x7x50xf32> -> tensor<3x7x1xf32>
  %l = google.log %sum : tensor<3x7x1xf32>
  %r = google.sub %s, %l : tensor<3x7x50xf32>, tensor<3x7x1xf32> -> tensor<3x7x50xf32>
  return %r : tensor<3x7x50xf32>
}

// E2E: @layer_norm(x: 37x130xf32, g: 130xf32, b: 130xf32) -> (x - x.mean(axis=-1, keepdims=True)) / np.sqrt(((x - x.mean(axis=-1, keepdims=True)) ** 2).mean(axis=-1, keepdims=True) + 1e-5) * g + b
func.func @layer_norm(%x: tensor<37x130xf32>, %g: tensor<130xf32>, %b: tensor<130xf32>) -> tensor<37x130xf32> {
  %mean = google.reduce_mean %x {axes = array<i64: -1>, keep_dims = true} : tensor<37x130xf32> -> tensor<37x1xf32>
  %c = google.sub %x, %mean : tensor<37x130xf32>, tensor<37x1xf32> -> tensor<37x130xf32>
  %sq = google.mul %c, %c : tensor<37x130xf32>, tensor<37x130xf32> -> tensor<37x130xf32>
  %var = google.reduce_mean %sq {axes = array<i64: -1>, keep_dims = true} : tensor<37x130xf32> -> tensor<37x1xf32>
  %eps = google.constant dense<1.0e-5> : tensor<f32>
  %ve = google.add %var, %eps : tensor<37x1xf32>, tensor<f32> -> tensor<37x1xf32>
  %sd = google.sqrt %ve : tensor<37x1xf32>
  %n = google.div %c, %sd : tensor<37x130xf32>, tensor<37x1xf32> -> tensor<37x130xf32>
  %s = google.mul %n, %g : tensor<37x130xf32>, tensor<130xf32> -> tensor<37x130xf32>
  %r = google.add %s, %b : tensor<37x130xf32>, tensor<130xf32> -> tensor<37x130xf32>
  return %r : tensor<37x130xf32>
}

// The rows' maxima are a result too (stored by each row's first lane).
// E2E: @softmax_and_max(x: 50x77xf32[-30:30]) -> (softmax(x, axis=-1), x.max(axis=-1))
func.func @softmax_and_max(%x: tensor<50x77xf32>) -> (tensor<50x77xf32>, tensor<50xf32>) {
  %m = google.reduce_max %x {axes = array<i64: -1>, keep_dims = false} : tensor<50x77xf32> -> tensor<50xf32>
  %p = google.softmax %x {axis = -1 : i64} : tensor<50x77xf32>
  return %p, %m : tensor<50x77xf32>, tensor<50xf32>
}

// E2E: @ints(x: 33x40xi32) -> x - x.max(axis=-1, keepdims=True) + x.sum(axis=-1, keepdims=True)
func.func @ints(%x: tensor<33x40xi32>) -> tensor<33x40xi32> {
  %m = google.reduce_max %x {axes = array<i64: -1>, keep_dims = true} : tensor<33x40xi32> -> tensor<33x1xi32>
  %d = google.sub %x, %m : tensor<33x40xi32>, tensor<33x1xi32> -> tensor<33x40xi32>
  %s = google.reduce_sum %x {axes = array<i64: -1>, keep_dims = true} : tensor<33x40xi32> -> tensor<33x1xi32>
  %r = google.add %d, %s : tensor<33x40xi32>, tensor<33x1xi32> -> tensor<33x40xi32>
  return %r : tensor<33x40xi32>
}

// Centered rows over a masked input: the select's operands broadcast
// along and across the rows.
// E2E: @masked_center(x: 24x96xf32, c: 96xf32) -> np.where(x > c, x, 0.0) - np.where(x > c, x, 0.0).mean(axis=-1, keepdims=True)
func.func @masked_center(%x: tensor<24x96xf32>, %c: tensor<96xf32>) -> tensor<24x96xf32> {
  %zero = google.constant dense<0.0> : tensor<f32>
  %gt = google.gt %x, %c : tensor<24x96xf32>, tensor<96xf32> -> tensor<24x96xi1>
  %m = google.select %gt, %x, %zero : tensor<24x96xi1>, tensor<24x96xf32>, tensor<f32> -> tensor<24x96xf32>
  %mean = google.reduce_mean %m {axes = array<i64: -1>, keep_dims = true} : tensor<24x96xf32> -> tensor<24x1xf32>
  %r = google.sub %m, %mean : tensor<24x96xf32>, tensor<24x1xf32> -> tensor<24x96xf32>
  return %r : tensor<24x96xf32>
}

// E2E: @softmax_f16(x: 20x64xf16[-4:4]) -> softmax(x, axis=-1)
func.func @softmax_f16(%x: tensor<20x64xf16>) -> tensor<20x64xf16> {
  %0 = google.softmax %x {axis = -1 : i64} : tensor<20x64xf16>
  return %0 : tensor<20x64xf16>
}

// E2E: @softmax_f64(x: 10x40xf64[-30:30]) -> softmax(x, axis=-1)
func.func @softmax_f64(%x: tensor<10x40xf64>) -> tensor<10x40xf64> {
  %0 = google.softmax %x {axis = -1 : i64} : tensor<10x40xf64>
  return %0 : tensor<10x40xf64>
}

// E2E: @softmax_tall(x: 1000x48xf32[-30:30]) -> softmax(x, axis=-1)
func.func @softmax_tall(%x: tensor<1000x48xf32>) -> tensor<1000x48xf32> {
  %0 = google.softmax %x {axis = -1 : i64} : tensor<1000x48xf32>
  return %0 : tensor<1000x48xf32>
}

// E2E: @row_sums(x: 300x100xf32) -> x.sum(axis=-1)
func.func @row_sums(%x: tensor<300x100xf32>) -> tensor<300xf32> {
  %s = google.reduce_sum %x {axes = array<i64: 1>, keep_dims = false} : tensor<300x100xf32> -> tensor<300xf32>
  return %s : tensor<300xf32>
}

// E2E: @mean_square(x: 5x13x77xf32) -> (x * x).mean(axis=-1, keepdims=True)
func.func @mean_square(%x: tensor<5x13x77xf32>) -> tensor<5x13x1xf32> {
  %sq = google.mul %x, %x : tensor<5x13x77xf32>, tensor<5x13x77xf32> -> tensor<5x13x77xf32>
  %m = google.reduce_mean %sq {axes = array<i64: -1>, keep_dims = true} : tensor<5x13x77xf32> -> tensor<5x13x1xf32>
  return %m : tensor<5x13x1xf32>
}

// E2E: @row_min_ints(x: 9x200xi32) -> x.min(axis=-1)
func.func @row_min_ints(%x: tensor<9x200xi32>) -> tensor<9xi32> {
  %m = google.reduce_min %x {axes = array<i64: -1>, keep_dims = false} : tensor<9x200xi32> -> tensor<9xi32>
  return %m : tensor<9xi32>
}
