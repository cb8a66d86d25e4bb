// RUN: google-opt %s -split-input-file --google-map-to-gpu=warp-shuffles=1 | FileCheck %s

// With warp-shuffles (NVIDIA), softmax's rows of 1024 stay in registers:
// each of the 256 threads loads its 4 elements of x once; the exp values
// are not read back from y; each reduction combines the thread's values,
// then the warp's by 5 shuffles, then the 8 warps' through shared memory
// after one barrier; y is stored once, at the end, and the row buffer
// (fresh, used only by the chain) not at all.
// CHECK-LABEL: func.func @row_chain
// CHECK-SAME: (%[[X:.*]]: memref<64x1024xf32>, %[[Y:.*]]: memref<64x1024xf32>)
// CHECK: gpu.launch blocks(%[[BX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %c64, {{.*}} threads(%[[TX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %c256, {{.*}} workgroup(%[[MAX:.*]] : memref<8xf32, #gpu.address_space<workgroup>>, %[[SUM:.*]] : memref<8xf32, #gpu.address_space<workgroup>>)
// CHECK-COUNT-4: memref.load %[[X]][%[[BX]], %{{.*}}]
// CHECK-NOT: memref.load %[[X]]
// CHECK-COUNT-5: gpu.shuffle xor
// CHECK: memref.store %{{.*}}, %[[MAX]]
// CHECK-NEXT: }
// CHECK-NEXT: gpu.barrier
// CHECK-COUNT-8: memref.load %[[MAX]]
// CHECK-COUNT-4: math.exp
// CHECK-COUNT-5: gpu.shuffle xor
// CHECK: memref.store %{{.*}}, %[[SUM]]
// CHECK-NEXT: }
// CHECK-NEXT: gpu.barrier
// CHECK-COUNT-4: arith.divf
// CHECK-NOT: gpu.barrier
// CHECK-NOT: memref.load
// CHECK-COUNT-4: memref.store %{{.*}}, %[[Y]][%[[BX]], %{{.*}}]
// CHECK-NEXT: gpu.terminator
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

// Rows of 300: the second slot holds elements 256-299 only; its loads are
// clamped into the row, its values left out of the sum, its store guarded.
// The row's sum starts from the buffer's old value, which every thread
// reads: thread 0 stores the new one after a barrier (the buffer is an
// argument: others read it).
// CHECK-LABEL: func.func @partial_slot
// CHECK-SAME: (%[[X:.*]]: memref<4x300xf32>, %[[Y:.*]]: memref<4x300xf32>, %[[S:.*]]: memref<4xf32>)
// CHECK: gpu.launch blocks(%[[BX:.*]], %{{.*}}, %{{.*}}) in {{.*}} threads(%[[TX:.*]], %{{.*}}, %{{.*}}) in
// CHECK: %[[SECOND:.*]] = arith.addi %[[TX]], %c256
// CHECK: %[[IN:.*]] = arith.cmpi slt, %[[SECOND]], %c300
// CHECK: %[[CLAMPED:.*]] = arith.minsi %[[SECOND]], %c299
// CHECK: memref.load %[[X]][%[[BX]], %[[TX]]]
// CHECK: memref.load %[[X]][%[[BX]], %[[CLAMPED]]]
// CHECK: arith.select %[[IN]]
// CHECK: gpu.barrier
// CHECK: memref.load %[[S]][%[[BX]]]
// CHECK: gpu.barrier
// CHECK: arith.cmpi eq, %[[TX]], %c0
// CHECK: scf.if
// CHECK-NEXT: memref.store %{{.*}}, %[[S]][%[[BX]]]
// CHECK: memref.store %{{.*}}, %[[Y]][%[[BX]], %[[TX]]]
// CHECK: scf.if %[[IN]]
// CHECK-NEXT: memref.store %{{.*}}, %[[Y]][%[[BX]], %[[SECOND]]]
func.func @partial_slot(%x: memref<4x300xf32>, %y: memref<4x300xf32>, %s: memref<4xf32>) {
  linalg.reduce { arith.addf } ins(%x : memref<4x300xf32>) outs(%s : memref<4xf32>) dimensions = [1]
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %s : memref<4x300xf32>, memref<4xf32>) outs(%y : memref<4x300xf32>) {
  ^bb0(%in: f32, %t: f32, %out: f32):
    %q = arith.divf %in, %t : f32
    linalg.yield %q : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%y : memref<4x300xf32>) outs(%y : memref<4x300xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.mulf %in, %in : f32
    linalg.yield %m : f32
  }
  return
}

// -----

// Rows of 33-255 elements run a warp per row, 8 rows per block: lane l
// holds the row's elements l, l + 32, ... (here 4 slots, the last one
// clamped and guarded), a reduction is 5 shuffles (no shared memory, no
// barrier between steps). 12 rows leave the second block's last 4 warps
// without one: they work on the last row (every lane takes part in the
// shuffles) but store nothing. The sum starts from the buffer's old
// value, so the first lane stores the new one after a barrier.
// CHECK-LABEL: func.func @warp_rows
// CHECK-SAME: (%[[X:.*]]: memref<12x100xf32>, %[[Y:.*]]: memref<12x100xf32>, %[[S:.*]]: memref<12xf32>)
// CHECK: gpu.launch blocks(%[[BX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %c2, {{.*}} threads(%[[TX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %c256, %{{.*}} = %c1, %{{.*}} = %c1{{.*}}) {
// CHECK: %[[LANE:.*]] = arith.remui %[[TX]], %c32
// CHECK: %[[WARP:.*]] = arith.divui %[[TX]]
// CHECK: %[[FIRST:.*]] = arith.muli %[[BX]], %c8
// CHECK: %[[INDEX:.*]] = arith.addi %[[FIRST]], %[[WARP]]
// CHECK: %[[VALID:.*]] = arith.cmpi slt, %[[INDEX]], %c12
// CHECK: %[[ROW:.*]] = arith.minui %[[INDEX]], %c11
// CHECK-COUNT-4: memref.load %[[X]][%[[ROW]], %{{.*}}]
// CHECK-NOT: memref.load %[[X]]
// CHECK-NOT: gpu.barrier
// CHECK-COUNT-5: gpu.shuffle xor
// CHECK: memref.load %[[S]][%[[ROW]]]
// CHECK-COUNT-4: arith.divf
// CHECK-COUNT-4: arith.mulf
// CHECK: gpu.barrier
// CHECK: %[[IS_FIRST:.*]] = arith.cmpi eq, %[[LANE]], %c0
// CHECK: %[[STORE_ROW:.*]] = arith.andi %[[IS_FIRST]], %[[VALID]]
// CHECK: scf.if %[[STORE_ROW]]
// CHECK-NEXT: memref.store %{{.*}}, %[[S]][%[[ROW]]]
// CHECK: scf.if %[[VALID]]
// CHECK-NEXT: memref.store %{{.*}}, %[[Y]][%[[ROW]], %[[LANE]]]
// CHECK-COUNT-3: memref.store %{{.*}}, %[[Y]][%[[ROW]], %{{.*}}]
// CHECK-NEXT: }
// CHECK-NEXT: gpu.terminator
func.func @warp_rows(%x: memref<12x100xf32>, %y: memref<12x100xf32>, %s: memref<12xf32>) {
  linalg.reduce { arith.addf } ins(%x : memref<12x100xf32>) outs(%s : memref<12xf32>) dimensions = [1]
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %s : memref<12x100xf32>, memref<12xf32>) outs(%y : memref<12x100xf32>) {
  ^bb0(%in: f32, %t: f32, %out: f32):
    %q = arith.divf %in, %t : f32
    linalg.yield %q : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%y : memref<12x100xf32>) outs(%y : memref<12x100xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.mulf %in, %in : f32
    linalg.yield %m : f32
  }
  return
}

// -----

// A softmax over rows of 40 (a warp per row; 4 rows: one block of 4 warps)
// keeps its row values in registers: the buffer they were written to is
// gone with the chain.
// CHECK-LABEL: func.func @warp_softmax
// CHECK-NOT: gpu.alloc
// CHECK: gpu.launch blocks({{.*}}) in (%{{.*}} = %c1, {{.*}} threads({{.*}}) in (%{{.*}} = %c128,
// CHECK-NOT: workgroup
// CHECK-COUNT-10: gpu.shuffle xor
// CHECK-NOT: gpu.barrier
// CHECK: gpu.terminator
// CHECK-NOT: gpu.dealloc
// CHECK: return
func.func @warp_softmax(%x: memref<4x40xf32>, %y: memref<4x40xf32>) {
  %zero = arith.constant 0.0 : f32
  %low = arith.constant 0xFF800000 : f32
  %row = gpu.alloc () : memref<4xf32>
  linalg.fill ins(%low : f32) outs(%row : memref<4xf32>)
  linalg.reduce { arith.maxnumf } ins(%x : memref<4x40xf32>) outs(%row : memref<4xf32>) dimensions = [1]
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %row : memref<4x40xf32>, memref<4xf32>) outs(%y : memref<4x40xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %d = arith.subf %in, %m : f32
    %e = math.exp %d : f32
    linalg.yield %e : f32
  }
  linalg.fill ins(%zero : f32) outs(%row : memref<4xf32>)
  linalg.reduce { arith.addf } ins(%y : memref<4x40xf32>) outs(%row : memref<4xf32>) dimensions = [1]
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%y, %row : memref<4x40xf32>, memref<4xf32>) outs(%y : memref<4x40xf32>) {
  ^bb0(%in: f32, %s: f32, %out: f32):
    %q = arith.divf %in, %s : f32
    linalg.yield %q : f32
  }
  gpu.dealloc %row : memref<4xf32>
  return
}

// -----

// A reduction alone over rows of 33-255 takes a warp per row too (reads
// coalesced along the row), its fill taken in: one kernel, 5 shuffles,
// the first lane of each row's warp storing the sum.
// CHECK-LABEL: func.func @warp_reduction
// CHECK-SAME: (%[[X:.*]]: memref<64x100xf32>, %[[S:.*]]: memref<64xf32>)
// CHECK: gpu.launch blocks({{.*}}) in (%{{.*}} = %c8, {{.*}} threads(%[[TX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %c256,
// CHECK: %[[LANE:.*]] = arith.remui %[[TX]], %c32
// CHECK-COUNT-4: memref.load %[[X]]
// CHECK-COUNT-5: gpu.shuffle xor
// CHECK-NOT: gpu.barrier
// CHECK: arith.cmpi eq, %[[LANE]], %c0
// CHECK: memref.store %{{.*}}, %[[S]]
// CHECK-NOT: gpu.launch
// CHECK: return
func.func @warp_reduction(%x: memref<64x100xf32>, %s: memref<64xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%s : memref<64xf32>)
  linalg.reduce { arith.addf } ins(%x : memref<64x100xf32>) outs(%s : memref<64xf32>) dimensions = [1]
  return
}

// -----

// Rows of more than 4096 elements (16 per thread), and f64 reductions
// (a shuffle moves 32 bits), keep the strided loops and the shared-memory
// tree.
// CHECK-LABEL: func.func @too_long
// CHECK-NOT: gpu.shuffle
// CHECK: workgroup(%{{.*}} : memref<256xf32, #gpu.address_space<workgroup>>)
// CHECK-LABEL: func.func @f64_rows
// CHECK-NOT: gpu.shuffle
// CHECK: workgroup(%{{.*}} : memref<256xf64, #gpu.address_space<workgroup>>)
// Rows of 33-255 f64 elements form no chain (a warp's shuffles move 32
// bits): a thread per row reduces, then an elementwise kernel divides.
// CHECK-LABEL: func.func @f64_short_rows
// CHECK-NOT: gpu.shuffle
// CHECK: gpu.launch {{.*}} threads({{.*}}) in (%{{.*}} = %c2{{.*}},
// CHECK: scf.for
// CHECK: gpu.launch
// CHECK: arith.divf
// CHECK-NOT: gpu.shuffle
// CHECK: return
func.func @too_long(%x: memref<2x4097xf32>, %y: memref<2x4097xf32>, %s: memref<2xf32>) {
  linalg.reduce { arith.addf } ins(%x : memref<2x4097xf32>) outs(%s : memref<2xf32>) dimensions = [1]
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %s : memref<2x4097xf32>, memref<2xf32>) outs(%y : memref<2x4097xf32>) {
  ^bb0(%in: f32, %t: f32, %out: f32):
    %q = arith.divf %in, %t : f32
    linalg.yield %q : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%y : memref<2x4097xf32>) outs(%y : memref<2x4097xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.mulf %in, %in : f32
    linalg.yield %m : f32
  }
  return
}
func.func @f64_rows(%x: memref<2x512xf64>, %y: memref<2x512xf64>, %s: memref<2xf64>) {
  linalg.reduce { arith.addf } ins(%x : memref<2x512xf64>) outs(%s : memref<2xf64>) dimensions = [1]
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %s : memref<2x512xf64>, memref<2xf64>) outs(%y : memref<2x512xf64>) {
  ^bb0(%in: f64, %t: f64, %out: f64):
    %q = arith.divf %in, %t : f64
    linalg.yield %q : f64
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%y : memref<2x512xf64>) outs(%y : memref<2x512xf64>) {
  ^bb0(%in: f64, %out: f64):
    %m = arith.mulf %in, %in : f64
    linalg.yield %m : f64
  }
  return
}
func.func @f64_short_rows(%x: memref<2x100xf64>, %y: memref<2x100xf64>, %s: memref<2xf64>) {
  linalg.reduce { arith.addf } ins(%x : memref<2x100xf64>) outs(%s : memref<2xf64>) dimensions = [1]
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %s : memref<2x100xf64>, memref<2xf64>) outs(%y : memref<2x100xf64>) {
  ^bb0(%in: f64, %t: f64, %out: f64):
    %q = arith.divf %in, %t : f64
    linalg.yield %q : f64
  }
  return
}
