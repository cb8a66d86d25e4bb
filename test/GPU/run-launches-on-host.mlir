// The test tool that runs GPU launches on the host (test/lib): a launch
// becomes loops over blocks and threads, GPU buffers host buffers.
// RUN: google-opt %s -split-input-file --google-test-run-launches-on-host -verify-diagnostics | FileCheck %s

// CHECK-LABEL: func.func @launch_as_loops
// CHECK-SAME: (%[[N:.*]]: index, %[[OUT:.*]]: memref<?xf32>)
// CHECK: %[[BUFFER:.*]] = memref.alloc(%[[N]]) : memref<?xf32>
// CHECK: scf.for %[[BZ:.*]] = %{{.*}} to %[[C1:.*]] step
// CHECK: scf.for %[[BY:.*]] = %{{.*}} to %[[C1]] step
// CHECK: scf.for %[[BX:.*]] = %{{.*}} to %[[N]] step
// CHECK: scf.for %[[TZ:.*]] = %{{.*}} to %[[C1]] step
// CHECK: scf.for %[[TY:.*]] = %{{.*}} to %[[C1]] step
// CHECK: scf.for %[[TX:.*]] = %{{.*}} to %[[C1]] step
// CHECK: %[[I:.*]] = arith.addi %[[BX]], %[[TX]] : index
// CHECK: memref.store %{{.*}}, %[[BUFFER]][%[[I]]]
// CHECK: memref.copy %[[BUFFER]], %[[OUT]]
// CHECK: memref.dealloc %[[BUFFER]]
// CHECK-NOT: gpu.
func.func @launch_as_loops(%n: index, %out: memref<?xf32>) {
  %c1 = arith.constant 1 : index
  %f = arith.constant 1.0 : f32
  %buffer = gpu.alloc (%n) : memref<?xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %i = arith.addi %bx, %tx : index
    memref.store %f, %buffer[%i] : memref<?xf32>
    gpu.terminator
  }
  gpu.memcpy %out, %buffer : memref<?xf32>, memref<?xf32>
  gpu.dealloc %buffer : memref<?xf32>
  return
}

// -----

func.func @negative_barrier() {
  %c1 = arith.constant 1 : index
  // expected-error@+1 {{google-test-run-launches-on-host: threads that wait at a barrier cannot run one after another}}
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    gpu.barrier
    gpu.terminator
  }
  return
}
