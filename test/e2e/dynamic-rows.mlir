// Matmuls with a dynamic number of rows M: full blocks of rows, then the
// last M mod MR rows (split off): more than MR/2 in one block of MR rows
// on copies padded with zero rows (@residual pads every operand with
// rows), else at most one block of each power of two up to MR/2, across N
// (8-row blocks with AVX-512, 6 with AVX2), with the bias + relu epilogue
// fused, a static or dynamic N, and M = 0.
// A wide B is packed into panels only for M >= 32 (@wide: both versions).
// RUN: %python %e2e run %s google-run | FileCheck %s
// RUN: env GOOGLE_E2E_OPT_LEVELS=3 GOOGLE_E2E_PIPELINE_OPTIONS=chip=haswell %python %e2e run %s google-run | FileCheck %s
// CHECK: e2e: 45 cases match numpy

// E2E: @layer(x: 0x40xf32, w: 40x70xf32, b: 70xf32) -> np.maximum(x @ w + b, 0)
// E2E: @layer(x: 1x40xf32, w: 40x70xf32, b: 70xf32) -> np.maximum(x @ w + b, 0)
// E2E: @layer(x: 2x40xf32, w: 40x70xf32, b: 70xf32) -> np.maximum(x @ w + b, 0)
// E2E: @layer(x: 3x40xf32, w: 40x70xf32, b: 70xf32) -> np.maximum(x @ w + b, 0)
// E2E: @layer(x: 4x40xf32, w: 40x70xf32, b: 70xf32) -> np.maximum(x @ w + b, 0)
// E2E: @layer(x: 5x40xf32, w: 40x70xf32, b: 70xf32) -> np.maximum(x @ w + b, 0)
// E2E: @layer(x: 6x40xf32, w: 40x70xf32, b: 70xf32) -> np.maximum(x @ w + b, 0)
// E2E: @layer(x: 7x40xf32, w: 40x70xf32, b: 70xf32) -> np.maximum(x @ w + b, 0)
// E2E: @layer(x: 8x40xf32, w: 40x70xf32, b: 70xf32) -> np.maximum(x @ w + b, 0)
// E2E: @layer(x: 9x40xf32, w: 40x70xf32, b: 70xf32) -> np.maximum(x @ w + b, 0)
// E2E: @layer(x: 12x40xf32, w: 40x70xf32, b: 70xf32) -> np.maximum(x @ w + b, 0)
// E2E: @layer(x: 14x40xf32, w: 40x70xf32, b: 70xf32) -> np.maximum(x @ w + b, 0)
// E2E: @layer(x: 15x40xf32, w: 40x70xf32, b: 70xf32) -> np.maximum(x @ w + b, 0)
// E2E: @layer(x: 16x40xf32, w: 40x70xf32, b: 70xf32) -> np.maximum(x @ w + b, 0)
// E2E: @layer(x: 17x40xf32, w: 40x70xf32, b: 70xf32) -> np.maximum(x @ w + b, 0)
// E2E: @layer(x: 23x40xf32, w: 40x70xf32, b: 70xf32) -> np.maximum(x @ w + b, 0)
// E2E: @layer(x: 64x40xf32, w: 40x70xf32, b: 70xf32) -> np.maximum(x @ w + b, 0)
// E2E: @layer(x: 65x40xf32, w: 40x70xf32, b: 70xf32) -> np.maximum(x @ w + b, 0)
// E2E: @plain(a: 1x33xf32, b: 33x96xf32) -> a @ b
// E2E: @plain(a: 3x33xf32, b: 33x96xf32) -> a @ b
// E2E: @plain(a: 8x33xf32, b: 33x96xf32) -> a @ b
// E2E: @plain(a: 11x33xf32, b: 33x96xf32) -> a @ b
// E2E: @dynamic_n(a: 3x16xf32, b: 16x5xf32) -> a @ b
// E2E: @dynamic_n(a: 9x16xf32, b: 16x40xf32) -> a @ b
// E2E: @dynamic_n(a: 1x16xf32, b: 16x64xf32) -> a @ b
// E2E: @wide(x: 1x72xf32, w: 72x130xf32, b: 130xf32) -> np.maximum(x @ w + b, 0)
// E2E: @wide(x: 7x72xf32, w: 72x130xf32, b: 130xf32) -> np.maximum(x @ w + b, 0)
// E2E: @wide(x: 31x72xf32, w: 72x130xf32, b: 130xf32) -> np.maximum(x @ w + b, 0)
// E2E: @wide(x: 32x72xf32, w: 72x130xf32, b: 130xf32) -> np.maximum(x @ w + b, 0)
// E2E: @wide(x: 33x72xf32, w: 72x130xf32, b: 130xf32) -> np.maximum(x @ w + b, 0)
// E2E: @wide(x: 45x72xf32, w: 72x130xf32, b: 130xf32) -> np.maximum(x @ w + b, 0)
// E2E: @wide(x: 5x72xf32, w: 72x130xf32, b: 130xf32) -> np.maximum(x @ w + b, 0)
// E2E: @wider(a: 1x20xf32, b: 20x300xf32) -> a @ b
// E2E: @wider(a: 3x20xf32, b: 20x300xf32) -> a @ b
// E2E: @wider(a: 6x20xf32, b: 20x300xf32) -> a @ b
// E2E: @wider(a: 13x20xf32, b: 20x300xf32) -> a @ b
// E2E: @wider(a: 39x20xf32, b: 20x300xf32) -> a @ b
// E2E: @residual(x: 1x24xf32, w: 24x40xf32, r: 1x40xf32, s: 1x1xf32) -> (x @ w + r) * s
// E2E: @residual(x: 3x24xf32, w: 24x40xf32, r: 3x40xf32, s: 3x1xf32) -> (x @ w + r) * s
// E2E: @residual(x: 4x24xf32, w: 24x40xf32, r: 4x40xf32, s: 4x1xf32) -> (x @ w + r) * s
// E2E: @residual(x: 5x24xf32, w: 24x40xf32, r: 5x40xf32, s: 5x1xf32) -> (x @ w + r) * s
// E2E: @residual(x: 7x24xf32, w: 24x40xf32, r: 7x40xf32, s: 7x1xf32) -> (x @ w + r) * s
// E2E: @residual(x: 11x24xf32, w: 24x40xf32, r: 11x40xf32, s: 11x1xf32) -> (x @ w + r) * s
// E2E: @residual(x: 15x24xf32, w: 24x40xf32, r: 15x40xf32, s: 15x1xf32) -> (x @ w + r) * s
// E2E: @residual(x: 20x24xf32, w: 24x40xf32, r: 20x40xf32, s: 20x1xf32) -> (x @ w + r) * s

func.func @layer(%x: tensor<?x40xf32>, %w: tensor<40x70xf32>, %b: tensor<70xf32>) -> tensor<?x70xf32> {
  %0 = google.matmul_bias_relu %x, %w, %b : tensor<?x40xf32>, tensor<40x70xf32>, tensor<70xf32> -> tensor<?x70xf32>
  return %0 : tensor<?x70xf32>
}
func.func @plain(%a: tensor<?x33xf32>, %b: tensor<33x96xf32>) -> tensor<?x96xf32> {
  %0 = google.matmul %a, %b : tensor<?x33xf32>, tensor<33x96xf32> -> tensor<?x96xf32>
  return %0 : tensor<?x96xf32>
}
func.func @dynamic_n(%a: tensor<?x16xf32>, %b: tensor<16x?xf32>) -> tensor<?x?xf32> {
  %0 = google.matmul %a, %b : tensor<?x16xf32>, tensor<16x?xf32> -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}
func.func @wide(%x: tensor<?x72xf32>, %w: tensor<72x130xf32>, %b: tensor<130xf32>) -> tensor<?x130xf32> {
  %0 = google.matmul_bias_relu %x, %w, %b : tensor<?x72xf32>, tensor<72x130xf32>, tensor<130xf32> -> tensor<?x130xf32>
  return %0 : tensor<?x130xf32>
}
func.func @wider(%a: tensor<?x20xf32>, %b: tensor<20x300xf32>) -> tensor<?x300xf32> {
  %0 = google.matmul %a, %b : tensor<?x20xf32>, tensor<20x300xf32> -> tensor<?x300xf32>
  return %0 : tensor<?x300xf32>
}
func.func @residual(%x: tensor<?x24xf32>, %w: tensor<24x40xf32>, %r: tensor<?x40xf32>, %s: tensor<?x1xf32>) -> tensor<?x40xf32> {
  %0 = google.matmul %x, %w : tensor<?x24xf32>, tensor<24x40xf32> -> tensor<?x40xf32>
  %1 = google.add %0, %r : tensor<?x40xf32>, tensor<?x40xf32> -> tensor<?x40xf32>
  %2 = google.mul %1, %s : tensor<?x40xf32>, tensor<?x1xf32> -> tensor<?x40xf32>
  return %2 : tensor<?x40xf32>
}
