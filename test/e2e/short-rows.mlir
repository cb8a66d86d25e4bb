// RUN: %python %e2e run %s google-run | FileCheck %s
// CHECK: e2e: 16 cases match numpy

// Elementwise ops over rows shorter than a vector run row by row, each
// row one vector op: broadcasts per row and per column, integers and
// compares, f64, rank 3, a dynamic number of rows, and rows in threads'
// chunks.
// E2E: @per_row(x: 250x10xf32, r: 250xf32, c: 10xf32) -> x * r[:, None] + c
// E2E: @ints(x: 33x7xi32, y: 33x7xi32) -> np.where(x < y, x - y, 3 * y)
// E2E: @f64(x: 19x5xf64, r: 19x1xf64) -> np.sqrt(np.abs(x)) / (r + 4.0)
// E2E: @rank3(x: 4x6x3xf32, y: 6x3xf32) -> np.maximum(x, y) - 0.5
// E2E: @dynamic(x: 37x10xf32, r: 37x1xf32) -> x - r
// E2E: @chunked(x: 8192x10xf32, r: 8192x1xf32) -> x * r
// Sums over outer axes (bias gradients) add row by row into the result's
// row; max over rows too; a dynamic number of rows.
// E2E: @column_sums(x: 250x10xf32, y: 32x6x6x8xf32) -> (x.sum(axis=0), y.sum(axis=(0, 1, 2)))
// E2E: @column_max(x: 37x5xf64) -> x.max(axis=0)
// E2E: @column_sums_dynamic(x: 45x10xf32) -> x.sum(axis=0)
// f64 tanh calls libm per element: it stays a loop (as a vector op it
// failed to lower).
// E2E: @f64_tanh(x: 6x5xf64, r: 6x1xf64) -> np.tanh(x * r)
// Loops read contiguously together are collapsed into one first.
// E2E: @collapsed(x: 256x8x8x8xf32) -> np.maximum(x, 0) * 2
// E2E: @collapsed_bias(x: 4x5x6x8xf32, b: 8xf32) -> x + b
// Rows of one to 8 vectors that a broadcast keeps from merging with the
// loops around them: a max pooling gradient's division per window
// position (rows of 16), rows of 40 (a masked last vector), i32 rows.
// E2E: @window_rows(x: 32x2x1x2x1x16xf32, c: 1x1x2x1x2x1xf32) -> x / (c * c + 1.0)
// E2E: @long_rows(x: 30x3x40xf32, b: 30x1x40xf32) -> x - b
// E2E: @int_rows(x: 10x4x48xi32, y: 10x1x48xi32) -> x * y + 7
// One element of a strided slice broadcast into every row: a 0-d read of
// a view whose innermost stride is 3 once bufferized, which did not
// translate to LLVM IR (the differential tester's seed 150248).
// E2E: @strided_element(a: 4x6xi32, x: 5x3x6xi32) -> a[1:2:2, 2:3:3] + x

func.func @per_row(%x: tensor<250x10xf32>, %r: tensor<250xf32>, %c: tensor<10xf32>) -> tensor<250x10xf32> {
  %0 = google.reshape %r : tensor<250xf32> -> tensor<250x1xf32>
  %1 = google.mul %x, %0 : tensor<250x10xf32>, tensor<250x1xf32> -> tensor<250x10xf32>
  %2 = google.add %1, %c : tensor<250x10xf32>, tensor<10xf32> -> tensor<250x10xf32>
  return %2 : tensor<250x10xf32>
}
func.func @ints(%x: tensor<33x7xi32>, %y: tensor<33x7xi32>) -> tensor<33x7xi32> {
  %three = google.constant dense<3> : tensor<i32>
  %0 = google.lt %x, %y : tensor<33x7xi32>, tensor<33x7xi32> -> tensor<33x7xi1>
  %1 = google.sub %x, %y : tensor<33x7xi32>, tensor<33x7xi32> -> tensor<33x7xi32>
  %2 = google.mul %three, %y : tensor<i32>, tensor<33x7xi32> -> tensor<33x7xi32>
  %3 = google.select %0, %1, %2 : tensor<33x7xi1>, tensor<33x7xi32>, tensor<33x7xi32> -> tensor<33x7xi32>
  return %3 : tensor<33x7xi32>
}
func.func @f64(%x: tensor<19x5xf64>, %r: tensor<19x1xf64>) -> tensor<19x5xf64> {
  %four = google.constant dense<4.0> : tensor<f64>
  %0 = google.abs %x : tensor<19x5xf64>
  %1 = google.sqrt %0 : tensor<19x5xf64>
  %2 = google.add %r, %four : tensor<19x1xf64>, tensor<f64> -> tensor<19x1xf64>
  %3 = google.div %1, %2 : tensor<19x5xf64>, tensor<19x1xf64> -> tensor<19x5xf64>
  return %3 : tensor<19x5xf64>
}
func.func @rank3(%x: tensor<4x6x3xf32>, %y: tensor<6x3xf32>) -> tensor<4x6x3xf32> {
  %half = google.constant dense<0.5> : tensor<f32>
  %0 = google.max %x, %y : tensor<4x6x3xf32>, tensor<6x3xf32> -> tensor<4x6x3xf32>
  %1 = google.sub %0, %half : tensor<4x6x3xf32>, tensor<f32> -> tensor<4x6x3xf32>
  return %1 : tensor<4x6x3xf32>
}
func.func @dynamic(%x: tensor<?x10xf32>, %r: tensor<?x1xf32>) -> tensor<?x10xf32> {
  %0 = google.sub %x, %r : tensor<?x10xf32>, tensor<?x1xf32> -> tensor<?x10xf32>
  return %0 : tensor<?x10xf32>
}
func.func @chunked(%x: tensor<8192x10xf32>, %r: tensor<8192x1xf32>) -> tensor<8192x10xf32> {
  %0 = google.mul %x, %r : tensor<8192x10xf32>, tensor<8192x1xf32> -> tensor<8192x10xf32>
  return %0 : tensor<8192x10xf32>
}
func.func @collapsed(%x: tensor<256x8x8x8xf32>) -> tensor<256x8x8x8xf32> {
  %two = google.constant dense<2.0> : tensor<f32>
  %0 = google.relu %x : tensor<256x8x8x8xf32>
  %1 = google.mul %0, %two : tensor<256x8x8x8xf32>, tensor<f32> -> tensor<256x8x8x8xf32>
  return %1 : tensor<256x8x8x8xf32>
}
func.func @collapsed_bias(%x: tensor<4x5x6x8xf32>, %b: tensor<8xf32>) -> tensor<4x5x6x8xf32> {
  %0 = google.add %x, %b : tensor<4x5x6x8xf32>, tensor<8xf32> -> tensor<4x5x6x8xf32>
  return %0 : tensor<4x5x6x8xf32>
}
func.func @f64_tanh(%x: tensor<6x5xf64>, %r: tensor<6x1xf64>) -> tensor<6x5xf64> {
  %0 = google.mul %x, %r : tensor<6x5xf64>, tensor<6x1xf64> -> tensor<6x5xf64>
  %1 = google.tanh %0 : tensor<6x5xf64>
  return %1 : tensor<6x5xf64>
}
func.func @column_sums(%x: tensor<250x10xf32>, %y: tensor<32x6x6x8xf32>) -> (tensor<10xf32>, tensor<8xf32>) {
  %0 = google.reduce_sum %x {axes = array<i64: 0>, keep_dims = false} : tensor<250x10xf32> -> tensor<10xf32>
  %1 = google.reduce_sum %y {axes = array<i64: 0, 1, 2>, keep_dims = false} : tensor<32x6x6x8xf32> -> tensor<8xf32>
  return %0, %1 : tensor<10xf32>, tensor<8xf32>
}
func.func @column_max(%x: tensor<37x5xf64>) -> tensor<5xf64> {
  %0 = google.reduce_max %x {axes = array<i64: 0>, keep_dims = false} : tensor<37x5xf64> -> tensor<5xf64>
  return %0 : tensor<5xf64>
}
func.func @column_sums_dynamic(%x: tensor<?x10xf32>) -> tensor<10xf32> {
  %0 = google.reduce_sum %x {axes = array<i64: 0>, keep_dims = false} : tensor<?x10xf32> -> tensor<10xf32>
  return %0 : tensor<10xf32>
}
func.func @window_rows(%x: tensor<32x2x1x2x1x16xf32>, %c: tensor<1x1x2x1x2x1xf32>) -> tensor<32x2x2x2x2x16xf32> {
  %one = google.constant dense<1.0> : tensor<f32>
  %0 = google.mul %c, %c : tensor<1x1x2x1x2x1xf32>, tensor<1x1x2x1x2x1xf32> -> tensor<1x1x2x1x2x1xf32>
  %1 = google.add %0, %one : tensor<1x1x2x1x2x1xf32>, tensor<f32> -> tensor<1x1x2x1x2x1xf32>
  %2 = google.div %x, %1 : tensor<32x2x1x2x1x16xf32>, tensor<1x1x2x1x2x1xf32> -> tensor<32x2x2x2x2x16xf32>
  return %2 : tensor<32x2x2x2x2x16xf32>
}
func.func @long_rows(%x: tensor<30x3x40xf32>, %b: tensor<30x1x40xf32>) -> tensor<30x3x40xf32> {
  %0 = google.sub %x, %b : tensor<30x3x40xf32>, tensor<30x1x40xf32> -> tensor<30x3x40xf32>
  return %0 : tensor<30x3x40xf32>
}
func.func @int_rows(%x: tensor<10x4x48xi32>, %y: tensor<10x1x48xi32>) -> tensor<10x4x48xi32> {
  %seven = google.constant dense<7> : tensor<i32>
  %0 = google.mul %x, %y : tensor<10x4x48xi32>, tensor<10x1x48xi32> -> tensor<10x4x48xi32>
  %1 = google.add %0, %seven : tensor<10x4x48xi32>, tensor<i32> -> tensor<10x4x48xi32>
  return %1 : tensor<10x4x48xi32>
}
func.func @strided_element(%a: tensor<4x6xi32>, %x: tensor<5x3x6xi32>) -> tensor<5x3x6xi32> {
  %0 = google.slice %a {starts = array<i64: 1, 2>, limits = array<i64: 2, 3>, strides = array<i64: 2, 3>} : tensor<4x6xi32> -> tensor<1x1xi32>
  %1 = google.add %0, %x : tensor<1x1xi32>, tensor<5x3x6xi32> -> tensor<5x3x6xi32>
  return %1 : tensor<5x3x6xi32>
}
