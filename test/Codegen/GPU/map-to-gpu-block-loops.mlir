// RUN: google-opt %s -split-input-file --google-map-to-gpu=warp-shuffles=1 | FileCheck %s
// RUN: google-opt %s -split-input-file --google-map-to-gpu | FileCheck %s --check-prefix=SHARED
// RUN: google-opt %s -split-input-file --google-map-to-gpu="warp-shuffles=1 fused-attention=1" | FileCheck %s --check-prefix=ATTENTION

// A row chain tiled on tensors (--google-gpu-tile-to-blocks) and
// bufferized: the loop over blocks becomes the chain's launch, a block per
// iteration, the body's views at the block's row. With warp shuffles the
// per-row buffers are registers: no allocation is left.
// CHECK-LABEL: func.func @softmax_rows
// CHECK-SAME: (%[[X:.*]]: memref<64x1024xf32>, %[[Y:.*]]: memref<64x1024xf32>)
// CHECK-NOT: gpu.alloc
// CHECK: gpu.launch blocks(%[[BX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %c64, {{.*}} threads(%[[TX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %c256, {{.*}} workgroup(%{{.*}} : memref<8xf32, #gpu.address_space<workgroup>>, %{{.*}} : memref<8xf32, #gpu.address_space<workgroup>>)
// CHECK: %[[ROW:.*]] = memref.subview %[[X]][%[[BX]], 0] [1, 1024] [1, 1]
// CHECK: %[[OUT:.*]] = memref.subview %[[Y]][%[[BX]], 0] [1, 1024] [1, 1]
// CHECK-COUNT-4: memref.load %[[ROW]][%c0, %{{.*}}]
// CHECK-COUNT-4: math.exp
// CHECK-COUNT-4: arith.divf
// CHECK-NOT: gpu.alloc
// CHECK-COUNT-4: memref.store %{{.*}}, %[[OUT]][%c0, %{{.*}}]
// CHECK-NEXT: gpu.terminator
// CHECK-NOT: scf.forall
// CHECK-NOT: dealloc
// Without them, what a block writes and reads back lives in device
// memory, one buffer for all blocks, freed after the launch.
// SHARED-LABEL: func.func @softmax_rows
// SHARED: %[[MAX:.*]] = gpu.alloc () : memref<64x1xf32>
// SHARED: %[[EXP:.*]] = gpu.alloc () : memref<64x1x1024xf32>
// SHARED: %[[SUM:.*]] = gpu.alloc () : memref<64x1xf32>
// SHARED: gpu.launch blocks(%[[BX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %c64,
// SHARED: memref.subview %[[MAX]][%[[BX]], 0] [1, 1] [1, 1] : memref<64x1xf32> to memref<1xf32, strided<[1], offset: ?>>
// SHARED: memref.subview %[[EXP]][%[[BX]], 0, 0] [1, 1, 1024] [1, 1, 1] : memref<64x1x1024xf32> to memref<1x1024xf32, strided<[1024, 1], offset: ?>>
// SHARED: memref.subview %[[SUM]][%[[BX]], 0] [1, 1] [1, 1]
// SHARED: gpu.terminator
// SHARED-DAG: memref.dealloc %[[MAX]] :
// SHARED-DAG: memref.dealloc %[[EXP]] :
// SHARED-DAG: memref.dealloc %[[SUM]] :
// SHARED: return
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @softmax_rows(%x: memref<64x1024xf32>, %y: memref<64x1024xf32>) {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  scf.forall (%i) in (64) {
    %row = memref.subview %x[%i, 0] [1, 1024] [1, 1] : memref<64x1024xf32> to memref<1x1024xf32, strided<[1024, 1], offset: ?>>
    %max = gpu.alloc () : memref<1xf32>
    linalg.fill ins(%ninf : f32) outs(%max : memref<1xf32>)
    linalg.reduce { arith.maxnumf } ins(%row : memref<1x1024xf32, strided<[1024, 1], offset: ?>>) outs(%max : memref<1xf32>) dimensions = [1]
    %exp = gpu.alloc () : memref<1x1024xf32>
    linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%row, %max : memref<1x1024xf32, strided<[1024, 1], offset: ?>>, memref<1xf32>) outs(%exp : memref<1x1024xf32>) {
    ^bb0(%a: f32, %m: f32, %o: f32):
      %d = arith.subf %a, %m : f32
      %e = math.exp %d : f32
      linalg.yield %e : f32
    }
    %sum = gpu.alloc () : memref<1xf32>
    linalg.fill ins(%zero : f32) outs(%sum : memref<1xf32>)
    linalg.reduce { arith.addf } ins(%exp : memref<1x1024xf32>) outs(%sum : memref<1xf32>) dimensions = [1]
    %out = memref.subview %y[%i, 0] [1, 1024] [1, 1] : memref<64x1024xf32> to memref<1x1024xf32, strided<[1024, 1], offset: ?>>
    linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%exp, %sum : memref<1x1024xf32>, memref<1xf32>) outs(%out : memref<1x1024xf32, strided<[1024, 1], offset: ?>>) {
    ^bb0(%a: f32, %s: f32, %o: f32):
      %q = arith.divf %a, %s : f32
      linalg.yield %q : f32
    }
    memref.dealloc %max : memref<1xf32>
    memref.dealloc %exp : memref<1x1024xf32>
    memref.dealloc %sum : memref<1xf32>
  } {mapping = [#gpu.block<linear_dim_0>]}
  return
}

// -----

// A body that no kernel takes runs its blocks one after another, each op
// mapped as usual.
// CHECK-LABEL: func.func @not_a_kernel
// CHECK: scf.for %[[I:.*]] = %c0 to %c4 step %c1
// CHECK: memref.subview %{{.*}}[%[[I]], 0] [1, 256] [1, 1]
// CHECK: gpu.launch
// CHECK: arith.negf
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @not_a_kernel(%x: memref<4x256xf32>, %y: memref<4x256xf32>) {
  scf.forall (%i) in (4) {
    %row = memref.subview %x[%i, 0] [1, 256] [1, 1] : memref<4x256xf32> to memref<1x256xf32, strided<[256, 1], offset: ?>>
    %out = memref.subview %y[%i, 0] [1, 256] [1, 1] : memref<4x256xf32> to memref<1x256xf32, strided<[256, 1], offset: ?>>
    linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%row : memref<1x256xf32, strided<[256, 1], offset: ?>>) outs(%out : memref<1x256xf32, strided<[256, 1], offset: ?>>) {
    ^bb0(%a: f32, %o: f32):
      %n = arith.negf %a : f32
      linalg.yield %n : f32
    }
  } {mapping = [#gpu.block<linear_dim_0>]}
  return
}

// -----

// A row reduction tiled on tensors by one output element: a block per
// row, thread 0 fills the row's output first and combines the row into it
// last; the partials meet in shared memory.
// CHECK-LABEL: func.func @row_reduction
// CHECK-SAME: (%[[X:.*]]: memref<8x1000xf32>, %[[Y:.*]]: memref<8xf32>)
// CHECK: gpu.launch blocks(%[[BX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %c8, {{.*}} threads(%[[TX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %c256, {{.*}} workgroup(%[[PARTIALS:.*]] : memref<256xf32, #gpu.address_space<workgroup>>)
// CHECK: %[[ROW:.*]] = memref.subview %[[X]][%[[BX]], 0] [1, 1000] [1, 1]
// CHECK: %[[OUT:.*]] = memref.subview %[[Y]][%[[BX]]] [1] [1]
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %[[TX]], %c0
// CHECK: scf.if %[[FIRST]] {
// CHECK-NEXT: memref.store %{{.*}}, %[[OUT]][%c0]
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c256
// CHECK: memref.load %[[ROW]][%c0, %{{.*}}]
// CHECK: gpu.barrier
// CHECK: memref.load %[[PARTIALS]]
// CHECK: %[[INIT:.*]] = memref.load %[[OUT]][%c0]
// CHECK: %[[MAX:.*]] = arith.maxnumf %{{.*}}, %[[INIT]]
// CHECK: memref.store %[[MAX]], %[[OUT]][%c0]
// CHECK: gpu.terminator
// CHECK-NOT: linalg.
// CHECK-NOT: scf.forall
func.func @row_reduction(%x: memref<8x1000xf32>, %y: memref<8xf32>) {
  %ninf = arith.constant 0xFF800000 : f32
  scf.forall (%i) in (8) {
    %row = memref.subview %x[%i, 0] [1, 1000] [1, 1] : memref<8x1000xf32> to memref<1x1000xf32, strided<[1000, 1], offset: ?>>
    %out = memref.subview %y[%i] [1] [1] : memref<8xf32> to memref<1xf32, strided<[1], offset: ?>>
    linalg.fill ins(%ninf : f32) outs(%out : memref<1xf32, strided<[1], offset: ?>>)
    linalg.reduce { arith.maxnumf } ins(%row : memref<1x1000xf32, strided<[1000, 1], offset: ?>>) outs(%out : memref<1xf32, strided<[1], offset: ?>>) dimensions = [1]
  } {mapping = [#gpu.block<linear_dim_0>]}
  return
}

// -----

// Dynamic rows and lengths: as many blocks as rows, each reducing the
// length its view has.
// CHECK-LABEL: func.func @dynamic_row_reduction
// CHECK-SAME: (%[[X:.*]]: memref<?x?xf32>, %[[Y:.*]]: memref<?xf32>, %[[N:.*]]: index, %[[M:.*]]: index)
// CHECK: gpu.launch blocks(%[[BX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %[[N]],
// CHECK: %[[ROW:.*]] = memref.subview %[[X]][%[[BX]], 0] [1, %[[M]]] [1, 1]
// CHECK-NOT: scf.if
// CHECK: %[[LENGTH:.*]] = arith.muli %{{.*}}, %[[M]]
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[LENGTH]] step %c256
// CHECK: arith.addf
// CHECK: gpu.terminator
func.func @dynamic_row_reduction(%x: memref<?x?xf32>, %y: memref<?xf32>, %n: index, %m: index) {
  scf.forall (%i) in (%n) {
    %row = memref.subview %x[%i, 0] [1, %m] [1, 1] : memref<?x?xf32> to memref<1x?xf32, strided<[?, 1], offset: ?>>
    %out = memref.subview %y[%i] [1] [1] : memref<?xf32> to memref<1xf32, strided<[1], offset: ?>>
    linalg.reduce { arith.addf } ins(%row : memref<1x?xf32, strided<[?, 1], offset: ?>>) outs(%out : memref<1xf32, strided<[1], offset: ?>>) dimensions = [1]
  } {mapping = [#gpu.block<linear_dim_0>]}
  return
}

// -----

// reduce_mean's blocks: the row's sum lives in a buffer of the block's
// own, which becomes workgroup memory that thread 0 alone uses; after the
// reduction thread 0 divides it into the output.
// CHECK-LABEL: func.func @mean
// CHECK-SAME: (%[[X:.*]]: memref<2x3000xf32>, %[[Y:.*]]: memref<2xf32>)
// CHECK-NOT: gpu.alloc
// CHECK: gpu.launch {{.*}} workgroup(%[[PARTIALS:.*]] : memref<256xf32, #gpu.address_space<workgroup>>, %[[SUM:.*]] : memref<1xf32, #gpu.address_space<workgroup>>)
// CHECK: scf.if
// CHECK-NEXT: memref.store %{{.*}}, %[[SUM]][%c0]
// CHECK: gpu.barrier
// CHECK: %[[START:.*]] = memref.load %[[SUM]][%c0]
// CHECK-NEXT: %[[TOTAL:.*]] = arith.addf %{{.*}}, %[[START]] : f32
// CHECK-NEXT: memref.store %[[TOTAL]], %[[SUM]][%c0]
// CHECK: %[[OUT:.*]] = memref.subview %[[Y]]
// CHECK: %[[FIRST:.*]] = arith.cmpi eq
// CHECK: scf.if %[[FIRST]] {
// CHECK-NEXT: %[[ROW:.*]] = memref.load %[[SUM]][%c0]
// CHECK-NEXT: %[[MEAN:.*]] = arith.divf %[[ROW]]
// CHECK-NEXT: memref.store %[[MEAN]], %[[OUT]][%c0]
// CHECK: gpu.terminator
// CHECK-NOT: dealloc
// CHECK: return
func.func @mean(%x: memref<2x3000xf32>, %y: memref<2xf32>) {
  %count = arith.constant 3.000000e+03 : f32
  %zero = arith.constant 0.000000e+00 : f32
  scf.forall (%i) in (2) {
    %row = memref.subview %x[%i, 0] [1, 3000] [1, 1] : memref<2x3000xf32> to memref<1x3000xf32, strided<[3000, 1], offset: ?>>
    %sum = gpu.alloc () : memref<1xf32>
    linalg.fill ins(%zero : f32) outs(%sum : memref<1xf32>)
    linalg.reduce { arith.addf } ins(%row : memref<1x3000xf32, strided<[3000, 1], offset: ?>>) outs(%sum : memref<1xf32>) dimensions = [1]
    %out = memref.subview %y[%i] [1] [1] : memref<2xf32> to memref<1xf32, strided<[1], offset: ?>>
    linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%sum : memref<1xf32>) outs(%out : memref<1xf32, strided<[1], offset: ?>>) {
    ^bb0(%in: f32, %o: f32):
      %m = arith.divf %in, %count : f32
      linalg.yield %m : f32
    }
    memref.dealloc %sum : memref<1xf32>
  } {mapping = [#gpu.block<linear_dim_0>]}
  return
}

// -----

// A contraction tiled on tensors by the shared-memory kernel's 64 x 64
// tiles: the loop's steps become the blocks' origins, and each block runs
// the kernel on its tile's views (partial at the edges); the product,
// which the epilogue alone reads, stays in registers: its buffer and the
// reads of its extents are gone.
// CHECK-LABEL: func.func @shared_tiles
// CHECK-SAME: (%[[A:.*]]: memref<?x300xf32>, %[[B:.*]]: memref<300x200xf32>, %[[BIAS:.*]]: memref<200xf32>, %[[C:.*]]: memref<?x200xf32>, %[[M:.*]]: index)
// CHECK: %[[ROWTILES:.*]] = arith.ceildivsi %[[M]], %c64
// CHECK: %[[BLOCKS:.*]] = arith.muli %[[ROWTILES]], %c4
// CHECK: gpu.launch blocks(%[[BX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %[[BLOCKS]], {{.*}} threads({{.*}}) in (%{{.*}} = %c16, %{{.*}} = %c16{{.*}}, {{.*}} workgroup(%{{.*}} : memref<64x17xf32, #gpu.address_space<workgroup>>, %{{.*}} : memref<16x65xf32, #gpu.address_space<workgroup>>)
// CHECK: %[[TILE:.*]] = affine.apply #{{.*}}()[%[[BX]]]
// CHECK: %[[I:.*]] = arith.muli %[[TILE]], %c64
// CHECK: %[[ROWS:.*]] = affine.min #{{.*}}(%[[I]])[%[[M]]]
// CHECK: memref.subview %[[A]][%[[I]], 0] [%[[ROWS]], 300] [1, 1]
// CHECK-NOT: gpu.alloc
// CHECK: gpu.barrier
// CHECK: arith.maximumf
// CHECK: memref.store
// CHECK: gpu.terminator
// CHECK-NOT: gpu.dealloc
// CHECK-NOT: linalg.
func.func @shared_tiles(%a: memref<?x300xf32>, %b: memref<300x200xf32>, %bias: memref<200xf32>, %c: memref<?x200xf32>, %m: index) {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.forall (%i, %j) = (0, 0) to (%m, 200) step (64, 64) {
    %rows = affine.min affine_map<(d0)[s0] -> (-d0 + s0, 64)>(%i)[%m]
    %columns = affine.min affine_map<(d0) -> (-d0 + 200, 64)>(%j)
    %as = memref.subview %a[%i, 0] [%rows, 300] [1, 1] : memref<?x300xf32> to memref<?x300xf32, strided<[300, 1], offset: ?>>
    %bs = memref.subview %b[0, %j] [300, %columns] [1, 1] : memref<300x200xf32> to memref<300x?xf32, strided<[200, 1], offset: ?>>
    %product = gpu.alloc (%rows, %columns) : memref<?x?xf32>
    %n = memref.dim %product, %c1 : memref<?x?xf32>
    linalg.fill ins(%zero : f32) outs(%product : memref<?x?xf32>)
    linalg.matmul ins(%as, %bs : memref<?x300xf32, strided<[300, 1], offset: ?>>, memref<300x?xf32, strided<[200, 1], offset: ?>>) outs(%product : memref<?x?xf32>)
    %biases = memref.subview %bias[%j] [%n] [1] : memref<200xf32> to memref<?xf32, strided<[1], offset: ?>>
    %cs = memref.subview %c[%i, %j] [%rows, %columns] [1, 1] : memref<?x200xf32> to memref<?x?xf32, strided<[200, 1], offset: ?>>
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%product, %biases : memref<?x?xf32>, memref<?xf32, strided<[1], offset: ?>>) outs(%cs : memref<?x?xf32, strided<[200, 1], offset: ?>>) {
    ^bb0(%p: f32, %s: f32, %o: f32):
      %sum = arith.addf %p, %s : f32
      %r = arith.maximumf %sum, %zero : f32
      linalg.yield %r : f32
    }
    gpu.dealloc %product : memref<?x?xf32>
  } {mapping = [#gpu.block<linear_dim_1>, #gpu.block<linear_dim_0>]}
  return
}

// -----

// A tile larger than the kernel's (tile-size 4: 64 x 64) takes as many
// blocks as the kernel's tiles it spans (2 x 4 per iteration, the columns
// fastest), each at its origin in the tile.
// CHECK-LABEL: func.func @tile_too_large
// CHECK-NOT: scf.for
// CHECK: gpu.launch blocks(%[[BX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %c16{{(_[0-9]+)?}}, {{.*}} threads({{.*}}) in (%{{.*}} = %c16{{.*}}, %{{.*}} = %c16{{.*}}
// CHECK: %[[ITERATION:.*]] = arith.divui %[[BX]], %c8
// CHECK: %[[I:.*]] = arith.muli %[[ITERATION]], %c128
// CHECK: memref.subview %{{.*}}[%[[I]], 0] [128, 64] [1, 1]
// CHECK: %[[BLOCK:.*]] = arith.remui %[[BX]], %c8
// CHECK: %[[ROW:.*]] = arith.divui %[[BLOCK]], %c4
// CHECK: arith.muli %[[ROW]], %c64
// CHECK: %[[COLUMN:.*]] = arith.remui %[[BLOCK]], %c4
// CHECK: arith.muli %[[COLUMN]], %c64
// CHECK: gpu.terminator
// CHECK-NOT: gpu.launch
func.func @tile_too_large(%a: memref<256x64xf32>, %b: memref<64x256xf32>, %c: memref<256x256xf32>) {
  scf.forall (%i) = (0) to (256) step (128) {
    %as = memref.subview %a[%i, 0] [128, 64] [1, 1] : memref<256x64xf32> to memref<128x64xf32, strided<[64, 1], offset: ?>>
    %cs = memref.subview %c[%i, 0] [128, 256] [1, 1] : memref<256x256xf32> to memref<128x256xf32, strided<[256, 1], offset: ?>>
    linalg.matmul ins(%as, %b : memref<128x64xf32, strided<[64, 1], offset: ?>>, memref<64x256xf32>) outs(%cs : memref<128x256xf32, strided<[256, 1], offset: ?>>)
  } {mapping = [#gpu.block<linear_dim_0>]}
  return
}

// -----

// A contraction tiled for the vector-tile kernel (recorded by
// --google-gpu-tile-to-blocks) reads A and B as vectors of 16 bytes: the
// host checks that their buffers are aligned and launches it, or else the
// shared-tile kernel on the same tiles.
// CHECK-LABEL: func.func @vector_tiles
// CHECK-SAME: (%[[A:.*]]: memref<256x128xf32>, %[[B:.*]]: memref<128x256xf32>, %[[C:.*]]: memref<256x256xf32>)
// CHECK-DAG: %[[PA:.*]] = memref.extract_aligned_pointer_as_index %[[A]]
// CHECK-DAG: %[[PB:.*]] = memref.extract_aligned_pointer_as_index %[[B]]
// CHECK: scf.if
// CHECK: gpu.launch blocks({{.*}}) in (%{{.*}} = %c16{{.*}} threads({{.*}}) in (%{{.*}} = %c16{{.*}}, %{{.*}} = %c16{{.*}} workgroup(%{{.*}} : memref<16x68xf32, #gpu.address_space<workgroup>>, %{{.*}} : memref<16x64xf32, #gpu.address_space<workgroup>>)
// CHECK: vector.load %{{.*}} : memref<64x128xf32, strided<[128, 1], offset: ?>>, vector<4xf32>
// CHECK: } else {
// CHECK: gpu.launch {{.*}} workgroup(%{{.*}} : memref<64x17xf32, #gpu.address_space<workgroup>>, %{{.*}} : memref<16x65xf32, #gpu.address_space<workgroup>>)
// CHECK-NOT: vector.load
// CHECK: return
func.func @vector_tiles(%a: memref<256x128xf32>, %b: memref<128x256xf32>, %c: memref<256x256xf32>) {
  %zero = arith.constant 0.0 : f32
  scf.forall (%i, %j) = (0, 0) to (256, 256) step (64, 64) {
    %as = memref.subview %a[%i, 0] [64, 128] [1, 1] : memref<256x128xf32> to memref<64x128xf32, strided<[128, 1], offset: ?>>
    %bs = memref.subview %b[0, %j] [128, 64] [1, 1] : memref<128x256xf32> to memref<128x64xf32, strided<[256, 1], offset: ?>>
    %cs = memref.subview %c[%i, %j] [64, 64] [1, 1] : memref<256x256xf32> to memref<64x64xf32, strided<[256, 1], offset: ?>>
    linalg.fill ins(%zero : f32) outs(%cs : memref<64x64xf32, strided<[256, 1], offset: ?>>)
    linalg.matmul {google.gpu_kernel = {kernel = "vector_tiles", size = 4 : i64}} ins(%as, %bs : memref<64x128xf32, strided<[128, 1], offset: ?>>, memref<128x64xf32, strided<[256, 1], offset: ?>>) outs(%cs : memref<64x64xf32, strided<[256, 1], offset: ?>>)
  } {mapping = [#gpu.block<linear_dim_1>, #gpu.block<linear_dim_0>]}
  return
}

// -----

// After bufferization A may be a view with an offset: it is not known to
// be aligned, and the shared-tile kernel alone runs.
// CHECK-LABEL: func.func @view_with_offset
// CHECK-NOT: scf.if
// CHECK-NOT: vector.load
// CHECK: gpu.launch {{.*}} workgroup(%{{.*}} : memref<64x17xf32, #gpu.address_space<workgroup>>, %{{.*}} : memref<16x65xf32, #gpu.address_space<workgroup>>)
// CHECK-NOT: gpu.launch
func.func @view_with_offset(%a: memref<256x128xf32, strided<[128, 1], offset: 1>>, %b: memref<128x256xf32>, %c: memref<256x256xf32>) {
  %zero = arith.constant 0.0 : f32
  scf.forall (%i, %j) = (0, 0) to (256, 256) step (64, 64) {
    %as = memref.subview %a[%i, 0] [64, 128] [1, 1] : memref<256x128xf32, strided<[128, 1], offset: 1>> to memref<64x128xf32, strided<[128, 1], offset: ?>>
    %bs = memref.subview %b[0, %j] [128, 64] [1, 1] : memref<128x256xf32> to memref<128x64xf32, strided<[256, 1], offset: ?>>
    %cs = memref.subview %c[%i, %j] [64, 64] [1, 1] : memref<256x256xf32> to memref<64x64xf32, strided<[256, 1], offset: ?>>
    linalg.fill ins(%zero : f32) outs(%cs : memref<64x64xf32, strided<[256, 1], offset: ?>>)
    linalg.matmul {google.gpu_kernel = {kernel = "vector_tiles", size = 4 : i64}} ins(%as, %bs : memref<64x128xf32, strided<[128, 1], offset: ?>>, memref<128x64xf32, strided<[256, 1], offset: ?>>) outs(%cs : memref<64x64xf32, strided<[256, 1], offset: ?>>)
  } {mapping = [#gpu.block<linear_dim_1>, #gpu.block<linear_dim_0>]}
  return
}

// -----

// A batch's attention tiled on tensors (--google-gpu-tile-to-blocks with
// fused-attention): one kernel, whose blocks take each iteration's two
// tiles of 64 rows (4 blocks); its buffers in between are gone. Without
// fused-attention, its blocks run their ops' kernels one after another.
// ATTENTION-LABEL: func.func @attention
// ATTENTION-NOT: gpu.alloc
// ATTENTION: gpu.launch blocks(%[[BX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %c4{{.*}} threads({{.*}}) in (%{{.*}} = %c256{{.*}} workgroup(%{{.*}} : memref<64x64xf32, #gpu.address_space<workgroup>>, %{{.*}} : memref<64x64xf32, #gpu.address_space<workgroup>>, %{{.*}} : memref<64x64xf32, #gpu.address_space<workgroup>>)
// ATTENTION: %[[BATCH:.*]] = arith.divui %[[BX]], %c2
// ATTENTION: memref.subview %{{.*}}[%[[BATCH]], 0, 0] [1, 128, 64] [1, 1, 1]
// ATTENTION-NOT: gpu.alloc
// ATTENTION-NOT: linalg.
// ATTENTION: gpu.terminator
// ATTENTION-NOT: gpu.launch
// ATTENTION-NOT: memref.dealloc
// ATTENTION: return
// CHECK-LABEL: func.func @attention
// CHECK: scf.for
// CHECK: gpu.launch
func.func @attention(%arg0: memref<2x128x64xf32>, %arg1: memref<2x128x64xf32>, %arg2: memref<2x128x64xf32>, %arg3: memref<2x128x64xf32>) {
  %cst = arith.constant 1.250000e-01 : f32
  %cst_0 = arith.constant -8.700000e+01 : f32
  %cst_1 = arith.constant 0xFF800000 : f32
  %cst_2 = arith.constant 0.000000e+00 : f32
  scf.forall (%arg4) in (2) {
    %subview = memref.subview %arg0[%arg4, 0, 0] [1, 128, 64] [1, 1, 1] : memref<2x128x64xf32> to memref<1x128x64xf32, strided<[8192, 64, 1], offset: ?>>
    %subview_3 = memref.subview %arg1[%arg4, 0, 0] [1, 128, 64] [1, 1, 1] : memref<2x128x64xf32> to memref<1x128x64xf32, strided<[8192, 64, 1], offset: ?>>
    %memref = gpu.alloc  () : memref<1x64x128xf32>
    linalg.transpose ins(%subview_3 : memref<1x128x64xf32, strided<[8192, 64, 1], offset: ?>>) outs(%memref : memref<1x64x128xf32>) permutation = [0, 2, 1] 
    %memref_4 = gpu.alloc  () : memref<1x128x128xf32>
    linalg.fill ins(%cst_2 : f32) outs(%memref_4 : memref<1x128x128xf32>)
    linalg.batch_matmul ins(%subview, %memref : memref<1x128x64xf32, strided<[8192, 64, 1], offset: ?>>, memref<1x64x128xf32>) outs(%memref_4 : memref<1x128x128xf32>)
    %memref_5 = gpu.alloc  () : memref<1x128x128xf32>
    linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%memref_4 : memref<1x128x128xf32>) outs(%memref_5 : memref<1x128x128xf32>) {
    ^bb0(%in: f32, %out: f32):
      %0 = arith.mulf %in, %cst : f32
      linalg.yield %0 : f32
    }
    %memref_6 = gpu.alloc  () : memref<1x128xf32>
    linalg.fill ins(%cst_1 : f32) outs(%memref_6 : memref<1x128xf32>)
    linalg.reduce { arith.maxnumf } ins(%memref_5 : memref<1x128x128xf32>) outs(%memref_6 : memref<1x128xf32>) dimensions = [2] 
    %memref_7 = gpu.alloc  () : memref<1x128x128xf32>
    linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%memref_5, %memref_6 : memref<1x128x128xf32>, memref<1x128xf32>) outs(%memref_7 : memref<1x128x128xf32>) {
    ^bb0(%in: f32, %in_12: f32, %out: f32):
      %0 = arith.subf %in, %in_12 : f32
      %1 = arith.cmpf olt, %0, %cst_0 : f32
      %2 = arith.maximumf %0, %cst_0 : f32
      %3 = math.exp %2 : f32
      %4 = arith.select %1, %cst_2, %3 : f32
      linalg.yield %4 : f32
    }
    %memref_8 = gpu.alloc  () : memref<1x128xf32>
    linalg.fill ins(%cst_2 : f32) outs(%memref_8 : memref<1x128xf32>)
    linalg.reduce { arith.addf } ins(%memref_7 : memref<1x128x128xf32>) outs(%memref_8 : memref<1x128xf32>) dimensions = [2] 
    %memref_9 = gpu.alloc  () : memref<1x128x128xf32>
    linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%memref_7, %memref_8 : memref<1x128x128xf32>, memref<1x128xf32>) outs(%memref_9 : memref<1x128x128xf32>) {
    ^bb0(%in: f32, %in_12: f32, %out: f32):
      %0 = arith.divf %in, %in_12 : f32
      linalg.yield %0 : f32
    }
    %subview_10 = memref.subview %arg2[%arg4, 0, 0] [1, 128, 64] [1, 1, 1] : memref<2x128x64xf32> to memref<1x128x64xf32, strided<[8192, 64, 1], offset: ?>>
    %subview_11 = memref.subview %arg3[%arg4, 0, 0] [1, 128, 64] [1, 1, 1] : memref<2x128x64xf32> to memref<1x128x64xf32, strided<[8192, 64, 1], offset: ?>>
    linalg.fill ins(%cst_2 : f32) outs(%subview_11 : memref<1x128x64xf32, strided<[8192, 64, 1], offset: ?>>)
    linalg.batch_matmul ins(%memref_9, %subview_10 : memref<1x128x128xf32>, memref<1x128x64xf32, strided<[8192, 64, 1], offset: ?>>) outs(%subview_11 : memref<1x128x64xf32, strided<[8192, 64, 1], offset: ?>>)
    memref.dealloc %memref : memref<1x64x128xf32>
    memref.dealloc %memref_4 : memref<1x128x128xf32>
    memref.dealloc %memref_5 : memref<1x128x128xf32>
    memref.dealloc %memref_6 : memref<1x128xf32>
    memref.dealloc %memref_7 : memref<1x128x128xf32>
    memref.dealloc %memref_8 : memref<1x128xf32>
    memref.dealloc %memref_9 : memref<1x128x128xf32>
  } {mapping = [#gpu.block<linear_dim_0>]}
  return
}

// -----

// The epilogue reads the tile of C transposed, elements other threads
// compute: no one kernel for the loop (each iteration runs the matmul, then
// the epilogue).
// CHECK-LABEL: func.func @epilogue_reads_tile_transposed
// CHECK: scf.for
// CHECK: scf.for
// CHECK: gpu.launch
// CHECK: gpu.terminator
// CHECK: gpu.launch
// CHECK: arith.addf
// CHECK: return
func.func @epilogue_reads_tile_transposed(%a: memref<256x128xf32>, %b: memref<128x256xf32>, %c: memref<256x256xf32>) {
  %zero = arith.constant 0.0 : f32
  scf.forall (%i, %j) = (0, 0) to (256, 256) step (64, 64) {
    %as = memref.subview %a[%i, 0] [64, 128] [1, 1] : memref<256x128xf32> to memref<64x128xf32, strided<[128, 1], offset: ?>>
    %bs = memref.subview %b[0, %j] [128, 64] [1, 1] : memref<128x256xf32> to memref<128x64xf32, strided<[256, 1], offset: ?>>
    %cs = memref.subview %c[%i, %j] [64, 64] [1, 1] : memref<256x256xf32> to memref<64x64xf32, strided<[256, 1], offset: ?>>
    linalg.fill ins(%zero : f32) outs(%cs : memref<64x64xf32, strided<[256, 1], offset: ?>>)
    linalg.matmul ins(%as, %bs : memref<64x128xf32, strided<[128, 1], offset: ?>>, memref<128x64xf32, strided<[256, 1], offset: ?>>) outs(%cs : memref<64x64xf32, strided<[256, 1], offset: ?>>)
    %again = memref.subview %c[%i, %j] [64, 64] [1, 1] : memref<256x256xf32> to memref<64x64xf32, strided<[256, 1], offset: ?>>
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%cs, %again : memref<64x64xf32, strided<[256, 1], offset: ?>>, memref<64x64xf32, strided<[256, 1], offset: ?>>) outs(%cs : memref<64x64xf32, strided<[256, 1], offset: ?>>) {
    ^bb0(%p: f32, %q: f32, %o: f32):
      %s = arith.addf %p, %q : f32
      linalg.yield %s : f32
    }
  } {mapping = [#gpu.block<linear_dim_1>, #gpu.block<linear_dim_0>]}
  return
}
