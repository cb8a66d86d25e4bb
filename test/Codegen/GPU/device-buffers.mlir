// RUN: google-opt %s -split-input-file --google-gpu-device-buffers | FileCheck %s

// CHECK-LABEL: func.func @alloc_dynamic
// CHECK-SAME: (%[[N:.*]]: index)
// CHECK: %[[A:.*]] = gpu.alloc (%[[N]]) : memref<?xf32>
// CHECK-NOT: memref.alloc
// CHECK: return %[[A]]
func.func @alloc_dynamic(%n: index) -> memref<?xf32> {
  %a = memref.alloc(%n) : memref<?xf32>
  return %a : memref<?xf32>
}

// -----

// A constant lives in host memory: each use gets a device copy.
memref.global "private" constant @cst : memref<4xf32> = dense<[1.0, 2.0, 3.0, 4.0]>
// CHECK-LABEL: func.func @constant_copied_to_device
// CHECK: %[[HOST:.*]] = memref.get_global @cst : memref<4xf32>
// CHECK: %[[DEVICE:.*]] = gpu.alloc () : memref<4xf32>
// CHECK: gpu.memcpy %[[DEVICE]], %[[HOST]] : memref<4xf32>, memref<4xf32>
// CHECK: return %[[DEVICE]]
func.func @constant_copied_to_device() -> memref<4xf32> {
  %c = memref.get_global @cst : memref<4xf32>
  return %c : memref<4xf32>
}

// -----

// CHECK-LABEL: func.func @contiguous_copy_is_memcpy
// CHECK-SAME: (%[[X:.*]]: memref<2x3xf32>, %[[Y:.*]]: memref<2x3xf32>)
// CHECK: gpu.memcpy %[[Y]], %[[X]] : memref<2x3xf32>, memref<2x3xf32>
// CHECK-NOT: memref.copy
func.func @contiguous_copy_is_memcpy(%x: memref<2x3xf32>, %y: memref<2x3xf32>) {
  memref.copy %x, %y : memref<2x3xf32> to memref<2x3xf32>
  return
}

// -----

// A strided view cannot be copied as one block of bytes: a kernel copies it.
// CHECK-LABEL: func.func @strided_copy_is_linalg_copy
// CHECK: linalg.copy ins(%{{.*}} : memref<2x3xf32, strided<[4, 1]>>) outs(%{{.*}} : memref<2x3xf32>)
// CHECK-NOT: gpu.memcpy
func.func @strided_copy_is_linalg_copy(%x: memref<2x3xf32, strided<[4, 1]>>, %y: memref<2x3xf32>) {
  memref.copy %x, %y : memref<2x3xf32, strided<[4, 1]>> to memref<2x3xf32>
  return
}

// -----

// Device code keeps its own allocations.
// CHECK-LABEL: gpu.module @negative_device_code
// CHECK: memref.alloc()
// CHECK-NOT: gpu.alloc
gpu.module @negative_device_code {
  func.func @helper() {
    %a = memref.alloc() : memref<4xf32>
    return
  }
}

// -----

// A scalar the host reads from a view (a gathered index: an offset into
// another buffer) goes through a device scalar of its own, which a kernel
// fills: the memcpy takes whole buffers (the runtime call would have read
// the view's buffer from its start, and its lowering rejects the layout).
// CHECK-LABEL: func.func @host_read_of_view
// CHECK-SAME: (%[[X:.*]]: memref<4xi32>, %[[I:.*]]: index)
// CHECK: %[[HOST:.*]] = memref.alloca() : memref<i32>
// CHECK: %[[SCALAR:.*]] = gpu.alloc () : memref<i32>
// CHECK: %[[VIEW:.*]] = memref.collapse_shape
// CHECK: linalg.copy ins(%[[VIEW]] : memref<i32, strided<[], offset: ?>>) outs(%[[SCALAR]] : memref<i32>)
// CHECK: gpu.memcpy %[[HOST]], %[[SCALAR]] : memref<i32>, memref<i32>
// CHECK: memref.load %[[HOST]][] : memref<i32>
func.func @host_read_of_view(%x: memref<4xi32>, %i: index) -> i32 {
  %s = memref.subview %x[%i] [1] [1] : memref<4xi32> to memref<1xi32, strided<[1], offset: ?>>
  %v = memref.collapse_shape %s [] : memref<1xi32, strided<[1], offset: ?>> into memref<i32, strided<[], offset: ?>>
  %r = memref.load %v[] : memref<i32, strided<[], offset: ?>>
  return %r : i32
}

// -----

// A scalar the host writes (a tensor.from_elements: a counted loop's
// counter) is filled on the device: a kernel with the scalar as its
// argument, no copy. A store into a larger buffer fills its element.
// CHECK-LABEL: func.func @host_write
// CHECK-SAME: (%[[V:.*]]: i64, %[[I:.*]]: index)
// CHECK: %[[A:.*]] = gpu.alloc () : memref<i64>
// CHECK: linalg.fill ins(%[[V]] : i64) outs(%[[A]] : memref<i64>)
// CHECK: %[[B:.*]] = gpu.alloc () : memref<4xi64>
// CHECK: %[[ELEMENT:.*]] = memref.subview %[[B]][%[[I]]] [1] [1]
// CHECK: linalg.fill ins(%[[V]] : i64) outs(%[[ELEMENT]] : memref<1xi64, strided<[1], offset: ?>>)
// CHECK-NOT: memref.store
func.func @host_write(%v: i64, %i: index) -> (memref<i64>, memref<4xi64>) {
  %a = memref.alloc() : memref<i64>
  memref.store %v, %a[] : memref<i64>
  %b = memref.alloc() : memref<4xi64>
  memref.store %v, %b[%i] : memref<4xi64>
  return %a, %b : memref<i64>, memref<4xi64>
}
