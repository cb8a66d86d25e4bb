// RUN: google-opt %s -split-input-file --google-gpu-hoist-epilogues | FileCheck %s

// A bias's update moves up to the column sum that writes its gradient, past
// a matmul touching neither buffer and a run-time check; the update's
// constant and the view it reads move along.
// CHECK-LABEL: func.func @update_after_reduction
// CHECK: linalg.reduce {{.*}} outs(%[[DB:.*]] : memref<16xf32>)
// CHECK-NEXT: arith.constant 1.000000e-01
// CHECK-NEXT: memref.expand_shape %[[DB]]
// CHECK-NEXT: linalg.generic {{.*}} outs(%[[DB]] : memref<16xf32>)
// CHECK: linalg.yield
// CHECK-NEXT: }
// CHECK-NEXT: cf.assert
// CHECK: linalg.matmul
// CHECK-NEXT: return
func.func @update_after_reduction(%dy: memref<64x16xf32>, %b: memref<16xf32>, %x: memref<64x32xf32>, %w: memref<32x16xf32>, %db: memref<16xf32>, %y: memref<64x16xf32>, %ok: i1) {
  linalg.reduce { arith.addf } ins(%dy : memref<64x16xf32>) outs(%db : memref<16xf32>) dimensions = [0]
  cf.assert %ok, "a check"
  linalg.matmul ins(%x, %w : memref<64x32xf32>, memref<32x16xf32>) outs(%y : memref<64x16xf32>)
  %lr = arith.constant 0.1 : f32
  %row = memref.expand_shape %db [[0, 1]] output_shape [1, 16] : memref<16xf32> into memref<1x16xf32>
  linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (0, i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%b, %row : memref<16xf32>, memref<1x16xf32>) outs(%db : memref<16xf32>) {
  ^bb0(%p: f32, %g: f32, %out: f32):
    %s = arith.mulf %g, %lr : f32
    %d = arith.subf %p, %s : f32
    linalg.yield %d : f32
  }
  return
}

// -----

// It stops after the last op it depends on: one that reads the buffer it
// writes (here a copy of the old gradient).
// CHECK-LABEL: func.func @stops_at_reader
// CHECK: linalg.reduce
// CHECK-NEXT: linalg.copy
// CHECK-NEXT: linalg.generic
// CHECK: linalg.yield
// CHECK-NEXT: }
// CHECK-NEXT: linalg.matmul
func.func @stops_at_reader(%dy: memref<64x16xf32>, %b: memref<16xf32>, %x: memref<64x32xf32>, %w: memref<32x16xf32>, %db: memref<16xf32>, %y: memref<64x16xf32>, %old: memref<16xf32>) {
  linalg.reduce { arith.addf } ins(%dy : memref<64x16xf32>) outs(%db : memref<16xf32>) dimensions = [0]
  linalg.copy ins(%db : memref<16xf32>) outs(%old : memref<16xf32>)
  linalg.matmul ins(%x, %w : memref<64x32xf32>, memref<32x16xf32>) outs(%y : memref<64x16xf32>)
  linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%b : memref<16xf32>) outs(%db : memref<16xf32>) {
  ^bb0(%p: f32, %g: f32):
    %d = arith.subf %p, %g : f32
    linalg.yield %d : f32
  }
  return
}

// -----

// Nothing moves when the update's result is read later (it feeds another
// op) or a call (of unknown effects) lies between. A gradient's own
// epilogue (reading it) stays next to it: the update, which overwrites
// the gradient, lands after it.
// CHECK-LABEL: func.func @read_later
// CHECK: linalg.reduce
// CHECK-NEXT: linalg.matmul
// CHECK-NEXT: linalg.generic
// CHECK: linalg.yield
// CHECK-NEXT: }
// CHECK-NEXT: linalg.copy
// CHECK-LABEL: func.func @own_epilogue
// CHECK: linalg.reduce
// CHECK-NEXT: linalg.generic {{.*}} outs(%[[E:.*]] : memref<16xf32>)
// CHECK: arith.mulf
// CHECK: linalg.yield
// CHECK-NEXT: }
// CHECK-NEXT: linalg.generic
// CHECK: arith.subf
// CHECK: linalg.yield
// CHECK-NEXT: }
// CHECK-NEXT: linalg.matmul
// CHECK-LABEL: func.func @call_between
// CHECK: linalg.reduce
// CHECK-NEXT: call @opaque
// CHECK-NEXT: linalg.generic
func.func @read_later(%dy: memref<64x16xf32>, %b: memref<16xf32>, %x: memref<64x32xf32>, %w: memref<32x16xf32>, %db: memref<16xf32>, %y: memref<64x16xf32>, %z: memref<16xf32>) {
  linalg.reduce { arith.addf } ins(%dy : memref<64x16xf32>) outs(%db : memref<16xf32>) dimensions = [0]
  linalg.matmul ins(%x, %w : memref<64x32xf32>, memref<32x16xf32>) outs(%y : memref<64x16xf32>)
  linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%b : memref<16xf32>) outs(%db : memref<16xf32>) {
  ^bb0(%p: f32, %g: f32):
    %d = arith.subf %p, %g : f32
    linalg.yield %d : f32
  }
  linalg.copy ins(%db : memref<16xf32>) outs(%z : memref<16xf32>)
  return
}
func.func @own_epilogue(%dy: memref<64x16xf32>, %b: memref<16xf32>, %x: memref<64x32xf32>, %w: memref<32x16xf32>, %db: memref<16xf32>, %y: memref<64x16xf32>, %e: memref<16xf32>) {
  linalg.reduce { arith.addf } ins(%dy : memref<64x16xf32>) outs(%db : memref<16xf32>) dimensions = [0]
  linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%db : memref<16xf32>) outs(%e : memref<16xf32>) {
  ^bb0(%g: f32, %out: f32):
    %d = arith.mulf %g, %g : f32
    linalg.yield %d : f32
  }
  linalg.matmul ins(%x, %w : memref<64x32xf32>, memref<32x16xf32>) outs(%y : memref<64x16xf32>)
  linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%b : memref<16xf32>) outs(%db : memref<16xf32>) {
  ^bb0(%p: f32, %g: f32):
    %d = arith.subf %p, %g : f32
    linalg.yield %d : f32
  }
  return
}
func.func private @opaque()
func.func @call_between(%dy: memref<64x16xf32>, %b: memref<16xf32>, %db: memref<16xf32>) {
  linalg.reduce { arith.addf } ins(%dy : memref<64x16xf32>) outs(%db : memref<16xf32>) dimensions = [0]
  call @opaque() : () -> ()
  linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%b : memref<16xf32>) outs(%db : memref<16xf32>) {
  ^bb0(%p: f32, %g: f32):
    %d = arith.subf %p, %g : f32
    linalg.yield %d : f32
  }
  return
}

// -----

// A fresh buffer the update writes is allocated where the update lands.
// CHECK-LABEL: func.func @fresh_output
// CHECK: linalg.reduce
// CHECK-NEXT: %[[OUT:.*]] = memref.alloc
// CHECK-NEXT: linalg.generic {{.*}} outs(%[[OUT]] : memref<16xf32>)
// CHECK: linalg.yield
// CHECK-NEXT: }
// CHECK-NEXT: linalg.matmul
func.func @fresh_output(%dy: memref<64x16xf32>, %b: memref<16xf32>, %x: memref<64x32xf32>, %w: memref<32x16xf32>, %db: memref<16xf32>, %y: memref<64x16xf32>) -> memref<16xf32> {
  linalg.reduce { arith.addf } ins(%dy : memref<64x16xf32>) outs(%db : memref<16xf32>) dimensions = [0]
  linalg.matmul ins(%x, %w : memref<64x32xf32>, memref<32x16xf32>) outs(%y : memref<64x16xf32>)
  %out = memref.alloc() : memref<16xf32>
  linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%b, %db : memref<16xf32>, memref<16xf32>) outs(%out : memref<16xf32>) {
  ^bb0(%p: f32, %g: f32, %o: f32):
    %d = arith.subf %p, %g : f32
    linalg.yield %d : f32
  }
  return %out : memref<16xf32>
}

// -----

// The update writes another buffer: its producer is the reduction, which
// its own epilogue already follows, so it stays.
// CHECK-LABEL: func.func @keeps_epilogue
// CHECK: linalg.reduce
// CHECK-NEXT: linalg.generic
// CHECK: arith.mulf
// CHECK: linalg.matmul
// CHECK-NEXT: linalg.generic
// CHECK: arith.subf
func.func @keeps_epilogue(%dy: memref<64x16xf32>, %b: memref<16xf32>, %x: memref<64x32xf32>, %w: memref<32x16xf32>, %db: memref<16xf32>, %y: memref<64x16xf32>, %e: memref<16xf32>, %b2: memref<16xf32>) {
  linalg.reduce { arith.addf } ins(%dy : memref<64x16xf32>) outs(%db : memref<16xf32>) dimensions = [0]
  linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%db : memref<16xf32>) outs(%e : memref<16xf32>) {
  ^bb0(%g: f32, %out: f32):
    %d = arith.mulf %g, %g : f32
    linalg.yield %d : f32
  }
  linalg.matmul ins(%x, %w : memref<64x32xf32>, memref<32x16xf32>) outs(%y : memref<64x16xf32>)
  linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%b, %db : memref<16xf32>, memref<16xf32>) outs(%b2 : memref<16xf32>) {
  ^bb0(%p: f32, %g: f32, %o: f32):
    %d = arith.subf %p, %g : f32
    linalg.yield %d : f32
  }
  return
}

// -----

// In a loop whose iterations each yield a buffer they allocate, the loop's
// buffer is the one it starts from (no buffer of the iteration aliases
// it): an op reading it is no dependence of the update, which moves up to
// the sum that writes its gradient. Where an iteration yields a buffer from
// outside the loop, the loop's buffer could be either: the update stays.
// CHECK-LABEL: func.func @loop_carried
// CHECK: scf.for
// CHECK: linalg.reduce
// CHECK-NEXT: linalg.generic {{.*}} outs(%{{.*}} : memref<16xf32>)
// CHECK: linalg.yield
// CHECK-NEXT: }
// CHECK-NEXT: gpu.alloc
// CHECK-NEXT: linalg.generic {{.*}} outs(%{{.*}} : memref<64x16xf32>)
// CHECK-LABEL: func.func @loop_carried_from_outside
// CHECK: scf.for
// CHECK: linalg.reduce
// CHECK-NEXT: linalg.generic {{.*}} outs(%{{.*}} : memref<64x16xf32>)
// CHECK: linalg.yield
// CHECK-NEXT: }
// CHECK-NEXT: linalg.generic {{.*}} outs(%{{.*}} : memref<16xf32>)
func.func @loop_carried(%dy: memref<64x16xf32>, %b: memref<16xf32>, %db: memref<16xf32>, %h0: memref<64x16xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%h = %h0) -> (memref<64x16xf32>) {
    linalg.reduce { arith.addf } ins(%dy : memref<64x16xf32>) outs(%db : memref<16xf32>) dimensions = [0]
    %next = gpu.alloc () : memref<64x16xf32>
    linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%h : memref<64x16xf32>) outs(%next : memref<64x16xf32>) {
    ^bb0(%v: f32, %o: f32):
      %t = math.tanh %v : f32
      linalg.yield %t : f32
    }
    linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%b : memref<16xf32>) outs(%db : memref<16xf32>) {
    ^bb0(%p: f32, %g: f32):
      %d = arith.subf %p, %g : f32
      linalg.yield %d : f32
    }
    scf.yield %next : memref<64x16xf32>
  }
  return
}
func.func @loop_carried_from_outside(%dy: memref<64x16xf32>, %b: memref<16xf32>, %db: memref<16xf32>, %h0: memref<64x16xf32>, %other: memref<64x16xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%h = %h0) -> (memref<64x16xf32>) {
    linalg.reduce { arith.addf } ins(%dy : memref<64x16xf32>) outs(%db : memref<16xf32>) dimensions = [0]
    linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%h : memref<64x16xf32>) outs(%other : memref<64x16xf32>) {
    ^bb0(%v: f32, %o: f32):
      %t = math.tanh %v : f32
      linalg.yield %t : f32
    }
    linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%b : memref<16xf32>) outs(%db : memref<16xf32>) {
    ^bb0(%p: f32, %g: f32):
      %d = arith.subf %p, %g : f32
      linalg.yield %d : f32
    }
    scf.yield %other : memref<64x16xf32>
  }
  return
}

// -----

// A sum of three products that later ops read (a gradient's dX through Q,
// K and V): it moves up to the last product, a split-K matmul it then is
// the epilogue of (it writes that product's buffer in place), past a
// weight gradient touching none of its buffers.
// CHECK-LABEL: func.func @read_later_into_contraction
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : memref<16x512xf32>, memref<512x64xf32>) outs(%[[P:.*]] : memref<16x64xf32>)
// CHECK-NEXT: linalg.generic {{.*}} outs(%[[P]] : memref<16x64xf32>)
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : memref<64x16xf32>, memref<16x512xf32>)
// CHECK-NEXT: linalg.reduce
func.func @read_later_into_contraction(%dq: memref<16x64xf32>, %dk: memref<16x64xf32>, %a: memref<16x512xf32>, %w: memref<512x64xf32>, %xt: memref<64x16xf32>, %dw: memref<64x512xf32>, %db: memref<64xf32>) {
  %p = memref.alloc() : memref<16x64xf32>
  linalg.matmul ins(%a, %w : memref<16x512xf32>, memref<512x64xf32>) outs(%p : memref<16x64xf32>)
  linalg.matmul ins(%xt, %a : memref<64x16xf32>, memref<16x512xf32>) outs(%dw : memref<64x512xf32>)
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%dq, %dk, %p : memref<16x64xf32>, memref<16x64xf32>, memref<16x64xf32>) outs(%p : memref<16x64xf32>) {
  ^bb0(%q: f32, %k: f32, %v: f32, %out: f32):
    %s = arith.addf %q, %k : f32
    %t = arith.addf %s, %v : f32
    linalg.yield %t : f32
  }
  linalg.reduce { arith.addf } ins(%p : memref<16x64xf32>) outs(%db : memref<64xf32>) dimensions = [0]
  memref.dealloc %p : memref<16x64xf32>
  return
}

// -----

// Read later, it stays where it is when the contraction could not take it
// in: it writes a buffer the contraction reads.
// CHECK-LABEL: func.func @read_later_not_fusable
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : memref<16x512xf32>, memref<512x64xf32>)
// CHECK-NEXT: linalg.matmul
// CHECK-NEXT: memref.subview
// CHECK-NEXT: linalg.generic
// CHECK: linalg.reduce
func.func @read_later_not_fusable(%dq: memref<16x64xf32>, %a: memref<16x512xf32>, %w: memref<512x64xf32>, %xt: memref<64x16xf32>, %dw: memref<64x512xf32>, %db: memref<64xf32>) {
  %p = memref.alloc() : memref<16x64xf32>
  linalg.matmul ins(%a, %w : memref<16x512xf32>, memref<512x64xf32>) outs(%p : memref<16x64xf32>)
  linalg.matmul ins(%xt, %a : memref<64x16xf32>, memref<16x512xf32>) outs(%dw : memref<64x512xf32>)
  %view = memref.subview %w[0, 0] [16, 64] [1, 1] : memref<512x64xf32> to memref<16x64xf32, strided<[64, 1]>>
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%dq, %p : memref<16x64xf32>, memref<16x64xf32>) outs(%view : memref<16x64xf32, strided<[64, 1]>>) {
  ^bb0(%q: f32, %v: f32, %out: f32):
    %s = arith.addf %q, %v : f32
    linalg.yield %s : f32
  }
  linalg.reduce { arith.addf } ins(%view : memref<16x64xf32, strided<[64, 1]>>) outs(%db : memref<64xf32>) dimensions = [0]
  memref.dealloc %p : memref<16x64xf32>
  return
}
