// RUN: google-opt %s -split-input-file --google-gpu-merge-launches | FileCheck %s
// RUN: google-opt %s -split-input-file --google-gpu-merge-launches=max-blocks=8 | FileCheck %s --check-prefix=SMALL

// Independent kernels (their grids folded from the mapping's arithmetic),
// an allocation between two: one launch where the last was, 16 + 8 + 8
// blocks. The second joins the first (blocks 16 to 23 run it, their id less
// 16), the third the merged launch (blocks 24 to 31); the first keeps its
// barrier and shared buffer.
// CHECK-LABEL: func.func @independent
// CHECK-SAME: (%[[A:.*]]: memref<4096xf32>, %[[B:.*]]: memref<2048xf32>, %[[C:.*]]: memref<2048xf32>)
// CHECK: memref.alloc
// CHECK: %[[C32:.*]] = arith.constant 32 : index
// CHECK: gpu.launch blocks(%[[BX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %[[C32]], %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) threads(%[[TX:[^,]*]], %{{.*}}, %{{.*}}) in (%[[SX:[^ ]*]] = %{{.*}}, {{.*}} workgroup(%[[SHARED:.*]] : memref<256xf32, #gpu.address_space<workgroup>>)
// CHECK: %[[C24:.*]] = arith.constant 24 : index
// CHECK: %[[FIRST_TWO:.*]] = arith.cmpi ult, %[[BX]], %[[C24]]
// CHECK: scf.if %[[FIRST_TWO]] {
// CHECK: %[[C16:.*]] = arith.constant 16 : index
// CHECK: %[[FIRST:.*]] = arith.cmpi ult, %[[BX]], %[[C16]]
// CHECK: scf.if %[[FIRST]] {
// CHECK-NEXT: memref.store %{{.*}}, %[[SHARED]][%[[TX]]]
// CHECK-NEXT: gpu.barrier
// CHECK: arith.muli %[[BX]], %[[SX]]
// CHECK: memref.store %{{.*}}, %[[A]]
// CHECK: } else {
// CHECK: %[[SECOND:.*]] = arith.subi %[[BX]], %{{.*}}
// CHECK: arith.muli %[[SECOND]], %[[SX]]
// CHECK: memref.store %{{.*}}, %[[B]]
// CHECK: } else {
// CHECK: %[[THIRD:.*]] = arith.subi %[[BX]], %{{.*}}
// CHECK: arith.muli %[[THIRD]], %[[SX]]
// CHECK: memref.store %{{.*}}, %[[C]]
// CHECK-NOT: gpu.launch
// CHECK: return

// SMALL-LABEL: func.func @independent
// SMALL-COUNT-2: gpu.launch
// SMALL-NOT: gpu.launch
func.func @independent(%a: memref<4096xf32>, %b: memref<2048xf32>, %c: memref<2048xf32>) {
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c256 = arith.constant 256 : index
  %c4096 = arith.constant 4096 : index
  %f = arith.constant 1.0 : f32
  %g = arith.constant 2.0 : f32
  %blocks = arith.ceildivsi %c4096, %c256 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %blocks, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) workgroup(%shared : memref<256xf32, #gpu.address_space<workgroup>>) {
    memref.store %f, %shared[%tx] : memref<256xf32, #gpu.address_space<workgroup>>
    gpu.barrier
    %v = memref.load %shared[%tx] : memref<256xf32, #gpu.address_space<workgroup>>
    %base = arith.muli %bx, %sx : index
    %i = arith.addi %base, %tx : index
    memref.store %v, %a[%i] : memref<4096xf32>
    gpu.terminator
  }
  %scratch = memref.alloc() : memref<16xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c8, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
    %base = arith.muli %bx, %sx : index
    %i = arith.addi %base, %tx : index
    memref.store %g, %b[%i] : memref<2048xf32>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c8, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
    %base = arith.muli %bx, %sx : index
    %i = arith.addi %base, %tx : index
    memref.store %g, %c[%i] : memref<2048xf32>
    gpu.terminator
  }
  memref.dealloc %scratch : memref<16xf32>
  return
}

// -----

// A 2-D grid: a member's block ids come from its range of the 1-D grid.
// CHECK-LABEL: func.func @two_dimensional
// SMALL-LABEL: func.func @two_dimensional
// CHECK: %[[C12:.*]] = arith.constant 12 : index
// CHECK: gpu.launch blocks(%[[BX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %[[C12]],
// CHECK: } else {
// CHECK: %[[LOCAL:.*]] = arith.subi %[[BX]], %{{.*}}
// CHECK: %[[C2:.*]] = arith.constant 2 : index
// CHECK: %[[REST:.*]] = arith.divui %[[LOCAL]], %[[C2]] : index
// CHECK: %[[X:.*]] = arith.remui %[[LOCAL]], %[[C2]] : index
// CHECK: %[[Y:.*]] = arith.remui %[[REST]], %{{.*}} : index
// CHECK: memref.store %{{.*}}, %{{.*}}[%[[Y]], %[[X]]]
func.func @two_dimensional(%a: memref<4xf32>, %b: memref<4x2xf32>) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %f = arith.constant 1.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c4, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    memref.store %f, %a[%bx] : memref<4xf32>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c4, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    memref.store %f, %b[%by, %bx] : memref<4x2xf32>
    gpu.terminator
  }
  return
}

// -----

// Blocks of as many threads in other shapes (32 x 8, 256): the merged
// block is 1-D, the 2-D member's thread ids taken from the linear one.
// CHECK-LABEL: func.func @thread_shapes
// CHECK: arith.constant 1.000000e+00 : f32
// CHECK: %[[C256:.*]] = arith.constant 256 : index
// CHECK-NEXT: %[[ONE_Y:.*]] = arith.constant 1 : index
// CHECK-NEXT: %[[ONE_Z:.*]] = arith.constant 1 : index
// CHECK: gpu.launch blocks({{.*}}) threads(%[[T:[^,]*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %[[C256]], %{{.*}} = %[[ONE_Y]], %{{.*}} = %[[ONE_Z]])
// CHECK: scf.if
// CHECK: %[[C32:.*]] = arith.constant 32 : index
// CHECK: %[[X:.*]] = arith.remui %[[T]], %[[C32]] : index
// CHECK: %[[Y0:.*]] = arith.divui %[[T]], %[[C32]] : index
// CHECK: %[[Y:.*]] = arith.remui %[[Y0]], %{{.*}} : index
// CHECK: memref.store %{{.*}}, %{{.*}}[%[[Y]], %[[X]]] : memref<8x32xf32>
// CHECK: } else {
// CHECK: memref.store %{{.*}}, %{{.*}}[%[[T]]] : memref<256xf32>
func.func @thread_shapes(%a: memref<8x32xf32>, %b: memref<256xf32>) {
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %c256 = arith.constant 256 : index
  %f = arith.constant 1.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c8, %sz = %c1) {
    memref.store %f, %a[%ty, %tx] : memref<8x32xf32>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
    memref.store %f, %b[%tx] : memref<256xf32>
    gpu.terminator
  }
  return
}

// -----

// A launch moves down past an independent one it cannot join (128 threads)
// to meet a partner; not past one that reads what it writes.
// CHECK-LABEL: func.func @moved_down
// CHECK: gpu.launch {{.*}} threads({{.*}}) in (%{{.*}} = %c128
// CHECK: memref.store %{{.*}}, %arg2
// CHECK: gpu.launch
// CHECK: scf.if
// CHECK: memref.store %{{.*}}, %arg0
// CHECK: } else {
// CHECK: memref.store %{{.*}}, %arg1
// CHECK: }
// CHECK-NOT: gpu.launch
// CHECK: return
func.func @moved_down(%a: memref<256xf32>, %b: memref<256xf32>, %c: memref<128xf32>) {
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  %f = arith.constant 1.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
    memref.store %f, %a[%tx] : memref<256xf32>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1) {
    memref.store %f, %c[%tx] : memref<128xf32>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
    memref.store %f, %b[%tx] : memref<256xf32>
    gpu.terminator
  }
  return
}

// CHECK-LABEL: func.func @not_moved_down
// CHECK-COUNT-3: gpu.launch
func.func @not_moved_down(%a: memref<256xf32>, %b: memref<256xf32>, %c: memref<128xf32>) {
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  %f = arith.constant 1.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
    memref.store %f, %a[%tx] : memref<256xf32>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1) {
    %v = memref.load %a[%tx] : memref<256xf32>
    memref.store %v, %c[%tx] : memref<128xf32>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
    memref.store %f, %b[%tx] : memref<256xf32>
    gpu.terminator
  }
  return
}

// -----

// Kept apart: a kernel reading what the one before writes; blocks of
// another shape; a copy between them; a dynamic grid.
// CHECK-LABEL: func.func @kept_apart
// CHECK-COUNT-5: gpu.launch
func.func @kept_apart(%a: memref<256xf32>, %b: memref<256xf32>, %c: memref<256xf32>, %n: index) {
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  %f = arith.constant 1.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
    memref.store %f, %a[%tx] : memref<256xf32>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
    %v = memref.load %a[%tx] : memref<256xf32>
    memref.store %v, %b[%tx] : memref<256xf32>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1) {
    memref.store %f, %c[%tx] : memref<256xf32>
    gpu.terminator
  }
  memref.copy %a, %b : memref<256xf32> to memref<256xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1) {
    memref.store %f, %c[%tx] : memref<256xf32>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1) {
    memref.store %f, %a[%tx] : memref<256xf32>
    gpu.terminator
  }
  return
}
