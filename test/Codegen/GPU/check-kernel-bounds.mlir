// RUN: google-opt %s --google-check-kernel-bounds -split-input-file | FileCheck %s

// Every access in a kernel gets a check before it: loads as upstream's
// runtime verification checks them, vector loads over all their elements.
// Code outside the launch is left alone.

// CHECK-LABEL: func.func @loads
// CHECK-SAME:    %[[A:[a-z0-9]+]]: memref<?x8xf32>, %[[I:[a-z0-9]+]]: index, %[[J:[a-z0-9]+]]: index
// CHECK:       memref.load %[[A]][%[[J]], %[[I]]]
// CHECK-NEXT:  gpu.launch
// CHECK-SAME:    threads(%[[TX:[a-z0-9]+]],
// CHECK:         %[[ROWS:.*]] = memref.dim %[[A]], %c0
// CHECK:         arith.cmpi slt, %[[I]], %[[ROWS]]
// CHECK:         arith.cmpi slt, %[[J]], %c8
// CHECK:         cf.assert %{{.*}}, "memref.load at loc({{.*}}check-kernel-bounds.mlir{{.*}}): out-of-bounds access"
// CHECK-NEXT:    memref.load %[[A]][%[[I]], %[[J]]]
// CHECK:         %[[END:.*]] = arith.addi %[[TX]], %c4
// CHECK:         arith.cmpi sle, %[[END]], %c8
// CHECK:         cf.assert %{{.*}}, "vector.load at loc({{.*}}): out-of-bounds access"
// CHECK-NEXT:    vector.load %[[A]][%[[I]], %[[TX]]]
func.func @loads(%a: memref<?x8xf32>, %i: index, %j: index) {
  %c1 = arith.constant 1 : index
  %host = memref.load %a[%j, %i] : memref<?x8xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1)
             threads(%tx, %ty, %tz) in (%u = %c1, %v = %c1, %w = %c1) {
    %e = memref.load %a[%i, %j] : memref<?x8xf32>
    %vec = vector.load %a[%i, %tx] : memref<?x8xf32>, vector<4xf32>
    gpu.terminator
  }
  return
}

// -----

// cp.async over the elements it writes and reads (with srcElements, only
// those it reads: none is fine); ldmatrix over its lane's 16 bytes.

// CHECK-LABEL: func.func @tensor_cores
// CHECK-SAME:    %[[A:[a-z0-9]+]]: memref<64x64xf16>, %[[I:[a-z0-9]+]]: index, %[[N:[a-z0-9]+]]: index
// CHECK:         threads(%[[TX:[a-z0-9]+]], %[[TY:[a-z0-9]+]],
// CHECK-SAME:    workgroup(%[[S:[a-z0-9]+]] :
// CHECK:         %[[DST_END:.*]] = arith.addi %[[TX]], %c8
// CHECK:         arith.cmpi sle, %[[DST_END]], %c40
// CHECK:         cf.assert %{{.*}}, "nvgpu.device_async_copy at loc({{.*}}): out-of-bounds access"
// CHECK:         %[[SRC_END:.*]] = arith.addi %[[TX]], %c8
// CHECK:         arith.cmpi sle, %[[SRC_END]], %c64
// CHECK:         cf.assert %{{.*}}, "nvgpu.device_async_copy at loc({{.*}}): out-of-bounds access"
// CHECK-NEXT:    nvgpu.device_async_copy %[[A]][%[[I]], %[[TX]]], %[[S]][%[[TY]], %[[TX]]], 8 :
// CHECK:         cf.assert %{{.*}}, "nvgpu.device_async_copy at loc({{.*}}): out-of-bounds access"
// CHECK:         %[[READ_END:.*]] = arith.addi %[[TX]], %[[N]]
// CHECK:         %[[READ_INSIDE:.*]] = arith.cmpi sle, %[[READ_END]], %c64
// CHECK:         %[[NONE:.*]] = arith.cmpi eq, %[[N]], %c0
// CHECK:         arith.ori %[[NONE]],
// CHECK:         cf.assert %{{.*}}, "nvgpu.device_async_copy at loc({{.*}}): out-of-bounds access"
// CHECK-NEXT:    nvgpu.device_async_copy %[[A]][%[[I]], %[[TX]]], %[[S]][%[[TY]], %[[TX]]], 8, %[[N]] :
// CHECK:         %[[ROW_END:.*]] = arith.addi %[[TX]], %c8
// CHECK:         arith.cmpi sle, %[[ROW_END]], %c40
// CHECK:         cf.assert %{{.*}}, "nvgpu.ldmatrix at loc({{.*}}): out-of-bounds access"
// CHECK-NEXT:    nvgpu.ldmatrix %[[S]][%[[TY]], %[[TX]]]
func.func @tensor_cores(%a: memref<64x64xf16>, %i: index, %n: index) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1)
             threads(%tx, %ty, %tz) in (%u = %c1, %v = %c1, %w = %c1)
             workgroup(%s : memref<32x40xf16, #gpu.address_space<workgroup>>) {
    %t0 = nvgpu.device_async_copy %a[%i, %tx], %s[%ty, %tx], 8
        : memref<64x64xf16> to memref<32x40xf16, #gpu.address_space<workgroup>>
    %t1 = nvgpu.device_async_copy %a[%i, %tx], %s[%ty, %tx], 8, %n
        : memref<64x64xf16> to memref<32x40xf16, #gpu.address_space<workgroup>>
    %r = nvgpu.ldmatrix %s[%ty, %tx] {numTiles = 4 : i32, transpose = false}
        : memref<32x40xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
    gpu.terminator
  }
  return
}

// -----

// A dynamic extent is read with memref.dim, also when nothing else in the
// input loaded the memref dialect (the pass aborted "Building op
// `memref.dim` but it isn't known").
// CHECK-LABEL: func.func @dynamic_source
// CHECK-SAME:    %[[A:[a-z0-9]+]]: memref<?x?xf16>
// CHECK:         memref.dim %[[A]], %c0
// CHECK:         memref.dim %[[A]], %c1
// CHECK:         cf.assert %{{.*}}, "nvgpu.device_async_copy at loc({{.*}}): out-of-bounds access"
// CHECK-NEXT:    nvgpu.device_async_copy
func.func @dynamic_source(%a: memref<?x?xf16>, %i: index, %n: index) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1)
             threads(%tx, %ty, %tz) in (%u = %c1, %v = %c1, %w = %c1)
             workgroup(%s : memref<32x40xf16, #gpu.address_space<workgroup>>) {
    %t = nvgpu.device_async_copy %a[%i, %tx], %s[%ty, %tx], 8, %n
        : memref<?x?xf16> to memref<32x40xf16, #gpu.address_space<workgroup>>
    gpu.terminator
  }
  return
}
