// RUN: google-opt %s -split-input-file -allow-unregistered-dialect -google-parallelize-loops | FileCheck %s

// A marked loop becomes an OpenMP worksharing loop with the runtime's thread
// count when there are 2 threads or more, 2 iterations or more and 4096
// steps or more; else it stays a loop on the calling thread (not OpenMP's
// `if`, which still costs a serialized parallel region). Both call the
// body, outlined into an internal function that is never inlined. Its
// buffer (sized outside the loop) becomes one slot per thread of a buffer
// allocated, checked and freed around the loop; the OpenMP thread number
// picks the slot.
// CHECK-DAG:   llvm.func @omp_get_thread_num() -> i32
// CHECK-DAG:   llvm.func @google_rt_num_threads() -> i32
// CHECK:       func.func private @[[BODY:panels_parallel_body]](%[[J:.*]]: index, %[[SLOT_BYTES:.*]]: index, %[[BUFFER:.*]]: memref<?xi8>, %[[K:.*]]: index)
// CHECK-SAME:      attributes {llvm.linkage = #llvm.linkage<internal>, passthrough = ["noinline"]}
// CHECK:         %[[NUMBER:.*]] = llvm.call @omp_get_thread_num() : () -> i32
// CHECK:         %[[THREAD:.*]] = arith.index_cast %[[NUMBER]] : i32 to index
// CHECK:         %[[BASE:.*]] = arith.muli %[[THREAD]], %[[SLOT_BYTES]]
// CHECK:         %[[OFFSET:.*]] = arith.addi %[[BASE]], %c0
// CHECK:         %[[PANEL:.*]] = memref.view %[[BUFFER]][%[[OFFSET]]][%[[K]]] : memref<?xi8> to memref<?x32xf32>
// CHECK:         "test.use"(%[[PANEL]], %[[J]])
// CHECK-NOT:     memref.dealloc
// CHECK:         return
// CHECK-LABEL: func @panels
// CHECK:       %[[THREADS:.*]] = llvm.call @google_rt_num_threads() : () -> i32
// CHECK:       %[[COUNT:.*]] = arith.index_cast %[[THREADS]] : i32 to index
// CHECK:       %[[SLOTS:.*]] = arith.maxsi %c1{{.*}}, %[[COUNT]]
// CHECK:       %[[BYTES:.*]] = arith.muli %[[SLOT:.*]], %[[SLOTS]]
// CHECK:       cf.assert %{{.*}}, "the per-thread buffers of a parallel loop are too large to allocate (2^62 bytes or more)"
// CHECK:       %[[ALLOC:.*]] = memref.alloc(%[[BYTES]]) {alignment = 64 : i64} : memref<?xi8>
// CHECK:       %[[MANY:.*]] = arith.cmpi sgt, %[[THREADS]], %c1_i32
// CHECK:       %[[ENOUGH:.*]] = arith.andi %{{.*}}, %[[MANY]]
// CHECK:       scf.if %[[ENOUGH]] {
// CHECK-NEXT:    omp.parallel num_threads(%[[THREADS]] : i32) {
// CHECK-NEXT:      omp.wsloop {
// CHECK-NEXT:        omp.loop_nest (%[[I:.*]]) : index = (%c0) to (%[[N:.*]]) step (%c32) {
// CHECK-NEXT:          func.call @[[BODY]](%[[I]], %[[SLOT]], %[[ALLOC]], %{{.*}}) {google.parallel_body}
// CHECK-NEXT:          omp.yield
// CHECK:           omp.terminator
// CHECK:       } else {
// CHECK-NEXT:    scf.for %[[I:.*]] = %c0 to %[[N]] step %c32 {
// CHECK-NEXT:      func.call @[[BODY]](%[[I]], %[[SLOT]], %[[ALLOC]], %{{.*}}) {google.parallel_body}
// CHECK:       memref.dealloc %[[ALLOC]] : memref<?xi8>
func.func @panels(%k: index, %n: index) {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  scf.for %j = %c0 to %n step %c32 {
    %panel = memref.alloc(%k) : memref<?x32xf32>
    "test.use"(%panel, %j) : (memref<?x32xf32>, index) -> ()
    memref.dealloc %panel : memref<?x32xf32>
  } {google.parallel}
  return
}

// -----

// A buffer sized in the body gets a slot of its largest size (7 rows here).
// CHECK:       func.func private @bounded_size_parallel_body
// CHECK:         memref.view %{{.*}}[%{{.*}}][%{{.*}}] : memref<?xi8> to memref<?x32xf32>
// CHECK-LABEL: func @bounded_size(
// CHECK:       arith.constant 7 : index
// CHECK:       omp.parallel
// CHECK-NOT:   memref.alloc(
func.func @bounded_size(%m: index, %n: index) {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %full = affine.apply affine_map<()[s0] -> ((s0 floordiv 8) * 8)>()[%m]
  scf.for %j = %c0 to %n step %c32 {
    scf.for %i = %full to %m step %c8 {
      %rows = affine.apply affine_map<(d0)[s0] -> (-d0 + s0)>(%i)[%m]
      %block = memref.alloc(%rows) : memref<?x32xf32>
      "test.use"(%block) : (memref<?x32xf32>) -> ()
      memref.dealloc %block : memref<?x32xf32>
    }
  } {google.parallel}
  return
}

// -----

// Bodies that could end the call stay on the calling thread: a call, a
// check, a buffer of no known bound. So does a loop that carries values.
// CHECK-LABEL: func @stays_serial
// CHECK-NOT:   omp.
// CHECK:       scf.for
// CHECK:         func.call @callee
// CHECK:       scf.for
// CHECK:         cf.assert
// CHECK:       scf.for
// CHECK:         memref.alloc(%
// CHECK:       scf.for {{.*}} iter_args
// CHECK-NOT:   google.parallel
func.func private @callee()
func.func @stays_serial(%n: index, %b: i1) -> index {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %j = %c0 to %n step %c1 {
    func.call @callee() : () -> ()
  } {google.parallel}
  scf.for %j = %c0 to %n step %c1 {
    cf.assert %b, "no"
  } {google.parallel}
  scf.for %j = %c0 to %n step %c1 {
    %buffer = memref.alloc(%j) : memref<?xf32>
    "test.use"(%buffer) : (memref<?xf32>) -> ()
    memref.dealloc %buffer : memref<?xf32>
  } {google.parallel}
  %sum = scf.for %j = %c0 to %n step %c1 iter_args(%acc = %c0) -> index {
    %next = arith.addi %acc, %j : index
    scf.yield %next : index
  } {google.parallel}
  return %sum : index
}

// -----

// A loop that stays serial (its body checks something) still allocates its
// buffer once, in front of it: one slot, no thread numbers.
// CHECK-NOT:   llvm.func
// CHECK-LABEL: func @serial_buffer
// CHECK-NOT:   llvm.call
// CHECK:       %[[BUFFER:.*]] = memref.alloc(%{{.*}}) {alignment = 64 : i64} : memref<?xi8>
// CHECK:       scf.for
// CHECK:         memref.view %[[BUFFER]][%{{.*}}][%{{.*}}] : memref<?xi8> to memref<?x32xf32>
// CHECK:         cf.assert
// CHECK-NOT:     memref.dealloc
// CHECK:       }
// CHECK:       memref.dealloc %[[BUFFER]] : memref<?xi8>
// CHECK-NOT:   omp.
func.func @serial_buffer(%k: index, %n: index, %ok: i1) {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  scf.for %j = %c0 to %n step %c32 {
    %panel = memref.alloc(%k) : memref<?x32xf32>
    "test.use"(%panel, %j) : (memref<?x32xf32>, index) -> ()
    cf.assert %ok, "no"
    memref.dealloc %panel : memref<?x32xf32>
  } {google.parallel}
  return
}

// -----

// The work behind an scf.if whose condition is known in front of the loop
// counts only when the condition holds at run time (a small M does not pack
// B's panels, and does not start threads for that).
// CHECK-LABEL: func @guarded_work
// CHECK-SAME:  (%[[N:.*]]: index, %[[K:.*]]: index, %[[LARGE:.*]]: i1)
// CHECK:       %[[STEPS:.*]] = arith.select %[[LARGE]], %{{.*}}, %{{.*}} : index
// CHECK:       %[[BODY:.*]] = arith.addi %{{.*}}, %[[STEPS]]
// CHECK:       %[[TOTAL:.*]] = arith.muli %{{.*}}, %[[BODY]]
// CHECK:       arith.cmpi sge, %[[TOTAL]], %c4096
// CHECK:       omp.parallel num_threads(
func.func @guarded_work(%n: index, %k: index, %large: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  scf.for %j = %c0 to %n step %c32 {
    scf.if %large {
      scf.for %i = %c0 to %k step %c1 {
        "test.use"(%i) : (index) -> ()
      }
    } else {
      "test.use"(%j) : (index) -> ()
    }
  } {google.parallel}
  return
}

// -----

// A linalg op in the body counts a step per 16 elements of its static
// extents (a row of 300: 19 steps), so that rows of elementwise work start
// threads once there are enough of them.
// CHECK-LABEL: func @linalg_work
// CHECK-SAME:  (%[[N:.*]]: index,
// CHECK:       %[[BODY:.*]] = arith.addi %c1{{.*}}, %c19
// CHECK:       %[[TOTAL:.*]] = arith.muli %{{.*}}, %[[BODY]]
// CHECK:       arith.cmpi sge, %[[TOTAL]], %c4096
// CHECK:       omp.parallel num_threads(
func.func @linalg_work(%n: index, %in: memref<?x300xf32>, %out: memref<?x300xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %row = memref.subview %in[%i, 0] [1, 300] [1, 1] : memref<?x300xf32> to memref<1x300xf32, strided<[300, 1], offset: ?>>
    %dst = memref.subview %out[%i, 0] [1, 300] [1, 1] : memref<?x300xf32> to memref<1x300xf32, strided<[300, 1], offset: ?>>
    linalg.exp ins(%row : memref<1x300xf32, strided<[300, 1], offset: ?>>) outs(%dst : memref<1x300xf32, strided<[300, 1], offset: ?>>)
  } {google.parallel}
  return
}

// -----

// A dynamic extent counts its constant upper bound: chunks of at most 4
// rows of 1024 (the last may be shorter) are 256 steps each.
// CHECK-LABEL: func @bounded_linalg_work
// CHECK:       %[[BODY:.*]] = arith.addi %c1{{.*}}, %c256
// CHECK:       %[[TOTAL:.*]] = arith.muli %{{.*}}, %[[BODY]]
// CHECK:       arith.cmpi sge, %[[TOTAL]], %c4096
// CHECK:       omp.parallel num_threads(
func.func @bounded_linalg_work(%n: index, %in: memref<?x1024xf32>, %out: memref<?x1024xf32>) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %n step %c4 {
    %rows = affine.min affine_map<(d0)[s0] -> (4, s0 - d0)>(%i)[%n]
    %src = memref.subview %in[%i, 0] [%rows, 1024] [1, 1] : memref<?x1024xf32> to memref<?x1024xf32, strided<[1024, 1], offset: ?>>
    %dst = memref.subview %out[%i, 0] [%rows, 1024] [1, 1] : memref<?x1024xf32> to memref<?x1024xf32, strided<[1024, 1], offset: ?>>
    linalg.exp ins(%src : memref<?x1024xf32, strided<[1024, 1], offset: ?>>) outs(%dst : memref<?x1024xf32, strided<[1024, 1], offset: ?>>)
  } {google.parallel}
  return
}
