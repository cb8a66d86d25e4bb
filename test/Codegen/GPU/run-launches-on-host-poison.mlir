// The host emulation of GPU launches fills a block's shared memory with
// all-ones bits (NaN, -1) as the block starts: a kernel reading shared
// memory it did not write sees poison, not what the block before it left
// there (on a GPU, whatever another block or kernel left).
// RUN: google-opt %s --google-test-run-launches-on-host | FileCheck %s
// RUN: google-opt %s --google-test-run-launches-on-host --convert-linalg-to-loops --expand-strided-metadata --lower-affine --convert-scf-to-cf --convert-cf-to-llvm --finalize-memref-to-llvm --convert-vector-to-llvm --convert-arith-to-llvm --convert-index-to-llvm --convert-func-to-llvm --reconcile-unrealized-casts > %t.mlir
// RUN: mlir-runner %t.mlir -e main -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils | FileCheck %s --check-prefix=OUT

// Per block, before its threads run: each workgroup buffer, collapsed to
// one dimension, is filled.
// CHECK-LABEL: func.func @stale
// CHECK: %[[NAN:.*]] = arith.constant 0xFFFFFFFF : f32
// CHECK: %[[FLAT:.*]] = memref.collapse_shape %{{.*}} {{\[\[}}0, 1]] : memref<2x2xf32> into memref<4xf32>
// CHECK: scf.for %[[I:.*]] =
// CHECK-NEXT: memref.store %[[NAN]], %[[FLAT]][%[[I]]]
// CHECK: %[[ONES:.*]] = arith.constant -1 : i32
// CHECK: scf.for %[[J:.*]] =
// CHECK-NEXT: memref.store %[[ONES]], %{{.*}}[%[[J]]] : memref<3xi32>
// Block 0 writes shared element 0; every block reads it and stores it
// (block 1's is the poison), and the integer buffer's element, never
// written.
func.func @stale(%out: memref<2xf32>, %ints: memref<2xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %one = arith.constant 1.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) workgroup(%shared : memref<2x2xf32, #gpu.address_space<workgroup>>, %counts : memref<3xi32, #gpu.address_space<workgroup>>) {
    %first = arith.cmpi eq, %bx, %c0 : index
    scf.if %first {
      memref.store %one, %shared[%c0, %c0] : memref<2x2xf32, #gpu.address_space<workgroup>>
    }
    %v = memref.load %shared[%c0, %c0] : memref<2x2xf32, #gpu.address_space<workgroup>>
    memref.store %v, %out[%bx] : memref<2xf32>
    %n = memref.load %counts[%c2] : memref<3xi32, #gpu.address_space<workgroup>>
    memref.store %n, %ints[%bx] : memref<2xi32>
    gpu.terminator
  }
  return
}

func.func @main() {
  %out = memref.alloc() : memref<2xf32>
  %ints = memref.alloc() : memref<2xi32>
  call @stale(%out, %ints) : (memref<2xf32>, memref<2xi32>) -> ()
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %first = memref.load %out[%c0] : memref<2xf32>
  %second = memref.load %out[%c1] : memref<2xf32>
  %n = memref.load %ints[%c1] : memref<2xi32>
  // OUT: 1
  // OUT-NEXT: nan
  // OUT-NEXT: -1
  vector.print %first : f32
  vector.print %second : f32
  vector.print %n : i32
  memref.dealloc %out : memref<2xf32>
  memref.dealloc %ints : memref<2xi32>
  return
}
