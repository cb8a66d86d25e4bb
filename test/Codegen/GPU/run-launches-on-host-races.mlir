// The host emulation of GPU launches checks global memory for races: a
// thread that reads an element another thread wrote, or writes one
// another thread read or wrote, fails the run, unless both are of one
// block with a barrier between (blocks, and a block's threads between
// barriers, run one after another on the host, so the values alone need
// not show it).
// RUN: google-opt %s --google-test-run-launches-on-host=global-races=true | FileCheck %s
// RUN: google-opt %s --google-test-run-launches-on-host | FileCheck %s --check-prefix=OFF
// RUN: google-opt %s --google-test-run-launches-on-host=global-races=true --convert-linalg-to-loops --expand-strided-metadata --lower-affine --convert-scf-to-cf --convert-cf-to-llvm --finalize-memref-to-llvm --convert-arith-to-llvm --convert-index-to-llvm --convert-vector-to-llvm --convert-func-to-llvm --reconcile-unrealized-casts > %t.mlir
// RUN: mlir-runner %t.mlir -e own_elements -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils | FileCheck %s --check-prefix=OWN
// RUN: not --crash mlir-runner %t.mlir -e reads_next_block -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils
// RUN: not --crash mlir-runner %t.mlir -e writes_read_element -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils
// RUN: not --crash mlir-runner %t.mlir -e reads_neighbour -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils
// RUN: mlir-runner %t.mlir -e reads_neighbour_after_barrier -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils | FileCheck %s --check-prefix=BARRIER

// OFF-NOT: global-memory race

// Each thread reads the element after its own (clamped to the last); the
// last thread of block 0 reads block 1's first element, which block 1
// then overwrites: a write after another block's read.
// CHECK-LABEL: func.func @shift
// CHECK: scf.for
// CHECK: cf.assert %{{.*}}, "google-test-run-launches-on-host: global-memory race: thread {1} reads an element thread {0} wrote in another block or since the last barrier"
// CHECK: memref.load
// CHECK: cf.assert %{{.*}}, "google-test-run-launches-on-host: global-memory race: thread {1} overwrites an element thread {0} wrote in another block or since the last barrier"
// CHECK: cf.assert %{{.*}}, "google-test-run-launches-on-host: global-memory race: thread {1} overwrites an element thread {0} read in another block or since the last barrier (-2: several threads)"
// CHECK: memref.store
func.func @shift(%x: memref<8xf32>, %next: index) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c7 = arith.constant 7 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    %first = arith.muli %bx, %c4 : index
    %i = arith.addi %first, %tx : index
    %j = arith.addi %i, %next : index
    %k = arith.minui %j, %c7 : index
    %v = memref.load %x[%k] : memref<8xf32>
    memref.store %v, %x[%i] : memref<8xf32>
    gpu.terminator
  }
  return
}

// Block 1 reads what block 0 wrote to the output.
func.func @copy_then_read(%x: memref<8xf32>, %y: memref<8xf32>) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    %first = arith.muli %bx, %c4 : index
    %i = arith.addi %first, %tx : index
    %v = memref.load %x[%i] : memref<8xf32>
    memref.store %v, %y[%i] : memref<8xf32>
    %w = memref.load %y[%tx] : memref<8xf32>
    gpu.terminator
  }
  return
}

// Each thread writes its element, then reads its neighbour's (which a
// thread before it wrote): without a barrier between, a race.
func.func @neighbours(%x: memref<8xf32>, %y: memref<8xf32>, %barriers: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c7 = arith.constant 7 : index
  %c8 = arith.constant 8 : index
  %one = arith.constant 1.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c1, %sz = %c1) {
    memref.store %one, %x[%tx] : memref<8xf32>
    scf.for %i = %c0 to %barriers step %c1 {
      gpu.barrier
    }
    %previous = arith.addi %tx, %c7 : index
    %neighbour = arith.remui %previous, %c8 : index
    %v = memref.load %x[%neighbour] : memref<8xf32>
    memref.store %v, %y[%tx] : memref<8xf32>
    gpu.terminator
  }
  return
}

// Workgroup memory, a thread's own buffer and atomics are not checked
// here.
// CHECK-LABEL: func.func @unchecked
// CHECK-NOT: global-memory race
// CHECK: return
func.func @unchecked(%x: memref<8xf32>) {
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c0 = arith.constant 0 : index
  %one = arith.constant 1.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c8, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) workgroup(%shared : memref<1xf32, #gpu.address_space<workgroup>>) {
    memref.store %one, %shared[%c0] : memref<1xf32, #gpu.address_space<workgroup>>
    %own = memref.alloca() : memref<1xf32>
    memref.store %one, %own[%c0] : memref<1xf32>
    %old = memref.atomic_rmw addf %one, %x[%c0] : (f32, memref<8xf32>) -> f32
    gpu.terminator
  }
  return
}

func.func @own_elements() {
  %x = memref.alloc() : memref<8xf32>
  %c0 = arith.constant 0 : index
  %f = arith.constant 2.5 : f32
  linalg.fill ins(%f : f32) outs(%x : memref<8xf32>)
  call @shift(%x, %c0) : (memref<8xf32>, index) -> ()
  %v = memref.load %x[%c0] : memref<8xf32>
  // OWN: 2.5
  vector.print %v : f32
  memref.dealloc %x : memref<8xf32>
  return
}

func.func @reads_next_block() {
  %x = memref.alloc() : memref<8xf32>
  %y = memref.alloc() : memref<8xf32>
  call @copy_then_read(%x, %y) : (memref<8xf32>, memref<8xf32>) -> ()
  memref.dealloc %x : memref<8xf32>
  memref.dealloc %y : memref<8xf32>
  return
}

func.func @writes_read_element() {
  %x = memref.alloc() : memref<8xf32>
  %c1 = arith.constant 1 : index
  call @shift(%x, %c1) : (memref<8xf32>, index) -> ()
  memref.dealloc %x : memref<8xf32>
  return
}

func.func @reads_neighbour() {
  %x = memref.alloc() : memref<8xf32>
  %y = memref.alloc() : memref<8xf32>
  %none = arith.constant 0 : index
  call @neighbours(%x, %y, %none) : (memref<8xf32>, memref<8xf32>, index) -> ()
  memref.dealloc %x : memref<8xf32>
  memref.dealloc %y : memref<8xf32>
  return
}

func.func @reads_neighbour_after_barrier() {
  %x = memref.alloc() : memref<8xf32>
  %y = memref.alloc() : memref<8xf32>
  %one = arith.constant 1 : index
  call @neighbours(%x, %y, %one) : (memref<8xf32>, memref<8xf32>, index) -> ()
  %c0 = arith.constant 0 : index
  %v = memref.load %y[%c0] : memref<8xf32>
  // BARRIER: 1
  vector.print %v : f32
  memref.dealloc %x : memref<8xf32>
  memref.dealloc %y : memref<8xf32>
  return
}
