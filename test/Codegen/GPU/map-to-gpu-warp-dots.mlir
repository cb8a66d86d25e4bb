// RUN: google-opt %s -split-input-file --google-map-to-gpu=warp-dots=1 | FileCheck %s --check-prefix=SHARED
// RUN: google-opt %s -split-input-file --google-map-to-gpu="warp-dots=1 warp-shuffles=1" | FileCheck %s --check-prefix=SHUFFLES
// RUN: google-opt %s -split-input-file --google-map-to-gpu | FileCheck %s --check-prefix=SPLIT-K

// Warp dots (warp-dots, off by default: not yet run on a GPU). Without the
// option, these contractions split K (threads along N, B^T read 32 rows
// apart).
// SPLIT-K-LABEL: func.func @warp_dots
// SPLIT-K: workgroup(%{{.*}} : memref<8x32xf32, #gpu.address_space<workgroup>>)
// SPLIT-K-NOT: gpu.shuffle
// SPLIT-K-LABEL: func.func @warp_dots_f64
// SPLIT-K-NOT: gpu.shuffle

// x @ w.T (A M x K, B N x K) over a long K runs as warp dots (here an
// 8 x 4096 layer): blocks of 8 warps, each owning 8 rows of a column of C
// (4096 warps; neighbouring warps would share the column: w is the larger
// operand); lane l sums the products at l, l + 32, ... (rows of x and of
// w read along K, w's element once for the 8 rows).
// Without warp shuffles the lanes' sums meet in shared memory, and lane 0
// adds its warp's 32 of each row to the fill's value in order.
// SHARED-LABEL: func.func @warp_dots
// SHARED-SAME: (%[[X:.*]]: memref<8x784xf32>, %[[W:.*]]: memref<4096x784xf32>, %[[C:.*]]: memref<8x4096xf32>)
// SHARED: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// SHARED: %[[ROW_TILES:.*]] = arith.ceildivsi %c8, %c8{{.*}} : index
// SHARED: %[[BLOCKS:.*]] = arith.ceildivsi %{{.*}}, %c8{{.*}} : index
// SHARED: gpu.launch blocks(%[[BX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %[[BLOCKS]], {{.*}} threads(%[[T:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %c256{{.*}}, {{.*}} workgroup(%[[PARTIALS:.*]] : memref<2048xf32, #gpu.address_space<workgroup>>)
// SHARED: %[[LANE:.*]] = arith.remui %[[T]], %{{.*}} : index
// SHARED: %[[WARP:.*]] = arith.divui %[[T]], %{{.*}} : index
// SHARED: %[[TILE:.*]] = arith.minsi
// SHARED: %[[ROW_TILE:.*]] = arith.remsi %[[TILE]], %[[ROW_TILES]] : index
// SHARED: %[[ROW0:.*]] = arith.muli %[[ROW_TILE]], %c8
// SHARED: %[[COLUMN:.*]] = arith.muli
// SHARED-NOT: arith.minsi
// SHARED: %[[ROW7:.*]] = arith.addi %[[ROW0]], %c7 : index
// SHARED: %[[NEG_ZERO:.*]] = arith.constant -0.000000e+00 : f32
// SHARED: scf.for %[[K:.*]] = %[[LANE]] to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %[[NEG_ZERO]], {{.*}}) -> (f32, f32, f32, f32, f32, f32, f32, f32)
// SHARED: memref.load %[[W]][%[[COLUMN]], %[[K]]]
// SHARED: memref.load %[[X]][%[[ROW0]], %[[K]]]
// SHARED-COUNT-7: memref.load %[[X]]
// SHARED-NOT: memref.load %[[X]]
// SHARED: memref.load %[[W]]
// SHARED: %[[SUMS:.*]]:8 = scf.for
// SHARED-NOT: gpu.shuffle
// SHARED: memref.store %[[SUMS]]#0, %[[PARTIALS]]
// SHARED-COUNT-7: memref.store %[[SUMS]]
// SHARED-NEXT: gpu.barrier
// SHARED: scf.if
// SHARED: %[[P0:.*]] = memref.load %[[PARTIALS]][%{{.*}}]
// SHARED-NEXT: arith.addf %[[ZERO]], %[[P0]] : f32
// SHARED-COUNT-255: memref.load %[[PARTIALS]]
// SHARED: memref.store %{{.*}}, %[[C]][%[[ROW0]], %[[COLUMN]]]
// SHARED-COUNT-7: memref.store %{{.*}}, %[[C]]
// SHARED: gpu.terminator
// SHARED-NOT: gpu.launch
func.func @warp_dots(%x: memref<8x784xf32>, %w: memref<4096x784xf32>, %c: memref<8x4096xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<8x4096xf32>)
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%x, %w : memref<8x784xf32>, memref<4096x784xf32>) outs(%c : memref<8x4096xf32>)
  return
}

// -----

// Warp dots (x @ w.T over a long K) add up their lanes' 32-bit sums by a
// butterfly of shuffles, one per row of the warp's column (here all 4
// rows of a batch's C): every lane holds the totals, lane 0 stores them.
// (An f64 sum meets in shared memory; a small output gives each warp one
// element, so that there are more warps.)
// SHARED-LABEL: func.func @warp_dots_batched
// SHUFFLES-LABEL: func.func @warp_dots_batched
// SHUFFLES: gpu.launch
// SHUFFLES-NOT: workgroup(
// SHUFFLES-SAME: {
// SHUFFLES: scf.for
// SHUFFLES: %[[SUMS:.*]]:4 = scf.for
// SHUFFLES: %[[S16:.*]], %{{.*}} = gpu.shuffle xor %[[SUMS]]#0, %c16_i32, %c32_i32
// SHUFFLES: %[[T16:.*]] = arith.addf %[[SUMS]]#0, %[[S16]] : f32
// SHUFFLES: gpu.shuffle xor %[[T16]], %c8_i32
// SHUFFLES: gpu.shuffle xor %{{.*}}, %c4_i32
// SHUFFLES: gpu.shuffle xor %{{.*}}, %c2_i32
// SHUFFLES: %[[S1:.*]], %{{.*}} = gpu.shuffle xor %[[T2:.*]], %c1_i32
// SHUFFLES: %[[TOTAL:.*]] = arith.addf %[[T2]], %[[S1]] : f32
// SHUFFLES: gpu.shuffle xor %[[SUMS]]#1, %c16_i32
// SHUFFLES-COUNT-14: gpu.shuffle
// SHUFFLES-NOT: gpu.shuffle
// SHUFFLES: scf.if
// SHUFFLES: %[[OLD:.*]] = memref.load %arg2
// SHUFFLES: arith.addf %[[OLD]], %[[TOTAL]] : f32
// SHUFFLES-LABEL: func.func @warp_dots_f64
// SHUFFLES: gpu.launch
// SHUFFLES-SAME: workgroup(%{{.*}} : memref<256xf64, #gpu.address_space<workgroup>>)
// SHUFFLES-NOT: gpu.shuffle
// SHUFFLES: gpu.terminator
func.func @warp_dots_batched(%x: memref<2x4x512xf32>, %w: memref<2x2048x512xf32>, %c: memref<2x4x2048xf32>) {
  linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (b, m, n)>] ins(%x, %w : memref<2x4x512xf32>, memref<2x2048x512xf32>) outs(%c : memref<2x4x2048xf32>)
  return
}
func.func @warp_dots_f64(%x: memref<4x512xf64>, %w: memref<6x512xf64>, %c: memref<4x6xf64>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%x, %w : memref<4x512xf64>, memref<6x512xf64>) outs(%c : memref<4x6xf64>)
  return
}
