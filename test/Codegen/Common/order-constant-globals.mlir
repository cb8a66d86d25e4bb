// RUN: google-opt %s -split-input-file --google-order-constant-globals | FileCheck %s

// Bufferization's constant globals, in the order of their first use and
// named again in that order (the first of a type without a suffix); the
// unused one last. Other globals and symbols stay as they are.
// CHECK-LABEL: module
// CHECK-NEXT: memref.global "private" constant @__constant_4xf32 : memref<4xf32> = dense<1.000000e+00>
// CHECK-NEXT: memref.global "private" constant @__constant_2xi32 : memref<2xi32> = dense<7>
// CHECK-NEXT: memref.global "private" constant @__constant_4xf32_0 : memref<4xf32> = dense<2.000000e+00>
// CHECK-NEXT: memref.global "private" constant @__constant_4xf32_1 : memref<4xf32> = dense<3.000000e+00>
// CHECK: memref.global "private" @state : memref<4xf32>
// CHECK-LABEL: func.func @f
// CHECK-NEXT: memref.get_global @__constant_4xf32 :
// CHECK-NEXT: memref.get_global @__constant_2xi32 :
// CHECK-NEXT: memref.get_global @state :
// CHECK-LABEL: func.func @g
// CHECK-NEXT: memref.get_global @__constant_4xf32_0 :
// CHECK-NEXT: memref.get_global @__constant_4xf32 :
module {
  memref.global "private" constant @__constant_4xf32_1 : memref<4xf32> = dense<3.0>
  memref.global "private" @state : memref<4xf32> = uninitialized
  memref.global "private" constant @__constant_4xf32_0 : memref<4xf32> = dense<1.0>
  memref.global "private" constant @__constant_4xf32 : memref<4xf32> = dense<2.0>
  memref.global "private" constant @__constant_2xi32 : memref<2xi32> = dense<7>
  func.func @f() -> (memref<4xf32>, memref<2xi32>, memref<4xf32>) {
    %0 = memref.get_global @__constant_4xf32_0 : memref<4xf32>
    %1 = memref.get_global @__constant_2xi32 : memref<2xi32>
    %2 = memref.get_global @state : memref<4xf32>
    return %0, %1, %2 : memref<4xf32>, memref<2xi32>, memref<4xf32>
  }
  func.func @g() -> (memref<4xf32>, memref<4xf32>) {
    %0 = memref.get_global @__constant_4xf32 : memref<4xf32>
    %1 = memref.get_global @__constant_4xf32_0 : memref<4xf32>
    return %0, %1 : memref<4xf32>, memref<4xf32>
  }
}
