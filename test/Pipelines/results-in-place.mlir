// Static results are computed in the caller's buffer: the loops that write
// them in place return that buffer, and no copy follows (at opt-level 3,
// where the matmul is tiled, and at 1).
// RUN: google-opt %s --google-extreme-pipeline | FileCheck %s
// RUN: google-opt %s --google-extreme-pipeline=opt-level=1 | FileCheck %s
// CHECK-LABEL: llvm.func @matmul(
// CHECK-NOT:   memcpy
// CHECK-NOT:   memrefCopy
// CHECK:       llvm.return
// CHECK-LABEL: llvm.func @chain(
// CHECK-NOT:   memcpy
// CHECK-NOT:   memrefCopy
// CHECK:       llvm.return

func.func @matmul(%a: tensor<16x8xf32>, %b: tensor<8x64xf32>) -> tensor<16x64xf32> {
  %0 = google.matmul %a, %b : tensor<16x8xf32>, tensor<8x64xf32> -> tensor<16x64xf32>
  return %0 : tensor<16x64xf32>
}
func.func @chain(%x: tensor<64x64xf32>, %y: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %0 = google.add %x, %y : tensor<64x64xf32>, tensor<64x64xf32> -> tensor<64x64xf32>
  %1 = google.relu %0 : tensor<64x64xf32>
  return %1 : tensor<64x64xf32>
}
