// RUN: google-opt %s -split-input-file --google-map-to-gpu="warp-shuffles=1 fused-attention=1" | FileCheck %s
// RUN: google-opt %s -split-input-file --google-map-to-gpu="warp-shuffles=1" | FileCheck %s --check-prefix=UNFUSED
// RUN: not google-opt %s -split-input-file --google-map-to-gpu="fused-attention=1" 2>&1 | FileCheck %s --check-prefix=ALONE
// ALONE: error: google-map-to-gpu: fused-attention needs warp-shuffles

// softmax(Q K^T * 0.125) V as google.softmax between two matmuls lowers:
// one kernel, a block of 256 threads per 64 rows of queries (2 batches x
// 2 row tiles), Q^T, K^T (then P^T) and V of a tile in shared memory. K
// is read where it is (its transpose goes); per tile of 64 keys: 16
// loads of K and 16 of V per thread, the scores from 16 x 4 vector loads
// of each of Q^T and K^T, the steps (the scale), each row's maximum and
// sum across its 16 threads by 4 shuffles each, the rescale (exp of the
// old maximum minus the new), P^T stored over K^T between barriers, and
// O += P V from 16 x 4 vector loads of each. The scores, maxima, sums
// and probabilities never reach memory (their buffers and K^T's go); O is
// divided by the sums and stored.
// CHECK-LABEL: func.func @attention
// CHECK-SAME: (%[[Q:.*]]: memref<2x128x64xf32>, %[[K:.*]]: memref<2x128x64xf32>, %[[V:.*]]: memref<2x128x64xf32>, %[[O:.*]]: memref<2x128x64xf32>)
// CHECK-NOT: gpu.alloc
// CHECK-NOT: linalg.
// CHECK: gpu.launch blocks({{.*}}) in (%{{.*}} = %c4, {{.*}} threads({{.*}}) in (%{{.*}} = %c256, {{.*}} workgroup(%[[QS:.*]] : memref<64x64xf32, #gpu.address_space<workgroup>>, %[[KS:.*]] : memref<64x64xf32, #gpu.address_space<workgroup>>, %[[VS:.*]] : memref<64x64xf32, #gpu.address_space<workgroup>>)
// CHECK-COUNT-16: memref.load %[[Q]]
// CHECK: scf.for
// CHECK-COUNT-16: memref.load %[[K]]
// CHECK-COUNT-16: memref.load %[[V]]
// CHECK: gpu.barrier
// CHECK: scf.for
// CHECK-COUNT-32: vector.load
// CHECK: scf.yield
// CHECK-COUNT-16: arith.mulf %{{.*}}, %cst
// CHECK-COUNT-4: gpu.shuffle xor
// CHECK: math.exp
// CHECK: gpu.barrier
// CHECK-COUNT-4: vector.store %{{.*}}, %[[KS]]
// CHECK-NEXT: gpu.barrier
// CHECK: scf.for
// CHECK-COUNT-32: vector.load
// CHECK: gpu.barrier
// CHECK: scf.yield
// CHECK-COUNT-16: memref.store %{{.*}}, %[[O]]
// CHECK-NEXT: gpu.terminator
// CHECK-NOT: gpu.launch
// CHECK-NOT: linalg.
// CHECK-NOT: dealloc
// CHECK: return
// Unfused: the fills and matmuls, and the softmax as one kernel (a warp
// per row of 128 scores).
// UNFUSED-LABEL: func.func @attention
// UNFUSED-COUNT-5: gpu.launch
func.func @attention(%q: memref<2x128x64xf32>, %k: memref<2x128x64xf32>, %v: memref<2x128x64xf32>, %o: memref<2x128x64xf32>) {
  %scale = arith.constant 1.250000e-01 : f32
  %floor = arith.constant -8.700000e+01 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.000000e+00 : f32
  %kt = gpu.alloc () : memref<2x64x128xf32>
  linalg.transpose ins(%k : memref<2x128x64xf32>) outs(%kt : memref<2x64x128xf32>) permutation = [0, 2, 1]
  %s = gpu.alloc () : memref<2x128x128xf32>
  linalg.fill ins(%zero : f32) outs(%s : memref<2x128x128xf32>)
  linalg.batch_matmul ins(%q, %kt : memref<2x128x64xf32>, memref<2x64x128xf32>) outs(%s : memref<2x128x128xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : memref<2x128x128xf32>) outs(%s : memref<2x128x128xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.mulf %in, %scale : f32
    linalg.yield %0 : f32
  }
  %rows = gpu.alloc () : memref<2x128xf32>
  linalg.fill ins(%ninf : f32) outs(%rows : memref<2x128xf32>)
  linalg.reduce { arith.maxnumf } ins(%s : memref<2x128x128xf32>) outs(%rows : memref<2x128xf32>) dimensions = [2]
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s, %rows : memref<2x128x128xf32>, memref<2x128xf32>) outs(%s : memref<2x128x128xf32>) {
  ^bb0(%in: f32, %max: f32, %out: f32):
    %0 = arith.subf %in, %max : f32
    %1 = arith.cmpf olt, %0, %floor : f32
    %2 = arith.maximumf %0, %floor : f32
    %3 = math.exp %2 : f32
    %4 = arith.select %1, %zero, %3 : f32
    linalg.yield %4 : f32
  }
  linalg.fill ins(%zero : f32) outs(%rows : memref<2x128xf32>)
  linalg.reduce { arith.addf } ins(%s : memref<2x128x128xf32>) outs(%rows : memref<2x128xf32>) dimensions = [2]
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s, %rows : memref<2x128x128xf32>, memref<2x128xf32>) outs(%s : memref<2x128x128xf32>) {
  ^bb0(%in: f32, %sum: f32, %out: f32):
    %0 = arith.divf %in, %sum : f32
    linalg.yield %0 : f32
  }
  linalg.fill ins(%zero : f32) outs(%o : memref<2x128x64xf32>)
  linalg.batch_matmul ins(%s, %v : memref<2x128x128xf32>, memref<2x128x64xf32>) outs(%o : memref<2x128x64xf32>)
  memref.dealloc %kt : memref<2x64x128xf32>
  memref.dealloc %s : memref<2x128x128xf32>
  memref.dealloc %rows : memref<2x128xf32>
  return
}

// -----

// The probabilities are also the function's (written to an argument):
// they must reach memory, so the ops keep their own kernels (the softmax
// one, a warp per row).
// CHECK-LABEL: func.func @probabilities_escape
// CHECK-COUNT-5: gpu.launch
// CHECK-NOT: gpu.launch
// CHECK: return
func.func @probabilities_escape(%q: memref<64x64xf32>, %kt: memref<64x64xf32>, %v: memref<64x64xf32>, %o: memref<64x64xf32>, %p: memref<64x64xf32>) {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.000000e+00 : f32
  linalg.fill ins(%zero : f32) outs(%p : memref<64x64xf32>)
  linalg.matmul ins(%q, %kt : memref<64x64xf32>, memref<64x64xf32>) outs(%p : memref<64x64xf32>)
  %rows = gpu.alloc () : memref<64xf32>
  linalg.fill ins(%ninf : f32) outs(%rows : memref<64xf32>)
  linalg.reduce { arith.maxnumf } ins(%p : memref<64x64xf32>) outs(%rows : memref<64xf32>) dimensions = [1]
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%p, %rows : memref<64x64xf32>, memref<64xf32>) outs(%p : memref<64x64xf32>) {
  ^bb0(%in: f32, %max: f32, %out: f32):
    %0 = arith.subf %in, %max : f32
    %1 = math.exp %0 : f32
    linalg.yield %1 : f32
  }
  linalg.fill ins(%zero : f32) outs(%rows : memref<64xf32>)
  linalg.reduce { arith.addf } ins(%p : memref<64x64xf32>) outs(%rows : memref<64xf32>) dimensions = [1]
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%p, %rows : memref<64x64xf32>, memref<64xf32>) outs(%p : memref<64x64xf32>) {
  ^bb0(%in: f32, %sum: f32, %out: f32):
    %0 = arith.divf %in, %sum : f32
    linalg.yield %0 : f32
  }
  linalg.fill ins(%zero : f32) outs(%o : memref<64x64xf32>)
  linalg.matmul ins(%p, %v : memref<64x64xf32>, memref<64x64xf32>) outs(%o : memref<64x64xf32>)
  memref.dealloc %rows : memref<64xf32>
  return
}

// -----

// exp(x - max) times 2 is not softmax's numerator: an online softmax
// would rescale by 2 exp(m - m'), so no fusion.
// CHECK-LABEL: func.func @not_exp
// CHECK-COUNT-5: gpu.launch
// CHECK-NOT: gpu.launch
func.func @not_exp(%q: memref<64x64xf32>, %kt: memref<64x64xf32>, %v: memref<64x64xf32>, %o: memref<64x64xf32>) {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.000000e+00 : f32
  %two = arith.constant 2.000000e+00 : f32
  %s = gpu.alloc () : memref<64x64xf32>
  linalg.fill ins(%zero : f32) outs(%s : memref<64x64xf32>)
  linalg.matmul ins(%q, %kt : memref<64x64xf32>, memref<64x64xf32>) outs(%s : memref<64x64xf32>)
  %rows = gpu.alloc () : memref<64xf32>
  linalg.fill ins(%ninf : f32) outs(%rows : memref<64xf32>)
  linalg.reduce { arith.maxnumf } ins(%s : memref<64x64xf32>) outs(%rows : memref<64xf32>) dimensions = [1]
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%s, %rows : memref<64x64xf32>, memref<64xf32>) outs(%s : memref<64x64xf32>) {
  ^bb0(%in: f32, %max: f32, %out: f32):
    %0 = arith.subf %in, %max : f32
    %1 = math.exp %0 : f32
    %2 = arith.mulf %1, %two : f32
    linalg.yield %2 : f32
  }
  linalg.fill ins(%zero : f32) outs(%rows : memref<64xf32>)
  linalg.reduce { arith.addf } ins(%s : memref<64x64xf32>) outs(%rows : memref<64xf32>) dimensions = [1]
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%s, %rows : memref<64x64xf32>, memref<64xf32>) outs(%s : memref<64x64xf32>) {
  ^bb0(%in: f32, %sum: f32, %out: f32):
    %0 = arith.divf %in, %sum : f32
    linalg.yield %0 : f32
  }
  linalg.fill ins(%zero : f32) outs(%o : memref<64x64xf32>)
  linalg.matmul ins(%s, %v : memref<64x64xf32>, memref<64x64xf32>) outs(%o : memref<64x64xf32>)
  memref.dealloc %s : memref<64x64xf32>
  memref.dealloc %rows : memref<64xf32>
  return
}

// -----

// 100 query rows and 72 keys: the last tile of rows starts at row 36
// (min(64 * tile, 100 - 64): it overlaps the first, no row clamps), and
// stores its rows from 64 * tile on only (the first block stores the
// others); keys past 72 in the last key tile read key 71 (clamped), V's
// rows there are 0 and their scores -inf.
// CHECK-LABEL: func.func @partial
// CHECK: gpu.launch blocks({{.*}}) in (%{{.*}} = %c2,
// CHECK: %[[OWNED:.*]] = arith.muli %{{.*}}, %c64
// CHECK: %[[FIRST:.*]] = arith.minui %[[OWNED]], %c36
// CHECK: scf.for
// CHECK: arith.minui %{{.*}}, %c71
// CHECK: memref.load %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] : memref<1x72x64xf32>
// CHECK: arith.cmpi ult, %{{.*}}, %c72
// CHECK: arith.select %{{.*}}, %{{.*}}, %cst
// CHECK: arith.cmpi ult, %{{.*}}, %c72
// CHECK-NEXT: arith.select %{{.*}}, %{{.*}}, %cst_{{.*}} : f32
// CHECK-NOT: scf.if
// CHECK: scf.yield
// CHECK-COUNT-4: arith.cmpi uge, %{{.*}}, %[[OWNED]]
// CHECK: gpu.terminator
// UNFUSED-LABEL: func.func @partial
// UNFUSED-COUNT-4: gpu.launch
// UNFUSED-NOT: gpu.launch
// UNFUSED: return
func.func @partial(%q: memref<1x100x64xf32>, %k: memref<1x72x64xf32>, %v: memref<1x72x64xf32>, %o: memref<1x100x64xf32>) {
  %scale = arith.constant 1.250000e-01 : f32
  %floor = arith.constant -8.700000e+01 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.000000e+00 : f32
  %kt = gpu.alloc () : memref<1x64x72xf32>
  linalg.transpose ins(%k : memref<1x72x64xf32>) outs(%kt : memref<1x64x72xf32>) permutation = [0, 2, 1]
  %s = gpu.alloc () : memref<1x100x72xf32>
  linalg.fill ins(%zero : f32) outs(%s : memref<1x100x72xf32>)
  linalg.batch_matmul ins(%q, %kt : memref<1x100x64xf32>, memref<1x64x72xf32>) outs(%s : memref<1x100x72xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : memref<1x100x72xf32>) outs(%s : memref<1x100x72xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.mulf %in, %scale : f32
    linalg.yield %0 : f32
  }
  %rows = gpu.alloc () : memref<1x100xf32>
  linalg.fill ins(%ninf : f32) outs(%rows : memref<1x100xf32>)
  linalg.reduce { arith.maxnumf } ins(%s : memref<1x100x72xf32>) outs(%rows : memref<1x100xf32>) dimensions = [2]
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s, %rows : memref<1x100x72xf32>, memref<1x100xf32>) outs(%s : memref<1x100x72xf32>) {
  ^bb0(%in: f32, %max: f32, %out: f32):
    %0 = arith.subf %in, %max : f32
    %1 = arith.cmpf olt, %0, %floor : f32
    %2 = arith.maximumf %0, %floor : f32
    %3 = math.exp %2 : f32
    %4 = arith.select %1, %zero, %3 : f32
    linalg.yield %4 : f32
  }
  linalg.fill ins(%zero : f32) outs(%rows : memref<1x100xf32>)
  linalg.reduce { arith.addf } ins(%s : memref<1x100x72xf32>) outs(%rows : memref<1x100xf32>) dimensions = [2]
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s, %rows : memref<1x100x72xf32>, memref<1x100xf32>) outs(%s : memref<1x100x72xf32>) {
  ^bb0(%in: f32, %sum: f32, %out: f32):
    %0 = arith.divf %in, %sum : f32
    linalg.yield %0 : f32
  }
  linalg.fill ins(%zero : f32) outs(%o : memref<1x100x64xf32>)
  linalg.batch_matmul ins(%s, %v : memref<1x100x72xf32>, memref<1x72x64xf32>) outs(%o : memref<1x100x64xf32>)
  memref.dealloc %kt : memref<1x64x72xf32>
  memref.dealloc %s : memref<1x100x72xf32>
  memref.dealloc %rows : memref<1x100xf32>
  return
}

// -----

// O is a view of V, which every block reads: no fused kernel (whose
// blocks would overwrite the values others still read).
// CHECK-LABEL: func.func @output_over_values
// CHECK-COUNT-5: gpu.launch
// CHECK-NOT: gpu.launch
// CHECK: return
// UNFUSED-LABEL: func.func @output_over_values
// UNFUSED-COUNT-5: gpu.launch
// UNFUSED-NOT: gpu.launch
// UNFUSED: return
func.func @output_over_values(%q: memref<2x128x64xf32>, %k: memref<2x128x64xf32>, %v: memref<2x128x64xf32>) {
  %o = memref.subview %v[0, 0, 0] [2, 128, 64] [1, 1, 1] : memref<2x128x64xf32> to memref<2x128x64xf32, strided<[8192, 64, 1]>>
  %scale = arith.constant 1.250000e-01 : f32
  %floor = arith.constant -8.700000e+01 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.000000e+00 : f32
  %kt = gpu.alloc () : memref<2x64x128xf32>
  linalg.transpose ins(%k : memref<2x128x64xf32>) outs(%kt : memref<2x64x128xf32>) permutation = [0, 2, 1]
  %s = gpu.alloc () : memref<2x128x128xf32>
  linalg.fill ins(%zero : f32) outs(%s : memref<2x128x128xf32>)
  linalg.batch_matmul ins(%q, %kt : memref<2x128x64xf32>, memref<2x64x128xf32>) outs(%s : memref<2x128x128xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : memref<2x128x128xf32>) outs(%s : memref<2x128x128xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.mulf %in, %scale : f32
    linalg.yield %0 : f32
  }
  %rows = gpu.alloc () : memref<2x128xf32>
  linalg.fill ins(%ninf : f32) outs(%rows : memref<2x128xf32>)
  linalg.reduce { arith.maxnumf } ins(%s : memref<2x128x128xf32>) outs(%rows : memref<2x128xf32>) dimensions = [2]
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s, %rows : memref<2x128x128xf32>, memref<2x128xf32>) outs(%s : memref<2x128x128xf32>) {
  ^bb0(%in: f32, %max: f32, %out: f32):
    %0 = arith.subf %in, %max : f32
    %1 = arith.cmpf olt, %0, %floor : f32
    %2 = arith.maximumf %0, %floor : f32
    %3 = math.exp %2 : f32
    %4 = arith.select %1, %zero, %3 : f32
    linalg.yield %4 : f32
  }
  linalg.fill ins(%zero : f32) outs(%rows : memref<2x128xf32>)
  linalg.reduce { arith.addf } ins(%s : memref<2x128x128xf32>) outs(%rows : memref<2x128xf32>) dimensions = [2]
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s, %rows : memref<2x128x128xf32>, memref<2x128xf32>) outs(%s : memref<2x128x128xf32>) {
  ^bb0(%in: f32, %sum: f32, %out: f32):
    %0 = arith.divf %in, %sum : f32
    linalg.yield %0 : f32
  }
  linalg.fill ins(%zero : f32) outs(%o : memref<2x128x64xf32, strided<[8192, 64, 1]>>)
  linalg.batch_matmul ins(%s, %v : memref<2x128x128xf32>, memref<2x128x64xf32>) outs(%o : memref<2x128x64xf32, strided<[8192, 64, 1]>>)
  memref.dealloc %kt : memref<2x64x128xf32>
  memref.dealloc %s : memref<2x128x128xf32>
  memref.dealloc %rows : memref<2x128xf32>
  return
}
