// RUN: google-opt %s -split-input-file -google-tile-and-vectorize | FileCheck %s

// A matmul of a transposed A (a weight gradient, x^T @ dy) reads x where
// it is: no transposed copy, and each K step of a block reads a row of x
// (MR contiguous elements) for the block's rows.
// CHECK-DAG:   #[[AT:.*]] = affine_map<(d0, d1, d2) -> (d2, d0)>
// CHECK-LABEL: func @lhs
// CHECK-NOT:   linalg.transpose
// CHECK:       scf.for %[[I:.*]] = %c0 to %c64 step %c8
// CHECK:         scf.for %[[K:.*]] = %c0 to %c250 step %c1
// CHECK:           %[[A:.*]] = vector.transfer_read %arg0[%[[K]], %[[I]]], {{.*}} : tensor<250x64xf32>, vector<1x8xf32>
// CHECK:           vector.contract {indexing_maps = [#[[AT]], {{.*}}} %[[A]], {{.*}} : vector<1x8xf32>, vector<1x32xf32> into vector<8x32xf32>
func.func @lhs(%x: tensor<250x64xf32>, %dy: tensor<250x256xf32>) -> tensor<64x256xf32> {
  %e = tensor.empty() : tensor<64x250xf32>
  %t = linalg.transpose ins(%x : tensor<250x64xf32>) outs(%e : tensor<64x250xf32>) permutation = [1, 0]
  %z = arith.constant 0.0 : f32
  %o = tensor.empty() : tensor<64x256xf32>
  %f = linalg.fill ins(%z : f32) outs(%o : tensor<64x256xf32>) -> tensor<64x256xf32>
  %m = linalg.matmul ins(%t, %dy : tensor<64x250xf32>, tensor<250x256xf32>) outs(%f : tensor<64x256xf32>) -> tensor<64x256xf32>
  return %m : tensor<64x256xf32>
}

// -----

// A transpose the function also returns is computed anyway: the matmul
// reads the copy. A transposed B stays a copy (its columns would be
// strided reads).
// CHECK-LABEL: func @kept
// CHECK-COUNT-2: vector.contract {indexing_maps = [#{{.*}}, #{{.*}}, #{{.*}}], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} {{.*}} : vector<8x1xf32>
func.func @kept(%x: tensor<32x64xf32>, %y: tensor<32x64xf32>, %w: tensor<48x64xf32>) -> (tensor<64x64xf32>, tensor<64x32xf32>, tensor<32x48xf32>) {
  %e = tensor.empty() : tensor<64x32xf32>
  %t = linalg.transpose ins(%x : tensor<32x64xf32>) outs(%e : tensor<64x32xf32>) permutation = [1, 0]
  %z = arith.constant 0.0 : f32
  %o = tensor.empty() : tensor<64x64xf32>
  %f = linalg.fill ins(%z : f32) outs(%o : tensor<64x64xf32>) -> tensor<64x64xf32>
  %m = linalg.matmul ins(%t, %y : tensor<64x32xf32>, tensor<32x64xf32>) outs(%f : tensor<64x64xf32>) -> tensor<64x64xf32>
  %e2 = tensor.empty() : tensor<64x48xf32>
  %wt = linalg.transpose ins(%w : tensor<48x64xf32>) outs(%e2 : tensor<64x48xf32>) permutation = [1, 0]
  %o2 = tensor.empty() : tensor<32x48xf32>
  %f2 = linalg.fill ins(%z : f32) outs(%o2 : tensor<32x48xf32>) -> tensor<32x48xf32>
  %n = linalg.matmul ins(%x, %wt : tensor<32x64xf32>, tensor<64x48xf32>) outs(%f2 : tensor<32x48xf32>) -> tensor<32x48xf32>
  return %m, %t, %n : tensor<64x64xf32>, tensor<64x32xf32>, tensor<32x48xf32>
}
