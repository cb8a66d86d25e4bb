// RUN: google-opt %s --google-map-to-gpu -split-input-file | FileCheck %s

// A transpose goes in 32 x 32 tiles, 32 x 8 threads each: consecutive
// threads (x) read consecutive elements of a row of the input (its
// innermost dimension, the op's d0) into a row of a padded tile of shared
// memory, then after a barrier read a column of the tile and write
// consecutive elements of the output's row (d1). Blocks: d1's tiles, then
// d0's. Each thread moves 4 elements each way, guarded at the edges.
// CHECK-LABEL: func.func @transpose
// CHECK-SAME: (%[[X:.*]]: memref<250x300xf32>, %[[Y:.*]]: memref<300x250xf32>)
// CHECK: gpu.launch blocks({{.*}}) in (%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) threads(%[[TX:.*]], %[[TY:.*]], %{{.*}}) in (%{{.*}} = %c32{{.*}}, %{{.*}} = %c8{{.*}}, %{{.*}} = %c1{{.*}}) workgroup(%[[TILE:.*]] : memref<32x33xf32, #gpu.address_space<workgroup>>)
// CHECK-COUNT-4: memref.store %{{.*}}, %[[TILE]][%{{.*}}, %[[TX]]]
// CHECK: gpu.barrier
// CHECK: %[[V:.*]] = memref.load %[[TILE]][%[[TX]], %[[TY]]]
// CHECK: memref.store %[[V]], %[[Y]]
// CHECK-COUNT-3: memref.load %[[TILE]][%[[TX]], %{{.*}}]
// CHECK-NOT: gpu.launch
func.func @transpose(%x: memref<250x300xf32>, %y: memref<300x250xf32>) {
  linalg.transpose ins(%x : memref<250x300xf32>) outs(%y : memref<300x250xf32>) permutation = [1, 0]
  return
}

// -----

// An elementwise op on a transposed input: only that input goes through
// the tile; the one read in order and the broadcast one are read where the
// output's element is. Dynamic extents, a batch dimension (the blocks'
// outermost).
// CHECK-LABEL: func.func @elementwise
// CHECK: gpu.launch {{.*}} workgroup(%[[TILE:.*]] : memref<32x33xf32, #gpu.address_space<workgroup>>)
// CHECK-COUNT-4: memref.store %{{.*}}, %[[TILE]]
// CHECK: gpu.barrier
// CHECK: memref.load %[[TILE]]
// CHECK: memref.load %{{.*}} : memref<?x?x?xf32>
// CHECK: memref.load %{{.*}} : memref<?xf32>
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK: memref.store
func.func @elementwise(%a: memref<?x?x?xf32>, %b: memref<?x?x?xf32>, %c: memref<?xf32>, %out: memref<?x?x?xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%a, %b, %c : memref<?x?x?xf32>, memref<?x?x?xf32>, memref<?xf32>) outs(%out : memref<?x?x?xf32>) {
  ^bb0(%x: f32, %y: f32, %z: f32, %o: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.addf %m, %z : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Not the transpose kernel: a narrow side (under 16), and a transposed
// read of the buffer the op writes (tiles would race).
// CHECK-LABEL: func.func @others
// CHECK-NOT: workgroup
func.func @others(%a: memref<8x300xf32>, %b: memref<300x8xf32>, %c: memref<64x64xf32>) {
  linalg.transpose ins(%a : memref<8x300xf32>) outs(%b : memref<300x8xf32>) permutation = [1, 0]
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%c : memref<64x64xf32>) outs(%c : memref<64x64xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.addf %x, %o : f32
    linalg.yield %s : f32
  }
  return
}
