// RUN: google-opt %s --google-outline-kernels | FileCheck %s

// Each kernel gets the attributes its launch asked for; a launch that asked
// for none gives a kernel without them. A launch_func already there (of an
// earlier outlining) keeps its kernel as it was.
// CHECK-LABEL: gpu.module @before
// CHECK: gpu.func @before() kernel {
// CHECK-LABEL: func.func @f
// CHECK: gpu.launch_func @before::@before
// CHECK-NEXT: gpu.launch_func @f_kernel::@f_kernel
// CHECK-NEXT: gpu.launch_func @f_kernel_0::@f_kernel
// CHECK-NEXT: gpu.launch_func @f_kernel_1::@f_kernel
// CHECK-LABEL: gpu.module @f_kernel
// CHECK: gpu.func @f_kernel({{.*}}) kernel attributes {known_block_size = array<i32: 256, 1, 1>, known_grid_size = array<i32: 1, 1, 1>, nvvm.minctasm = 2 : i32}
// CHECK-LABEL: gpu.module @f_kernel_0
// CHECK: gpu.func @f_kernel({{.*}}) kernel attributes {known_block_size = array<i32: 128, 1, 1>, known_grid_size = array<i32: 1, 1, 1>} {
// CHECK-LABEL: gpu.module @f_kernel_1
// CHECK: gpu.func @f_kernel({{.*}}) kernel attributes {known_block_size = array<i32: 64, 1, 1>, known_grid_size = array<i32: 1, 1, 1>, nvvm.maxnreg = 64 : i32, nvvm.minctasm = 4 : i32}
// CHECK-NOT: google.kernel_attrs
module attributes {gpu.container_module} {
  gpu.module @before {
    gpu.func @before() kernel {
      gpu.return
    }
  }
  func.func @f(%m: memref<256xf32>) {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c256 = arith.constant 256 : index
    gpu.launch_func @before::@before blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1)
               threads(%tx, %ty, %tz) in (%a = %c256, %b = %c1, %c = %c1) {
      %v = memref.load %m[%tx] : memref<256xf32>
      memref.store %v, %m[%tx] : memref<256xf32>
      gpu.terminator
    } {google.kernel_attrs = {nvvm.minctasm = 2 : i32}}
    gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1)
               threads(%tx, %ty, %tz) in (%a = %c128, %b = %c1, %c = %c1) {
      %v = memref.load %m[%tx] : memref<256xf32>
      memref.store %v, %m[%tx] : memref<256xf32>
      gpu.terminator
    }
    gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1)
               threads(%tx, %ty, %tz) in (%a = %c64, %b = %c1, %c = %c1) {
      %v = memref.load %m[%tx] : memref<256xf32>
      memref.store %v, %m[%tx] : memref<256xf32>
      gpu.terminator
    } {google.kernel_attrs = {nvvm.minctasm = 4 : i32, nvvm.maxnreg = 64 : i32}}
    return
  }
}
