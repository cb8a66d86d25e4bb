// Matmuls around the CPU's register blocks (8x32 with AVX-512, 6x16 with
// AVX2, 4x8 with SSE): full blocks, remainders in M and N, M below the
// block, dynamic extents, batches and the fused epilogue, for each width.
// RUN: %python %e2e run %s google-run | FileCheck %s
// RUN: env GOOGLE_E2E_OPT_LEVELS=3 GOOGLE_E2E_PIPELINE_OPTIONS=chip=haswell %python %e2e run %s google-run | FileCheck %s
// RUN: env GOOGLE_E2E_OPT_LEVELS=3 GOOGLE_E2E_PIPELINE_OPTIONS=chip=x86-64 %python %e2e run %s google-run | FileCheck %s
// CHECK: e2e: 26 cases match numpy

// E2E: @static(a: 24x20xf32, b: 20x96xf32) -> a @ b
// E2E: @remainders(a: 19x5xf32, b: 5x70xf32) -> a @ b
// E2E: @one_row(a: 1x784xf32, b: 784x128xf32) -> a @ b
// E2E: @few_rows(a: 3x9xf32, b: 9x300xf32) -> a @ b
// E2E: @odd_width(x: 1x64xf32, w: 64x200xf32, b: 200xf32) -> np.maximum(x @ w + b, 0)
// E2E: @five_rows(a: 5x33xf32, b: 33x120xf32) -> a @ b
// E2E: @no_rows(a: 0x16xf32, b: 16x64xf32) -> a @ b
// E2E: @no_columns(a: 4x16xf32, b: 16x0xf32) -> a @ b
// E2E: @no_rows_fused(x: 0x16xf32, w: 16x64xf32, b: 64xf32) -> np.maximum(x @ w + b, 0)
// E2E: @dynamic(a: 1x7xf32, b: 7x33xf32) -> a @ b
// E2E: @dynamic(a: 8x7xf32, b: 7x32xf32) -> a @ b
// E2E: @dynamic(a: 17x7xf32, b: 7x65xf32) -> a @ b
// E2E: @dynamic(a: 64x1xf32, b: 1x31xf32) -> a @ b
// E2E: @dynamic(a: 6x0xf32, b: 0x16xf32) -> a @ b
// E2E: @batch(a: 2x17x9xf32, b: 2x9x33xf32) -> a @ b
// E2E: @batch(a: 3x6x4xf32, b: 3x4x16xf32) -> a @ b
// E2E: @fused(a: 19x33xf32, b: 33x70xf32, bias: 70xf32) -> np.maximum(a @ b + bias, 0)
// E2E: @fused(a: 64x8xf32, b: 8x64xf32, bias: 64xf32) -> np.maximum(a @ b + bias, 0)
// E2E: @fused(a: 5x8xf32, b: 8x9xf32, bias: 9xf32) -> np.maximum(a @ b + bias, 0)
// E2E: @epilogue(x: 16x12xf32, w: 12x40xf32, b: 40xf32) -> np.tanh(x @ w + b) * 2
// E2E: @shared_product(x: 16x12xf32, w: 12x40xf32) -> (x @ w, np.exp(x @ w))
// E2E: @f64(a: 19x5xf64, b: 5x40xf64) -> a @ b
// E2E: @long_k(a: 40x256xf32, b: 256x48xf32) -> a @ b
// E2E: @long_k(a: 33x256xf32, b: 256x129xf32) -> a @ b
// E2E: @partial_panels(a: 64x300xf32, b: 300x264xf32) -> a @ b
// E2E: @partial_panels_fused(x: 70x96xf32, w: 96x150xf32, b: 150xf32) -> np.maximum(x @ w + b, 0)

func.func @static(%a: tensor<24x20xf32>, %b: tensor<20x96xf32>) -> tensor<24x96xf32> {
  %0 = google.matmul %a, %b : tensor<24x20xf32>, tensor<20x96xf32> -> tensor<24x96xf32>
  return %0 : tensor<24x96xf32>
}
func.func @remainders(%a: tensor<19x5xf32>, %b: tensor<5x70xf32>) -> tensor<19x70xf32> {
  %0 = google.matmul %a, %b : tensor<19x5xf32>, tensor<5x70xf32> -> tensor<19x70xf32>
  return %0 : tensor<19x70xf32>
}
func.func @one_row(%a: tensor<1x784xf32>, %b: tensor<784x128xf32>) -> tensor<1x128xf32> {
  %0 = google.matmul %a, %b : tensor<1x784xf32>, tensor<784x128xf32> -> tensor<1x128xf32>
  return %0 : tensor<1x128xf32>
}
func.func @few_rows(%a: tensor<3x9xf32>, %b: tensor<9x300xf32>) -> tensor<3x300xf32> {
  %0 = google.matmul %a, %b : tensor<3x9xf32>, tensor<9x300xf32> -> tensor<3x300xf32>
  return %0 : tensor<3x300xf32>
}
func.func @dynamic(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %0 = google.matmul %a, %b : tensor<?x?xf32>, tensor<?x?xf32> -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}
func.func @batch(%a: tensor<?x?x?xf32>, %b: tensor<?x?x?xf32>) -> tensor<?x?x?xf32> {
  %0 = google.matmul %a, %b : tensor<?x?x?xf32>, tensor<?x?x?xf32> -> tensor<?x?x?xf32>
  return %0 : tensor<?x?x?xf32>
}
func.func @fused(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>, %bias: tensor<?xf32>) -> tensor<?x?xf32> {
  %0 = google.matmul_bias_relu %a, %b, %bias : tensor<?x?xf32>, tensor<?x?xf32>, tensor<?xf32> -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}
func.func @epilogue(%x: tensor<16x12xf32>, %w: tensor<12x40xf32>, %b: tensor<40xf32>) -> tensor<16x40xf32> {
  %0 = google.matmul %x, %w : tensor<16x12xf32>, tensor<12x40xf32> -> tensor<16x40xf32>
  %1 = google.add %0, %b : tensor<16x40xf32>, tensor<40xf32> -> tensor<16x40xf32>
  %2 = google.tanh %1 : tensor<16x40xf32>
  %c = google.constant dense<2.0> : tensor<f32>
  %3 = google.mul %2, %c : tensor<16x40xf32>, tensor<f32> -> tensor<16x40xf32>
  return %3 : tensor<16x40xf32>
}
func.func @shared_product(%x: tensor<16x12xf32>, %w: tensor<12x40xf32>) -> (tensor<16x40xf32>, tensor<16x40xf32>) {
  %0 = google.matmul %x, %w : tensor<16x12xf32>, tensor<12x40xf32> -> tensor<16x40xf32>
  %1 = google.exp %0 : tensor<16x40xf32>
  return %0, %1 : tensor<16x40xf32>, tensor<16x40xf32>
}
func.func @f64(%a: tensor<19x5xf64>, %b: tensor<5x40xf64>) -> tensor<19x40xf64> {
  %0 = google.matmul %a, %b : tensor<19x5xf64>, tensor<5x40xf64> -> tensor<19x40xf64>
  return %0 : tensor<19x40xf64>
}
func.func @long_k(%a: tensor<?x256xf32>, %b: tensor<256x?xf32>) -> tensor<?x?xf32> {
  %0 = google.matmul %a, %b : tensor<?x256xf32>, tensor<256x?xf32> -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}
// Blocks a power of two of vectors wide: 200 columns run as 128 + 64 + 8,
// 120 in 5 rows as 3 x 32 + 16 + 8.
func.func @odd_width(%x: tensor<1x64xf32>, %w: tensor<64x200xf32>, %b: tensor<200xf32>) -> tensor<1x200xf32> {
  %0 = google.matmul_bias_relu %x, %w, %b : tensor<1x64xf32>, tensor<64x200xf32>, tensor<200xf32> -> tensor<1x200xf32>
  return %0 : tensor<1x200xf32>
}
func.func @five_rows(%a: tensor<5x33xf32>, %b: tensor<33x120xf32>) -> tensor<5x120xf32> {
  %0 = google.matmul %a, %b : tensor<5x33xf32>, tensor<33x120xf32> -> tensor<5x120xf32>
  return %0 : tensor<5x120xf32>
}
// Static empty results (the block choice divided by M = 0).
func.func @no_rows(%a: tensor<0x16xf32>, %b: tensor<16x64xf32>) -> tensor<0x64xf32> {
  %0 = google.matmul %a, %b : tensor<0x16xf32>, tensor<16x64xf32> -> tensor<0x64xf32>
  return %0 : tensor<0x64xf32>
}
func.func @no_columns(%a: tensor<4x16xf32>, %b: tensor<16x0xf32>) -> tensor<4x0xf32> {
  %0 = google.matmul %a, %b : tensor<4x16xf32>, tensor<16x0xf32> -> tensor<4x0xf32>
  return %0 : tensor<4x0xf32>
}
func.func @no_rows_fused(%x: tensor<0x16xf32>, %w: tensor<16x64xf32>, %b: tensor<64xf32>) -> tensor<0x64xf32> {
  %0 = google.matmul_bias_relu %x, %w, %b : tensor<0x16xf32>, tensor<16x64xf32>, tensor<64xf32> -> tensor<0x64xf32>
  return %0 : tensor<0x64xf32>
}

// B packed into panels where N is not a multiple of the block's columns:
// the last block column's panel is as wide as it is.
func.func @partial_panels(%a: tensor<64x300xf32>, %b: tensor<300x264xf32>) -> tensor<64x264xf32> {
  %0 = google.matmul %a, %b : tensor<64x300xf32>, tensor<300x264xf32> -> tensor<64x264xf32>
  return %0 : tensor<64x264xf32>
}

func.func @partial_panels_fused(%x: tensor<?x96xf32>, %w: tensor<96x150xf32>, %b: tensor<150xf32>) -> tensor<?x150xf32> {
  %0 = google.matmul_bias_relu %x, %w, %b : tensor<?x96xf32>, tensor<96x150xf32>, tensor<150xf32> -> tensor<?x150xf32>
  return %0 : tensor<?x150xf32>
}
