// RUN: google-opt %s --pass-pipeline="builtin.module(gpu.module(google-lower-kernel-asserts))" | FileCheck %s

// A failed check in a kernel prints its message (a '%' in it printed as
// itself) and traps; a passed one goes on. So does one in a device
// function.

// CHECK-LABEL: gpu.func @kernel
// CHECK-SAME:    %[[OK:[a-z0-9]+]]: i1
// CHECK:         cf.cond_br %[[OK]], ^[[CONTINUE:bb[0-9]+]], ^[[FAIL:bb[0-9]+]]
// CHECK:       ^[[FAIL]]:
// CHECK-NEXT:    gpu.printf "google-mlir: run-time check failed: memref.load at loc(x): 100%% out-of-bounds access\0A"
// CHECK-NEXT:    llvm.intr.trap
// CHECK-NEXT:    cf.br ^[[CONTINUE]]
// CHECK:       ^[[CONTINUE]]:
// CHECK-NEXT:    memref.load
// CHECK-LABEL: func.func @device_function
// CHECK-NOT:     cf.assert
// CHECK:         gpu.printf "google-mlir: run-time check failed: in a device function\0A"
gpu.module @kernels {
  gpu.func @kernel(%ok: i1, %m: memref<4xf32>, %i: index) kernel {
    cf.assert %ok, "memref.load at loc(x): 100% out-of-bounds access"
    %v = memref.load %m[%i] : memref<4xf32>
    gpu.return
  }
  func.func @device_function(%ok: i1) {
    cf.assert %ok, "in a device function"
    return
  }
}
