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

// Barriers split the block's threads into phases: every thread runs a phase
// before any runs the next. Shared memory is one host buffer, poisoned as
// each block starts; a value used after a barrier is kept per thread.
// CHECK-LABEL: func.func @barrier_phases
// CHECK: %[[SHARED:.*]] = memref.alloc() : memref<32xf32>
// CHECK: %[[KEPT:.*]] = memref.alloc(%{{.*}}) : memref<?xindex>
// CHECK: scf.for
// CHECK: scf.for
// CHECK: scf.for %[[BX:.*]] = %{{.*}} to
// CHECK: scf.for %[[P:.*]] = %{{.*}} to
// CHECK-NEXT: memref.store %{{.*}}, %[[SHARED]][%[[P]]]
// CHECK: scf.for
// CHECK: scf.for
// CHECK: scf.for %[[TX:.*]] = %{{.*}} to
// CHECK: %[[T:.*]] = arith.addi %{{.*}}, %[[TX]] : index
// CHECK: memref.store %{{.*}}, %[[SHARED]][%[[TX]]]
// CHECK: memref.store %{{.*}}, %[[KEPT]][%[[T]]]
// CHECK: }
// CHECK: }
// CHECK: }
// CHECK: scf.for
// CHECK: scf.for
// CHECK: scf.for %[[TX2:.*]] = %{{.*}} to
// CHECK: %[[T2:.*]] = arith.addi %{{.*}}, %[[TX2]] : index
// CHECK: %[[I:.*]] = memref.load %[[KEPT]][%[[T2]]]
// CHECK: memref.load %[[SHARED]]
// CHECK: memref.store %{{.*}}, %{{.*}}[%[[I]]] : memref<64xf32>
// CHECK: memref.dealloc %[[SHARED]]
// CHECK: memref.dealloc %[[KEPT]]
// CHECK-NOT: gpu.
func.func @barrier_phases(%in: memref<64xf32>, %out: memref<64xf32>) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c31 = arith.constant 31 : index
  %c32 = arith.constant 32 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) workgroup(%shared : memref<32xf32, #gpu.address_space<workgroup>>) {
    %base = arith.muli %bx, %c32 : index
    %i = arith.addi %base, %tx : index
    %v = memref.load %in[%i] : memref<64xf32>
    memref.store %v, %shared[%tx] : memref<32xf32, #gpu.address_space<workgroup>>
    gpu.barrier
    %r = arith.subi %c31, %tx : index
    %w = memref.load %shared[%r] : memref<32xf32, #gpu.address_space<workgroup>>
    memref.store %w, %out[%i] : memref<64xf32>
    gpu.terminator
  }
  return
}

// -----

// A loop holding a barrier runs once for the block, with its phases inside;
// its iteration arguments are kept per thread.
// CHECK-LABEL: func.func @barrier_in_loop
// CHECK: %[[ACC:.*]] = memref.alloc(%{{.*}}) : memref<?xf32>
// CHECK: scf.for %[[TX:.*]] = %{{.*}} to
// CHECK: memref.store %{{.*}}, %[[ACC]]
// CHECK: scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NOT: iter_args
// CHECK: scf.for
// CHECK: scf.for
// CHECK: scf.for
// CHECK: memref.store
// CHECK: scf.for
// CHECK: scf.for
// CHECK: scf.for
// CHECK: memref.load %[[ACC]]
// CHECK: memref.store %{{.*}}, %[[ACC]]
func.func @barrier_in_loop(%in: memref<8x4xf32>, %out: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant 0.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) workgroup(%shared : memref<4xf32, #gpu.address_space<workgroup>>) {
    %sum = scf.for %k = %c0 to %c8 step %c1 iter_args(%acc = %zero) -> (f32) {
      %v = memref.load %in[%k, %tx] : memref<8x4xf32>
      memref.store %v, %shared[%tx] : memref<4xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %w = memref.load %shared[%c0] : memref<4xf32, #gpu.address_space<workgroup>>
      %next = arith.addf %acc, %w : f32
      gpu.barrier
      scf.yield %next : f32
    }
    memref.store %sum, %out[%tx] : memref<4xf32>
    gpu.terminator
  }
  return
}

// -----

// Without a barrier at the end of the body, a thread may run the ops after
// the last barrier and the next iteration's ops before the first one in a
// row: the loop is rotated so that they form one phase (here, thread 0
// overwrites shared memory before the others read it: the result is wrong,
// as it may be on a GPU).
// CHECK-LABEL: func.func @barrier_loop_rotated
// CHECK: %[[SHARED:.*]] = memref.alloc() : memref<4xf32>
// CHECK: %[[ACC:.*]] = memref.alloc(%{{.*}}) : memref<?xf32>
// CHECK: scf.if
// CHECK: memref.store %{{.*}}, %[[SHARED]]
// CHECK: scf.for %[[K:.*]] = %{{.*}} to %[[UB:.*]] step %[[STEP:[^ ]*]]
// CHECK-NOT: gpu.barrier
// CHECK: memref.load %[[SHARED]]
// CHECK: arith.addf
// CHECK: memref.store %{{.*}}, %[[ACC]]
// CHECK: %[[NEXT:.*]] = arith.addi %[[K]], %[[STEP]]
// CHECK: %[[MORE:.*]] = arith.cmpi slt, %[[NEXT]], %[[UB]]
// CHECK: scf.if %[[MORE]]
// CHECK: memref.load %{{.*}}[%[[NEXT]], %{{.*}}] : memref<8x4xf32>
// CHECK: memref.store %{{.*}}, %[[SHARED]]
func.func @barrier_loop_rotated(%in: memref<8x4xf32>, %out: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant 0.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) workgroup(%shared : memref<4xf32, #gpu.address_space<workgroup>>) {
    %sum = scf.for %k = %c0 to %c8 step %c1 iter_args(%acc = %zero) -> (f32) {
      %v = memref.load %in[%k, %tx] : memref<8x4xf32>
      memref.store %v, %shared[%tx] : memref<4xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %w = memref.load %shared[%c0] : memref<4xf32, #gpu.address_space<workgroup>>
      %next = arith.addf %acc, %w : f32
      scf.yield %next : f32
    }
    memref.store %sum, %out[%tx] : memref<4xf32>
    gpu.terminator
  }
  return
}

// -----

// A branch holding barriers (a merged launch's choice of member: uniform
// across the block) runs once for the block, on the block's condition
// (here computed once per block; thread 0's where the threads compute
// it), its phases inside.
// CHECK-LABEL: func.func @barrier_in_branch
// CHECK: %[[SHARED:.*]] = memref.alloc() : memref<4xf32>
// CHECK: scf.for
// CHECK: scf.for
// CHECK: scf.for %[[BX:[^ ]*]] = %{{.*}} to
// CHECK: %[[FIRST:.*]] = arith.cmpi ult, %[[BX]]
// CHECK-NOT: scf.for
// CHECK: scf.if %[[FIRST]] {
// CHECK: scf.for
// CHECK: memref.store %{{.*}}, %[[SHARED]]
// CHECK: scf.for
// CHECK: memref.load %[[SHARED]]
// CHECK: } else {
// CHECK: scf.for
// CHECK: memref.store
func.func @barrier_in_branch(%in: memref<8xf32>, %out: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) workgroup(%shared : memref<4xf32, #gpu.address_space<workgroup>>) {
    %first = arith.cmpi ult, %bx, %c1 : index
    scf.if %first {
      %v = memref.load %in[%tx] : memref<8xf32>
      memref.store %v, %shared[%tx] : memref<4xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %w = memref.load %shared[%c0] : memref<4xf32, #gpu.address_space<workgroup>>
      memref.store %w, %out[%tx] : memref<8xf32>
    } else {
      %i = arith.addi %tx, %c4 : index
      %v = memref.load %in[%i] : memref<8xf32>
      memref.store %v, %out[%i] : memref<8xf32>
    }
    gpu.terminator
  }
  return
}

// -----

func.func @negative_barrier_in_branch_with_results(%flag: i1) {
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    // expected-error@+1 {{google-test-run-launches-on-host: a branch holding barriers cannot yield values}}
    %r = scf.if %flag -> (index) {
      gpu.barrier
      scf.yield %c1 : index
    } else {
      scf.yield %c0 : index
    }
    gpu.terminator
  }
  return
}

// -----

func.func @negative_barrier_in_while(%flag: i1) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    // expected-error@+1 {{google-test-run-launches-on-host: a barrier inside this op cannot run on the host (only scf.for loops and scf.if without results may hold barriers)}}
    scf.while : () -> () {
      gpu.barrier
      scf.condition(%flag)
    } do {
      scf.yield
    }
    gpu.terminator
  }
  return
}

// -----

// A launch with warp-wide ops (emulated: their exchange orders the whole
// block on the host, so it would hide a missing barrier of the kernel's)
// checks its shared buffers for races: each thread's access compares the
// element's last writer, and the barriers since, with itself (a run-time
// check); a store records the writer, a load the reader (a store after
// another thread's load since the last barrier is a race too). The
// emulation's own exchange slots are not checked, nor are launches
// without warp-wide ops.
// CHECK-LABEL: func.func @race_checked
// CHECK: %[[EPOCHS:.*]] = memref.alloc() : memref<2xindex>
// CHECK: %[[SHARED:.*]] = memref.alloc() : memref<32x8xf16>
// CHECK: %[[WRITERS:.*]] = memref.alloc() : memref<256xindex>
// CHECK-COUNT-2: memref.alloc() : memref<256xindex>
// CHECK: %[[READERS:.*]] = memref.alloc() : memref<256xindex>
// CHECK-COUNT-2: memref.alloc() : memref<256xindex>
// CHECK: %[[READ_EPOCHS:.*]] = memref.alloc() : memref<256xindex>
// CHECK: memref.alloc() : memref<256xindex>
// CHECK-NOT: memref<256xindex>
// CHECK: scf.for %[[BX:.*]] = %{{.*}} to
// CHECK: memref.store %c0{{.*}}, %[[EPOCHS]]
// CHECK: memref.store %c-1{{.*}}, %[[WRITERS]]
// CHECK: memref.store %c-1{{.*}}, %[[READ_EPOCHS]]
// CHECK-COUNT-8: cf.assert %{{.*}}, "google-test-run-launches-on-host: shared-memory race: thread {1} overwrites an element thread {0} wrote since the last barrier"
// CHECK: cf.assert %{{.*}}, "google-test-run-launches-on-host: shared-memory race: thread {1} overwrites an element thread {0} read since the last barrier (-2: threads before it)"
// CHECK: vector.store %{{.*}}, %[[SHARED]]
// CHECK: cf.assert %{{.*}}, "google-test-run-launches-on-host: shared-memory race: thread {1} reads an element thread {0} wrote since the last barrier"
// CHECK: memref.load %[[SHARED]]
// CHECK-LABEL: func.func @not_race_checked
// CHECK-NOT: shared-memory race
func.func @race_checked(%in: memref<32x8xf16>, %out: memref<32x8xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) workgroup(%shared : memref<32x8xf16, #gpu.address_space<workgroup>>) {
    %row = vector.load %in[%tx, %c0] : memref<32x8xf16>, vector<8xf16>
    vector.store %row, %shared[%tx, %c0] : memref<32x8xf16, #gpu.address_space<workgroup>>, vector<8xf16>
    gpu.barrier
    %m = nvgpu.ldmatrix %shared[%tx, %c0] {numTiles = 4 : i32, transpose = false} : memref<32x8xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
    %e = vector.extract %m[0, 0] : f16 from vector<4x2xf16>
    memref.store %e, %out[%tx, %c0] : memref<32x8xf16>
    gpu.terminator
  }
  return
}
func.func @not_race_checked(%out: memref<32xf32>) {
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %f = arith.constant 1.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) workgroup(%shared : memref<32xf32, #gpu.address_space<workgroup>>) {
    memref.store %f, %shared[%tx] : memref<32xf32, #gpu.address_space<workgroup>>
    gpu.barrier
    %v = memref.load %shared[%tx] : memref<32xf32, #gpu.address_space<workgroup>>
    memref.store %v, %out[%tx] : memref<32xf32>
    gpu.terminator
  }
  return
}

// -----

// Every access of a kernel is bounds-checked: memref ops by their runtime
// verification, vector loads and stores over all their elements (here
// the columns x..x+3 of 8: x + 4 <= 8), nvgpu.ldmatrix over its lane's
// row of 16 bytes.
// CHECK-LABEL: func.func @bounds_checked
// CHECK: %[[END:.*]] = arith.addi %[[X:.*]], %c4
// CHECK: %[[LOW:.*]] = arith.cmpi sge, %[[X]], %c0
// CHECK: %[[HIGH:.*]] = arith.cmpi sle, %[[END]], %c8
// CHECK: %[[IN:.*]] = arith.andi %[[LOW]], %[[HIGH]]
// What the block's threads agree on runs once per block, before them.
// CHECK: arith.addi %{{.*}}, %c8
// CHECK: scf.for
// CHECK: cf.assert %[[IN]], "vector.load at {{.*}}: out-of-bounds access"
// CHECK: vector.load
// CHECK: cf.assert %{{.*}}, "nvgpu.ldmatrix at {{.*}}: out-of-bounds access"
// CHECK: cf.assert %{{.*}}, "memref.store at {{.*}}: out-of-bounds access"
// CHECK: memref.store
func.func @bounds_checked(%in: memref<8xf32>, %out: memref<32xf16>, %x: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) workgroup(%shared : memref<32x8xf16, #gpu.address_space<workgroup>>) {
    %v = vector.load %in[%x] : memref<8xf32>, vector<4xf32>
    %m = nvgpu.ldmatrix %shared[%tx, %c0] {numTiles = 4 : i32, transpose = false} : memref<32x8xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
    %e = vector.extract %m[0, 0] : f16 from vector<4x2xf16>
    memref.store %e, %out[%tx] : memref<32xf16>
    gpu.terminator
  }
  return
}

// -----

// mbarriers become their completed phases, still expected bytes and
// arrivals, and arrival count in shared memory (TMA copies are done when
// issued): an arrival expecting bytes arms the phase and arrives, each
// copy's bytes count down, the phase completes when neither bytes nor
// arrivals are expected, and a wait asserts that the phase of its parity
// completed, where a GPU would hang (here nothing is copied: the wait
// fails whatever the parity).
// CHECK-LABEL: func.func @mbarrier_phases
// CHECK-SAME: (%[[PARITY:.*]]: i1)
// CHECK: %[[STATE:.*]] = memref.alloc() : memref<2x4xindex>
// CHECK: cf.assert %{{.*}}, "google-test-run-launches-on-host: an mbarrier initialized for no arrivals"
// CHECK-COUNT-4: memref.store %{{.*}}, %[[STATE]][%[[ID:.*]], %{{.*}}] : memref<2x4xindex>
// CHECK: cf.assert %{{.*}}, "google-test-run-launches-on-host: an mbarrier's phase expecting bytes again before the previous ones arrived"
// CHECK: memref.store %c1024, %[[STATE]][%[[ID]], %{{.*}}] : memref<2x4xindex>
// CHECK: %[[EXPECTED:.*]] = memref.load %[[STATE]][%[[ID]], %c2{{.*}}] : memref<2x4xindex>
// CHECK: %[[LEFT:.*]] = arith.subi %[[EXPECTED]], %c1
// CHECK: memref.store %[[LEFT]], %[[STATE]][%[[ID]], %c2{{.*}}] : memref<2x4xindex>
// CHECK: scf.if
// CHECK: %[[COUNT:.*]] = memref.load %[[STATE]][%[[ID]], %c3{{.*}}] : memref<2x4xindex>
// CHECK: memref.store %[[COUNT]], %[[STATE]][%[[ID]], %c2{{.*}}] : memref<2x4xindex>
// CHECK: %[[DONE:.*]] = arith.remui %{{.*}}, %{{.*}} : index
// CHECK: %[[COMPLETED:.*]] = arith.cmpi ne, %[[DONE]], %{{.*}} : index
// CHECK: cf.assert %[[COMPLETED]], "google-test-run-launches-on-host: a wait for an mbarrier phase that has not completed (on a GPU, a hang)"
!barriers = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 2>
func.func @mbarrier_phases(%parity: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  %c1024 = arith.constant 1024 : index
  %ticks = arith.constant 1000 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1) {
    %first = arith.cmpi eq, %tx, %c0 : index
    %barriers = nvgpu.mbarrier.create -> !barriers
    nvgpu.mbarrier.init %barriers[%c1], %c1, predicate = %first : !barriers
    gpu.barrier
    nvgpu.mbarrier.arrive.expect_tx %barriers[%c1], %c1024, predicate = %first : !barriers
    nvgpu.mbarrier.try_wait.parity %barriers[%c1], %parity, %ticks : !barriers
    gpu.terminator
  }
  return
}

// -----

// A loop whose threads wait for mbarriers other threads complete (a
// producer and its consumers, warp-specialized) runs in lockstep: each
// iteration a phase of every thread, in order (here thread 0 arms
// `ready`'s phase before threads 64-127 wait for it and arrive at
// `released`, of 64 arrivals). Without it, thread 0 would run the whole
// loop first. A plain arrival counts an expected arrival down.
// CHECK-LABEL: func.func @mbarrier_lockstep
// CHECK: %[[STATE:.*]] = memref.alloc() : memref<2x4xindex>
// CHECK: scf.for %[[I:.*]] = %c0 to %c4 step %c1 {
// CHECK-COUNT-2: scf.for
// CHECK: scf.for %{{.*}} = %{{.*}} to %c128
// CHECK: arith.index_cast %[[I]] : index to i1
// CHECK: cf.assert %{{.*}}, "google-test-run-launches-on-host: a wait for an mbarrier phase that has not completed (on a GPU, a hang)"
// CHECK: %[[ARRIVALS:.*]] = memref.load %[[STATE]][%c1, %c2{{.*}}] : memref<2x4xindex>
// CHECK: %[[LEFT:.*]] = arith.subi %[[ARRIVALS]], %c1
// CHECK: memref.store %[[LEFT]], %[[STATE]][%c1, %c2{{.*}}] : memref<2x4xindex>
func.func @mbarrier_lockstep() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %ticks = arith.constant 1000 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1) {
    %first = arith.cmpi eq, %tx, %c0 : index
    %consumer = arith.cmpi sge, %tx, %c64 : index
    %barriers = nvgpu.mbarrier.create -> !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 2>
    nvgpu.mbarrier.init %barriers[%c0], %c1, predicate = %first : !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 2>
    nvgpu.mbarrier.init %barriers[%c1], %c64, predicate = %first : !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 2>
    gpu.barrier
    scf.for %i = %c0 to %c4 step %c1 {
      %parity = arith.index_cast %i : index to i1
      nvgpu.mbarrier.arrive.expect_tx %barriers[%c0], %c0, predicate = %first : !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 2>
      scf.if %consumer {
        nvgpu.mbarrier.try_wait.parity %barriers[%c0], %parity, %ticks : !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 2>
        %token = nvgpu.mbarrier.arrive %barriers[%c1] : !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 2> -> !nvgpu.mbarrier.token
      }
    }
    gpu.terminator
  }
  return
}

// -----

// An arrival's token (for a test_wait) has nothing to stand for here.
func.func @mbarrier_token() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1) {
    %barriers = nvgpu.mbarrier.create -> !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
    nvgpu.mbarrier.init %barriers[%c0], %c128 : !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
    // expected-error@+1 {{google-test-run-launches-on-host: only mbarrier arrivals whose token is unused run on the host}}
    %token = nvgpu.mbarrier.arrive %barriers[%c0] : !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>> -> !nvgpu.mbarrier.token
    %done = nvgpu.mbarrier.test.wait %barriers[%c0], %token : !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>, !nvgpu.mbarrier.token
    gpu.terminator
  }
  return
}
