// RUN: google-opt %s --google-gpu-fold-operand-transposes=mma-sync=true -split-input-file | FileCheck %s
// RUN: google-opt %s --google-gpu-fold-operand-transposes="mma-sync=true wgmma=true" -split-input-file | FileCheck %s --check-prefix=WGMMA
// RUN: google-opt %s --google-gpu-fold-operand-transposes -split-input-file | FileCheck %s --check-prefix=CUDA-CORES
// RUN: google-opt %s --google-gpu-fold-operand-transposes="mma-sync=true tf32=true" -split-input-file | FileCheck %s --check-prefix=TF32
// RUN: google-opt %s --google-gpu-fold-operand-transposes="mfma=true" -split-input-file | FileCheck %s --check-prefix=MFMA
// RUN: google-opt %s --google-gpu-fold-operand-transposes="mma-sync=true warp-dots=true" -split-input-file | FileCheck %s --check-prefix=WARP-DOTS

// x @ w.T in f16 on the mma.sync kernel's tiles: the matmul reads w
// through an (n, k) map, and the transpose goes; on AMD's matrix cores
// too, and without tensor cores (shared tiles, which copy each operand
// along its innermost dimension).
// MFMA-LABEL: func.func @xwt
// MFMA-NOT: linalg.transpose
// MFMA: linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<256x64xf16>, tensor<384x64xf16>)
// CUDA-CORES-LABEL: func.func @xwt
// CUDA-CORES-NOT: linalg.transpose
// CUDA-CORES: linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<256x64xf16>, tensor<384x64xf16>)
// CHECK-DAG: #[[MK:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG: #[[NK:.*]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-DAG: #[[MN:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @xwt
// CHECK-SAME: (%[[X:.*]]: tensor<256x64xf16>, %[[W:.*]]: tensor<384x64xf16>, %[[C:.*]]: tensor<256x384xf32>)
// CHECK-NOT: linalg.transpose
// CHECK: %[[R:.*]] = linalg.generic {indexing_maps = [#[[MK]], #[[NK]], #[[MN]]], iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[X]], %[[W]] : tensor<256x64xf16>, tensor<384x64xf16>) outs(%[[C]] : tensor<256x384xf32>)
// CHECK: arith.extf
// CHECK: arith.extf
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK: return %[[R]]
func.func @xwt(%x: tensor<256x64xf16>, %w: tensor<384x64xf16>, %c: tensor<256x384xf32>) -> tensor<256x384xf32> {
  %e = tensor.empty() : tensor<64x384xf16>
  %t = linalg.transpose ins(%w : tensor<384x64xf16>) outs(%e : tensor<64x384xf16>) permutation = [1, 0]
  %0 = linalg.matmul ins(%x, %t : tensor<256x64xf16>, tensor<64x384xf16>) outs(%c : tensor<256x384xf32>) -> tensor<256x384xf32>
  return %0 : tensor<256x384xf32>
}

// -----

// A batch of bf16 (q @ k^T): B read (batch, n, k).
// CHECK-DAG: #[[NK3:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>
// CHECK-LABEL: func.func @batched
// CHECK-NOT: linalg.transpose
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #[[NK3]], #{{.*}}], {{.*}}} ins(%{{.*}}, %{{.*}} : tensor<2x128x64xbf16>, tensor<2x256x64xbf16>)
func.func @batched(%q: tensor<2x128x64xbf16>, %k: tensor<2x256x64xbf16>, %c: tensor<2x128x256xf32>) -> tensor<2x128x256xf32> {
  %e = tensor.empty() : tensor<2x64x256xbf16>
  %t = linalg.transpose ins(%k : tensor<2x256x64xbf16>) outs(%e : tensor<2x64x256xbf16>) permutation = [0, 2, 1]
  %0 = linalg.batch_matmul ins(%q, %t : tensor<2x128x64xbf16>, tensor<2x64x256xbf16>) outs(%c : tensor<2x128x256xf32>) -> tensor<2x128x256xf32>
  return %0 : tensor<2x128x256xf32>
}

// -----

// The transpose stays when something else reads it.
// CHECK-LABEL: func.func @also_read
// CHECK-SAME: (%{{.*}}: tensor<256x64xf16>, %[[W:.*]]: tensor<384x64xf16>
// CHECK: %[[T:.*]] = linalg.transpose
// CHECK: %[[R:.*]] = linalg.generic {{.*}} ins(%{{.*}}, %[[W]] : tensor<256x64xf16>, tensor<384x64xf16>)
// CHECK: return %[[R]], %[[T]]
func.func @also_read(%x: tensor<256x64xf16>, %w: tensor<384x64xf16>, %c: tensor<256x384xf32>) -> (tensor<256x384xf32>, tensor<64x384xf16>) {
  %e = tensor.empty() : tensor<64x384xf16>
  %t = linalg.transpose ins(%w : tensor<384x64xf16>) outs(%e : tensor<64x384xf16>) permutation = [1, 0]
  %0 = linalg.matmul ins(%x, %t : tensor<256x64xf16>, tensor<64x384xf16>) outs(%c : tensor<256x384xf32>) -> tensor<256x384xf32>
  return %0, %t : tensor<256x384xf32>, tensor<64x384xf16>
}

// -----

// Partial tiles fit the wgmma kernel, else shared tiles: folded either way.
// CHECK-LABEL: func.func @partial
// CHECK-NOT: linalg.transpose
// CHECK: linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<200x72xf16>, tensor<136x72xf16>)
// WGMMA-LABEL: func.func @partial
// WGMMA-NOT: linalg.transpose
// WGMMA: linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<200x72xf16>, tensor<136x72xf16>)
func.func @partial(%x: tensor<200x72xf16>, %w: tensor<136x72xf16>, %c: tensor<200x136xf32>) -> tensor<200x136xf32> {
  %e = tensor.empty() : tensor<72x136xf16>
  %t = linalg.transpose ins(%w : tensor<136x72xf16>) outs(%e : tensor<72x136xf16>) permutation = [1, 0]
  %0 = linalg.matmul ins(%x, %t : tensor<200x72xf16>, tensor<72x136xf16>) outs(%c : tensor<200x136xf32>) -> tensor<200x136xf32>
  return %0 : tensor<200x136xf32>
}

// -----

// f32 on the vector-tile kernel, which loads A and B either way round:
// B^T, A^T, and both are read through (with tf32, TF32's mma.sync wants
// them as they are).
// CHECK-DAG: #[[KM:.*]] = affine_map<(d0, d1, d2) -> (d2, d0)>
// CHECK-DAG: #[[NK:.*]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-LABEL: func.func @f32
// CHECK-NOT: linalg.transpose
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #[[NK]], #{{.*}}]
// CHECK-LABEL: func.func @f32_lhs
// CHECK-NOT: linalg.transpose
// CHECK: linalg.generic {indexing_maps = [#[[KM]], #{{.*}}, #{{.*}}]
// CHECK-SAME: ins(%{{.*}}, %{{.*}} : tensor<64x256xf32>, tensor<64x384xf32>)
// CHECK-LABEL: func.func @f32_both
// CHECK-NOT: linalg.transpose
// CHECK: linalg.generic {indexing_maps = [#[[KM]], #[[NK]], #{{.*}}]
// CHECK-SAME: ins(%{{.*}}, %{{.*}} : tensor<64x256xf32>, tensor<384x64xf32>)
// CUDA-CORES-LABEL: func.func @f32_both
// CUDA-CORES-NOT: linalg.transpose
// CUDA-CORES: linalg.generic
// TF32-LABEL: func.func @f32
// TF32: linalg.transpose
// TF32: linalg.matmul
// TF32-LABEL: func.func @f32_lhs
// TF32: linalg.transpose
// TF32-LABEL: func.func @f32_both
// TF32: linalg.transpose
// TF32: linalg.transpose
// TF32: linalg.matmul
func.func @f32(%x: tensor<256x64xf32>, %w: tensor<384x64xf32>, %c: tensor<256x384xf32>) -> tensor<256x384xf32> {
  %e = tensor.empty() : tensor<64x384xf32>
  %t = linalg.transpose ins(%w : tensor<384x64xf32>) outs(%e : tensor<64x384xf32>) permutation = [1, 0]
  %0 = linalg.matmul ins(%x, %t : tensor<256x64xf32>, tensor<64x384xf32>) outs(%c : tensor<256x384xf32>) -> tensor<256x384xf32>
  return %0 : tensor<256x384xf32>
}
func.func @f32_lhs(%x: tensor<64x256xf32>, %w: tensor<64x384xf32>, %c: tensor<256x384xf32>) -> tensor<256x384xf32> {
  %e = tensor.empty() : tensor<256x64xf32>
  %t = linalg.transpose ins(%x : tensor<64x256xf32>) outs(%e : tensor<256x64xf32>) permutation = [1, 0]
  %0 = linalg.matmul ins(%t, %w : tensor<256x64xf32>, tensor<64x384xf32>) outs(%c : tensor<256x384xf32>) -> tensor<256x384xf32>
  return %0 : tensor<256x384xf32>
}
func.func @f32_both(%x: tensor<64x256xf32>, %w: tensor<384x64xf32>, %c: tensor<256x384xf32>) -> tensor<256x384xf32> {
  %e0 = tensor.empty() : tensor<256x64xf32>
  %xt = linalg.transpose ins(%x : tensor<64x256xf32>) outs(%e0 : tensor<256x64xf32>) permutation = [1, 0]
  %e1 = tensor.empty() : tensor<64x384xf32>
  %wt = linalg.transpose ins(%w : tensor<384x64xf32>) outs(%e1 : tensor<64x384xf32>) permutation = [1, 0]
  %0 = linalg.matmul ins(%xt, %wt : tensor<256x64xf32>, tensor<64x384xf32>) outs(%c : tensor<256x384xf32>) -> tensor<256x384xf32>
  return %0 : tensor<256x384xf32>
}

// -----

// f16 x.T @ dy: mma.sync reads A^T where it lies; wgmma, which reads A
// only as M x K, keeps the transpose (the faster kernel wins).
// CHECK-LABEL: func.func @lhs
// CHECK-NOT: linalg.transpose
// CHECK: linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<64x256xf16>, tensor<64x384xf16>)
// MFMA-LABEL: func.func @lhs
// MFMA-NOT: linalg.transpose
// MFMA: linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<64x256xf16>, tensor<64x384xf16>)
// WGMMA-LABEL: func.func @lhs
// WGMMA: linalg.transpose
// WGMMA: linalg.matmul
// B^T of a small output over a long K stays for split K (its threads
// read B along N); with warp-dots it is read through: x @ w.T then runs
// as warp dots (a warp reads rows of x and w along K).
// CHECK-LABEL: func.func @split_k
// CHECK: linalg.transpose
// CHECK: linalg.matmul
// WARP-DOTS-LABEL: func.func @split_k
// WARP-DOTS-NOT: linalg.transpose
// WARP-DOTS: linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<128x1024xf16>, tensor<128x1024xf16>)
// Left alone: a permutation that is not the last two dimensions'.
// CHECK-LABEL: func.func @batch_swap
// CHECK: linalg.transpose
// CHECK: linalg.batch_matmul
func.func @lhs(%x: tensor<64x256xf16>, %w: tensor<64x384xf16>, %c: tensor<256x384xf32>) -> tensor<256x384xf32> {
  %e = tensor.empty() : tensor<256x64xf16>
  %t = linalg.transpose ins(%x : tensor<64x256xf16>) outs(%e : tensor<256x64xf16>) permutation = [1, 0]
  %0 = linalg.matmul ins(%t, %w : tensor<256x64xf16>, tensor<64x384xf16>) outs(%c : tensor<256x384xf32>) -> tensor<256x384xf32>
  return %0 : tensor<256x384xf32>
}
func.func @split_k(%x: tensor<128x1024xf16>, %w: tensor<128x1024xf16>, %c: tensor<128x128xf32>) -> tensor<128x128xf32> {
  %e = tensor.empty() : tensor<1024x128xf16>
  %t = linalg.transpose ins(%w : tensor<128x1024xf16>) outs(%e : tensor<1024x128xf16>) permutation = [1, 0]
  %0 = linalg.matmul ins(%x, %t : tensor<128x1024xf16>, tensor<1024x128xf16>) outs(%c : tensor<128x128xf32>) -> tensor<128x128xf32>
  return %0 : tensor<128x128xf32>
}
func.func @batch_swap(%q: tensor<2x128x64xf16>, %k: tensor<64x2x256xf16>, %c: tensor<2x128x256xf32>) -> tensor<2x128x256xf32> {
  %e = tensor.empty() : tensor<2x64x256xf16>
  %t = linalg.transpose ins(%k : tensor<64x2x256xf16>) outs(%e : tensor<2x64x256xf16>) permutation = [1, 0, 2]
  %0 = linalg.batch_matmul ins(%q, %t : tensor<2x128x64xf16>, tensor<2x64x256xf16>) outs(%c : tensor<2x128x256xf32>) -> tensor<2x128x256xf32>
  return %0 : tensor<2x128x256xf32>
}

// -----

// A^T is read through by split K and register tiles too (a warp's threads
// read the same rows of A, whatever its layout); B^T is not, but by warp
// dots (warp-dots), which need A as M x K: with both transposed, A^T is
// read through.
// WARP-DOTS-LABEL: func.func @split_k_both
// WARP-DOTS: linalg.transpose
// WARP-DOTS-NOT: linalg.transpose
// WARP-DOTS: linalg.generic
// CHECK-LABEL: func.func @split_k_lhs
// CHECK-NOT: linalg.transpose
// CHECK: linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1024x128xf16>, tensor<1024x128xf16>)
// CHECK-LABEL: func.func @split_k_both
// CHECK-SAME: (%[[X:[^:]*]]: tensor<1024x128xf16>, %[[W:[^:]*]]: tensor<128x1024xf16>
// CHECK: %[[WT:.*]] = linalg.transpose ins(%[[W]]
// CHECK-NOT: linalg.transpose
// CHECK: linalg.generic {{.*}} ins(%[[X]], %[[WT]] : tensor<1024x128xf16>, tensor<1024x128xf16>)
// CHECK-LABEL: func.func @register_tiles_lhs
// CHECK-NOT: linalg.transpose
// CHECK: linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<8x6xf32>, tensor<8x5xf32>)
// CHECK-LABEL: func.func @register_tiles_rhs
// CHECK: linalg.transpose
// CHECK: linalg.matmul
func.func @split_k_lhs(%x: tensor<1024x128xf16>, %w: tensor<1024x128xf16>, %c: tensor<128x128xf32>) -> tensor<128x128xf32> {
  %e = tensor.empty() : tensor<128x1024xf16>
  %t = linalg.transpose ins(%x : tensor<1024x128xf16>) outs(%e : tensor<128x1024xf16>) permutation = [1, 0]
  %0 = linalg.matmul ins(%t, %w : tensor<128x1024xf16>, tensor<1024x128xf16>) outs(%c : tensor<128x128xf32>) -> tensor<128x128xf32>
  return %0 : tensor<128x128xf32>
}
func.func @split_k_both(%x: tensor<1024x128xf16>, %w: tensor<128x1024xf16>, %c: tensor<128x128xf32>) -> tensor<128x128xf32> {
  %e = tensor.empty() : tensor<128x1024xf16>
  %t = linalg.transpose ins(%x : tensor<1024x128xf16>) outs(%e : tensor<128x1024xf16>) permutation = [1, 0]
  %f = tensor.empty() : tensor<1024x128xf16>
  %u = linalg.transpose ins(%w : tensor<128x1024xf16>) outs(%f : tensor<1024x128xf16>) permutation = [1, 0]
  %0 = linalg.matmul ins(%t, %u : tensor<128x1024xf16>, tensor<1024x128xf16>) outs(%c : tensor<128x128xf32>) -> tensor<128x128xf32>
  return %0 : tensor<128x128xf32>
}
func.func @register_tiles_lhs(%x: tensor<8x6xf32>, %dy: tensor<8x5xf32>, %c: tensor<6x5xf32>) -> tensor<6x5xf32> {
  %e = tensor.empty() : tensor<6x8xf32>
  %t = linalg.transpose ins(%x : tensor<8x6xf32>) outs(%e : tensor<6x8xf32>) permutation = [1, 0]
  %0 = linalg.matmul ins(%t, %dy : tensor<6x8xf32>, tensor<8x5xf32>) outs(%c : tensor<6x5xf32>) -> tensor<6x5xf32>
  return %0 : tensor<6x5xf32>
}
func.func @register_tiles_rhs(%x: tensor<6x8xf32>, %w: tensor<5x8xf32>, %c: tensor<6x5xf32>) -> tensor<6x5xf32> {
  %e = tensor.empty() : tensor<8x5xf32>
  %t = linalg.transpose ins(%w : tensor<5x8xf32>) outs(%e : tensor<8x5xf32>) permutation = [1, 0]
  %0 = linalg.matmul ins(%x, %t : tensor<6x8xf32>, tensor<8x5xf32>) outs(%c : tensor<6x5xf32>) -> tensor<6x5xf32>
  return %0 : tensor<6x5xf32>
}

// -----

// One transpose read as both operands (x.T @ x.T): both reads go through
// it, and it goes once.
// CHECK-LABEL: func.func @same_transpose
// CHECK-SAME: (%[[X:[^:]*]]: tensor<320x320xf32>
// CHECK-NOT: linalg.transpose
// CHECK: linalg.generic {{.*}} ins(%[[X]], %[[X]] : tensor<320x320xf32>, tensor<320x320xf32>)
func.func @same_transpose(%x: tensor<320x320xf32>, %c: tensor<320x320xf32>) -> tensor<320x320xf32> {
  %e = tensor.empty() : tensor<320x320xf32>
  %t = linalg.transpose ins(%x : tensor<320x320xf32>) outs(%e : tensor<320x320xf32>) permutation = [1, 0]
  %0 = linalg.matmul ins(%t, %t : tensor<320x320xf32>, tensor<320x320xf32>) outs(%c : tensor<320x320xf32>) -> tensor<320x320xf32>
  return %0 : tensor<320x320xf32>
}
