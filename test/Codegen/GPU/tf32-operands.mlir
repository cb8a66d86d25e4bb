// RUN: google-opt %s --google-gpu-tf32-operands -split-input-file | FileCheck %s

// A matmul that fits the TF32 wgmma kernel reads A rounded to TF32 and B
// rounded and transposed (N x K), and is marked for the kernel.
// CHECK-LABEL: func.func @matmul
// CHECK-SAME: (%[[A:.*]]: tensor<256x64xf32>, %[[B:.*]]: tensor<64x136xf32>
// CHECK: %[[AR:.*]] = linalg.generic {indexing_maps = [#[[ID:.*]], #[[ID]]], {{.*}}} ins(%[[A]] : tensor<256x64xf32>) outs(%{{.*}} : tensor<256x64xf32>)
// CHECK: arith.bitcast %{{.*}} : f32 to i32
// CHECK: arith.constant 4096 : i32
// CHECK: arith.constant -8192 : i32
// CHECK: arith.cmpf uno
// CHECK: arith.constant 2143289344 : i32
// CHECK: %[[BT:.*]] = linalg.generic {indexing_maps = [#[[SWAP:.*]], #[[ID]]], {{.*}}} ins(%[[B]] : tensor<64x136xf32>) outs(%{{.*}} : tensor<136x64xf32>)
// CHECK: linalg.generic {indexing_maps = [#[[MK:.*]], #[[NK:.*]], #[[MN:.*]]], {{.*}}} ins(%[[AR]], %[[BT]] : tensor<256x64xf32>, tensor<136x64xf32>) {{.*}} attrs = {google.tf32_operands}
func.func @matmul(%a: tensor<256x64xf32>, %b: tensor<64x136xf32>, %c: tensor<256x136xf32>) -> tensor<256x136xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<256x64xf32>, tensor<64x136xf32>) outs(%c : tensor<256x136xf32>) -> tensor<256x136xf32>
  return %0 : tensor<256x136xf32>
}

// -----

// Transposes of A and B before the matmul are read through: A^T is
// rounded as it is transposed, B^T (already K-major) only rounded, and
// the transposes go.
// CHECK-LABEL: func.func @transposes
// CHECK-SAME: (%[[X:.*]]: tensor<64x256xf32>, %[[W:.*]]: tensor<136x64xf32>
// CHECK-NOT: linalg.transpose
// CHECK: linalg.generic {indexing_maps = [#[[SWAP:.*]], #[[ID:.*]]], {{.*}}} ins(%[[X]] : tensor<64x256xf32>) outs(%{{.*}} : tensor<256x64xf32>)
// CHECK: linalg.generic {indexing_maps = [#[[ID]], #[[ID]]], {{.*}}} ins(%[[W]] : tensor<136x64xf32>) outs(%{{.*}} : tensor<136x64xf32>)
// CHECK: {google.tf32_operands}
// CHECK-NOT: linalg.transpose
func.func @transposes(%x: tensor<64x256xf32>, %w: tensor<136x64xf32>, %c: tensor<256x136xf32>) -> tensor<256x136xf32> {
  %e0 = tensor.empty() : tensor<256x64xf32>
  %xt = linalg.transpose ins(%x : tensor<64x256xf32>) outs(%e0 : tensor<256x64xf32>) permutation = [1, 0]
  %e1 = tensor.empty() : tensor<64x136xf32>
  %wt = linalg.transpose ins(%w : tensor<136x64xf32>) outs(%e1 : tensor<64x136xf32>) permutation = [1, 0]
  %0 = linalg.matmul ins(%xt, %wt : tensor<256x64xf32>, tensor<64x136xf32>) outs(%c : tensor<256x136xf32>) -> tensor<256x136xf32>
  return %0 : tensor<256x136xf32>
}

// -----

// A batch: B^T per matrix.
// CHECK-LABEL: func.func @batched
// CHECK: outs(%{{.*}} : tensor<2x130x72xf32>)
// CHECK: outs(%{{.*}} : tensor<2x128x72xf32>)
// CHECK: ins(%{{.*}}, %{{.*}} : tensor<2x130x72xf32>, tensor<2x128x72xf32>) {{.*}} attrs = {google.tf32_operands}
func.func @batched(%a: tensor<2x130x72xf32>, %b: tensor<2x72x128xf32>, %c: tensor<2x130x128xf32>) -> tensor<2x130x128xf32> {
  %0 = linalg.batch_matmul ins(%a, %b : tensor<2x130x72xf32>, tensor<2x72x128xf32>) outs(%c : tensor<2x130x128xf32>) -> tensor<2x130x128xf32>
  return %0 : tensor<2x130x128xf32>
}

// -----

// Left alone: M below 128, K not a multiple of 4, a small output over a
// long K (split K), 16-bit operands.
// CHECK-LABEL: func.func @others
// CHECK-NOT: google.tf32_operands
// CHECK-COUNT-4: linalg.matmul
// CHECK-NOT: linalg.generic
func.func @others(%a: tensor<64x64xf32>, %b: tensor<64x256xf32>, %c: tensor<64x256xf32>,
                  %d: tensor<256x66xf32>, %e: tensor<66x256xf32>, %f: tensor<256x256xf32>,
                  %g: tensor<128x1024xf32>, %h: tensor<1024x128xf32>, %i: tensor<128x128xf32>,
                  %j: tensor<256x64xf16>, %k: tensor<64x256xf16>, %l: tensor<256x256xf32>)
    -> (tensor<64x256xf32>, tensor<256x256xf32>, tensor<128x128xf32>, tensor<256x256xf32>) {
  %0 = linalg.matmul ins(%a, %b : tensor<64x64xf32>, tensor<64x256xf32>) outs(%c : tensor<64x256xf32>) -> tensor<64x256xf32>
  %1 = linalg.matmul ins(%d, %e : tensor<256x66xf32>, tensor<66x256xf32>) outs(%f : tensor<256x256xf32>) -> tensor<256x256xf32>
  %2 = linalg.matmul ins(%g, %h : tensor<128x1024xf32>, tensor<1024x128xf32>) outs(%i : tensor<128x128xf32>) -> tensor<128x128xf32>
  %3 = linalg.matmul ins(%j, %k : tensor<256x64xf16>, tensor<64x256xf16>) outs(%l : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %0, %1, %2, %3 : tensor<64x256xf32>, tensor<256x256xf32>, tensor<128x128xf32>, tensor<256x256xf32>
}

// -----

// The fill of C moves next to the contraction, for the kernel to take it
// in (the rounding ops would stand between them).
// CHECK-LABEL: func.func @fill
// CHECK: linalg.generic
// CHECK: linalg.generic
// CHECK: %[[FILL:.*]] = linalg.fill
// CHECK-NEXT: linalg.generic {{.*}} outs(%[[FILL]] : tensor<256x136xf32>) attrs = {google.tf32_operands}
func.func @fill(%a: tensor<256x64xf32>, %b: tensor<64x136xf32>) -> tensor<256x136xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256x136xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<256x136xf32>) -> tensor<256x136xf32>
  %0 = linalg.matmul ins(%a, %b : tensor<256x64xf32>, tensor<64x136xf32>) outs(%c : tensor<256x136xf32>) -> tensor<256x136xf32>
  return %0 : tensor<256x136xf32>
}
