// RUN: google-opt %s -split-input-file -google-tile-and-vectorize | FileCheck %s
// RUN: google-opt %s -split-input-file -google-tile-and-vectorize=vector-bits=256 | FileCheck %s --check-prefix=AVX2

// Full 8x32 blocks, N outer; the accumulator is a vector carried by the K
// loop, and the bias and relu run on it before the one store.
// CHECK-LABEL: func @static_fused
// CHECK-DAG:   %[[ZEROS:.*]] = arith.constant dense<0.000000e+00> : vector<8x32xf32>
// CHECK-DAG:   %[[C8:.*]] = arith.constant 8 : index
// CHECK-DAG:   %[[C32:.*]] = arith.constant 32 : index
// CHECK:       scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %[[C32]]
// CHECK:         scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %[[C8]]
// CHECK:           %[[ACC:.*]] = scf.for {{.*}} iter_args(%[[C:.*]] = %[[ZEROS]]) -> (vector<8x32xf32>)
// CHECK:             vector.transfer_read {{.*}} : tensor<16x8xf32>, vector<8x1xf32>
// CHECK:             vector.transfer_read {{.*}} : tensor<8x64xf32>, vector<1x32xf32>
// CHECK:             vector.contract {{.*}} %[[C]] : vector<8x1xf32>, vector<1x32xf32> into vector<8x32xf32>
// CHECK:           %[[SUM:.*]] = arith.addf %[[ACC]]
// CHECK:           %[[RELU:.*]] = arith.maximumf %[[SUM]]
// CHECK:           vector.transfer_write %[[RELU]], {{.*}}[%[[I]], %[[J]]]
// CHECK-NOT:   linalg.
// CHECK-NOT:   google.parallel
// AVX2-LABEL:  func @static_fused
// AVX2:        vector.contract {{.*}} into vector<6x16xf32>
// AVX2:        vector.contract {{.*}} into vector<4x16xf32>
func.func @static_fused(%a: tensor<16x8xf32>, %b: tensor<8x64xf32>, %bias: tensor<64xf32>) -> tensor<16x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16x64xf32>) -> tensor<16x64xf32>
  %m = linalg.matmul ins(%a, %b : tensor<16x8xf32>, tensor<8x64xf32>) outs(%f : tensor<16x64xf32>) -> tensor<16x64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%m, %bias : tensor<16x64xf32>, tensor<64xf32>) outs(%e : tensor<16x64xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    %z = arith.maximumf %s, %zero : f32
    linalg.yield %z : f32
  } -> tensor<16x64xf32>
  return %r : tensor<16x64xf32>
}

// -----

// Enough work for threads: the outer block loop is marked for
// --google-parallelize-loops, not the loop of the one partial block column.
// CHECK-LABEL: func @threads
// CHECK:       scf.for {{.*}} step %c32
// CHECK:       } {google.parallel}
// CHECK:       scf.for
// CHECK-NOT:   google.parallel
func.func @threads(%a: tensor<128x512xf32>, %b: tensor<512x272xf32>) -> tensor<128x272xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<128x272xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<128x272xf32>) -> tensor<128x272xf32>
  %r = linalg.matmul ins(%a, %b : tensor<128x512xf32>, tensor<512x272xf32>) outs(%f : tensor<128x272xf32>) -> tensor<128x272xf32>
  return %r : tensor<128x272xf32>
}

// -----

// One block column (N = 16): its row blocks go to threads instead (the
// column loop, a single iteration, folds away).
// CHECK-LABEL: func @row_threads
// CHECK:       scf.for {{.*}} = %c0 to %c4096 step %c8
// CHECK:       } {google.parallel}
// CHECK-NEXT:  return
func.func @row_threads(%a: tensor<4096x72xf32>, %b: tensor<72x16xf32>) -> tensor<4096x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4096x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4096x16xf32>) -> tensor<4096x16xf32>
  %r = linalg.matmul ins(%a, %b : tensor<4096x72xf32>, tensor<72x16xf32>) outs(%f : tensor<4096x16xf32>) -> tensor<4096x16xf32>
  return %r : tensor<4096x16xf32>
}

// -----

// With a dynamic M, one block column's row blocks go to threads from K = 8
// (a first convolution's 3x3 windows of one channel: K = 9; the loop
// decides at run time from the rows it has); shallower products stay on
// one thread.
// CHECK-LABEL: func @dynamic_row_threads
// CHECK:       scf.for {{.*}} step %c8
// CHECK:       } {google.parallel}
// CHECK-LABEL: func @shallow_dynamic_rows
// CHECK-NOT:   google.parallel
// CHECK:       return
func.func @dynamic_row_threads(%a: tensor<?x9xf32>, %b: tensor<9x8xf32>, %e: tensor<?x8xf32>) -> tensor<?x8xf32> {
  %zero = arith.constant 0.0 : f32
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<?x8xf32>) -> tensor<?x8xf32>
  %r = linalg.matmul ins(%a, %b : tensor<?x9xf32>, tensor<9x8xf32>) outs(%f : tensor<?x8xf32>) -> tensor<?x8xf32>
  return %r : tensor<?x8xf32>
}
func.func @shallow_dynamic_rows(%a: tensor<?x4xf32>, %b: tensor<4x8xf32>, %e: tensor<?x8xf32>) -> tensor<?x8xf32> {
  %zero = arith.constant 0.0 : f32
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<?x8xf32>) -> tensor<?x8xf32>
  %r = linalg.matmul ins(%a, %b : tensor<?x4xf32>, tensor<4x8xf32>) outs(%f : tensor<?x8xf32>) -> tensor<?x8xf32>
  return %r : tensor<?x8xf32>
}

// -----

// Dynamic M: the extents the tiles trust are checked first. M splits at
// its last multiple of 8: those rows run in full 8-row blocks (not peeled),
// and the last rows (fewer than 8, a dynamic number): up to 4 in at most
// one vectorized block of 4, 2 and 1 rows across N, 5 to 7 in one block of
// 8 rows padded with zeros. A static N of 40 leaves a vectorized 8-column
// block.
// CHECK-DAG:   #[[SMALL:map[0-9]*]] = affine_map<()[s0, s1] -> (s0 - s1, ((s0 - s1) floordiv 5) * -8 + 8)>
// CHECK-LABEL: func @dynamic_rows
// CHECK:       %[[M:.*]] = tensor.dim %arg0, %c0
// CHECK:       %[[K:.*]] = tensor.dim %arg1, %c0
// CHECK:       %[[EQ:.*]] = arith.cmpi eq, %[[K]], %c8
// CHECK:       cf.assert %[[EQ]], "linalg.matmul: an extent is {0} at run time where {1} is assumed"
// CHECK:       %[[FULL:.*]] = affine.min #{{.*}}()[%[[M]]]
// CHECK:       scf.for %{{.*}} = %c0 to %[[FULL]] step %c8
// CHECK:         vector.contract {{.*}} into vector<8x32xf32>
// CHECK:       scf.for %{{.*}} = %c0 to %[[FULL]] step %c8
// CHECK:         vector.contract {{.*}} into vector<8x8xf32>
// CHECK-NOT:   vector.contract {{.*}} into vector<8x
// Up to 4 last rows: blocks of 4, 2 and 1 rows.
// The split point is min(r, 8 - 8 * (r floordiv 5)): r up to 4, else 0.
// CHECK:       affine.min #[[SMALL]]()[%[[M]], %[[FULL]]]
// CHECK:       scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c4
// CHECK:         scf.for {{.*}} -> (vector<4x32xf32>)
// CHECK:           vector.contract {{.*}} into vector<4x32xf32>
// CHECK:         vector.contract {{.*}} into vector<4x8xf32>
// CHECK:       scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c4
// CHECK:       scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c2
// CHECK:         scf.for {{.*}} -> (vector<2x32xf32>)
// CHECK:           vector.contract {{.*}} into vector<2x32xf32>
// CHECK:         vector.contract {{.*}} into vector<2x8xf32>
// CHECK:       scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c2
// CHECK:         scf.for {{.*}} -> (vector<1x32xf32>)
// CHECK:           vector.contract {{.*}} into vector<1x32xf32>
// CHECK:         vector.contract {{.*}} into vector<1x8xf32>
// 5 to 7 last rows: one block of 8, on copies padded with zero rows.
// CHECK-NOT:   vector<4x
// CHECK:       scf.for %{{.*}} = %c0 to %{{.*}} step %c8
// CHECK:         %[[ROWS:.*]] = affine.min
// CHECK:         tensor.empty() : tensor<8x40xf32>
// CHECK:         %[[HIGH:.*]] = affine.apply #{{.*}}(%[[ROWS]])
// CHECK:         tensor.pad %{{.*}} low[0, 0] high[%[[HIGH]], 0]
// CHECK:         } : tensor<?x8xf32> to tensor<8x8xf32>
// CHECK:         vector.contract {{.*}} into vector<8x32xf32>
// CHECK:         vector.contract {{.*}} into vector<8x8xf32>
// CHECK:         tensor.extract_slice %{{.*}}[0, 0] [%[[ROWS]], 40]
// CHECK-NOT:   linalg.matmul
func.func @dynamic_rows(%a: tensor<?x8xf32>, %b: tensor<?x40xf32>) -> tensor<?x40xf32> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %m = tensor.dim %a, %c0 : tensor<?x8xf32>
  %e = tensor.empty(%m) : tensor<?x40xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<?x40xf32>) -> tensor<?x40xf32>
  %r = linalg.matmul ins(%a, %b : tensor<?x8xf32>, tensor<?x40xf32>) outs(%f : tensor<?x40xf32>) -> tensor<?x40xf32>
  return %r : tensor<?x40xf32>
}

// -----

// Fewer rows than a block: one block of all 2 rows, wider (16 accumulators).
// CHECK-LABEL: func @two_rows
// CHECK:       vector.contract {{.*}} into vector<2x128xf32>
func.func @two_rows(%a: tensor<2x16xf32>, %b: tensor<16x256xf32>) -> tensor<2x256xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x256xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x256xf32>) -> tensor<2x256xf32>
  %r = linalg.matmul ins(%a, %b : tensor<2x16xf32>, tensor<16x256xf32>) outs(%f : tensor<2x256xf32>) -> tensor<2x256xf32>
  return %r : tensor<2x256xf32>
}

// -----

// Three rows: 64 columns (12 accumulators), a power of two of vectors as
// LLVM wants them (3x80 ran 15 times slower).
// CHECK-LABEL: func @three_rows
// CHECK:       scf.for %{{.*}} = %c0 to %c256 step %c64
// CHECK:         vector.contract {{.*}} into vector<3x64xf32>
func.func @three_rows(%a: tensor<3x16xf32>, %b: tensor<16x256xf32>) -> tensor<3x256xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x256xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<3x256xf32>) -> tensor<3x256xf32>
  %r = linalg.matmul ins(%a, %b : tensor<3x16xf32>, tensor<16x256xf32>) outs(%f : tensor<3x256xf32>) -> tensor<3x256xf32>
  return %r : tensor<3x256xf32>
}

// -----

// One row over 200 columns: blocks a power of two of vectors wide, 128,
// then 64 and 8 (a 1x72 block ran 7 times slower).
// CHECK-LABEL: func @odd_width
// CHECK:       vector.contract {{.*}} into vector<1x128xf32>
// CHECK:       vector.contract {{.*}} into vector<1x64xf32>
// CHECK:       vector.contract {{.*}} into vector<1x8xf32>
func.func @odd_width(%a: tensor<1x16xf32>, %b: tensor<16x200xf32>) -> tensor<1x200xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x200xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x200xf32>) -> tensor<1x200xf32>
  %r = linalg.matmul ins(%a, %b : tensor<1x16xf32>, tensor<16x200xf32>) outs(%f : tensor<1x200xf32>) -> tensor<1x200xf32>
  return %r : tensor<1x200xf32>
}

// -----

// Batches: one batch per block.
// CHECK-LABEL: func @batched
// CHECK:       vector.contract {{.*}} into vector<1x8x32xf32>
func.func @batched(%a: tensor<3x8x4xf32>, %b: tensor<3x4x32xf32>) -> tensor<3x8x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x8x32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<3x8x32xf32>) -> tensor<3x8x32xf32>
  %r = linalg.batch_matmul ins(%a, %b : tensor<3x8x4xf32>, tensor<3x4x32xf32>) outs(%f : tensor<3x8x32xf32>) -> tensor<3x8x32xf32>
  return %r : tensor<3x8x32xf32>
}

// -----

// Left alone: other element types, transposed operands, and the producers
// of the operands (not recomputed per block).
// CHECK-LABEL: func @untouched
// CHECK:       linalg.matmul ins(%arg0, %arg1 : tensor<8x8xf64>, tensor<8x32xf64>)
// CHECK:       linalg.matmul indexing_maps
// CHECK-NOT:   vector.
func.func @untouched(%a: tensor<8x8xf64>, %b: tensor<8x32xf64>, %c: tensor<8x8xf32>, %d: tensor<32x8xf32>) -> (tensor<8x32xf64>, tensor<8x32xf32>) {
  %zero = arith.constant 0.0 : f64
  %e = tensor.empty() : tensor<8x32xf64>
  %f = linalg.fill ins(%zero : f64) outs(%e : tensor<8x32xf64>) -> tensor<8x32xf64>
  %r = linalg.matmul ins(%a, %b : tensor<8x8xf64>, tensor<8x32xf64>) outs(%f : tensor<8x32xf64>) -> tensor<8x32xf64>
  %zero32 = arith.constant 0.0 : f32
  %e32 = tensor.empty() : tensor<8x32xf32>
  %f32 = linalg.fill ins(%zero32 : f32) outs(%e32 : tensor<8x32xf32>) -> tensor<8x32xf32>
  %t = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
       ins(%c, %d : tensor<8x8xf32>, tensor<32x8xf32>) outs(%f32 : tensor<8x32xf32>) -> tensor<8x32xf32>
  return %r, %t : tensor<8x32xf64>, tensor<8x32xf32>
}

// -----

// An operand computed by another op stays outside the blocks (as one
// loop over its 64 elements).
// CHECK-LABEL: func @producer_outside
// CHECK:       linalg.generic {{.*}} ins(%{{.*}} : tensor<64xf32>)
// CHECK:         math.exp
// CHECK:       %[[EXP:.*]] = tensor.expand_shape
// CHECK:       scf.for
// CHECK:         vector.transfer_read %[[EXP]]
func.func @producer_outside(%a: tensor<8x8xf32>, %b: tensor<8x32xf32>) -> tensor<8x32xf32> {
  %zero = arith.constant 0.0 : f32
  %ea = tensor.empty() : tensor<8x8xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<8x8xf32>) outs(%ea : tensor<8x8xf32>) {
  ^bb0(%v: f32, %o: f32):
    %y = math.exp %v : f32
    linalg.yield %y : f32
  } -> tensor<8x8xf32>
  %e = tensor.empty() : tensor<8x32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x32xf32>) -> tensor<8x32xf32>
  %r = linalg.matmul ins(%x, %b : tensor<8x8xf32>, tensor<8x32xf32>) outs(%f : tensor<8x32xf32>) -> tensor<8x32xf32>
  return %r : tensor<8x32xf32>
}

// -----

// Elementwise ops are left to LLVM's loop vectorizer.
// CHECK-LABEL: func @elementwise_rows
// CHECK-NOT:   scf.for
// CHECK:       linalg.generic
// CHECK-NOT:   vector.
func.func @elementwise_rows(%x: tensor<?x100xf32>, %y: tensor<?xf32>) -> tensor<?x100xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x100xf32>
  %e = tensor.empty(%n) : tensor<?x100xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%x, %y : tensor<?x100xf32>, tensor<?xf32>) outs(%e : tensor<?x100xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.subf %a, %b : f32
    %t = math.exp %s : f32
    linalg.yield %t : f32
  } -> tensor<?x100xf32>
  return %r : tensor<?x100xf32>
}

// -----

// A reduction over a static row: one vector reduction per row, the fill of
// its init fused. A dynamic row stays scalar.
// CHECK-LABEL: func @row_reductions
// CHECK:       scf.for
// CHECK:         vector.transfer_read {{.*}} vector<1x24xf32>
// CHECK:         vector.multi_reduction <maximumf>, {{.*}} [1] : vector<1x24xf32> to vector<1xf32>
// CHECK:       linalg.reduce { arith.addf } ins(%arg1 : tensor<3x?xf32>)
func.func @row_reductions(%x: tensor<?x24xf32>, %z: tensor<3x?xf32>) -> (tensor<?xf32>, tensor<3xf32>) {
  %c0 = arith.constant 0 : index
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %n = tensor.dim %x, %c0 : tensor<?x24xf32>
  %e = tensor.empty(%n) : tensor<?xf32>
  %f = linalg.fill ins(%ninf : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
  %m = linalg.reduce { arith.maximumf } ins(%x : tensor<?x24xf32>) outs(%f : tensor<?xf32>) dimensions = [1]
  %e3 = tensor.empty() : tensor<3xf32>
  %f3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<3xf32>) -> tensor<3xf32>
  %s = linalg.reduce { arith.addf } ins(%z : tensor<3x?xf32>) outs(%f3 : tensor<3xf32>) dimensions = [1]
  return %m, %s : tensor<?xf32>, tensor<3xf32>
}

// -----

// A row longer than 1024 is reduced into 8 vectors of partial sums that
// its loop carries (2048: 16 steps of 128), and those into the row's sum
// after the loop; a prime length too long for one vector (2053) stays
// scalar.
// CHECK-LABEL: func @long_rows
// CHECK:       scf.for
// CHECK:         %[[PARTIAL:.*]] = scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (vector<1x128xf32>)
// CHECK:           %[[CHUNK:.*]] = vector.transfer_read {{.*}} vector<1x128xf32>
// CHECK:           %[[SUM:.*]] = arith.addf %[[ACC]], %[[CHUNK]] : vector<1x128xf32>
// CHECK:           scf.yield %[[SUM]]
// CHECK:         vector.multi_reduction <add>, %[[PARTIAL]], {{.*}} [1] : vector<1x128xf32> to vector<1xf32>
// CHECK:       linalg.reduce { arith.addf } ins(%arg1 : tensor<4x2053xf32>)
func.func @long_rows(%x: tensor<4x2048xf32>, %p: tensor<4x2053xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %s = linalg.reduce { arith.addf } ins(%x : tensor<4x2048xf32>) outs(%f : tensor<4xf32>) dimensions = [1]
  %f2 = linalg.fill ins(%zero : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %s2 = linalg.reduce { arith.addf } ins(%p : tensor<4x2053xf32>) outs(%f2 : tensor<4xf32>) dimensions = [1]
  return %s, %s2 : tensor<4xf32>, tensor<4xf32>
}

// -----

// A reduction over several innermost axes read contiguously (a sum of all
// of a matrix, a mean over an image's rows and columns) reduces one
// collapsed row: vector reductions, not a nest of scalar loops. A
// reduction over axes that are not innermost keeps its loops.
// CHECK-LABEL: func @several_axes
// CHECK:       tensor.collapse_shape %{{.*}} {{\[}}[0, 1]] : tensor<256x256xf32> into tensor<65536xf32>
// CHECK:       scf.for {{.*}} -> (vector<128xf32>)
// CHECK:       vector.multi_reduction <add>, {{.*}} : vector<128xf32> to f32
// CHECK:       tensor.collapse_shape %{{.*}} {{\[}}[0, 1], [2, 3]] : tensor<2x3x16x16xf32> into tensor<6x256xf32>
// CHECK:       scf.for
// CHECK:         vector.multi_reduction <maximumf>, {{.*}} [1] : vector<1x256xf32> to vector<1xf32>
// CHECK:       linalg.reduce { arith.addf } ins(%{{.*}} : tensor<4x8x16xf32>) outs(%{{.*}} : tensor<8xf32>) dimensions = [0, 2]
func.func @several_axes(%x: tensor<256x256xf32>, %image: tensor<2x3x16x16xf32>, %y: tensor<4x8x16xf32>) -> (tensor<f32>, tensor<2x3xf32>, tensor<8xf32>) {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<f32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %all = linalg.reduce { arith.addf } ins(%x : tensor<256x256xf32>) outs(%f : tensor<f32>) dimensions = [0, 1]
  %e2 = tensor.empty() : tensor<2x3xf32>
  %f2 = linalg.fill ins(%ninf : f32) outs(%e2 : tensor<2x3xf32>) -> tensor<2x3xf32>
  %pooled = linalg.reduce { arith.maximumf } ins(%image : tensor<2x3x16x16xf32>) outs(%f2 : tensor<2x3xf32>) dimensions = [2, 3]
  %e3 = tensor.empty() : tensor<8xf32>
  %f3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<8xf32>) -> tensor<8xf32>
  %outer = linalg.reduce { arith.addf } ins(%y : tensor<4x8x16xf32>) outs(%f3 : tensor<8xf32>) dimensions = [0, 2]
  return %all, %pooled, %outer : tensor<f32>, tensor<2x3xf32>, tensor<8xf32>
}

// -----

// Left alone: f16 reductions, and reductions over another axis than the
// innermost whose rows are longer than 8 vectors (LLVM vectorizes along
// the row; shorter rows are summed row by row, tile-elementwise.mlir).
// CHECK-LABEL: func @rows_untouched
// CHECK-NOT:   vector.
// CHECK-NOT:   scf.for
func.func @rows_untouched(%x: tensor<8x8xf16>, %y: tensor<8x160xf32>) -> (tensor<8xf16>, tensor<160xf32>) {
  %zero16 = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<8xf16>
  %f = linalg.fill ins(%zero16 : f16) outs(%e : tensor<8xf16>) -> tensor<8xf16>
  %r = linalg.reduce { arith.addf } ins(%x : tensor<8x8xf16>) outs(%f : tensor<8xf16>) dimensions = [1]
  %zero = arith.constant 0.0 : f32
  %e2 = tensor.empty() : tensor<160xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<160xf32>) -> tensor<160xf32>
  %t = linalg.reduce { arith.addf } ins(%y : tensor<8x160xf32>) outs(%f2 : tensor<160xf32>) dimensions = [0]
  return %r, %t : tensor<8xf16>, tensor<160xf32>
}

// -----

// A wide B: each block column of B is copied into a contiguous K x 32
// panel (row by row, vectorized) before the row blocks read it.
// CHECK-LABEL: func @packed_rhs
// CHECK:       scf.for %[[J:.*]] = %c0 to %c256 step %c32
// CHECK:         %[[EMPTY:.*]] = tensor.empty() : tensor<128x32xf32>
// CHECK:         %[[PANEL:.*]] = scf.for %[[K:.*]] = %c0 to %c128 step %c1 iter_args(%[[P:.*]] = %[[EMPTY]])
// CHECK:           %[[ROW:.*]] = vector.transfer_read %arg1[%[[K]], %[[J]]]{{.*}} vector<1x32xf32>
// CHECK:           vector.transfer_write %[[ROW]], %[[P]][%[[K]], %c0]
// CHECK:         scf.for {{.*}} step %c8
// CHECK:           scf.for
// CHECK:             vector.transfer_read %[[PANEL]]{{.*}} : tensor<128x32xf32>, vector<1x32xf32>
func.func @packed_rhs(%a: tensor<64x128xf32>, %b: tensor<128x256xf32>) -> tensor<64x256xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x256xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<64x256xf32>) -> tensor<64x256xf32>
  %r = linalg.matmul ins(%a, %b : tensor<64x128xf32>, tensor<128x256xf32>) outs(%f : tensor<64x256xf32>) -> tensor<64x256xf32>
  return %r : tensor<64x256xf32>
}

// -----

// N not a multiple of the block's columns (8 x 32 blocks, 264 columns):
// the last block column, 8 wide, packs its own K x 8 panel (its width,
// computed in the row loop by tiling, moves out of it first).
// CHECK-LABEL: func @packed_rhs_partial_columns
// CHECK:       scf.for %[[J:.*]] = %c0 to %c256 step %c32
// CHECK:         tensor.empty() : tensor<128x32xf32>
// CHECK:         vector.transfer_read %arg1[%{{.*}}, %[[J]]]{{.*}} vector<1x32xf32>
// CHECK:         scf.for {{.*}} step %c8
// CHECK:       tensor.empty() : tensor<128x8xf32>
// CHECK:       vector.transfer_read %arg1[%{{.*}}, %c256]{{.*}} vector<1x8xf32>
// CHECK:       scf.for {{.*}} step %c8
// CHECK:         vector.transfer_read %{{.*}} : tensor<128x8xf32>, vector<1x8xf32>
func.func @packed_rhs_partial_columns(%a: tensor<64x128xf32>, %b: tensor<128x264xf32>) -> tensor<64x264xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x264xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<64x264xf32>) -> tensor<64x264xf32>
  %r = linalg.matmul ins(%a, %b : tensor<64x128xf32>, tensor<128x264xf32>) outs(%f : tensor<64x264xf32>) -> tensor<64x264xf32>
  return %r : tensor<64x264xf32>
}

// -----

// B as W^T (x @ w.T, nn.Linear's weights): each panel is W's 32 x 128
// slice transposed in 16 x 16 register tiles, read from W in place; no
// transposed copy of W is made.
// CHECK-LABEL: func @packed_transposed_rhs
// CHECK-NOT:   linalg.transpose
// CHECK:       scf.for %[[J:.*]] = %c0 to %c256 step %c32
// CHECK:         %[[EMPTY:.*]] = tensor.empty() : tensor<128x32xf32>
// CHECK:         %[[W:.*]] = tensor.extract_slice %arg1[%[[J]], 0] [32, 128] [1, 1]
// CHECK:         %[[PANEL:.*]] = scf.for %[[K:.*]] = %c0 to %c128 step %c16 iter_args(%[[P:.*]] = %[[EMPTY]])
// CHECK:           scf.for %[[C:.*]] = %c0 to %c32 step %c16
// CHECK:             vector.transfer_read %[[W]][%[[C]], %[[K]]], {{.*}} : tensor<32x128xf32>, vector<16x16xf32>
// CHECK:             vector.shuffle
// CHECK:             vector.transfer_write {{.*}}[%[[K]], %[[C]]]{{.*}} : vector<16x16xf32>, tensor<128x32xf32>
// CHECK:         scf.for {{.*}} step %c8
// CHECK:           scf.for
// CHECK:             vector.transfer_read %[[PANEL]]{{.*}} : tensor<128x32xf32>, vector<1x32xf32>
// CHECK-NOT:   linalg.
func.func @packed_transposed_rhs(%a: tensor<64x128xf32>, %w: tensor<256x128xf32>) -> tensor<64x256xf32> {
  %zero = arith.constant 0.0 : f32
  %t = tensor.empty() : tensor<128x256xf32>
  %b = linalg.transpose ins(%w : tensor<256x128xf32>) outs(%t : tensor<128x256xf32>) permutation = [1, 0]
  %e = tensor.empty() : tensor<64x256xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<64x256xf32>) -> tensor<64x256xf32>
  %r = linalg.matmul ins(%a, %b : tensor<64x128xf32>, tensor<128x256xf32>) outs(%f : tensor<64x256xf32>) -> tensor<64x256xf32>
  return %r : tensor<64x256xf32>
}

// -----

// A dynamic M packs B's panels only when its full blocks turn out to have
// at least 32 rows at run time; fewer rows read B in place. The last rows
// read B in place: up to 4 in whole rows of it (4x64, 2x128 and 1x256
// blocks), 5 to 7 in one padded 8-row block.
// CHECK-LABEL: func @packed_rhs_dynamic_rows
// CHECK:       %[[M:.*]] = tensor.dim %arg0, %c0
// CHECK:       %[[FULL:.*]] = affine.min #{{.*}}()[%[[M]]]
// CHECK:       scf.for %[[J:.*]] = %c0 to %c256 step %c32
// CHECK:         %[[LARGE:.*]] = arith.cmpi sge, %[[FULL]], %c32
// CHECK:         scf.if %[[LARGE]]
// CHECK:           %[[EMPTY:.*]] = tensor.empty() : tensor<128x32xf32>
// CHECK:           %[[PANEL:.*]] = scf.for
// CHECK:           scf.for {{.*}} step %c8
// CHECK:             scf.for
// CHECK:               vector.transfer_read %[[PANEL]]{{.*}} : tensor<128x32xf32>, vector<1x32xf32>
// CHECK:         } else {
// CHECK-NOT:       tensor.empty() : tensor<128x32xf32>
// CHECK:           scf.for {{.*}} step %c8
// CHECK:             scf.for
// CHECK:               vector.transfer_read %arg1[%{{.*}}, %[[J]]]{{.*}} : tensor<128x256xf32>, vector<1x32xf32>
// CHECK:       } {google.parallel}
// CHECK:       scf.for %{{.*}} = %c0 to %c256 step %c64
// CHECK:         vector.contract {{.*}} into vector<4x64xf32>
// CHECK:       scf.for %{{.*}} = %c0 to %c256 step %c128
// CHECK:         vector.contract {{.*}} into vector<2x128xf32>
// CHECK:       vector.contract {{.*}} into vector<1x256xf32>
// CHECK:       scf.for %{{.*}} step %c8
// CHECK:         tensor.pad
// CHECK:         } : tensor<?x128xf32> to tensor<8x128xf32>
// CHECK:         scf.for %{{.*}} = %c0 to %c256 step %c32
// CHECK:           vector.contract {{.*}} into vector<8x32xf32>
// CHECK-NOT:   linalg.
// CHECK-NOT:   vector<4x
func.func @packed_rhs_dynamic_rows(%a: tensor<?x128xf32>, %b: tensor<128x256xf32>) -> tensor<?x256xf32> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %m = tensor.dim %a, %c0 : tensor<?x128xf32>
  %e = tensor.empty(%m) : tensor<?x256xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<?x256xf32>) -> tensor<?x256xf32>
  %r = linalg.matmul ins(%a, %b : tensor<?x128xf32>, tensor<128x256xf32>) outs(%f : tensor<?x256xf32>) -> tensor<?x256xf32>
  return %r : tensor<?x256xf32>
}

// -----

// The bias and relu run on the accumulators of both the full blocks and
// the last rows' blocks; no linalg op is left but the padding's fill.
// CHECK-LABEL: func @dynamic_rows_fused
// CHECK:       vector.contract {{.*}} into vector<8x32xf32>
// CHECK:       arith.maximumf {{.*}} : vector<8x32xf32>
// CHECK:       vector.contract {{.*}} into vector<4x64xf32>
// CHECK:       arith.maximumf {{.*}} : vector<4x64xf32>
// CHECK:       vector.contract {{.*}} into vector<2x128xf32>
// CHECK:       arith.maximumf {{.*}} : vector<2x128xf32>
// CHECK:       vector.contract {{.*}} into vector<1x256xf32>
// CHECK:       arith.maximumf {{.*}} : vector<1x256xf32>
// The bias is read as it is; A's rows are padded.
// CHECK:       tensor.pad
// CHECK:       } : tensor<?x64xf32> to tensor<8x64xf32>
// CHECK:       vector.contract {{.*}} into vector<8x32xf32>
// CHECK:       vector.transfer_read %arg2
// CHECK:       arith.maximumf {{.*}} : vector<8x32xf32>
// CHECK-NOT:   linalg.
// CHECK-NOT:   vector<4x
func.func @dynamic_rows_fused(%a: tensor<?x64xf32>, %b: tensor<64x256xf32>, %bias: tensor<256xf32>) -> tensor<?x256xf32> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %m = tensor.dim %a, %c0 : tensor<?x64xf32>
  %e = tensor.empty(%m) : tensor<?x256xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<?x256xf32>) -> tensor<?x256xf32>
  %r = linalg.matmul ins(%a, %b : tensor<?x64xf32>, tensor<64x256xf32>) outs(%f : tensor<?x256xf32>) -> tensor<?x256xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%r, %bias : tensor<?x256xf32>, tensor<256xf32>) outs(%e : tensor<?x256xf32>) {
  ^bb0(%x: f32, %y: f32, %out: f32):
    %s = arith.addf %x, %y : f32
    %z = arith.maximumf %s, %zero : f32
    linalg.yield %z : f32
  } -> tensor<?x256xf32>
  return %o : tensor<?x256xf32>
}
