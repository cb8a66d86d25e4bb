// RUN: google-opt %s -split-input-file --google-map-to-gpu=warp-shuffles=1 | FileCheck %s
// RUN: google-opt %s -split-input-file --google-map-to-gpu | FileCheck %s --check-prefix=SHARED

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
