// RUN: google-opt %s -split-input-file --google-map-to-gpu="mma-sync=true" | FileCheck %s
// RUN: google-opt %s -split-input-file --google-map-to-gpu | FileCheck %s --check-prefix=CUDA-CORES

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
