// RUN: google-opt %s -split-input-file --google-map-to-gpu="mma-sync=true" | FileCheck %s
// RUN: google-opt %s -split-input-file --google-map-to-gpu | FileCheck %s --check-prefix=CUDA-CORES
// RUN: google-opt %s -split-input-file --google-map-to-gpu="tf32=true" | FileCheck %s --check-prefix=TF32
// RUN: not google-opt %s -split-input-file --google-map-to-gpu="tf32=true mfma=true" 2>&1 | FileCheck %s --check-prefix=TF32-MFMA
// TF32-MFMA: error: google-map-to-gpu: tf32 (NVIDIA) and mfma (AMD) exclude each other
// RUN: google-opt %s -split-input-file --google-map-to-gpu="mma-sync=true async-copy=true" | FileCheck %s --check-prefix=ASYNC
// RUN: not google-opt %s -split-input-file --google-map-to-gpu="async-copy=true" 2>&1 | FileCheck %s --check-prefix=ASYNC-ALONE
// ASYNC-ALONE: error: google-map-to-gpu: async-copy needs mma-sync
// RUN: google-opt %s -split-input-file --google-map-to-gpu="mma-sync=true async-copy=true mma-sync-warps=4 mma-sync-blocks-per-sm=2" | FileCheck %s --check-prefix=WIDE
// RUN: google-opt %s -split-input-file --google-map-to-gpu="tf32=true mma-sync-warps=4" | FileCheck %s --check-prefix=TF32-WIDE
// RUN: not google-opt %s --google-map-to-gpu="mma-sync=true mma-sync-warps=2" 2>&1 | FileCheck %s --check-prefix=WARPS
// WARPS: error: google-map-to-gpu: mma-sync-warps must be 8 or 4, got 2
// RUN: not google-opt %s --google-map-to-gpu="mma-sync=true mma-sync-blocks-per-sm=3" 2>&1 | FileCheck %s --check-prefix=BLOCKS
// BLOCKS: error: google-map-to-gpu: mma-sync-blocks-per-sm must be 1 or 2, got 3

// With mma-sync, an f16 matmul accumulating in f32 in whole 128x128 tiles
// runs on tensor cores: blocks of 256 threads (8 warps), slices of 32 of K
// staged as vectors of 8 halves, per slice and warp 2 x 16 mma.sync
// m16n8k16 (4 x 4 tiles of 16x8, two steps of 16), the fragments read by
// ldmatrix (B's transposed, two tiles at a time), the fill's value
// starting the accumulators.
// CHECK-LABEL: func.func @f16_matmul
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: gpu.launch {{.*}} threads({{.*}}) in (%{{.*}} = %c256{{.*}}, {{.*}} workgroup(%[[SA:.*]] : memref<128x40xf16, #gpu.address_space<workgroup>>, %[[SB:.*]] : memref<32x136xf16, #gpu.address_space<workgroup>>)
// CHECK-COUNT-4: vector.load %{{.*}} {alignment = 16 : i64} : memref<{{.*}}xf16>, vector<8xf16>
// CHECK: vector.store %{{.*}}, %[[SA]]{{.*}} {alignment = 16 : i64}
// CHECK: gpu.barrier
// CHECK: vector.from_elements %[[ZERO]], %[[ZERO]], %[[ZERO]], %[[ZERO]] : vector<2x2xf32>
// CHECK: scf.for {{.*}} -> (vector<2x2xf32>,
// CHECK-COUNT-4: nvgpu.ldmatrix %[[SA]][{{.*}}] {numTiles = 4 : i32, transpose = false} : memref<128x40xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
// CHECK: nvgpu.ldmatrix %[[SB]][{{.*}}] {numTiles = 4 : i32, transpose = true} : memref<32x136xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
// CHECK: nvgpu.ldmatrix %[[SB]]
// CHECK-COUNT-16: nvgpu.mma.sync(%{{.*}}, %{{.*}}, %{{.*}}) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
// CHECK-COUNT-16: nvgpu.mma.sync
// CHECK: gpu.barrier
// CHECK: gpu.barrier
// CHECK: vector.extract %{{.*}}[0, 0] : f32 from vector<2x2xf32>
// CHECK: memref.store
// CUDA-CORES-LABEL: func.func @f16_matmul
// CUDA-CORES-NOT: nvgpu.mma.sync
// With async-copy, slices go to three stages of shared memory by cp.async
// (2 + 2 copies of 8 halves per thread and slice), unpadded: the 16-byte
// chunks of a row are swizzled (A's chunk c of row r at c ^ (r / 2 % 4),
// B's at c ^ (r % 8)), so that the stages take 48 KiB. The first two
// slices go before the loop; then each iteration copies the slice two
// ahead into the stage freed last, computes the current one, waits for
// all but its newest group of copies, and has one barrier.
// ASYNC-LABEL: func.func @f16_matmul
// ASYNC: gpu.launch {{.*}} workgroup(%[[SA:.*]] : memref<3x128x32xf16, #gpu.address_space<workgroup>>, %[[SB:.*]] : memref<3x32x128xf16, #gpu.address_space<workgroup>>)
// ASYNC-NOT: vector.store
// ASYNC: arith.xori
// ASYNC: nvgpu.device_async_copy %{{.*}}, %[[SA]][%c0{{.*}}, %{{.*}}, %{{.*}}], 8 {bypassL1} : memref<256x64xf16> to memref<3x128x32xf16, #gpu.address_space<workgroup>>
// ASYNC: nvgpu.device_async_copy %{{.*}}, %[[SA]][%c0
// ASYNC-COUNT-2: nvgpu.device_async_copy %{{.*}}, %[[SB]][%c0{{.*}}, %{{.*}}, %{{.*}}], 8 {bypassL1}
// ASYNC: nvgpu.device_async_create_group
// ASYNC-COUNT-2: nvgpu.device_async_copy %{{.*}}, %[[SA]][%c1
// ASYNC-COUNT-2: nvgpu.device_async_copy %{{.*}}, %[[SB]][%c1
// ASYNC: %[[SECOND:.*]] = nvgpu.device_async_create_group
// ASYNC-NEXT: nvgpu.device_async_wait %[[SECOND]] {numGroups = 1 : i32}
// ASYNC-NEXT: gpu.barrier
// ASYNC: scf.for {{.*}} iter_args({{.*}}, %[[STAGE:.*]] = %c0{{.*}}) -> (vector<2x2xf32>, {{.*}}, index)
// ASYNC: %[[AHEAD:.*]] = arith.remui %{{.*}}, %c3 : index
// ASYNC-COUNT-2: nvgpu.device_async_copy %{{.*}}, %[[SA]][%[[AHEAD]], %{{.*}}, %{{.*}}], 8 {bypassL1}
// ASYNC-COUNT-2: nvgpu.device_async_copy %{{.*}}, %[[SB]][%[[AHEAD]], %{{.*}}, %{{.*}}], 8 {bypassL1}
// ASYNC: %[[NEXT:.*]] = nvgpu.device_async_create_group
// ASYNC: arith.xori
// ASYNC: nvgpu.ldmatrix %[[SA]][%[[STAGE]], {{.*}}] {numTiles = 4 : i32, transpose = false} : memref<3x128x32xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
// ASYNC: nvgpu.ldmatrix %[[SB]][%[[STAGE]], {{.*}}] {numTiles = 4 : i32, transpose = true}
// ASYNC-COUNT-16: nvgpu.mma.sync
// ASYNC-NOT: gpu.barrier
// ASYNC: nvgpu.device_async_wait %[[NEXT]] {numGroups = 1 : i32}
// ASYNC-NEXT: gpu.barrier
// ASYNC: scf.yield {{.*}} : vector<2x2xf32>,
// With mma-sync-warps=4, blocks of 128 threads (4 warps), each warp 64x64
// of C: per step of 16 of K 4 ldmatrix of A and 4 of B (two 16x8 tiles
// each) for 32 mma.sync (8 with 64x32 warps: 6 for 16), 4 + 4 copies per
// thread and slice; with mma-sync-blocks-per-sm=2 the launch asks for
// kernels of which each SM holds two blocks (--google-outline-kernels
// sets it on the kernel).
// WIDE-LABEL: func.func @f16_matmul
// WIDE: gpu.launch {{.*}} threads({{.*}}) in (%{{.*}} = %c128{{.*}}, {{.*}} workgroup(%[[SA:.*]] : memref<3x128x32xf16, #gpu.address_space<workgroup>>, %[[SB:.*]] : memref<3x32x128xf16, #gpu.address_space<workgroup>>)
// WIDE-COUNT-4: nvgpu.device_async_copy %{{.*}}, %[[SA]][%c0
// WIDE-COUNT-4: nvgpu.device_async_copy %{{.*}}, %[[SB]][%c0
// WIDE: nvgpu.device_async_create_group
// WIDE: scf.for {{.*}} -> (vector<2x2xf32>,
// WIDE-COUNT-4: nvgpu.ldmatrix %[[SA]]
// WIDE-COUNT-4: nvgpu.ldmatrix %[[SB]]
// WIDE-COUNT-32: nvgpu.mma.sync
// WIDE-COUNT-4: nvgpu.ldmatrix %[[SA]]
// WIDE-COUNT-4: nvgpu.ldmatrix %[[SB]]
// WIDE-COUNT-32: nvgpu.mma.sync
// WIDE-NOT: nvgpu.mma.sync
// WIDE: nvgpu.device_async_wait
// WIDE: scf.yield
// WIDE: } {google.kernel_attrs = {nvvm.minctasm = 2 : i32}}
func.func @f16_matmul(%a: memref<256x64xf16>, %b: memref<64x128xf16>, %c: memref<256x128xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<256x128xf32>)
  linalg.matmul ins(%a, %b : memref<256x64xf16>, memref<64x128xf16>) outs(%c : memref<256x128xf32>)
  return
}

// -----

// Tiles of C not whole (here N = 96), or f16 products accumulating in
// f16: CUDA cores.
// CHECK-LABEL: func.func @negative_partial_tiles
// CHECK-NOT: nvgpu.mma.sync
// CHECK-LABEL: func.func @negative_f16_accumulator
// CHECK-NOT: nvgpu.mma.sync
func.func @negative_partial_tiles(%a: memref<256x64xf16>, %b: memref<64x96xf16>, %c: memref<256x96xf32>) {
  linalg.matmul ins(%a, %b : memref<256x64xf16>, memref<64x96xf16>) outs(%c : memref<256x96xf32>)
  return
}
func.func @negative_f16_accumulator(%a: memref<256x64xf16>, %b: memref<64x128xf16>, %c: memref<256x128xf16>) {
  linalg.matmul ins(%a, %b : memref<256x64xf16>, memref<64x128xf16>) outs(%c : memref<256x128xf16>)
  return
}

// -----

// With tf32 (an opt-in), an f32 matmul in whole 128x128 tiles runs on
// tensor cores in TF32 when its inputs are 16-byte aligned at run time
// (else the shared-memory tiles): slices staged as vectors of 4 floats,
// rounded to TF32 on the way (+0x1000, low 13 bits cleared, NaN canonical), A's
// rows padded by 4 floats for ldmatrix, B's by 8 for its column reads; per
// slice and warp 4 x 16 mma.sync m16n8k8 (4 x 4 tiles, four steps of 8).
// Without the option, the f32 kernels: no tensor cores.
// TF32-LABEL: func.func @tf32_matmul
// TF32: memref.extract_aligned_pointer_as_index
// TF32: scf.if
// TF32: gpu.launch {{.*}} threads({{.*}}) in (%{{.*}} = %c256{{.*}}, {{.*}} workgroup(%[[SA:.*]] : memref<128x36xf32, #gpu.address_space<workgroup>>, %[[SB:.*]] : memref<32x136xf32, #gpu.address_space<workgroup>>)
// TF32-COUNT-8: vector.load %{{.*}} {alignment = 16 : i64} : memref<{{.*}}xf32>, vector<4xf32>
// TF32: %[[BITS:.*]] = arith.bitcast %[[V:.*]] : vector<4xf32> to vector<4xi32>
// TF32: %[[HALF:.*]] = arith.constant dense<4096> : vector<4xi32>
// TF32: %[[UP:.*]] = arith.addi %[[BITS]], %[[HALF]] : vector<4xi32>
// TF32: %[[MASK:.*]] = arith.constant dense<-8192> : vector<4xi32>
// TF32: %[[CUT:.*]] = arith.andi %[[UP]], %[[MASK]] : vector<4xi32>
// TF32: %[[NAN:.*]] = arith.cmpf uno, %[[V]], %[[V]] : vector<4xf32>
// TF32: %[[CANONICAL:.*]] = arith.constant dense<2143289344> : vector<4xi32>
// TF32: %[[KEPT:.*]] = arith.select %[[NAN]], %[[CANONICAL]], %[[CUT]] : vector<4xi1>, vector<4xi32>
// TF32: %[[ROUNDED:.*]] = arith.bitcast %[[KEPT]] : vector<4xi32> to vector<4xf32>
// TF32: vector.store %[[ROUNDED]], %[[SA]]{{.*}} {alignment = 16 : i64}
// TF32: scf.for {{.*}} -> (vector<2x2xf32>,
// TF32-COUNT-4: nvgpu.ldmatrix %[[SA]][{{.*}}] {numTiles = 4 : i32, transpose = false} : memref<128x36xf32, #gpu.address_space<workgroup>> -> vector<4x1xf32>
// TF32-COUNT-8: memref.load %[[SB]]
// TF32-COUNT-16: nvgpu.mma.sync(%{{.*}}, %{{.*}}, %{{.*}}) {mmaShape = [16, 8, 8], tf32Enabled} : (vector<4x1xf32>, vector<2x1xf32>, vector<2x2xf32>) -> vector<2x2xf32>
// TF32-COUNT-48: nvgpu.mma.sync
// TF32-NOT: nvgpu.mma.sync
// TF32: gpu.barrier
// TF32: } else {
// TF32-NOT: nvgpu
// TF32: return
// CHECK-LABEL: func.func @tf32_matmul
// CHECK-NOT: nvgpu.mma.sync
// TF32's kernel with 4 warps: 8 + 8 vectors of 4 floats per thread and
// slice, 4 ldmatrix of A, 16 loads of B and 32 mma.sync per step of 8.
// TF32-WIDE-LABEL: func.func @tf32_matmul
// TF32-WIDE: gpu.launch {{.*}} threads({{.*}}) in (%{{.*}} = %c128{{.*}}, {{.*}} workgroup(%[[SA:.*]] : memref<128x36xf32, #gpu.address_space<workgroup>>, %[[SB:.*]] : memref<32x136xf32, #gpu.address_space<workgroup>>)
// TF32-WIDE-COUNT-16: vector.load %{{.*}} {alignment = 16 : i64} : memref<{{.*}}xf32>, vector<4xf32>
// TF32-WIDE: scf.for {{.*}} -> (vector<2x2xf32>,
// TF32-WIDE-COUNT-4: nvgpu.ldmatrix %[[SA]]
// TF32-WIDE-COUNT-16: memref.load %[[SB]]
// TF32-WIDE-COUNT-32: nvgpu.mma.sync(%{{.*}}, %{{.*}}, %{{.*}}) {mmaShape = [16, 8, 8], tf32Enabled}
// TF32-WIDE-COUNT-96: nvgpu.mma.sync
// TF32-WIDE-NOT: nvgpu.mma.sync
// TF32-WIDE-NOT: google.kernel_attrs
// TF32-WIDE: return
func.func @tf32_matmul(%a: memref<256x64xf32>, %b: memref<64x128xf32>, %c: memref<256x128xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<256x128xf32>)
  linalg.matmul ins(%a, %b : memref<256x64xf32>, memref<64x128xf32>) outs(%c : memref<256x128xf32>)
  return
}

// -----

// TF32 takes plain f32 products only, in whole tiles.
// TF32-LABEL: func.func @tf32_partial_tiles
// TF32-NOT: nvgpu.mma.sync
// TF32-LABEL: func.func @tf32_not_a_product
// TF32-NOT: nvgpu.mma.sync
func.func @tf32_partial_tiles(%a: memref<256x64xf32>, %b: memref<64x96xf32>, %c: memref<256x96xf32>) {
  linalg.matmul ins(%a, %b : memref<256x64xf32>, memref<64x96xf32>) outs(%c : memref<256x96xf32>)
  return
}
func.func @tf32_not_a_product(%a: memref<256x64xf32>, %b: memref<64x128xf32>, %c: memref<256x128xf32>) {
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : memref<256x64xf32>, memref<64x128xf32>) outs(%c : memref<256x128xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %d = arith.subf %x, %y : f32
    %s = arith.addf %acc, %d : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// B^T (N x K, read through an (n, k) map: x @ w.T once
// --google-gpu-fold-operand-transposes read through the transpose) is staged
// as A is, 128 x 32 per slice (rows of K, A's swizzle), and ldmatrix
// reads B's fragments from it without .trans.
// CHECK-LABEL: func.func @rhs_k_major
// CHECK: workgroup(%[[SA:.*]] : memref<128x40xf16, #gpu.address_space<workgroup>>, %[[SB:.*]] : memref<128x40xf16, #gpu.address_space<workgroup>>)
// CHECK: scf.for
// CHECK-COUNT-4: nvgpu.ldmatrix %[[SA]]{{.*}} {numTiles = 4 : i32, transpose = false}
// CHECK: nvgpu.ldmatrix %[[SB]]{{.*}} {numTiles = 4 : i32, transpose = false} : memref<128x40xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
// CHECK: nvgpu.ldmatrix %[[SB]]{{.*}} {numTiles = 4 : i32, transpose = false}
// CHECK-COUNT-16: nvgpu.mma.sync
// ASYNC-LABEL: func.func @rhs_k_major
// ASYNC: workgroup(%{{.*}} : memref<3x128x32xf16, #gpu.address_space<workgroup>>, %[[SB:.*]] : memref<3x128x32xf16, #gpu.address_space<workgroup>>)
// ASYNC: nvgpu.device_async_copy %{{.*}}, %[[SB]]
// ASYNC: nvgpu.ldmatrix %[[SB]]{{.*}} {numTiles = 4 : i32, transpose = false}
// ASYNC-NOT: transpose = true
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

// -----

// A^T (K x M, a (k, m) map: x.T @ dy) is staged as B is, 32 x 128 per
// slice, and ldmatrix.trans reads A's fragments from it.
// CHECK-LABEL: func.func @lhs_m_major
// CHECK: workgroup(%[[SA:.*]] : memref<32x136xf16, #gpu.address_space<workgroup>>, %[[SB:.*]] : memref<32x136xf16, #gpu.address_space<workgroup>>)
// CHECK: scf.for
// CHECK-COUNT-4: nvgpu.ldmatrix %[[SA]]{{.*}} {numTiles = 4 : i32, transpose = true}
// CHECK: nvgpu.ldmatrix %[[SB]]{{.*}} {numTiles = 4 : i32, transpose = true}
// CHECK-COUNT-16: nvgpu.mma.sync
// ASYNC-LABEL: func.func @lhs_m_major
// ASYNC: workgroup(%[[SA:.*]] : memref<3x32x128xf16, #gpu.address_space<workgroup>>, %{{.*}} : memref<3x32x128xf16, #gpu.address_space<workgroup>>)
// ASYNC: nvgpu.ldmatrix %[[SA]]{{.*}} {numTiles = 4 : i32, transpose = true}
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
