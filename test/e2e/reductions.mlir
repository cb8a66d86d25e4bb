// RUN: %python %e2e run %s google-run | FileCheck %s
// CHECK: e2e: 46 cases match numpy

// E2E: @sum_rows(x: 4x8xf32) -> x.sum(axis=1)
// E2E: @min_prod(x: 4x8xf32[0.5:1.5], h: 6x5xf16[0.5:1.5]) -> (x.min(axis=1), x.prod(axis=(0, 1)), h.prod(axis=0), h.min(axis=0, keepdims=True))
// E2E: @min_prod_int(x: 3x7xi32[-4:4], y: 5x2000xi64[-9:9]) -> (x.prod(axis=1), x.min(axis=0), y.min(axis=-1), y.max(axis=-1))
// E2E: @min_long_rows(x: 3x3000xf32) -> (x.min(axis=1), np.min(x, axis=0))
// E2E: @prod_rows(x: 64x16xf64[0.5:2]) -> x.prod(axis=1)
// E2E: @max_keep(x: 3x4x5xf32) -> x.max(axis=(0, 2), keepdims=True)
// E2E: @mean_all(x: 6x7xf32) -> x.mean()
// E2E: @mean_dynamic(x: 3x4x8xf32) -> x.mean(axis=(1, 2), keepdims=True)
// E2E: @mean_dynamic(x: 1x4x8xf32) -> x.mean(axis=(1, 2), keepdims=True)
// E2E: @softmax_last(x: 4x8xf32[-30:30]) -> softmax(x, axis=-1)
// E2E: @softmax_first(x: 5x3xf32) -> softmax(x, axis=0)
// E2E: @softmax_large(x: 2x6xf32[80:100]) -> softmax(x, axis=1)
// Rows longer than one vector reduction (1024) are reduced in chunks:
// 2048 in two of 1024, 3000 in three of 1000; 2053 (prime) stays scalar.
// E2E: @softmax_long_rows(x: 3x2048xf32[-30:30]) -> softmax(x, axis=-1)
// E2E: @sum_long_rows(x: 2x3000xf32) -> x.sum(axis=1)
// E2E: @max_long_rows(x: 2x3000xf64) -> x.max(axis=-1, keepdims=True)
// E2E: @mean_prime_rows(x: 2x2053xf32) -> x.mean(axis=1)
// Long or dynamic rows (a GPU block per row, its threads meeting in a
// tree): fewer elements than threads, none, two axes, integers.
// E2E: @sum_rows_dynamic(x: 3x300xf32) -> x.sum(axis=1)
// E2E: @sum_rows_dynamic(x: 4x5xf32) -> x.sum(axis=1)
// E2E: @sum_rows_dynamic(x: 2x0xf32) -> x.sum(axis=1)
// E2E: @mean_two_axes(x: 2x20x30xf32) -> x.mean(axis=(1, 2))
// E2E: @max_rows_int(x: 3x1000xi32) -> x.max(axis=1)
// Reductions of every axis of many elements (GPUs split them over threads).
// E2E: @sum_all_dynamic(x: 300x50xf32) -> x.sum()
// E2E: @sum_all_dynamic(x: 1x50xf32) -> x.sum()
// E2E: @sum_all_dynamic(x: 0x50xf32) -> x.sum()
// E2E: @max_all(x: 97x89xf32) -> x.max()
// E2E: @sum_all_int(x: 64x65xi64) -> x.sum()
// Several innermost axes reduced as one row (in chunks where it is long):
// a squared error's sum, an image's max over its rows and columns, an f64
// mean of a 3-d tensor's two inner axes.
// E2E: @squared_error(x: 64x48xf32, y: 64x48xf32) -> ((x - y) ** 2).sum()
// E2E: @image_max(x: 2x3x16x16xf32) -> x.max(axis=(2, 3))
// E2E: @inner_mean(x: 3x40x50xf64) -> x.mean(axis=(1, 2))
// Enough elements for every block a GPU's reduction of all axes has (1024,
// each a range of 4297 elements, the last one shorter).
// E2E: @mean_all_large(x: 1100x4000xf32) -> x.mean()
// A max of every axis starts from its fill's -inf (on GPUs the fill's
// value, with no kernel of its own: also for no elements).
// E2E: @max_all_dynamic(x: 300x50xf32) -> x.max()
// E2E: @max_all_dynamic(x: 0x50xf32) -> np.float32(-np.inf)
// The elementwise op a reduction of every axis reads is computed where it
// is read (on GPUs: in the first kernel, with no buffer): static, dynamic
// with a broadcast operand, none, a mean, f16 widened to f32.
// E2E: @squared_error_large(x: 300x70xf32, y: 300x70xf32) -> ((x - y) ** 2).sum()
// E2E: @scaled_sum_dynamic(x: 300x50xf32, b: 50xf32) -> (x * b).sum()
// E2E: @scaled_sum_dynamic(x: 0x50xf32, b: 50xf32) -> np.float32(0)
// E2E: @mse(x: 128x96xf32, y: 128x96xf32) -> ((x - y) ** 2).mean()
// E2E: @sum_squares_f16(x: 80x80xf16[-1:1]) -> (x.astype(np.float32) ** 2).sum()
// Column reductions (on GPUs: blocks of 32 columns, rows split over blocks
// when there are few columns): a bias's gradient, a producer with a
// broadcast, dynamic rows (none too), two row axes, many columns (one
// split), f16 widened, integers, keep_dims.
// E2E: @column_sums(x: 1000x70xf32) -> x.sum(axis=0)
// E2E: @column_sse(x: 300x129xf32, b: 129xf32) -> ((x - b) ** 2).sum(axis=0)
// E2E: @column_max_dynamic(x: 777x33xf32) -> x.max(axis=0)
// E2E: @column_max_dynamic(x: 0x33xf32) -> np.full((33,), -np.inf, np.float32)
// E2E: @column_mean_3d(x: 20x30x5x7xf32) -> x.mean(axis=(0, 1))
// E2E: @column_sums_wide(x: 40x40000xf32) -> x.sum(axis=0)
// E2E: @column_sums_f16(x: 500x40xf16[-1:1]) -> x.astype(np.float32).sum(axis=0).astype(np.float16)
// E2E: @column_max_int(x: 100x50xi32) -> x.max(axis=0, keepdims=True)

func.func @sum_rows(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  %0 = google.reduce_sum %x {axes = array<i64: 1>, keep_dims = false} : tensor<4x8xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func @max_keep(%x: tensor<3x4x5xf32>) -> tensor<1x4x1xf32> {
  %0 = google.reduce_max %x {axes = array<i64: 0, -1>, keep_dims = true} : tensor<3x4x5xf32> -> tensor<1x4x1xf32>
  return %0 : tensor<1x4x1xf32>
}
func.func @mean_all(%x: tensor<6x7xf32>) -> tensor<f32> {
  %0 = google.reduce_mean %x {axes = array<i64: 0, 1>, keep_dims = false} : tensor<6x7xf32> -> tensor<f32>
  return %0 : tensor<f32>
}
func.func @mean_dynamic(%x: tensor<?x4x8xf32>) -> tensor<?x1x1xf32> {
  %0 = google.reduce_mean %x {axes = array<i64: 1, 2>, keep_dims = true} : tensor<?x4x8xf32> -> tensor<?x1x1xf32>
  return %0 : tensor<?x1x1xf32>
}
// exp(x) of these inputs overflows f32: only the stable form works.
func.func @softmax_last(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = google.softmax %x {axis = -1 : i64} : tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}
func.func @softmax_first(%x: tensor<5x3xf32>) -> tensor<5x3xf32> {
  %0 = google.softmax %x {axis = 0 : i64} : tensor<5x3xf32>
  return %0 : tensor<5x3xf32>
}
func.func @softmax_large(%x: tensor<2x6xf32>) -> tensor<2x6xf32> {
  %0 = google.softmax %x {axis = 1 : i64} : tensor<2x6xf32>
  return %0 : tensor<2x6xf32>
}

func.func @softmax_long_rows(%x: tensor<3x2048xf32>) -> tensor<3x2048xf32> {
  %0 = google.softmax %x {axis = 1 : i64} : tensor<3x2048xf32>
  return %0 : tensor<3x2048xf32>
}
func.func @sum_long_rows(%x: tensor<2x3000xf32>) -> tensor<2xf32> {
  %0 = google.reduce_sum %x {axes = array<i64: 1>, keep_dims = false} : tensor<2x3000xf32> -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
func.func @max_long_rows(%x: tensor<2x3000xf64>) -> tensor<2x1xf64> {
  %0 = google.reduce_max %x {axes = array<i64: -1>, keep_dims = true} : tensor<2x3000xf64> -> tensor<2x1xf64>
  return %0 : tensor<2x1xf64>
}
func.func @mean_prime_rows(%x: tensor<2x2053xf32>) -> tensor<2xf32> {
  %0 = google.reduce_mean %x {axes = array<i64: 1>, keep_dims = false} : tensor<2x2053xf32> -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
func.func @sum_all_dynamic(%x: tensor<?x50xf32>) -> tensor<f32> {
  %0 = google.reduce_sum %x {axes = array<i64: 0, 1>, keep_dims = false} : tensor<?x50xf32> -> tensor<f32>
  return %0 : tensor<f32>
}
func.func @max_all(%x: tensor<97x89xf32>) -> tensor<f32> {
  %0 = google.reduce_max %x {axes = array<i64: 0, 1>, keep_dims = false} : tensor<97x89xf32> -> tensor<f32>
  return %0 : tensor<f32>
}
func.func @sum_all_int(%x: tensor<64x65xi64>) -> tensor<i64> {
  %0 = google.reduce_sum %x {axes = array<i64: 1, 0>, keep_dims = false} : tensor<64x65xi64> -> tensor<i64>
  return %0 : tensor<i64>
}
func.func @sum_rows_dynamic(%x: tensor<?x?xf32>) -> tensor<?xf32> {
  %0 = google.reduce_sum %x {axes = array<i64: 1>, keep_dims = false} : tensor<?x?xf32> -> tensor<?xf32>
  return %0 : tensor<?xf32>
}
func.func @mean_two_axes(%x: tensor<2x20x30xf32>) -> tensor<2xf32> {
  %0 = google.reduce_mean %x {axes = array<i64: 1, 2>, keep_dims = false} : tensor<2x20x30xf32> -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
func.func @max_rows_int(%x: tensor<3x1000xi32>) -> tensor<3xi32> {
  %0 = google.reduce_max %x {axes = array<i64: 1>, keep_dims = false} : tensor<3x1000xi32> -> tensor<3xi32>
  return %0 : tensor<3xi32>
}
func.func @min_prod(%x: tensor<4x8xf32>, %h: tensor<6x5xf16>) -> (tensor<4xf32>, tensor<f32>, tensor<5xf16>, tensor<1x5xf16>) {
  %0 = google.reduce_min %x {axes = array<i64: 1>, keep_dims = false} : tensor<4x8xf32> -> tensor<4xf32>
  %1 = google.reduce_prod %x {axes = array<i64: 0, 1>, keep_dims = false} : tensor<4x8xf32> -> tensor<f32>
  %2 = google.reduce_prod %h {axes = array<i64: 0>, keep_dims = false} : tensor<6x5xf16> -> tensor<5xf16>
  %3 = google.reduce_min %h {axes = array<i64: 0>, keep_dims = true} : tensor<6x5xf16> -> tensor<1x5xf16>
  return %0, %1, %2, %3 : tensor<4xf32>, tensor<f32>, tensor<5xf16>, tensor<1x5xf16>
}
func.func @min_prod_int(%x: tensor<3x7xi32>, %y: tensor<5x2000xi64>) -> (tensor<3xi32>, tensor<7xi32>, tensor<5xi64>, tensor<5xi64>) {
  %0 = google.reduce_prod %x {axes = array<i64: 1>, keep_dims = false} : tensor<3x7xi32> -> tensor<3xi32>
  %1 = google.reduce_min %x {axes = array<i64: 0>, keep_dims = false} : tensor<3x7xi32> -> tensor<7xi32>
  %2 = google.reduce_min %y {axes = array<i64: -1>, keep_dims = false} : tensor<5x2000xi64> -> tensor<5xi64>
  %3 = google.reduce_max %y {axes = array<i64: -1>, keep_dims = false} : tensor<5x2000xi64> -> tensor<5xi64>
  return %0, %1, %2, %3 : tensor<3xi32>, tensor<7xi32>, tensor<5xi64>, tensor<5xi64>
}
func.func @min_long_rows(%x: tensor<3x3000xf32>) -> (tensor<3xf32>, tensor<3000xf32>) {
  %0 = google.reduce_min %x {axes = array<i64: 1>, keep_dims = false} : tensor<3x3000xf32> -> tensor<3xf32>
  %1 = google.reduce_min %x {axes = array<i64: 0>, keep_dims = false} : tensor<3x3000xf32> -> tensor<3000xf32>
  return %0, %1 : tensor<3xf32>, tensor<3000xf32>
}
func.func @prod_rows(%x: tensor<64x16xf64>) -> tensor<64xf64> {
  %0 = google.reduce_prod %x {axes = array<i64: 1>, keep_dims = false} : tensor<64x16xf64> -> tensor<64xf64>
  return %0 : tensor<64xf64>
}
func.func @squared_error(%x: tensor<64x48xf32>, %y: tensor<64x48xf32>) -> tensor<f32> {
  %0 = google.sub %x, %y : tensor<64x48xf32>, tensor<64x48xf32> -> tensor<64x48xf32>
  %1 = google.mul %0, %0 : tensor<64x48xf32>, tensor<64x48xf32> -> tensor<64x48xf32>
  %2 = google.reduce_sum %1 {axes = array<i64: 0, 1>, keep_dims = false} : tensor<64x48xf32> -> tensor<f32>
  return %2 : tensor<f32>
}
func.func @image_max(%x: tensor<2x3x16x16xf32>) -> tensor<2x3xf32> {
  %0 = google.reduce_max %x {axes = array<i64: 2, 3>, keep_dims = false} : tensor<2x3x16x16xf32> -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
func.func @inner_mean(%x: tensor<3x40x50xf64>) -> tensor<3xf64> {
  %0 = google.reduce_mean %x {axes = array<i64: 1, 2>, keep_dims = false} : tensor<3x40x50xf64> -> tensor<3xf64>
  return %0 : tensor<3xf64>
}
func.func @mean_all_large(%x: tensor<1100x4000xf32>) -> tensor<f32> {
  %0 = google.reduce_mean %x {axes = array<i64: 0, 1>, keep_dims = false} : tensor<1100x4000xf32> -> tensor<f32>
  return %0 : tensor<f32>
}
func.func @max_all_dynamic(%x: tensor<?x50xf32>) -> tensor<f32> {
  %0 = google.reduce_max %x {axes = array<i64: 0, 1>, keep_dims = false} : tensor<?x50xf32> -> tensor<f32>
  return %0 : tensor<f32>
}
func.func @squared_error_large(%x: tensor<300x70xf32>, %y: tensor<300x70xf32>) -> tensor<f32> {
  %0 = google.sub %x, %y : tensor<300x70xf32>, tensor<300x70xf32> -> tensor<300x70xf32>
  %1 = google.mul %0, %0 : tensor<300x70xf32>, tensor<300x70xf32> -> tensor<300x70xf32>
  %2 = google.reduce_sum %1 {axes = array<i64: 0, 1>, keep_dims = false} : tensor<300x70xf32> -> tensor<f32>
  return %2 : tensor<f32>
}
func.func @scaled_sum_dynamic(%x: tensor<?x50xf32>, %b: tensor<50xf32>) -> tensor<f32> {
  %0 = google.mul %x, %b : tensor<?x50xf32>, tensor<50xf32> -> tensor<?x50xf32>
  %1 = google.reduce_sum %0 {axes = array<i64: 0, 1>, keep_dims = false} : tensor<?x50xf32> -> tensor<f32>
  return %1 : tensor<f32>
}
func.func @mse(%x: tensor<128x96xf32>, %y: tensor<128x96xf32>) -> tensor<f32> {
  %0 = google.sub %x, %y : tensor<128x96xf32>, tensor<128x96xf32> -> tensor<128x96xf32>
  %1 = google.mul %0, %0 : tensor<128x96xf32>, tensor<128x96xf32> -> tensor<128x96xf32>
  %2 = google.reduce_mean %1 {axes = array<i64: 0, 1>, keep_dims = false} : tensor<128x96xf32> -> tensor<f32>
  return %2 : tensor<f32>
}
func.func @sum_squares_f16(%x: tensor<80x80xf16>) -> tensor<f16> {
  %0 = google.mul %x, %x : tensor<80x80xf16>, tensor<80x80xf16> -> tensor<80x80xf16>
  %1 = google.reduce_sum %0 {axes = array<i64: 0, 1>, keep_dims = false} : tensor<80x80xf16> -> tensor<f16>
  return %1 : tensor<f16>
}
func.func @column_sums(%x: tensor<1000x70xf32>) -> tensor<70xf32> {
  %0 = google.reduce_sum %x {axes = array<i64: 0>, keep_dims = false} : tensor<1000x70xf32> -> tensor<70xf32>
  return %0 : tensor<70xf32>
}
func.func @column_sse(%x: tensor<300x129xf32>, %b: tensor<129xf32>) -> tensor<129xf32> {
  %0 = google.sub %x, %b : tensor<300x129xf32>, tensor<129xf32> -> tensor<300x129xf32>
  %1 = google.mul %0, %0 : tensor<300x129xf32>, tensor<300x129xf32> -> tensor<300x129xf32>
  %2 = google.reduce_sum %1 {axes = array<i64: 0>, keep_dims = false} : tensor<300x129xf32> -> tensor<129xf32>
  return %2 : tensor<129xf32>
}
func.func @column_max_dynamic(%x: tensor<?x33xf32>) -> tensor<33xf32> {
  %0 = google.reduce_max %x {axes = array<i64: 0>, keep_dims = false} : tensor<?x33xf32> -> tensor<33xf32>
  return %0 : tensor<33xf32>
}
func.func @column_mean_3d(%x: tensor<20x30x5x7xf32>) -> tensor<5x7xf32> {
  %0 = google.reduce_mean %x {axes = array<i64: 0, 1>, keep_dims = false} : tensor<20x30x5x7xf32> -> tensor<5x7xf32>
  return %0 : tensor<5x7xf32>
}
func.func @column_sums_wide(%x: tensor<40x40000xf32>) -> tensor<40000xf32> {
  %0 = google.reduce_sum %x {axes = array<i64: 0>, keep_dims = false} : tensor<40x40000xf32> -> tensor<40000xf32>
  return %0 : tensor<40000xf32>
}
func.func @column_sums_f16(%x: tensor<500x40xf16>) -> tensor<40xf16> {
  %0 = google.reduce_sum %x {axes = array<i64: 0>, keep_dims = false} : tensor<500x40xf16> -> tensor<40xf16>
  return %0 : tensor<40xf16>
}
func.func @column_max_int(%x: tensor<100x50xi32>) -> tensor<1x50xi32> {
  %0 = google.reduce_max %x {axes = array<i64: 0>, keep_dims = true} : tensor<100x50xi32> -> tensor<1x50xi32>
  return %0 : tensor<1x50xi32>
}

// Reductions of every axis over 256 to 4096 static elements: one GPU
// block takes them whole (one kernel; 4097 splits, 255 is one thread's):
// a mean over 1000 (its scale taken in), f16 squares summed in f32, an
// i32 max over 256, and the bounds.
// E2E: @one_block(x: 1000xf32, h: 3000xf16[-2:2], i: 16x16xi32, a: 64x64xf32, b: 4097xf32, c: 255xf32) -> (x.mean(), (h.astype(np.float32) ** 2).sum(), i.max(), a.sum(), b.sum(), c.sum())
func.func @one_block(%x: tensor<1000xf32>, %h: tensor<3000xf16>, %i: tensor<16x16xi32>, %a: tensor<64x64xf32>, %b: tensor<4097xf32>, %c: tensor<255xf32>) -> (tensor<f32>, tensor<f32>, tensor<i32>, tensor<f32>, tensor<f32>, tensor<f32>) {
  %m = google.reduce_mean %x {axes = array<i64: 0>, keep_dims = false} : tensor<1000xf32> -> tensor<f32>
  %hf = google.cast %h : tensor<3000xf16> -> tensor<3000xf32>
  %sq = google.mul %hf, %hf : tensor<3000xf32>, tensor<3000xf32> -> tensor<3000xf32>
  %s = google.reduce_sum %sq {axes = array<i64: 0>, keep_dims = false} : tensor<3000xf32> -> tensor<f32>
  %im = google.reduce_max %i {axes = array<i64: 0, 1>, keep_dims = false} : tensor<16x16xi32> -> tensor<i32>
  %as = google.reduce_sum %a {axes = array<i64: 0, 1>, keep_dims = false} : tensor<64x64xf32> -> tensor<f32>
  %bs = google.reduce_sum %b {axes = array<i64: 0>, keep_dims = false} : tensor<4097xf32> -> tensor<f32>
  %cs = google.reduce_sum %c {axes = array<i64: 0>, keep_dims = false} : tensor<255xf32> -> tensor<f32>
  return %m, %s, %im, %as, %bs, %cs : tensor<f32>, tensor<f32>, tensor<i32>, tensor<f32>, tensor<f32>, tensor<f32>
}
