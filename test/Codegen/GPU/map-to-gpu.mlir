// RUN: google-opt %s -split-input-file --google-map-to-gpu | FileCheck %s

// All parallel dimensions collapse into one range split into blocks of 256
// threads; consecutive threads take consecutive innermost elements.
// CHECK-LABEL: func.func @elementwise_collapsed
// CHECK: %[[N:.*]] = memref.dim %{{.*}}, %{{.*}} : memref<?x4x8xf32>
// CHECK: %[[ROWS:.*]] = arith.muli %{{.*}}, %[[N]] : index
// CHECK: %[[PLANES:.*]] = arith.muli %[[ROWS]], %{{.*}} : index
// CHECK: %[[TOTAL:.*]] = arith.muli %[[PLANES]], %[[C8:.*]] : index
// CHECK: %[[C256:.*]] = arith.constant 256 : index
// CHECK: gpu.launch blocks(%[[BX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %{{.*}}, %{{.*}} = %[[ONE:.*]], %{{.*}} = %[[ONE]]) threads(%[[TX:.*]], %{{.*}}, %{{.*}}) in
// CHECK: arith.cmpi ult, %{{.*}}, %[[TOTAL]] : index
// CHECK: scf.if
// CHECK: arith.remsi %{{.*}}, %[[C8]]
// CHECK: math.exp
// CHECK: memref.store
// CHECK: gpu.terminator
// CHECK-NOT: SCFToGPU_visited
// CHECK-NOT: linalg.generic
func.func @elementwise_collapsed(%x: memref<?x4x8xf32>, %y: memref<?x4x8xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i,j,k)->(i,j,k)>, affine_map<(i,j,k)->(i,j,k)>], iterator_types = ["parallel","parallel","parallel"]} ins(%x : memref<?x4x8xf32>) outs(%y : memref<?x4x8xf32>) {
  ^bb0(%a: f32, %b: f32):
    %e = math.exp %a : f32
    linalg.yield %e : f32
  }
  return
}

// -----

// Over few rows (fewer than 32), the reduction over rows runs in each
// thread; the columns are the threads (one block of 10, since the range is
// static and smaller than a block).
// CHECK-LABEL: func.func @reduce_first_dim_interchanged
// CHECK: gpu.launch
// CHECK-SAME: threads(%{{.*}}, %{{.*}}, %{{.*}}) in (%{{.*}} = %[[T:[^,]*]],
// CHECK: scf.for %[[K:.*]] = %{{.*}} to %c16
// CHECK: memref.load %{{.*}}[%{{.*}}, %{{.*}}] : memref<16x10xf32>
// CHECK: arith.addf
// CHECK: memref.store %{{.*}}, %{{.*}}[%{{.*}}] : memref<10xf32>
func.func @reduce_first_dim_interchanged(%x: memref<16x10xf32>, %y: memref<10xf32>) {
  linalg.reduce { arith.addf } ins(%x : memref<16x10xf32>) outs(%y : memref<10xf32>) dimensions = [0]
  return
}

// -----

// A reduction along the input's innermost dimension over long (or dynamic)
// rows gets a block of 256 threads per row: thread t combines elements t,
// t + 256, ... (coalesced), the partials meet in a tree in shared memory
// (a barrier before each of the 8 halvings), and thread 0 combines the
// row's value into the output.
// CHECK-LABEL: func.func @reduce_rows_in_blocks
// CHECK-SAME: (%[[X:.*]]: memref<?x?xf32>, %[[Y:.*]]: memref<?xf32>)
// CHECK: %[[ROWS:.*]] = memref.dim %[[X]], %{{.*}}
// CHECK: %[[C256:.*]] = arith.constant 256 : index
// CHECK: gpu.launch blocks(%[[ROW:.*]], %{{.*}}, %{{.*}}) in ({{.*}}) threads(%[[T:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %[[C256]], {{.*}}) workgroup(%[[P:.*]] : memref<256xf32, #gpu.address_space<workgroup>>)
// CHECK: %[[HAS:.*]] = arith.cmpi slt, %[[T]], %[[COUNT:.*]] : index
// CHECK: scf.if %[[HAS]]
// CHECK: %[[FIRST:.*]] = memref.load %[[X]][%[[ROW]], %[[T]]]
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[COUNT]] step %{{.*}} iter_args(%{{.*}} = %[[FIRST]])
// CHECK: memref.store %{{.*}}, %[[P]][%[[T]]]
// CHECK-COUNT-8: gpu.barrier
// CHECK: arith.cmpi eq, %[[T]], %{{.*}}
// CHECK: scf.if
// CHECK: memref.load %[[P]]
// CHECK: memref.load %[[Y]][%[[ROW]]]
// CHECK: arith.addf
// CHECK: memref.store %{{.*}}, %[[Y]][%[[ROW]]]
func.func @reduce_rows_in_blocks(%x: memref<?x?xf32>, %y: memref<?xf32>) {
  linalg.reduce { arith.addf } ins(%x : memref<?x?xf32>) outs(%y : memref<?xf32>) dimensions = [1]
  return
}

// -----

// f16 rows accumulate in f32 (SPEC section 2): each element is extended
// before it is combined; the partials in shared memory are f32.
// CHECK-LABEL: func.func @reduce_f16_rows_in_f32
// CHECK-SAME: (%[[X:.*]]: memref<?x?xf16>, %[[Y:.*]]: memref<?xf32>)
// CHECK: gpu.launch {{.*}} workgroup(%[[P:.*]] : memref<256xf32, #gpu.address_space<workgroup>>)
// CHECK: %[[FIRST:.*]] = memref.load %[[X]]
// CHECK: %[[WIDE:.*]] = arith.extf %[[FIRST]] : f16 to f32
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %[[WIDE]])
// CHECK: arith.extf %{{.*}} : f16 to f32
// CHECK: arith.addf %{{.*}} : f32
// CHECK-COUNT-8: gpu.barrier
func.func @reduce_f16_rows_in_f32(%x: memref<?x?xf16>, %y: memref<?xf32>) {
  linalg.reduce ins(%x : memref<?x?xf16>) outs(%y : memref<?xf32>) dimensions = [1]
    (%in: f16, %acc: f32) {
      %wide = arith.extf %in : f16 to f32
      %sum = arith.addf %acc, %wide : f32
      linalg.yield %sum : f32
    }
  return
}

// -----

// Short static rows stay in one thread each.
// CHECK-LABEL: func.func @reduce_short_rows_in_threads
// CHECK: gpu.launch
// CHECK-NOT: workgroup
// CHECK: scf.for
// CHECK-NOT: gpu.barrier
func.func @reduce_short_rows_in_threads(%x: memref<?x255xf32>, %y: memref<?xf32>) {
  linalg.reduce { arith.maxnumf } ins(%x : memref<?x255xf32>) outs(%y : memref<?xf32>) dimensions = [1]
  return
}

// -----

// Without a parallel dimension, one thread computes the whole reduction.
// CHECK-LABEL: func.func @full_reduction_one_thread
// CHECK: %[[ONE:.*]] = arith.constant 1 : index
// CHECK: gpu.launch
// CHECK: scf.for
// CHECK: memref.load %{{.*}}[] : memref<f32>
// CHECK: memref.store %{{.*}}, %{{.*}}[] : memref<f32>
func.func @full_reduction_one_thread(%x: memref<?xf32>, %y: memref<f32>) {
  linalg.reduce { arith.addf } ins(%x : memref<?xf32>) outs(%y : memref<f32>) dimensions = [0]
  return
}

// -----

// Many elements (here a dynamic number) reduced over every axis: blocks of
// 256 threads each reduce a range of the elements (thread t its elements
// t, t + 256, ...: coalesced) and meet in a tree in shared memory, thread 0
// writing the block's partial result; then one block reduces the partials
// the same way and combines them into the output.
// CHECK-LABEL: func.func @full_reduction_split
// CHECK-SAME: (%[[X:.*]]: memref<?x64xf32>, %[[Y:.*]]: memref<f32>)
// CHECK: %[[COUNT:.*]] = arith.muli %{{.*}}, %c64 : index
// CHECK: %[[BLOCKS:.*]] = arith.minsi %{{.*}}, %c1024 : index
// CHECK: %[[RANGE:.*]] = arith.maxsi %{{.*}}, %{{.*}} : index
// CHECK: %[[USED:.*]] = arith.ceildivsi %[[COUNT]], %[[RANGE]] : index
// CHECK: %[[BUFFER:.*]] = gpu.alloc (%[[BLOCKS]]) : memref<?xf32>
// CHECK: gpu.launch blocks(%[[B:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %[[BLOCKS]], {{.*}} threads(%[[T:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %c256, {{.*}} workgroup(%[[SHARED:.*]] : memref<256xf32, #gpu.address_space<workgroup>>)
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c256
// CHECK: memref.load %[[X]]
// CHECK: arith.addf
// CHECK: gpu.barrier
// CHECK: memref.store %{{.*}}, %[[BUFFER]][%[[B]]]
// CHECK: gpu.launch
// CHECK: arith.cmpi slt, %{{.*}}, %[[USED]]
// CHECK: memref.load %[[BUFFER]]
// CHECK: gpu.barrier
// CHECK: memref.load %[[Y]][] : memref<f32>
// CHECK: memref.store %{{.*}}, %[[Y]][] : memref<f32>
// CHECK: gpu.dealloc %[[BUFFER]]
func.func @full_reduction_split(%x: memref<?x64xf32>, %y: memref<f32>) {
  linalg.reduce { arith.addf } ins(%x : memref<?x64xf32>) outs(%y : memref<f32>) dimensions = [0, 1]
  return
}

// -----

// The fill of its output just before it gives the second kernel its
// starting value (the fill gets no kernel); with no elements, thread 0
// writes the fill's value alone.
// CHECK-LABEL: func.func @full_reduction_after_fill
// CHECK-SAME: (%[[X:.*]]: memref<?x64xf32>, %[[Y:.*]]: memref<f32>)
// CHECK: %[[NINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK-NOT: linalg.fill
// CHECK: gpu.launch
// CHECK: gpu.launch
// CHECK: %[[PARTIAL:.*]] = memref.load %{{.*}}[%c0{{.*}}] : memref<256xf32, #gpu.address_space<workgroup>>
// CHECK: %[[MAX:.*]] = arith.maximumf %[[PARTIAL]], %[[NINF]] : f32
// CHECK: memref.store %[[MAX]], %[[Y]][] : memref<f32>
// CHECK: scf.if
// CHECK: memref.store %[[NINF]], %[[Y]][] : memref<f32>
// CHECK-NOT: gpu.launch
// CHECK: gpu.dealloc
func.func @full_reduction_after_fill(%x: memref<?x64xf32>, %y: memref<f32>) {
  %ninf = arith.constant 0xFF800000 : f32
  linalg.fill ins(%ninf : f32) outs(%y : memref<f32>)
  linalg.reduce { arith.maximumf } ins(%x : memref<?x64xf32>) outs(%y : memref<f32>) dimensions = [0, 1]
  return
}

// -----

// The elementwise op that writes the reduction's input, a buffer nothing
// else reads, runs in the first kernel where each element is read (no
// kernel, no buffer for it); the buffer's dims become its extents.
// CHECK-LABEL: func.func @full_reduction_of_producer
// CHECK-SAME: (%[[X:.*]]: memref<?x64xf32>, %[[B:.*]]: memref<64xf32>, %[[Y:.*]]: memref<f32>)
// CHECK-NOT: gpu.alloc
// CHECK-NOT: memref.alloc
// CHECK: %[[N:.*]] = memref.dim %[[X]], %c0
// CHECK-NOT: memref.dim
// CHECK: arith.muli %{{.*}}, %[[N]] : index
// CHECK: gpu.alloc (%{{.*}}) : memref<?xf32>
// CHECK: gpu.launch
// CHECK: scf.for
// CHECK-DAG: %[[XI:.*]] = memref.load %[[X]]
// CHECK-DAG: %[[BI:.*]] = memref.load %[[B]]
// CHECK: %[[D:.*]] = arith.subf %[[XI]], %[[BI]] : f32
// CHECK: %[[Q:.*]] = arith.mulf %[[D]], %[[D]] : f32
// CHECK: arith.addf %[[Q]], %{{.*}} : f32
// CHECK: gpu.launch
// CHECK-NOT: gpu.launch
// CHECK: gpu.dealloc
// CHECK-NOT: dealloc
// CHECK: return
func.func @full_reduction_of_producer(%x: memref<?x64xf32>, %b: memref<64xf32>, %y: memref<f32>) {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %n = memref.dim %x, %c0 : memref<?x64xf32>
  %q = gpu.alloc (%n) : memref<?x64xf32>
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%x, %b : memref<?x64xf32>, memref<64xf32>) outs(%q : memref<?x64xf32>) {
  ^bb0(%in: f32, %bias: f32, %out: f32):
    %d = arith.subf %in, %bias : f32
    %s = arith.mulf %d, %d : f32
    linalg.yield %s : f32
  }
  linalg.fill ins(%zero : f32) outs(%y : memref<f32>)
  linalg.reduce { arith.addf } ins(%q : memref<?x64xf32>) outs(%y : memref<f32>) dimensions = [0, 1]
  gpu.dealloc %q : memref<?x64xf32>
  return
}

// -----

// A column reduction (rows outside, columns inside: a bias's gradient):
// blocks of 32 x 8 threads own 32 columns (coalesced) of a range of the
// rows; here 3 column tiles and few of them, so the rows are split over
// 16 blocks each (ceil(1000 / 64)): 48 blocks write partial results and a
// second kernel, a thread per column, combines them from the fill's value.
// CHECK-LABEL: func.func @column_reduction_split
// CHECK-SAME: (%[[X:.*]]: memref<1000x70xf32>, %[[Y:.*]]: memref<70xf32>)
// CHECK: %[[ZERO:.*]] = arith.constant 0.0
// CHECK-NOT: linalg.fill
// CHECK: %[[PARTIAL:.*]] = gpu.alloc (%{{.*}}) : memref<?xf32>
// CHECK: gpu.launch {{.*}} threads(%[[TX:.*]], %[[TY:.*]], %{{.*}}) in (%{{.*}} = %c32{{.*}}, %{{.*}} = %c8{{.*}}, {{.*}} workgroup(%[[SHARED:.*]] : memref<8x32xf32, #gpu.address_space<workgroup>>)
// CHECK: scf.for {{.*}} step %c8
// CHECK: memref.load %[[X]]
// CHECK: arith.addf
// CHECK: memref.store %{{.*}}, %[[SHARED]][%[[TY]], %[[TX]]]
// CHECK: gpu.barrier
// CHECK: memref.load %[[SHARED]]
// CHECK: memref.store %{{.*}}, %[[PARTIAL]]
// CHECK: gpu.launch
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %[[ZERO]])
// CHECK: memref.load %[[PARTIAL]]
// CHECK: memref.store %{{.*}}, %[[Y]]
// CHECK-NOT: gpu.launch
// CHECK: gpu.dealloc %[[PARTIAL]]
func.func @column_reduction_split(%x: memref<1000x70xf32>, %y: memref<70xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%y : memref<70xf32>)
  linalg.reduce { arith.addf } ins(%x : memref<1000x70xf32>) outs(%y : memref<70xf32>) dimensions = [0]
  return
}

// -----

// With 1024 column tiles or more, a block per tile reduces all of the rows
// and combines them into the output itself: one kernel.
// CHECK-LABEL: func.func @column_reduction_one_split
// CHECK-SAME: (%[[X:.*]]: memref<40x40000xf32>, %[[Y:.*]]: memref<40000xf32>)
// CHECK-NOT: gpu.alloc
// CHECK: gpu.launch
// CHECK: memref.load %[[X]]
// CHECK: gpu.barrier
// CHECK: memref.load %[[Y]]
// CHECK: memref.store %{{.*}}, %[[Y]]
// CHECK-NOT: gpu.launch
// CHECK: return
func.func @column_reduction_one_split(%x: memref<40x40000xf32>, %y: memref<40000xf32>) {
  linalg.reduce { arith.addf } ins(%x : memref<40x40000xf32>) outs(%y : memref<40000xf32>) dimensions = [0]
  return
}

// -----

// Ops over short rows (at most 32 elements: a softmax over a classifier's
// 10 classes) with reductions between them run in one kernel with a thread
// per row, which holds its row in registers: x is loaded once, each step
// runs over the row's 10 values (unrolled), y is stored once at the end,
// and the row buffers (maximum, sum) are gone.
// CHECK-LABEL: func.func @short_row_chain
// CHECK-SAME: (%[[X:.*]]: memref<128x10xf32>, %[[Y:.*]]: memref<128x10xf32>)
// CHECK-NOT: gpu.alloc
// CHECK: gpu.launch {{.*}} threads({{.*}}) in (%{{.*}} = %c128{{.*}},
// CHECK: scf.if
// CHECK: memref.load %[[X]][%[[ROW:.*]], %{{.*}}]
// CHECK-COUNT-9: memref.load %[[X]][%[[ROW]], %{{.*}}]
// CHECK-NOT: memref.load
// CHECK-COUNT-10: math.exp
// CHECK-COUNT-10: arith.divf
// CHECK-COUNT-10: memref.store %{{.*}}, %[[Y]][%[[ROW]], %{{.*}}]
// CHECK-NOT: memref.store
// CHECK-NOT: gpu.launch
// CHECK-NOT: gpu.dealloc
// CHECK: return
func.func @short_row_chain(%x: memref<128x10xf32>, %y: memref<128x10xf32>) {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %max = gpu.alloc () : memref<128xf32>
  %sum = gpu.alloc () : memref<128xf32>
  linalg.fill ins(%ninf : f32) outs(%max : memref<128xf32>)
  linalg.reduce { arith.maximumf } ins(%x : memref<128x10xf32>) outs(%max : memref<128xf32>) dimensions = [1]
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%x, %max : memref<128x10xf32>, memref<128xf32>) outs(%y : memref<128x10xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %d = arith.subf %in, %m : f32
    %e = math.exp %d : f32
    linalg.yield %e : f32
  }
  linalg.fill ins(%zero : f32) outs(%sum : memref<128xf32>)
  linalg.reduce { arith.addf } ins(%y : memref<128x10xf32>) outs(%sum : memref<128xf32>) dimensions = [1]
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%y, %sum : memref<128x10xf32>, memref<128xf32>) outs(%y : memref<128x10xf32>) {
  ^bb0(%in: f32, %s: f32, %out: f32):
    %q = arith.divf %in, %s : f32
    linalg.yield %q : f32
  }
  gpu.dealloc %max : memref<128xf32>
  gpu.dealloc %sum : memref<128xf32>
  return
}

// -----

// Other reductions run a thread per output element, consecutive threads on
// consecutive outputs (here 128 rows of 100: one block of 128 threads);
// each starts from the fill's value and computes the elementwise op that
// writes its input where it reads it: one kernel, no buffer.
// CHECK-LABEL: func.func @thread_reduction_fused
// CHECK-SAME: (%[[X:.*]]: memref<128x100xf32>, %[[M:.*]]: memref<128xf32>, %[[Y:.*]]: memref<128xf32>)
// CHECK: %[[ZERO:.*]] = arith.constant 0.0
// CHECK-NOT: gpu.alloc
// CHECK: gpu.launch {{.*}} threads({{.*}}) in (%{{.*}} = %c128{{.*}},
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %[[ZERO]])
// CHECK-DAG: memref.load %[[X]]
// CHECK-DAG: memref.load %[[M]]
// CHECK: arith.subf
// CHECK: math.exp
// CHECK: arith.addf
// CHECK: memref.store %{{.*}}, %[[Y]]
// CHECK-NOT: gpu.launch
// CHECK: return
func.func @thread_reduction_fused(%x: memref<128x100xf32>, %m: memref<128xf32>, %y: memref<128xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = gpu.alloc () : memref<128x100xf32>
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%x, %m : memref<128x100xf32>, memref<128xf32>) outs(%e : memref<128x100xf32>) {
  ^bb0(%in: f32, %max: f32, %out: f32):
    %d = arith.subf %in, %max : f32
    %x1 = math.exp %d : f32
    linalg.yield %x1 : f32
  }
  linalg.fill ins(%zero : f32) outs(%y : memref<128xf32>)
  linalg.reduce { arith.addf } ins(%e : memref<128x100xf32>) outs(%y : memref<128xf32>) dimensions = [1]
  gpu.dealloc %e : memref<128x100xf32>
  return
}

// -----

// The elementwise epilogue after a reduction runs where each result is
// stored: a mean's scale in place, in the last kernel of a reduction of
// every axis (also where there are no elements).
// CHECK-LABEL: func.func @full_reduction_epilogue
// CHECK-SAME: (%[[X:.*]]: memref<?x64xf32>, %[[Y:.*]]: memref<f32>)
// CHECK: %[[SCALE:.*]] = arith.constant 5.000000e-01
// CHECK: gpu.launch
// CHECK: gpu.launch
// CHECK: %[[MEAN:.*]] = arith.mulf %{{.*}}, %[[SCALE]] : f32
// CHECK-NEXT: memref.store %[[MEAN]], %[[Y]][] : memref<f32>
// CHECK: scf.if
// CHECK-NEXT: %[[NONE:.*]] = arith.mulf %{{.*}}, %[[SCALE]] : f32
// CHECK-NEXT: memref.store %[[NONE]], %[[Y]][] : memref<f32>
// CHECK-NOT: gpu.launch
// CHECK: gpu.dealloc
// CHECK-NEXT: return
func.func @full_reduction_epilogue(%x: memref<?x64xf32>, %y: memref<f32>) {
  %zero = arith.constant 0.0 : f32
  %scale = arith.constant 5.0e-1 : f32
  linalg.fill ins(%zero : f32) outs(%y : memref<f32>)
  linalg.reduce { arith.addf } ins(%x : memref<?x64xf32>) outs(%y : memref<f32>) dimensions = [0, 1]
  linalg.generic {indexing_maps = [affine_map<() -> ()>, affine_map<() -> ()>], iterator_types = []} ins(%y : memref<f32>) outs(%y : memref<f32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.mulf %in, %scale : f32
    linalg.yield %m : f32
  }
  return
}

// -----

// An epilogue writing another buffer (an f16 result of an f32 sum): the
// kernel stores only the epilogue's elements; the product's buffer goes.
// CHECK-LABEL: func.func @thread_reduction_epilogue
// CHECK-SAME: (%[[X:.*]]: memref<128x10xf16>, %[[Y:.*]]: memref<128xf16>)
// CHECK-NOT: alloc
// CHECK: gpu.launch
// CHECK: scf.for
// CHECK: arith.extf
// CHECK: arith.addf
// CHECK: %[[NARROW:.*]] = arith.truncf %{{.*}} : f32 to f16
// CHECK: memref.store %[[NARROW]], %[[Y]]
// CHECK-NOT: gpu.launch
// CHECK-NOT: dealloc
// CHECK: return
func.func @thread_reduction_epilogue(%x: memref<128x10xf16>, %y: memref<128xf16>) {
  %zero = arith.constant 0.0 : f32
  %s = gpu.alloc () : memref<128xf32>
  linalg.fill ins(%zero : f32) outs(%s : memref<128xf32>)
  linalg.reduce ins(%x : memref<128x10xf16>) outs(%s : memref<128xf32>) dimensions = [1]
    (%in: f16, %init: f32) {
      %w = arith.extf %in : f16 to f32
      %a = arith.addf %init, %w : f32
      linalg.yield %a : f32
    }
  linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%s : memref<128xf32>) outs(%y : memref<128xf16>) {
  ^bb0(%in: f32, %out: f16):
    %t = arith.truncf %in : f32 to f16
    linalg.yield %t : f16
  }
  gpu.dealloc %s : memref<128xf32>
  return
}

// -----

// An epilogue that reads the buffer it writes elsewhere than the element
// (here reversed) keeps its own kernel.
// CHECK-LABEL: func.func @epilogue_reads_its_output
// CHECK: gpu.launch
// CHECK: gpu.launch
// CHECK-NOT: gpu.launch
// CHECK: return
func.func @epilogue_reads_its_output(%x: memref<128x10xf32>, %y: memref<128xf32>, %z: memref<128xf32>) {
  linalg.reduce { arith.addf } ins(%x : memref<128x10xf32>) outs(%y : memref<128xf32>) dimensions = [1]
  linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%y, %z : memref<128xf32>, memref<128xf32>) outs(%z : memref<128xf32>) {
  ^bb0(%in: f32, %old: f32, %out: f32):
    %a = arith.addf %in, %old : f32
    linalg.yield %a : f32
  }
  return
}

// -----

// A producer reading the reduction's output buffer keeps its kernel (the
// reduction writes outputs while other threads still read).
// CHECK-LABEL: func.func @producer_reads_output
// CHECK: gpu.launch
// CHECK: math.exp
// CHECK: gpu.launch
// CHECK-NOT: gpu.launch
// CHECK: return
func.func @producer_reads_output(%x: memref<128x100xf32>, %y: memref<128xf32>) {
  %e = gpu.alloc () : memref<128x100xf32>
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%x, %y : memref<128x100xf32>, memref<128xf32>) outs(%e : memref<128x100xf32>) {
  ^bb0(%in: f32, %b: f32, %out: f32):
    %d = arith.subf %in, %b : f32
    %x1 = math.exp %d : f32
    linalg.yield %x1 : f32
  }
  linalg.reduce { arith.addf } ins(%e : memref<128x100xf32>) outs(%y : memref<128xf32>) dimensions = [1]
  gpu.dealloc %e : memref<128x100xf32>
  return
}

// -----

// A producer whose buffer is read again keeps its kernel (4096 elements:
// the reduction is one block's).
// CHECK-LABEL: func.func @full_reduction_of_kept_producer
// CHECK: gpu.launch
// CHECK: arith.mulf
// CHECK: gpu.launch
// CHECK-NOT: gpu.launch
// CHECK: return
func.func @full_reduction_of_kept_producer(%x: memref<4096xf32>, %y: memref<f32>, %z: memref<4096xf32>) {
  %q = gpu.alloc () : memref<4096xf32>
  linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%x : memref<4096xf32>) outs(%q : memref<4096xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.mulf %in, %in : f32
    linalg.yield %s : f32
  }
  linalg.reduce { arith.addf } ins(%q : memref<4096xf32>) outs(%y : memref<f32>) dimensions = [0]
  gpu.memcpy %z, %q : memref<4096xf32>, memref<4096xf32>
  gpu.dealloc %q : memref<4096xf32>
  return
}

// -----

// A full reduction of a static count one block takes whole (1000 elements:
// at most 4096) is that block alone: one kernel of 256 threads, a tree in
// shared memory, thread 0 combining the fill's value and storing through
// the epilogue (a mean's scale). Below 256 elements one thread loops.
// CHECK-LABEL: func.func @one_block_reduction
// CHECK-SAME: (%[[X:.*]]: memref<1000xf32>, %[[Y:.*]]: memref<f32>, %[[S:.*]]: memref<100xf32>, %[[Z:.*]]: memref<f32>)
// CHECK-NOT: gpu.alloc
// CHECK: gpu.launch blocks({{.*}}) in (%{{.*}} = %c1{{.*}}, {{.*}} threads({{.*}}) in (%{{.*}} = %c256{{.*}}, {{.*}} workgroup(%{{.*}} : memref<256xf32, #gpu.address_space<workgroup>>)
// CHECK: memref.load %[[X]]
// CHECK: gpu.barrier
// CHECK: arith.mulf
// CHECK: memref.store %{{.*}}, %[[Y]][]
// CHECK: gpu.launch blocks({{.*}}) in (%{{.*}} = %c1{{.*}}, {{.*}} threads({{.*}}) in (%{{.*}} = %c1{{.*}},
// CHECK: scf.for
// CHECK: memref.load %[[S]]
// CHECK-NOT: gpu.launch
// CHECK: return
func.func @one_block_reduction(%x: memref<1000xf32>, %y: memref<f32>, %s: memref<100xf32>, %z: memref<f32>) {
  %zero = arith.constant 0.0 : f32
  %scale = arith.constant 1.0e-3 : f32
  linalg.fill ins(%zero : f32) outs(%y : memref<f32>)
  linalg.reduce { arith.addf } ins(%x : memref<1000xf32>) outs(%y : memref<f32>) dimensions = [0]
  linalg.generic {indexing_maps = [affine_map<() -> ()>], iterator_types = []} outs(%y : memref<f32>) {
  ^bb0(%out: f32):
    %m = arith.mulf %out, %scale : f32
    linalg.yield %m : f32
  }
  linalg.fill ins(%zero : f32) outs(%z : memref<f32>)
  linalg.reduce { arith.addf } ins(%s : memref<100xf32>) outs(%z : memref<f32>) dimensions = [0]
  return
}

// -----

// A reduction whose body computes what it adds from each element (a
// gather's index check: how many indices are out of range) is a reduction
// like the others: one block of 256 threads, each element tested where it
// is read, the fill taken in. It was one thread looping over every index.
// CHECK-LABEL: func.func @count_out_of_range
// CHECK-SAME: (%[[IDS:.*]]: memref<4x64xi64>, %[[COUNT:.*]]: memref<i64>)
// CHECK: gpu.launch blocks({{.*}}) in (%{{.*}} = %c1{{.*}}, {{.*}} threads({{.*}}) in (%{{.*}} = %c256{{.*}}, {{.*}} workgroup(%{{.*}} : memref<256xi64, #gpu.address_space<workgroup>>)
// CHECK: memref.load %[[IDS]]
// CHECK: arith.cmpi slt
// CHECK: arith.cmpi sge
// CHECK: arith.extui
// CHECK: gpu.barrier
// CHECK: memref.store %{{.*}}, %[[COUNT]][]
// CHECK-NOT: gpu.launch
// CHECK: return
func.func @count_out_of_range(%ids: memref<4x64xi64>, %count: memref<i64>) {
  %zero = arith.constant 0 : i64
  %low = arith.constant -96 : i64
  %high = arith.constant 96 : i64
  linalg.fill ins(%zero : i64) outs(%count : memref<i64>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>], iterator_types = ["reduction", "reduction"]} ins(%ids : memref<4x64xi64>) outs(%count : memref<i64>) {
  ^bb0(%in: i64, %out: i64):
    %below = arith.cmpi slt, %in, %low : i64
    %above = arith.cmpi sge, %in, %high : i64
    %outside = arith.ori %below, %above : i1
    %one = arith.extui %outside : i1 to i64
    %sum = arith.addi %out, %one : i64
    linalg.yield %sum : i64
  }
  return
}

// -----

// A matmul spanning whole blocks (here dynamic) goes through shared memory:
// each block of 16x16 threads owns a 64x64 tile of C and walks K in slices
// of 16. Per slice its threads stage the slices of A (64x16) and B (16x64)
// in shared memory (rows padded by one), wait at a barrier, update their
// 4x4 tiles in registers from shared memory (steps unrolled by 4, then the
// remainder), and wait again before the next slice overwrites it. Stores
// are guarded to the elements in range.
// CHECK-LABEL: func.func @matmul_shared_tiles
// CHECK-SAME: (%[[A:.*]]: memref<?x?xf32>, %[[B:.*]]: memref<?x?xf32>, %[[C:.*]]: memref<?x?xf32>)
// CHECK: %[[M:.*]] = memref.dim %[[A]], %{{.*}}
// CHECK: %[[K:.*]] = memref.dim %[[A]], %{{.*}}
// CHECK: memref.dim %[[B]], %{{.*}}
// CHECK: %[[N:.*]] = memref.dim %[[B]], %{{.*}}
// CHECK: %[[TILES_M:.*]] = arith.ceildivsi %[[M]], %{{.*}} : index
// CHECK: %[[TILES_N:.*]] = arith.ceildivsi %[[N]], %{{.*}} : index
// CHECK: %[[BLOCKS:.*]] = arith.muli %[[TILES_M]], %[[TILES_N]] : index
// CHECK: %[[C16:.*]] = arith.constant 16 : index
// CHECK: gpu.launch blocks({{.*}}) in (%{{.*}} = %[[BLOCKS]], {{.*}}) threads({{.*}}) in (%{{.*}} = %[[C16]], {{.*}}) workgroup(%[[SA:.*]] : memref<64x17xf32, #gpu.address_space<workgroup>>, %[[SB:.*]] : memref<16x65xf32, #gpu.address_space<workgroup>>)
// CHECK-COUNT-16: memref.load %[[C]]
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[K]] step %{{.*}} iter_args({{.*}}) -> (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)
// CHECK-COUNT-4: memref.store %{{.*}}, %[[SA]]
// CHECK-COUNT-4: memref.store %{{.*}}, %[[SB]]
// CHECK-NEXT: gpu.barrier
// CHECK: scf.for {{.*}} -> (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)
// CHECK-COUNT-4: memref.load %[[SA]]
// CHECK-COUNT-4: memref.load %[[SB]]
// CHECK-COUNT-64: arith.mulf
// CHECK: scf.yield
// CHECK: scf.for {{.*}} -> (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)
// CHECK-COUNT-16: arith.mulf
// CHECK: scf.yield
// CHECK-NEXT: }
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: scf.yield
// CHECK: arith.cmpi slt, %{{.*}}, %[[M]] : index
// CHECK: arith.cmpi slt, %{{.*}}, %[[N]] : index
// CHECK: scf.if
// CHECK-NEXT: memref.store %{{.*}}, %[[C]]
// CHECK-NOT: linalg.matmul
func.func @matmul_shared_tiles(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>) {
  linalg.matmul ins(%a, %b : memref<?x?xf32>, memref<?x?xf32>) outs(%c : memref<?x?xf32>)
  return
}

// -----

// With B transposed, the block's threads stage B's slice along k (its
// innermost dimension), 16 consecutive elements of a row of B^T at a time.
// CHECK-LABEL: func.func @matmul_shared_tiles_transposed
// CHECK-SAME: %[[BT:[a-z0-9]+]]: memref<128x?xf16>
// CHECK: gpu.launch {{.*}} workgroup(%[[SA:.*]] : memref<64x17xf16, #gpu.address_space<workgroup>>, %[[SB:.*]] : memref<16x65xf16, #gpu.address_space<workgroup>>)
// CHECK: scf.for
// CHECK-COUNT-4: memref.store %{{.*}}, %[[SA]]
// CHECK: %[[C16:.*]] = arith.constant 16 : index
// CHECK-NEXT: %[[FAST:.*]] = arith.remsi %{{.*}}, %[[C16]] : index
// CHECK-NEXT: %[[C16_2:.*]] = arith.constant 16 : index
// CHECK-NEXT: %[[SLOW:.*]] = arith.divsi %{{.*}}, %[[C16_2]] : index
// CHECK: memref.load %[[BT]]
// CHECK-NEXT: memref.store %{{.*}}, %[[SB]][%[[FAST]], %[[SLOW]]]
#transposed = affine_map<(m, n, k) -> (n, k)>
func.func @matmul_shared_tiles_transposed(%a: memref<?x?xf16>, %bt: memref<128x?xf16>, %c: memref<?x128xf32>) {
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, #transposed, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %bt : memref<?x?xf16>, memref<128x?xf16>) outs(%c : memref<?x128xf32>) {
  ^bb0(%x: f16, %y: f16, %acc: f32):
    %xf = arith.extf %x : f16 to f32
    %yf = arith.extf %y : f16 to f32
    %p = arith.mulf %xf, %yf : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Below a block's tile (here M = 32), each thread owns a 4x4 tile of C, in
// registers across K: 16 accumulators, 4 loads of A and 4 of B per step at
// clamped indices, and stores guarded to the elements in range.
// CHECK-LABEL: func.func @matmul_register_tiles
// CHECK-SAME: (%[[A:.*]]: memref<32x?xf32>, %[[B:.*]]: memref<?x?xf32>, %[[C:.*]]: memref<32x?xf32>)
// CHECK: %[[K:.*]] = memref.dim %[[A]], %{{.*}}
// CHECK: %[[TILES_M:.*]] = arith.ceildivsi %[[M:.*]], %[[C4:.*]] : index
// CHECK: %[[TILES_N:.*]] = arith.ceildivsi %[[N:.*]], %{{.*}} : index
// CHECK: arith.muli %[[TILES_M]], %[[TILES_N]] : index
// CHECK: gpu.launch
// CHECK-NOT: workgroup
// CHECK: %[[TJ:.*]] = arith.remsi %{{.*}}, %[[TILES_N]] : index
// CHECK: arith.minsi
// CHECK-COUNT-16: memref.load %[[C]]
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[K]] step %{{.*}} iter_args({{.*}}) -> (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)
// CHECK-COUNT-4: memref.load %[[A]]
// CHECK-COUNT-4: memref.load %[[B]]
// CHECK-COUNT-16: arith.mulf
// CHECK: scf.yield
// CHECK: arith.cmpi slt, %{{.*}}, %[[M]] : index
// CHECK: arith.cmpi slt, %{{.*}}, %[[N]] : index
// CHECK: scf.if
// CHECK-NEXT: memref.store %{{.*}}, %[[C]]
// CHECK-NOT: linalg.matmul
func.func @matmul_register_tiles(%a: memref<32x?xf32>, %b: memref<?x?xf32>, %c: memref<32x?xf32>) {
  linalg.matmul ins(%a, %b : memref<32x?xf32>, memref<?x?xf32>) outs(%c : memref<32x?xf32>)
  return
}

// -----

// A small static output shrinks the tile so that it gives more threads
// (here 6 elements: one per thread); a batch dimension is one more
// coordinate of the thread.
// CHECK-LABEL: func.func @batch_matmul_small_tiles
// CHECK: gpu.launch
// CHECK: scf.for {{.*}} -> (f32) {
// CHECK-COUNT-1: memref.load %{{.*}} : memref<2x1x5xf32>
// CHECK-COUNT-1: memref.load %{{.*}} : memref<2x5x3xf32>
// CHECK-NEXT: arith.mulf
func.func @batch_matmul_small_tiles(%a: memref<2x1x5xf32>, %b: memref<2x5x3xf32>, %c: memref<2x1x3xf32>) {
  linalg.batch_matmul ins(%a, %b : memref<2x1x5xf32>, memref<2x5x3xf32>) outs(%c : memref<2x1x3xf32>)
  return
}

// -----

// A contraction written as a generic with B transposed reads B at (n, k).
// CHECK-LABEL: func.func @generic_contraction_transposed
// CHECK-SAME: %[[BT:[a-z0-9]+]]: memref<8x16xi32>
// CHECK: scf.for %[[KV:[a-z0-9_]+]] = {{.*}} -> (i32)
// CHECK: memref.load %[[BT]][%{{.*}}, %[[KV]]] : memref<8x16xi32>
// CHECK: arith.muli
// CHECK: arith.addi
func.func @generic_contraction_transposed(%a: memref<4x16xi32>, %bt: memref<8x16xi32>, %c: memref<4x8xi32>) {
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %bt : memref<4x16xi32>, memref<8x16xi32>) outs(%c : memref<4x8xi32>) {
  ^bb0(%x: i32, %y: i32, %acc: i32):
    %p = arith.muli %x, %y : i32
    %s = arith.addi %acc, %p : i32
    linalg.yield %s : i32
  }
  return
}

// -----

// matmul_bias_relu as one kernel: the fill starts the accumulators and the
// bias + relu epilogue is applied to each element before its one store.
// CHECK-LABEL: func.func @fused_fill_matmul_epilogue
// CHECK-SAME: (%[[A:.*]]: memref<?x64xf32>, %[[B:.*]]: memref<64x32xf32>, %[[BIAS:.*]]: memref<32xf32>, %[[C:.*]]: memref<?x32xf32>)
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: gpu.launch
// CHECK-NOT: memref.load %[[C]]
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %[[ZERO]], %{{.*}} = %[[ZERO]],
// CHECK: scf.if
// CHECK-NEXT: %[[BIAS_J:.*]] = memref.load %[[BIAS]][%{{.*}}] : memref<32xf32>
// CHECK-NEXT: %[[SUM:.*]] = arith.addf %{{.*}}, %[[BIAS_J]] : f32
// CHECK-NEXT: %[[RELU:.*]] = arith.maximumf %[[SUM]], %[[ZERO]] : f32
// CHECK-NEXT: memref.store %[[RELU]], %[[C]]
// CHECK: gpu.terminator
// CHECK-NOT: gpu.launch
// CHECK-NOT: linalg.
func.func @fused_fill_matmul_epilogue(%a: memref<?x64xf32>, %b: memref<64x32xf32>, %bias: memref<32xf32>, %c: memref<?x32xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<?x32xf32>)
  linalg.matmul ins(%a, %b : memref<?x64xf32>, memref<64x32xf32>) outs(%c : memref<?x32xf32>)
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%c, %bias : memref<?x32xf32>, memref<32xf32>) outs(%c : memref<?x32xf32>) {
  ^bb0(%x: f32, %y: f32, %out: f32):
    %s = arith.addf %x, %y : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// A small output over a long K (here 32x256 over 784, as an MLP's first
// layer at batch 32) splits K: blocks of 32 outputs x 8 chunks of K; each
// thread sums its chunk (from -0, the identity of addf) into shared memory,
// and after a barrier the chunks' first threads add the partials to the
// fill's value in order and store through the epilogue.
// CHECK-LABEL: func.func @split_k
// CHECK-SAME: (%[[A:.*]]: memref<32x784xf32>, %[[B:.*]]: memref<784x256xf32>, %[[BIAS:.*]]: memref<256xf32>, %[[C:.*]]: memref<32x256xf32>)
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[BLOCKS:.*]] = arith.ceildivsi %{{.*}}, %[[C32:c32[_0-9]*]] : index
// CHECK: gpu.launch blocks(%[[BX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %[[BLOCKS]], {{.*}} threads(%[[TX:.*]], %[[TY:.*]], %{{.*}}) in (%{{.*}} = %[[C32]], %{{.*}} = %[[C8:.*]], %{{.*}}) workgroup(%[[PARTIALS:.*]] : memref<8x32xf32, #gpu.address_space<workgroup>>)
// CHECK: %[[CHUNK:.*]] = arith.ceildivsi %{{.*}}, %{{.*}} : index
// CHECK: %[[BEGIN:.*]] = arith.muli %[[TY]], %[[CHUNK]] : index
// CHECK: %[[NEG_ZERO:.*]] = arith.constant -0.000000e+00 : f32
// CHECK: %[[SUM:.*]] = scf.for %{{.*}} = %[[BEGIN]] to %{{.*}} iter_args(%{{.*}} = %[[NEG_ZERO]]) -> (f32)
// CHECK-COUNT-4: arith.mulf
// CHECK: %[[ALL:.*]] = scf.for
// CHECK: memref.store %[[ALL]], %[[PARTIALS]][%[[TY]], %[[TX]]]
// CHECK-NEXT: gpu.barrier
// CHECK: scf.if
// CHECK: %[[P0:.*]] = memref.load %[[PARTIALS]][%{{.*}}, %[[TX]]]
// CHECK-NEXT: arith.addf %[[ZERO]], %[[P0]] : f32
// CHECK-COUNT-7: memref.load %[[PARTIALS]]
// CHECK: arith.maximumf
// CHECK: memref.store %{{.*}}, %[[C]]
// CHECK: gpu.terminator
// CHECK-NOT: gpu.launch
func.func @split_k(%a: memref<32x784xf32>, %b: memref<784x256xf32>, %bias: memref<256xf32>, %c: memref<32x256xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<32x256xf32>)
  linalg.matmul ins(%a, %b : memref<32x784xf32>, memref<784x256xf32>) outs(%c : memref<32x256xf32>)
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%c, %bias : memref<32x256xf32>, memref<256xf32>) outs(%c : memref<32x256xf32>) {
  ^bb0(%x: f32, %y: f32, %out: f32):
    %s = arith.addf %x, %y : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// A split K of integers adds up from 0; without a fill the partials are
// added to C's element.
// CHECK-LABEL: func.func @split_k_accumulates
// CHECK: gpu.launch
// CHECK-SAME: workgroup(%[[PARTIALS:.*]] : memref<2x32xi32, #gpu.address_space<workgroup>>)
// CHECK: %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %[[ZERO]]) -> (i32)
// CHECK: scf.if
// CHECK: %[[OLD:.*]] = memref.load %arg2
// CHECK: %[[P0:.*]] = memref.load %[[PARTIALS]]
// CHECK-NEXT: arith.addi %[[OLD]], %[[P0]] : i32
func.func @split_k_accumulates(%a: memref<3x5x128xi32>, %b: memref<3x128x7xi32>, %c: memref<3x5x7xi32>) {
  linalg.batch_matmul ins(%a, %b : memref<3x5x128xi32>, memref<3x128x7xi32>) outs(%c : memref<3x5x7xi32>)
  return
}

// -----

// The product is returned too, so the epilogue cannot replace its stores:
// two kernels.
// CHECK-LABEL: func.func @negative_product_used_later
// CHECK-COUNT-2: gpu.launch
func.func @negative_product_used_later(%a: memref<4x8xf32>, %b: memref<8x4xf32>, %c: memref<4x4xf32>, %d: memref<4x4xf32>) -> memref<4x4xf32> {
  linalg.matmul ins(%a, %b : memref<4x8xf32>, memref<8x4xf32>) outs(%c : memref<4x4xf32>)
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%c : memref<4x4xf32>) outs(%d : memref<4x4xf32>) {
  ^bb0(%x: f32, %out: f32):
    %n = arith.negf %x : f32
    linalg.yield %n : f32
  }
  return %c : memref<4x4xf32>
}

// -----

// The product is a result the caller reads (an out-parameter) while the
// epilogue writes another: two kernels. (Fusing them lost the product:
// e2e matmul-blocks @shared_product.)
// CHECK-LABEL: func.func @negative_product_is_an_argument
// CHECK-COUNT-2: gpu.launch
func.func @negative_product_is_an_argument(%a: memref<4x8xf32>, %b: memref<8x4xf32>, %c: memref<4x4xf32>, %d: memref<4x4xf32>) {
  linalg.matmul ins(%a, %b : memref<4x8xf32>, memref<8x4xf32>) outs(%c : memref<4x4xf32>)
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%c : memref<4x4xf32>) outs(%d : memref<4x4xf32>) {
  ^bb0(%x: f32, %out: f32):
    %e = math.exp %x : f32
    linalg.yield %e : f32
  }
  return
}

// -----

// A product in a buffer of its own, dead after the epilogue: one kernel
// that writes only the epilogue's output.
// CHECK-LABEL: func.func @fused_into_another_buffer
// CHECK-COUNT-1: gpu.launch
// CHECK-NOT: gpu.launch
func.func @fused_into_another_buffer(%a: memref<4x8xf32>, %b: memref<8x4xf32>, %d: memref<4x4xf32>) {
  %c = gpu.alloc () : memref<4x4xf32>
  linalg.matmul ins(%a, %b : memref<4x8xf32>, memref<8x4xf32>) outs(%c : memref<4x4xf32>)
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%c : memref<4x4xf32>) outs(%d : memref<4x4xf32>) {
  ^bb0(%x: f32, %out: f32):
    %e = math.exp %x : f32
    linalg.yield %e : f32
  }
  memref.dealloc %c : memref<4x4xf32>
  return
}

// -----

// The copy that buffer deallocation adds for a returned argument is made on
// the device.
// CHECK-LABEL: func.func @clone_on_device
// CHECK-SAME: (%[[X:.*]]: memref<?xf32>)
// CHECK: %[[N:.*]] = memref.dim %[[X]]
// CHECK: %[[COPY:.*]] = gpu.alloc (%[[N]]) : memref<?xf32>
// CHECK: gpu.memcpy %[[COPY]], %[[X]]
// CHECK: return %[[COPY]]
func.func @clone_on_device(%x: memref<?xf32>) -> memref<?xf32> {
  %c = bufferization.clone %x : memref<?xf32> to memref<?xf32>
  return %c : memref<?xf32>
}

// -----

// A strided copy is a kernel.
// CHECK-LABEL: func.func @strided_copy_kernel
// CHECK: gpu.launch
// CHECK: memref.load %{{.*}} : memref<2x3xf32, strided<[4, 1]>>
// CHECK: memref.store
func.func @strided_copy_kernel(%x: memref<2x3xf32, strided<[4, 1]>>, %y: memref<2x3xf32>) {
  linalg.copy ins(%x : memref<2x3xf32, strided<[4, 1]>>) outs(%y : memref<2x3xf32>)
  return
}

// -----

// Softmax's ops over the same rows (max, exp, sum, divide) run in one
// kernel with a block per row: fills on thread 0 between barriers, block
// reductions (a barrier after each, then every thread reads the row's
// value), elementwise steps strided along the row without barriers (each
// thread reads what it wrote).
// CHECK-LABEL: func.func @row_chain
// CHECK-SAME: (%[[X:.*]]: memref<64x1024xf32>, %[[Y:.*]]: memref<64x1024xf32>)
// CHECK: %[[ROW:.*]] = gpu.alloc () : memref<64xf32>
// CHECK-NOT: linalg.
// CHECK: gpu.launch blocks(%[[BX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %c64, {{.*}} threads(%[[TX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %c256, {{.*}} workgroup(%[[MAX:.*]] : memref<256xf32, #gpu.address_space<workgroup>>, %[[SUM:.*]] : memref<256xf32, #gpu.address_space<workgroup>>)
// CHECK: scf.if
// CHECK-NEXT: memref.store %{{.*}}, %[[ROW]][%[[BX]]]
// CHECK: gpu.barrier
// CHECK: arith.maxnumf
// CHECK: memref.store %{{.*}}, %[[MAX]][%[[TX]]]
// CHECK-COUNT-8: gpu.barrier
// CHECK: memref.store %{{.*}}, %[[ROW]][%[[BX]]]
// CHECK-NEXT: }
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: scf.for %[[J:.*]] = %[[TX]] to %{{.*}} step %{{.*}} {
// CHECK: math.exp
// CHECK: memref.store %{{.*}}, %[[Y]][%[[BX]], %[[J]]]
// CHECK: gpu.barrier
// CHECK: memref.store %{{.*}}, %[[SUM]][%[[TX]]]
// CHECK: scf.for %[[J2:.*]] = %[[TX]] to
// CHECK: arith.divf
// CHECK: memref.store %{{.*}}, %[[Y]][%[[BX]], %[[J2]]]
// CHECK: gpu.terminator
// CHECK-NOT: gpu.launch
func.func @row_chain(%x: memref<64x1024xf32>, %y: memref<64x1024xf32>) {
  %zero = arith.constant 0.0 : f32
  %low = arith.constant 0xFF800000 : f32
  %row = gpu.alloc () : memref<64xf32>
  linalg.fill ins(%low : f32) outs(%row : memref<64xf32>)
  linalg.reduce { arith.maxnumf } ins(%x : memref<64x1024xf32>) outs(%row : memref<64xf32>) dimensions = [1]
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %row : memref<64x1024xf32>, memref<64xf32>) outs(%y : memref<64x1024xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %d = arith.subf %in, %m : f32
    %e = math.exp %d : f32
    linalg.yield %e : f32
  }
  linalg.fill ins(%zero : f32) outs(%row : memref<64xf32>)
  linalg.reduce { arith.addf } ins(%y : memref<64x1024xf32>) outs(%row : memref<64xf32>) dimensions = [1]
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%y, %row : memref<64x1024xf32>, memref<64xf32>) outs(%y : memref<64x1024xf32>) {
  ^bb0(%in: f32, %s: f32, %out: f32):
    %q = arith.divf %in, %s : f32
    linalg.yield %q : f32
  }
  gpu.dealloc %row : memref<64xf32>
  return
}

// -----

// A step that reads a buffer the chain writes at other elements than its
// own (here the transpose of the differences) would race with the threads
// writing them: the chain ends before it, which gets a kernel of its own
// (the transpose kernel, map-to-gpu-transpose.mlir).
// CHECK-LABEL: func.func @row_chain_ends_before_transposed_read
// CHECK: gpu.launch {{.*}} workgroup
// CHECK: gpu.launch {{.*}} workgroup(%{{.*}} : memref<32x33xf32, #gpu.address_space<workgroup>>)
// CHECK: memref.load %{{.*}}[%[[J:.*]], %[[I:.*]]] : memref<256x256xf32>
// CHECK-NOT: gpu.launch
func.func @row_chain_ends_before_transposed_read(%x: memref<256x256xf32>, %e: memref<256x256xf32>, %y: memref<256x256xf32>) {
  %row = gpu.alloc () : memref<256xf32>
  linalg.reduce { arith.maxnumf } ins(%x : memref<256x256xf32>) outs(%row : memref<256xf32>) dimensions = [1]
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %row : memref<256x256xf32>, memref<256xf32>) outs(%e : memref<256x256xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %d = arith.subf %in, %m : f32
    linalg.yield %d : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%e : memref<256x256xf32>) outs(%y : memref<256x256xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  gpu.dealloc %row : memref<256xf32>
  return
}

// -----

// A static f32 matmul in whole 64x64 tiles gets vector tiles: 16x16
// threads, slices of 16 of K staged through registers as vectors of 4 (A
// transposed into rows padded by 4, B as is), the next slice loaded from
// global memory while the current one is computed from shared memory
// (vectors of 4, aligned), products accumulated with `contract` (fused
// multiply-adds on the GPU).
// The vectors of 16 bytes need A and B to start at multiples of 16 bytes:
// checked before the launch, a shared-tile kernel otherwise.
// CHECK-LABEL: func.func @matmul_vector_tiles
// CHECK-SAME: (%[[A:.*]]: memref<256x64xf32>, %[[B:.*]]: memref<64x512xf32>, %[[C:.*]]: memref<256x512xf32>)
// CHECK: %[[C16:.*]] = arith.constant 16 : index
// CHECK: %[[PA:.*]] = memref.extract_aligned_pointer_as_index %[[A]]
// CHECK: arith.remui %[[PA]], %[[C16]]
// CHECK: %[[PB:.*]] = memref.extract_aligned_pointer_as_index %[[B]]
// CHECK: arith.remui %[[PB]], %[[C16]]
// CHECK: %[[ALIGNED:.*]] = arith.andi
// CHECK: scf.if %[[ALIGNED]] {
// CHECK: gpu.launch {{.*}} threads({{.*}}) in (%{{.*}} = %c16{{.*}}, %{{.*}} = %c16{{.*}}, {{.*}} workgroup(%[[SA:.*]] : memref<16x68xf32, #gpu.address_space<workgroup>>, %[[SB:.*]] : memref<16x64xf32, #gpu.address_space<workgroup>>)
// CHECK: %[[VA:.*]] = vector.load %[[A]][{{.*}}] {alignment = 16 : i64} : memref<256x64xf32>, vector<4xf32>
// CHECK: %[[VB:.*]] = vector.load %[[B]][{{.*}}] {alignment = 16 : i64} : memref<64x512xf32>, vector<4xf32>
// CHECK-COUNT-4: memref.store %{{.*}}, %[[SA]]
// CHECK: vector.store %[[VB]], %[[SB]][{{.*}}] {alignment = 16 : i64}
// CHECK: gpu.barrier
// CHECK: scf.for {{.*}} -> (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)
// CHECK: vector.load %[[A]]
// CHECK: vector.load %[[B]]
// CHECK: vector.load %[[SA]][{{.*}}] {alignment = 16 : i64}
// CHECK: vector.load %[[SB]][{{.*}}] {alignment = 16 : i64}
// CHECK: arith.mulf %{{.*}}, %{{.*}} fastmath<contract> : f32
// CHECK-NEXT: arith.addf %{{.*}}, %{{.*}} fastmath<contract> : f32
// CHECK: gpu.barrier
// CHECK-COUNT-4: memref.store %{{.*}}, %[[SA]]
// CHECK: vector.store
// CHECK-NEXT: gpu.barrier
// CHECK: memref.store %{{.*}}, %[[C]]
// CHECK: } else {
// CHECK: gpu.launch {{.*}} workgroup(%{{.*}} : memref<64x17xf32, #gpu.address_space<workgroup>>, %{{.*}} : memref<16x65xf32, #gpu.address_space<workgroup>>)
func.func @matmul_vector_tiles(%a: memref<256x64xf32>, %b: memref<64x512xf32>, %c: memref<256x512xf32>) {
  linalg.matmul ins(%a, %b : memref<256x64xf32>, memref<64x512xf32>) outs(%c : memref<256x512xf32>)
  return
}

// -----

// A^T (K x M) and B^T (N x K): each loaded along its innermost dimension,
// A^T's vectors stored as they are (no padding) and B^T's transposed into
// rows padded by 4.
// CHECK-LABEL: func.func @matmul_vector_tiles_transposed
// CHECK-SAME: (%[[A:.*]]: memref<64x256xf32>, %[[B:.*]]: memref<512x64xf32>,
// CHECK: gpu.launch {{.*}} workgroup(%[[SA:.*]] : memref<16x64xf32, #gpu.address_space<workgroup>>, %[[SB:.*]] : memref<16x68xf32, #gpu.address_space<workgroup>>)
// CHECK: %[[VA:.*]] = vector.load %[[A]][{{.*}}] {alignment = 16 : i64} : memref<64x256xf32>, vector<4xf32>
// CHECK: %[[VB:.*]] = vector.load %[[B]][{{.*}}] {alignment = 16 : i64} : memref<512x64xf32>, vector<4xf32>
// CHECK: vector.store %[[VA]], %[[SA]][{{.*}}] {alignment = 16 : i64}
// CHECK-COUNT-4: memref.store %{{.*}}, %[[SB]]
// CHECK: gpu.barrier
func.func @matmul_vector_tiles_transposed(%a: memref<64x256xf32>, %b: memref<512x64xf32>, %c: memref<256x512xf32>) {
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : memref<64x256xf32>, memref<512x64xf32>) outs(%c : memref<256x512xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// The epilogue reads a view made between the matmul and it (a residual
// collapsed to the product's shape, as bufferization places it): the view
// goes before the matmul, where the kernel (shared tiles, dynamic M) is
// built, so that it dominates its use in the kernel.
// CHECK-LABEL: func.func @epilogue_reads_later_view
// CHECK-SAME: (%[[A:.*]]: memref<?x64xf32>, %{{.*}}: memref<64x64xf32>, %[[X:.*]]: memref<?x2x64xf32>, %[[C:.*]]: memref<?x64xf32>)
// CHECK: %[[R:.*]] = memref.collapse_shape %[[X]]
// CHECK: gpu.launch
// CHECK: memref.load %[[R]]
// CHECK: memref.store %{{.*}}, %[[C]]
// CHECK-NOT: gpu.launch
func.func @epilogue_reads_later_view(%a: memref<?x64xf32>, %b: memref<64x64xf32>, %x: memref<?x2x64xf32>, %c: memref<?x64xf32>) {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %m = memref.dim %a, %c0 : memref<?x64xf32>
  %p = memref.alloc(%m) : memref<?x64xf32>
  linalg.fill ins(%zero : f32) outs(%p : memref<?x64xf32>)
  linalg.matmul ins(%a, %b : memref<?x64xf32>, memref<64x64xf32>) outs(%p : memref<?x64xf32>)
  %r = memref.collapse_shape %x [[0, 1], [2]] : memref<?x2x64xf32> into memref<?x64xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%r, %p : memref<?x64xf32>, memref<?x64xf32>) outs(%c : memref<?x64xf32>) {
  ^bb0(%in: f32, %prod: f32, %out: f32):
    %s = arith.addf %in, %prod : f32
    linalg.yield %s : f32
  }
  memref.dealloc %p : memref<?x64xf32>
  return
}

// -----

// Consecutive elementwise ops over the same elements run as one kernel: a
// thread computes its element of each op in turn, reading what the earlier
// ones computed from registers. x is loaded once; the fresh buffer only
// they use is neither written nor allocated; the results are stored once.
// CHECK-LABEL: func.func @elementwise_run
// CHECK-SAME: (%[[X:.*]]: memref<64x96xf32>, %[[Y:.*]]: memref<64x96xf32>, %[[A:.*]]: memref<64x96xf32>, %[[B:.*]]: memref<64x96xf32>)
// CHECK-NOT: gpu.alloc
// CHECK: gpu.launch
// CHECK: memref.load %[[X]]
// CHECK-NOT: memref.load %[[X]]
// CHECK: math.exp
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK-DAG: memref.store %{{.*}}, %[[A]]
// CHECK-DAG: memref.store %{{.*}}, %[[B]]
// CHECK-NOT: gpu.launch
// CHECK-NOT: gpu.dealloc
// CHECK: return
func.func @elementwise_run(%x: memref<64x96xf32>, %y: memref<64x96xf32>, %a: memref<64x96xf32>, %b: memref<64x96xf32>) {
  %t = gpu.alloc () : memref<64x96xf32>
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%x : memref<64x96xf32>) outs(%t : memref<64x96xf32>) {
  ^bb0(%in: f32, %out: f32):
    %e = math.exp %in : f32
    linalg.yield %e : f32
  }
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%t, %y : memref<64x96xf32>, memref<64x96xf32>) outs(%a : memref<64x96xf32>) {
  ^bb0(%in: f32, %in2: f32, %out: f32):
    %m = arith.mulf %in, %in2 : f32
    linalg.yield %m : f32
  }
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%t, %a : memref<64x96xf32>, memref<64x96xf32>) outs(%b : memref<64x96xf32>) {
  ^bb0(%in: f32, %in2: f32, %out: f32):
    %s = arith.addf %in, %in2 : f32
    linalg.yield %s : f32
  }
  gpu.dealloc %t : memref<64x96xf32>
  return
}

// -----

// A run ends where an op reads what it wrote at another element (here
// transposed), or writes a second view of a buffer it writes.
// CHECK-LABEL: func.func @elementwise_run_breaks
// CHECK-COUNT-2: gpu.launch
// CHECK-NOT: gpu.launch
// CHECK-LABEL: func.func @elementwise_run_views
// CHECK-COUNT-2: gpu.launch
// CHECK-NOT: gpu.launch
func.func @elementwise_run_breaks(%x: memref<48x48xf32>, %a: memref<48x48xf32>, %b: memref<48x48xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%x : memref<48x48xf32>) outs(%a : memref<48x48xf32>) {
  ^bb0(%in: f32, %out: f32):
    %e = math.tanh %in : f32
    linalg.yield %e : f32
  }
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (j, i)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%a : memref<48x48xf32>) outs(%b : memref<48x48xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.mulf %in, %in : f32
    linalg.yield %m : f32
  }
  return
}
func.func @elementwise_run_views(%x: memref<8x16xf32>, %a: memref<16x16xf32>) {
  %top = memref.subview %a[0, 0] [8, 16] [1, 1] : memref<16x16xf32> to memref<8x16xf32, strided<[16, 1]>>
  %shifted = memref.subview %a[4, 0] [8, 16] [1, 1] : memref<16x16xf32> to memref<8x16xf32, strided<[16, 1], offset: 64>>
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%x : memref<8x16xf32>) outs(%top : memref<8x16xf32, strided<[16, 1]>>) {
  ^bb0(%in: f32, %out: f32):
    %e = math.tanh %in : f32
    linalg.yield %e : f32
  }
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%x : memref<8x16xf32>) outs(%shifted : memref<8x16xf32, strided<[16, 1], offset: 64>>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.mulf %in, %in : f32
    linalg.yield %m : f32
  }
  return
}

// -----

// A step whose payload loads from a buffer (a gather: here row 0's
// maximum, which another thread computes) joins no row chain and no
// reduction kernel: the reduction and the op keep their own kernels.
// CHECK-LABEL: func.func @gather_step
// CHECK-COUNT-2: gpu.launch
// CHECK-NOT: gpu.launch
// CHECK: return
func.func @gather_step(%x: memref<128x10xf32>, %y: memref<128x10xf32>) {
  %ninf = arith.constant 0xFF800000 : f32
  %m = gpu.alloc () : memref<128xf32>
  linalg.fill ins(%ninf : f32) outs(%m : memref<128xf32>)
  linalg.reduce { arith.maximumf } ins(%x : memref<128x10xf32>) outs(%m : memref<128xf32>) dimensions = [1]
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%x : memref<128x10xf32>) outs(%y : memref<128x10xf32>) {
  ^bb0(%in: f32, %out: f32):
    %c0 = arith.constant 0 : index
    %first = memref.load %m[%c0] : memref<128xf32>
    %d = arith.subf %in, %first : f32
    linalg.yield %d : f32
  }
  gpu.dealloc %m : memref<128xf32>
  return
}

// -----

// An epilogue whose payload loads from the product (here its first
// element, which the sequential loop updates first) reads what other
// threads store: it is not fused, and runs as a kernel of its own.
// CHECK-LABEL: func.func @epilogue_gathers_product
// CHECK-COUNT-2: gpu.launch
// CHECK-NOT: gpu.launch
// CHECK: return
func.func @epilogue_gathers_product(%a: memref<64x32xf32>, %b: memref<32x48xf32>, %c: memref<64x48xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<64x48xf32>)
  linalg.matmul ins(%a, %b : memref<64x32xf32>, memref<32x48xf32>) outs(%c : memref<64x48xf32>)
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%c : memref<64x48xf32>) outs(%c : memref<64x48xf32>) {
  ^bb0(%x: f32, %out: f32):
    %c0 = arith.constant 0 : index
    %first = memref.load %c[%c0, %c0] : memref<64x48xf32>
    %s = arith.addf %x, %first : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A half-precision matmul accumulates in f32 and narrows into a buffer
// allocated after it: the allocation moves before the kernel, which takes
// the narrowing in as its epilogue (one kernel; the f32 product is no
// buffer).
// CHECK-LABEL: func.func @epilogue_into_new_buffer
// CHECK: %[[OUT:.*]] = gpu.alloc () : memref<8x32xf16>
// CHECK: gpu.launch
// CHECK: arith.truncf
// CHECK: memref.store %{{.*}}, %[[OUT]]
// CHECK: gpu.terminator
// CHECK-NOT: gpu.launch
// CHECK-NOT: memref<8x32xf32>
// CHECK: return %[[OUT]]
func.func @epilogue_into_new_buffer(%a: memref<8x64xf16>, %b: memref<64x32xf16>) -> memref<8x32xf16> {
  %zero = arith.constant 0.0 : f32
  %c = gpu.alloc () : memref<8x32xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<8x32xf32>)
  linalg.matmul ins(%a, %b : memref<8x64xf16>, memref<64x32xf16>) outs(%c : memref<8x32xf32>)
  %out = gpu.alloc () : memref<8x32xf16>
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%c : memref<8x32xf32>) outs(%out : memref<8x32xf16>) {
  ^bb0(%x: f32, %o: f16):
    %t = arith.truncf %x : f32 to f16
    linalg.yield %t : f16
  }
  gpu.dealloc %c : memref<8x32xf32>
  return %out : memref<8x32xf16>
}

// -----

// A column reduction over a dynamic number of rows: the splits are chosen
// at run time (the static count is not computed from the dynamic extent).
// CHECK-LABEL: func.func @column_reduction_dynamic_rows
// CHECK: arith.ceildivsi
// CHECK: gpu.launch
// CHECK-SAME: workgroup
// CHECK: return
func.func @column_reduction_dynamic_rows(%x: memref<5x?x8xf32>, %y: memref<8xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%y : memref<8xf32>)
  linalg.reduce { arith.addf } ins(%x : memref<5x?x8xf32>) outs(%y : memref<8xf32>) dimensions = [0, 1]
  return
}

// -----

// A bias updated in place from its gradient's column sum (`b = b - db`,
// reading the element it replaces): the sum's kernel applies the update
// where it stores each column (one kernel, no buffer for db). Reading the
// bias at another element (here transposed) would read what other threads
// write: that update stays a kernel of its own.
// CHECK-LABEL: func.func @update_in_place
// CHECK-COUNT-1: gpu.launch
// CHECK-NOT: gpu.launch
// CHECK: return
// CHECK-LABEL: func.func @update_reads_other_elements
// CHECK-COUNT-2: gpu.launch
// CHECK-NOT: gpu.launch
// CHECK: return
func.func @update_in_place(%dy: memref<32x128xf32>, %b: memref<128xf32>) {
  %zero = arith.constant 0.0 : f32
  %db = gpu.alloc () : memref<128xf32>
  linalg.fill ins(%zero : f32) outs(%db : memref<128xf32>)
  linalg.reduce { arith.addf } ins(%dy : memref<32x128xf32>) outs(%db : memref<128xf32>) dimensions = [0]
  linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%b, %db : memref<128xf32>, memref<128xf32>) outs(%b : memref<128xf32>) {
  ^bb0(%p: f32, %g: f32, %o: f32):
    %d = arith.subf %p, %g : f32
    linalg.yield %d : f32
  }
  gpu.dealloc %db : memref<128xf32>
  return
}
func.func @update_reads_other_elements(%dy: memref<32x16x16xf32>, %b: memref<16x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %db = gpu.alloc () : memref<16x16xf32>
  linalg.fill ins(%zero : f32) outs(%db : memref<16x16xf32>)
  linalg.reduce { arith.addf } ins(%dy : memref<32x16x16xf32>) outs(%db : memref<16x16xf32>) dimensions = [0]
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (j, i)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%b, %db : memref<16x16xf32>, memref<16x16xf32>) outs(%b : memref<16x16xf32>) {
  ^bb0(%p: f32, %g: f32, %o: f32):
    %d = arith.subf %p, %g : f32
    linalg.yield %d : f32
  }
  gpu.dealloc %db : memref<16x16xf32>
  return
}

// -----

// The epilogue writes a view of A, which other threads still read: the
// contraction and the epilogue stay two kernels.
// CHECK-LABEL: func.func @epilogue_into_view_of_operand
// CHECK-COUNT-3: gpu.launch
// CHECK-NOT: gpu.launch
// CHECK: return
func.func @epilogue_into_view_of_operand(%a: memref<64x64xf32>, %b: memref<64x64xf32>) {
  %zero = arith.constant 0.0 : f32
  %c = gpu.alloc () : memref<64x64xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<64x64xf32>)
  linalg.matmul ins(%a, %b : memref<64x64xf32>, memref<64x64xf32>) outs(%c : memref<64x64xf32>)
  %view = memref.subview %a[0, 0] [64, 64] [1, 1] : memref<64x64xf32> to memref<64x64xf32, strided<[64, 1]>>
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%c : memref<64x64xf32>) outs(%view : memref<64x64xf32, strided<[64, 1]>>) {
  ^bb0(%x: f32, %out: f32):
    %r = arith.maximumf %x, %zero : f32
    linalg.yield %r : f32
  }
  gpu.dealloc %c : memref<64x64xf32>
  return
}

// -----

// The epilogue reads the product through a view at another element (the
// transpose), which another thread writes: two kernels.
// CHECK-LABEL: func.func @epilogue_reads_view_of_product
// CHECK-COUNT-3: gpu.launch
// CHECK-NOT: gpu.launch
// CHECK: return
func.func @epilogue_reads_view_of_product(%a: memref<64x64xf32>, %b: memref<64x64xf32>, %c: memref<64x64xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<64x64xf32>)
  linalg.matmul ins(%a, %b : memref<64x64xf32>, memref<64x64xf32>) outs(%c : memref<64x64xf32>)
  %view = memref.subview %c[0, 0] [64, 64] [1, 1] : memref<64x64xf32> to memref<64x64xf32, strided<[64, 1]>>
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j, i)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%c, %view : memref<64x64xf32>, memref<64x64xf32, strided<[64, 1]>>) outs(%c : memref<64x64xf32>) {
  ^bb0(%x: f32, %y: f32, %out: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  }
  return
}
