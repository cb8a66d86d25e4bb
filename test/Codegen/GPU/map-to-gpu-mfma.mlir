// RUN: google-opt %s -split-input-file --google-map-to-gpu="mfma=true" | FileCheck %s
// RUN: google-opt %s -split-input-file --google-map-to-gpu="mfma=true mfma-bf16=true" | FileCheck %s --check-prefix=BF16
// RUN: not google-opt %s -split-input-file --google-map-to-gpu="mfma=true mma-sync=true" 2>&1 | FileCheck %s --check-prefix=BOTH
// BOTH: error: google-map-to-gpu: mma-sync (NVIDIA) and mfma (AMD) exclude each other
// RUN: not google-opt %s -split-input-file --google-map-to-gpu="mfma-bf16=true" 2>&1 | FileCheck %s --check-prefix=BF16-ALONE
// BF16-ALONE: error: google-map-to-gpu: mfma-bf16 needs mfma

// With mfma (AMD CDNA matrix cores; the pipeline's mfma option), an f16
// matmul accumulating in f32 in whole 128x128 tiles runs in blocks of 4
// waves of 64 lanes: slices of 32 of K staged as vectors of 8 halves (as
// for mma.sync), per slice and wave 2 x 16 amdgpu.mfma 16x16x16 (4 x 4
// tiles of 16x16, two steps of 16), A's operands 4 halves of a row of
// shared memory, B's 4 halves down a column, the fill's value starting the
// accumulators. The host-mapping test runs these kernels with the
// instruction's lane layout emulated (mapping-on-host.test).
// CHECK-LABEL: func.func @f16_matmul
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: gpu.launch {{.*}} threads({{.*}}) in (%{{.*}} = %c256{{.*}}, {{.*}} workgroup(%[[SA:.*]] : memref<128x40xf16, #gpu.address_space<workgroup>>, %[[SB:.*]] : memref<32x136xf16, #gpu.address_space<workgroup>>)
// CHECK-COUNT-4: vector.load %{{.*}} {alignment = 16 : i64} : memref<{{.*}}xf16>, vector<8xf16>
// CHECK: vector.store %{{.*}}, %[[SA]]{{.*}} {alignment = 16 : i64}
// CHECK: gpu.barrier
// CHECK: vector.from_elements %[[ZERO]], %[[ZERO]], %[[ZERO]], %[[ZERO]] : vector<4xf32>
// CHECK: scf.for {{.*}} -> (vector<4xf32>,
// CHECK-COUNT-4: vector.load %[[SA]][{{.*}}] {alignment = 8 : i64} : memref<128x40xf16, #gpu.address_space<workgroup>>, vector<4xf16>
// CHECK-COUNT-4: memref.load %[[SB]]
// CHECK: vector.from_elements {{.*}} : vector<4xf16>
// CHECK-COUNT-16: amdgpu.mfma 16x16x16 %{{.*}} * %{{.*}} + %{{.*}} blgp = none : vector<4xf16>, vector<4xf16>, vector<4xf32>
// CHECK-COUNT-16: amdgpu.mfma
// CHECK: gpu.barrier
// CHECK: gpu.barrier
// CHECK: vector.extract %{{.*}}[0] : f32 from vector<4xf32>
// CHECK: memref.store
// CHECK-NOT: amdgpu.mfma
func.func @f16_matmul(%a: memref<256x64xf16>, %b: memref<64x128xf16>, %c: memref<256x128xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<256x128xf32>)
  linalg.matmul ins(%a, %b : memref<256x64xf16>, memref<64x128xf16>) outs(%c : memref<256x128xf32>)
  return
}

// -----

// Tiles of C not whole (here N = 96), or f16 products accumulating in f16:
// no matrix cores.
// CHECK-LABEL: func.func @negative_partial_tiles
// CHECK-NOT: amdgpu.mfma
// CHECK-LABEL: func.func @negative_f16_accumulator
// CHECK-NOT: amdgpu.mfma
func.func @negative_partial_tiles(%a: memref<256x64xf16>, %b: memref<64x96xf16>, %c: memref<256x96xf32>) {
  linalg.matmul ins(%a, %b : memref<256x64xf16>, memref<64x96xf16>) outs(%c : memref<256x96xf32>)
  return
}
func.func @negative_f16_accumulator(%a: memref<256x64xf16>, %b: memref<64x128xf16>, %c: memref<256x128xf16>) {
  linalg.matmul ins(%a, %b : memref<256x64xf16>, memref<64x128xf16>) outs(%c : memref<256x128xf16>)
  return
}

// -----

// bf16 matmuls take the same kernel with mfma-bf16 (gfx90a and later:
// v_mfma_f32_16x16x16bf16_1k), not without it (gfx908 has no such
// instruction).
// CHECK-LABEL: func.func @bf16_matmul
// CHECK-NOT: amdgpu.mfma
// BF16-LABEL: func.func @bf16_matmul
// BF16: workgroup(%{{.*}} : memref<128x40xbf16, #gpu.address_space<workgroup>>, %{{.*}} : memref<32x136xbf16, #gpu.address_space<workgroup>>)
// BF16-COUNT-16: amdgpu.mfma 16x16x16 %{{.*}} * %{{.*}} + %{{.*}} blgp = none : vector<4xbf16>, vector<4xbf16>, vector<4xf32>
func.func @bf16_matmul(%a: memref<256x64xbf16>, %b: memref<64x128xbf16>, %c: memref<256x128xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<256x128xf32>)
  linalg.matmul ins(%a, %b : memref<256x64xbf16>, memref<64x128xbf16>) outs(%c : memref<256x128xf32>)
  return
}

// -----

// B^T (N x K, as x @ w.T reads it once
// --google-gpu-fold-operand-transposes read through the transpose) is
// staged as A is, in rows of K, and its operands are 4 halves of a row of
// shared memory; A^T (K x M) is staged as B is, its operands 4 halves down
// a column.
// CHECK-LABEL: func.func @rhs_k_major
// CHECK: gpu.launch {{.*}} workgroup(%[[SA:.*]] : memref<128x40xf16, #gpu.address_space<workgroup>>, %[[SB:.*]] : memref<128x40xf16, #gpu.address_space<workgroup>>)
// CHECK: scf.for
// CHECK-COUNT-4: vector.load %[[SA]][{{.*}}] {alignment = 8 : i64} : memref<128x40xf16, #gpu.address_space<workgroup>>, vector<4xf16>
// CHECK-COUNT-4: vector.load %[[SB]][{{.*}}] {alignment = 8 : i64} : memref<128x40xf16, #gpu.address_space<workgroup>>, vector<4xf16>
// CHECK-NOT: memref.load %[[SB]]
// CHECK-COUNT-16: amdgpu.mfma 16x16x16
func.func @rhs_k_major(%a: memref<256x64xf16>, %b: memref<128x64xf16>, %c: memref<256x128xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<256x128xf32>)
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : memref<256x64xf16>, memref<128x64xf16>) outs(%c : memref<256x128xf32>) {
  ^bb0(%x: f16, %y: f16, %acc: f32):
    %xf = arith.extf %x : f16 to f32
    %yf = arith.extf %y : f16 to f32
    %p = arith.mulf %xf, %yf : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// CHECK-LABEL: func.func @lhs_m_major
// CHECK: gpu.launch {{.*}} workgroup(%[[SA:.*]] : memref<32x136xf16, #gpu.address_space<workgroup>>, %[[SB:.*]] : memref<32x136xf16, #gpu.address_space<workgroup>>)
// CHECK: scf.for
// CHECK-NOT: vector.load %[[SA]]
// CHECK-COUNT-4: memref.load %[[SA]]
// CHECK: vector.from_elements {{.*}} : vector<4xf16>
// CHECK-COUNT-16: amdgpu.mfma 16x16x16
func.func @lhs_m_major(%a: memref<64x256xf16>, %b: memref<64x128xf16>, %c: memref<256x128xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<256x128xf32>)
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : memref<64x256xf16>, memref<64x128xf16>) outs(%c : memref<256x128xf32>) {
  ^bb0(%x: f16, %y: f16, %acc: f32):
    %xf = arith.extf %x : f16 to f32
    %yf = arith.extf %y : f16 to f32
    %p = arith.mulf %xf, %yf : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}
