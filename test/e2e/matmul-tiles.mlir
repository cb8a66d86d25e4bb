// Matmuls spanning several of the GPU's 64x64 block tiles and 16-deep
// slices of K (shared-memory kernels; on the CPU, several register blocks):
// partial tiles in M, N and K, a batch, B transposed, the fused epilogue,
// integers and f16.
// RUN: %python %e2e run %s google-run | FileCheck %s
// CHECK: e2e: 8 cases match numpy

// E2E: @large(a: 130x37xf32, b: 37x129xf32) -> a @ b
// E2E: @large(a: 64x16xf32, b: 16x64xf32) -> a @ b
// E2E: @large(a: 65x1xf32, b: 1x200xf32) -> a @ b
// E2E: @fused(x: 128x64xf32, w: 64x192xf32, b: 192xf32) -> np.maximum(x @ w + b, 0)
// E2E: @batch(a: 2x70x20xf32, b: 2x20x65xf32) -> a @ b
// E2E: @transposed(a: 96x40xf32, bt: 80x40xf32) -> a @ bt.T
// E2E: @int(a: 65x17xi32, b: 17x66xi32) -> a @ b
// E2E: @half(a: 64x8xf16[-1:1], b: 8x80xf16[-1:1]) -> a @ b

func.func @large(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %0 = google.matmul %a, %b : tensor<?x?xf32>, tensor<?x?xf32> -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

func.func @fused(%x: tensor<128x64xf32>, %w: tensor<64x192xf32>, %b: tensor<192xf32>) -> tensor<128x192xf32> {
  %0 = google.matmul %x, %w : tensor<128x64xf32>, tensor<64x192xf32> -> tensor<128x192xf32>
  %1 = google.add %0, %b : tensor<128x192xf32>, tensor<192xf32> -> tensor<128x192xf32>
  %2 = google.relu %1 : tensor<128x192xf32>
  return %2 : tensor<128x192xf32>
}

func.func @batch(%a: tensor<2x70x20xf32>, %b: tensor<2x20x65xf32>) -> tensor<2x70x65xf32> {
  %0 = google.matmul %a, %b : tensor<2x70x20xf32>, tensor<2x20x65xf32> -> tensor<2x70x65xf32>
  return %0 : tensor<2x70x65xf32>
}

func.func @transposed(%a: tensor<96x40xf32>, %bt: tensor<80x40xf32>) -> tensor<96x80xf32> {
  %b = google.transpose %bt {perm = array<i64: 1, 0>} : tensor<80x40xf32> -> tensor<40x80xf32>
  %0 = google.matmul %a, %b : tensor<96x40xf32>, tensor<40x80xf32> -> tensor<96x80xf32>
  return %0 : tensor<96x80xf32>
}

func.func @int(%a: tensor<65x17xi32>, %b: tensor<17x66xi32>) -> tensor<65x66xi32> {
  %0 = google.matmul %a, %b : tensor<65x17xi32>, tensor<17x66xi32> -> tensor<65x66xi32>
  return %0 : tensor<65x66xi32>
}

func.func @half(%a: tensor<64x8xf16>, %b: tensor<8x80xf16>) -> tensor<64x80xf16> {
  %0 = google.matmul %a, %b : tensor<64x8xf16>, tensor<8x80xf16> -> tensor<64x80xf16>
  return %0 : tensor<64x80xf16>
}
