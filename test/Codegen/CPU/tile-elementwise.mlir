// RUN: google-opt %s -split-input-file -google-tile-and-vectorize | FileCheck %s

// A static elementwise op of 2^16 elements or more runs in a loop over
// chunks of its outermost non-unit dimension, each of at least 4096
// elements and all equal (the chunk divides the dimension), marked for
// threads. 256 rows of 300: chunks of 16 rows.
// CHECK-LABEL: func @rows
// CHECK:       scf.for %[[I:.*]] = %c0 to %c256 step %c16
// CHECK:         tensor.extract_slice %arg0[%[[I]], 0] [16, 300] [1, 1]
// CHECK:         linalg.generic {{.*}} ins({{.*}} : tensor<16x300xf32>, tensor<300xf32>)
// CHECK:           arith.addf
// CHECK:         tensor.insert_slice {{.*}}[%[[I]], 0] [16, 300] [1, 1]
// CHECK:       } {google.parallel}
#rows = affine_map<(d0, d1) -> (d0, d1)>
#bias = affine_map<(d0, d1) -> (d1)>
func.func @rows(%x: tensor<256x300xf32>, %b: tensor<300xf32>) -> tensor<256x300xf32> {
  %e = tensor.empty() : tensor<256x300xf32>
  %r = linalg.generic {indexing_maps = [#rows, #bias, #rows], iterator_types = ["parallel", "parallel"]} ins(%x, %b : tensor<256x300xf32>, tensor<300xf32>) outs(%e : tensor<256x300xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %s = arith.addf %in, %in_0 : f32
    linalg.yield %s : f32
  } -> tensor<256x300xf32>
  return %r : tensor<256x300xf32>
}

// -----

// Leading unit dimensions are skipped: 70000 elements in 16 chunks of 4375.
// CHECK-LABEL: func @unit_dims
// CHECK:       scf.for %[[I:.*]] = %c0 to %c70000 step %c4375
// CHECK:         linalg.generic {{.*}} ins(%{{.*}} : tensor<1x4375x1xf16>)
// CHECK:       } {google.parallel}
func.func @unit_dims(%x: tensor<1x70000x1xf16>) -> tensor<1x70000x1xf16> {
  %e = tensor.empty() : tensor<1x70000x1xf16>
  %t = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x : tensor<1x70000x1xf16>) outs(%e : tensor<1x70000x1xf16>) {
  ^bb0(%in: f16, %out: f16):
    %n = arith.negf %in : f16
    linalg.yield %n : f16
  } -> tensor<1x70000x1xf16>
  return %t : tensor<1x70000x1xf16>
}

// -----

// A dynamic number of rows of 128 elements or more: full chunks of at
// least 4096 elements and a last, shorter one (threads decide at run time).
// CHECK-LABEL: func @dynamic_rows
// CHECK:       scf.for %[[I:.*]] = %c0{{.*}} to %[[M:.*]] step %c4
// CHECK:         affine.min #{{.*}}(%[[I]])[%[[M]]]
// CHECK:         linalg.abs ins(%{{.*}} : tensor<?x1024xf32>)
// CHECK:       } {google.parallel}
func.func @dynamic_rows(%x: tensor<?x1024xf32>) -> tensor<?x1024xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x1024xf32>
  %e = tensor.empty(%n) : tensor<?x1024xf32>
  %0 = linalg.abs ins(%x : tensor<?x1024xf32>) outs(%e : tensor<?x1024xf32>) -> tensor<?x1024xf32>
  return %0 : tensor<?x1024xf32>
}

// -----

// Not threaded: fewer than 2^16 elements, dynamic rows shorter than 128, a
// dynamic row length, a reduction, a fill, and a length with no divisor
// between 4096 and itself.
// CHECK-LABEL: func @left_whole
// CHECK-NOT:   scf.for
// CHECK:       return
func.func @left_whole(%small: tensor<255x256xf32>, %short: tensor<?x100xf32>, %dyn: tensor<1024x?xf32>, %prime: tensor<65537xf32>) -> (tensor<255x256xf32>, tensor<?x100xf32>, tensor<1024x?xf32>, tensor<1024xf32>, tensor<65537xf32>, tensor<65537xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %0 = linalg.abs ins(%small : tensor<255x256xf32>) outs(%small : tensor<255x256xf32>) -> tensor<255x256xf32>
  %m = tensor.dim %short, %c0 : tensor<?x100xf32>
  %es = tensor.empty(%m) : tensor<?x100xf32>
  %s = linalg.abs ins(%short : tensor<?x100xf32>) outs(%es : tensor<?x100xf32>) -> tensor<?x100xf32>
  %n = tensor.dim %dyn, %c1 : tensor<1024x?xf32>
  %e = tensor.empty(%n) : tensor<1024x?xf32>
  %1 = linalg.abs ins(%dyn : tensor<1024x?xf32>) outs(%e : tensor<1024x?xf32>) -> tensor<1024x?xf32>
  %e1 = tensor.empty() : tensor<1024xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e1 : tensor<1024xf32>) -> tensor<1024xf32>
  %2 = linalg.reduce { arith.addf } ins(%1 : tensor<1024x?xf32>) outs(%f : tensor<1024xf32>) dimensions = [1]
  %e2 = tensor.empty() : tensor<65537xf32>
  %3 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<65537xf32>) -> tensor<65537xf32>
  %4 = linalg.abs ins(%prime : tensor<65537xf32>) outs(%e2 : tensor<65537xf32>) -> tensor<65537xf32>
  return %0, %s, %1, %2, %3, %4 : tensor<255x256xf32>, tensor<?x100xf32>, tensor<1024x?xf32>, tensor<1024xf32>, tensor<65537xf32>, tensor<65537xf32>
}

// -----

// Rows shorter than a vector (10 < 16 lanes) run one row at a time, each
// row one vector op: LLVM vectorized across rows with gathers at the row's
// stride. Rows read per row (%r) are broadcast.
// CHECK-LABEL: func @short_rows
// CHECK:       scf.for %[[I:.*]] = %c0 to %c250 step %c1
// CHECK:         %[[X:.*]] = vector.transfer_read %arg0[%[[I]], %c0]{{.*}} : tensor<250x10xf32>, vector<1x10xf32>
// CHECK:         %[[S:.*]] = vector.transfer_read %arg1[%[[I]]]{{.*}} : tensor<250xf32>, vector<1xf32>
// CHECK:         %[[R:.*]] = vector.broadcast %[[S]] : vector<1xf32> to vector<1x10xf32>
// CHECK:         %[[M:.*]] = arith.mulf %[[X]], %[[R]] : vector<1x10xf32>
// CHECK:         vector.transfer_write %[[M]], {{.*}}[%[[I]], %c0]
// CHECK-NOT:   linalg.generic
#row = affine_map<(d0, d1) -> (d0, d1)>
#per_row = affine_map<(d0, d1) -> (d0)>
func.func @short_rows(%x: tensor<250x10xf32>, %r: tensor<250xf32>) -> tensor<250x10xf32> {
  %e = tensor.empty() : tensor<250x10xf32>
  %m = linalg.generic {indexing_maps = [#row, #per_row, #row], iterator_types = ["parallel", "parallel"]} ins(%x, %r : tensor<250x10xf32>, tensor<250xf32>) outs(%e : tensor<250x10xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %p = arith.mulf %a, %b : f32
    linalg.yield %p : f32
  } -> tensor<250x10xf32>
  return %m : tensor<250x10xf32>
}

// -----

// Rows of one to 8 vectors that a broadcast keeps from merging with the
// loops around them (a max pooling's gradient divided per window
// position, a difference with one row per batch) also run one vector op
// per row: LLVM unrolled each row of 16 into scalar divisions.
// CHECK-LABEL: func @vector_rows
// CHECK:       scf.for %[[I:.*]] = %c0 to %c64 step %c1
// CHECK:         scf.for %[[J:.*]] = %c0 to %c2 step %c1
// CHECK:           %[[X:.*]] = vector.transfer_read %arg0[%[[I]], %[[J]], %c0]{{.*}} : tensor<64x2x16xf32>, vector<1x1x16xf32>
// CHECK:           %[[D:.*]] = vector.transfer_read %arg1[%c0, %[[J]], %c0]{{.*}} : tensor<1x2x1xf32>, vector<1x16xf32>
// CHECK:           %[[B:.*]] = vector.broadcast %[[D]] : vector<1x16xf32> to vector<1x1x16xf32>
// CHECK:           arith.divf %[[X]], %[[B]] : vector<1x1x16xf32>
// CHECK:       scf.for %[[K:.*]] = %c0 to %c64 step %c1
// CHECK:         scf.for %[[L:.*]] = %c0 to %c3 step %c1
// CHECK:           arith.subf {{.*}} : vector<1x1x64xf32>
// CHECK-NOT:   linalg.generic
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#window = affine_map<(d0, d1, d2) -> (0, d1, 0)>
#batch = affine_map<(d0, d1, d2) -> (d0, 0, d2)>
func.func @vector_rows(%x: tensor<64x2x16xf32>, %d: tensor<1x2x1xf32>, %y: tensor<64x3x64xf32>, %b: tensor<64x1x64xf32>) -> (tensor<64x2x16xf32>, tensor<64x3x64xf32>) {
  %e = tensor.empty() : tensor<64x2x16xf32>
  %q = linalg.generic {indexing_maps = [#id3, #window, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x, %d : tensor<64x2x16xf32>, tensor<1x2x1xf32>) outs(%e : tensor<64x2x16xf32>) {
  ^bb0(%v: f32, %w: f32, %o: f32):
    %r = arith.divf %v, %w : f32
    linalg.yield %r : f32
  } -> tensor<64x2x16xf32>
  %e2 = tensor.empty() : tensor<64x3x64xf32>
  %s = linalg.generic {indexing_maps = [#id3, #batch, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%y, %b : tensor<64x3x64xf32>, tensor<64x1x64xf32>) outs(%e2 : tensor<64x3x64xf32>) {
  ^bb0(%v: f32, %w: f32, %o: f32):
    %r = arith.subf %v, %w : f32
    linalg.yield %r : f32
  } -> tensor<64x3x64xf32>
  return %q, %s : tensor<64x2x16xf32>, tensor<64x3x64xf32>
}

// -----

// An operand broadcast in every dimension is one element: tensor.extract
// and a broadcast, not a 0-d transfer_read (bufferized into a strided view,
// whose innermost stride is not 1, that has no lowering to LLVM).
// CHECK-LABEL: func @one_element
// CHECK:       %[[E:.*]] = tensor.extract %arg0[%c0, %c0] : tensor<1x1xi32>
// CHECK:       vector.broadcast %[[E]] : i32 to vector<1x6xi32>
// CHECK-NOT:   vector<i32>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#element = affine_map<(d0, d1) -> (0, 0)>
func.func @one_element(%a: tensor<1x1xi32>, %x: tensor<5x6xi32>) -> tensor<5x6xi32> {
  %e = tensor.empty() : tensor<5x6xi32>
  %r = linalg.generic {indexing_maps = [#element, #id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%a, %x : tensor<1x1xi32>, tensor<5x6xi32>) outs(%e : tensor<5x6xi32>) {
  ^bb0(%v: i32, %w: i32, %o: i32):
    %s = arith.addi %v, %w : i32
    linalg.yield %s : i32
  } -> tensor<5x6xi32>
  return %r : tensor<5x6xi32>
}

// -----

// Left to LLVM's loops: exp (they call libmvec's vector exp), rows that
// merge into one loop (LLVM vectorizes it whole), a transposed read of the
// row.
// CHECK-LABEL: func @short_rows_left
// CHECK-COUNT-3: linalg.generic
// CHECK-NOT:   vector.transfer_read
#row = affine_map<(d0, d1) -> (d0, d1)>
#transposed = affine_map<(d0, d1) -> (d1, d0)>
func.func @short_rows_left(%x: tensor<250x10xf32>, %y: tensor<250x16xf32>, %z: tensor<10x250xf32>) -> (tensor<250x10xf32>, tensor<250x16xf32>, tensor<250x10xf32>) {
  %e = tensor.empty() : tensor<250x10xf32>
  %a = linalg.generic {indexing_maps = [#row, #row], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<250x10xf32>) outs(%e : tensor<250x10xf32>) {
  ^bb0(%v: f32, %o: f32):
    %w = math.exp %v : f32
    linalg.yield %w : f32
  } -> tensor<250x10xf32>
  %e16 = tensor.empty() : tensor<250x16xf32>
  %b = linalg.generic {indexing_maps = [#row, #row], iterator_types = ["parallel", "parallel"]} ins(%y : tensor<250x16xf32>) outs(%e16 : tensor<250x16xf32>) {
  ^bb0(%v: f32, %o: f32):
    %w = arith.negf %v : f32
    linalg.yield %w : f32
  } -> tensor<250x16xf32>
  %c = linalg.generic {indexing_maps = [#transposed, #row], iterator_types = ["parallel", "parallel"]} ins(%z : tensor<10x250xf32>) outs(%e : tensor<250x10xf32>) {
  ^bb0(%v: f32, %o: f32):
    %w = arith.negf %v : f32
    linalg.yield %w : f32
  } -> tensor<250x10xf32>
  return %a, %b, %c : tensor<250x10xf32>, tensor<250x16xf32>, tensor<250x10xf32>
}

// -----

// Loops every operand reads contiguously together become one: a 4-D op
// over rows of 8 is one loop (per chunk of threads: 8 x 8 x 8 x 8 = 4096),
// which LLVM vectorizes whole; with a bias per channel, the three outer
// loops become one and the rows of 8 stay (one vector op per row).
// CHECK-LABEL: func @collapsed
// CHECK:       scf.for {{.*}} step %c8
// CHECK:         tensor.collapse_shape {{.*}} {{\[\[}}0, 1, 2, 3]] : tensor<8x8x8x8xf32> into tensor<4096xf32>
// CHECK:         linalg.generic {{.*}} ins(%{{.*}} : tensor<4096xf32>)
// CHECK:         tensor.expand_shape
// CHECK:       } {google.parallel}
// CHECK-LABEL: func @collapsed_bias
// CHECK:       tensor.collapse_shape %arg0 {{\[\[}}0, 1, 2], [3]] : tensor<4x5x6x8xf32> into tensor<120x8xf32>
// CHECK:       scf.for {{.*}} = %c0 to %c120 step %c1
// CHECK:         vector.transfer_read {{.*}} : tensor<120x8xf32>, vector<1x8xf32>
// CHECK:         arith.addf {{.*}} : vector<1x8xf32>
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#channel = affine_map<(d0, d1, d2, d3) -> (d3)>
func.func @collapsed(%x: tensor<256x8x8x8xf32>) -> tensor<256x8x8x8xf32> {
  %e = tensor.empty() : tensor<256x8x8x8xf32>
  %r = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x : tensor<256x8x8x8xf32>) outs(%e : tensor<256x8x8x8xf32>) {
  ^bb0(%v: f32, %o: f32):
    %w = arith.negf %v : f32
    linalg.yield %w : f32
  } -> tensor<256x8x8x8xf32>
  return %r : tensor<256x8x8x8xf32>
}
func.func @collapsed_bias(%x: tensor<4x5x6x8xf32>, %b: tensor<8xf32>) -> tensor<4x5x6x8xf32> {
  %e = tensor.empty() : tensor<4x5x6x8xf32>
  %r = linalg.generic {indexing_maps = [#id4, #channel, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x, %b : tensor<4x5x6x8xf32>, tensor<8xf32>) outs(%e : tensor<4x5x6x8xf32>) {
  ^bb0(%v: f32, %c: f32, %o: f32):
    %w = arith.addf %v, %c : f32
    linalg.yield %w : f32
  } -> tensor<4x5x6x8xf32>
  return %r : tensor<4x5x6x8xf32>
}

// -----

// A sum over the rows of short rows (a bias gradient): one loop over the
// rows adds each row's vector into the result's, carried by the loop.
// CHECK-LABEL: func @column_sum
// CHECK:       %[[INIT:.*]] = vector.transfer_read
// CHECK:       %[[SUM:.*]] = scf.for %[[I:.*]] = %c0 to %c250 step %c1 iter_args(%[[ACC:.*]] = %[[INIT]]) -> (vector<10xf32>)
// CHECK:         %[[ROW:.*]] = vector.transfer_read %arg0[%[[I]], %c0]{{.*}} : tensor<250x10xf32>, vector<1x10xf32>
// CHECK:         %[[FLAT:.*]] = vector.shape_cast %[[ROW]]
// CHECK:         arith.addf %[[ACC]], %[[FLAT]] : vector<10xf32>
// CHECK:       vector.transfer_write %[[SUM]]
func.func @column_sum(%x: tensor<250x10xf32>) -> tensor<10xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<10xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<10xf32>) -> tensor<10xf32>
  %r = linalg.reduce { arith.addf } ins(%x : tensor<250x10xf32>) outs(%f : tensor<10xf32>) dimensions = [0]
  return %r : tensor<10xf32>
}

// -----

// Column sums over rows of up to 8 vectors go the same way (LLVM unrolled
// a row of 16 or 64 into scalar adds and stores per row); the rows of a
// convolution's channels are summed over batch, height and width. Wider
// rows stay for LLVM's vectorizer.
// CHECK-LABEL: func @wide_column_sums
// CHECK:       scf.for %{{.*}} = %c0 to %c256 step %c1 iter_args(%{{.*}} = %{{.*}}) -> (vector<64xf32>)
// CHECK:         arith.addf %{{.*}}, %{{.*}} : vector<64xf32>
// CHECK:       scf.for %{{.*}} = %c0 to %c256 step %c1 iter_args(%{{.*}} = %{{.*}}) -> (vector<16xf32>)
// CHECK:         scf.for %{{.*}} = %c0 to %c4
// CHECK:           scf.for %{{.*}} = %c0 to %c4
// CHECK:             vector.transfer_read %arg1{{.*}} : tensor<256x4x4x16xf32>, vector<1x1x1x16xf32>
// CHECK:             arith.addf %{{.*}}, %{{.*}} : vector<16xf32>
// CHECK:       linalg.reduce { arith.addf } ins(%arg2 : tensor<16x256xf32>)
func.func @wide_column_sums(%x: tensor<256x64xf32>, %y: tensor<256x4x4x16xf32>, %z: tensor<16x256xf32>) -> (tensor<64xf32>, tensor<16xf32>, tensor<256xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<64xf32>) -> tensor<64xf32>
  %r = linalg.reduce { arith.addf } ins(%x : tensor<256x64xf32>) outs(%f : tensor<64xf32>) dimensions = [0]
  %e16 = tensor.empty() : tensor<16xf32>
  %f16 = linalg.fill ins(%zero : f32) outs(%e16 : tensor<16xf32>) -> tensor<16xf32>
  %r16 = linalg.reduce { arith.addf } ins(%y : tensor<256x4x4x16xf32>) outs(%f16 : tensor<16xf32>) dimensions = [0, 1, 2]
  %e256 = tensor.empty() : tensor<256xf32>
  %f256 = linalg.fill ins(%zero : f32) outs(%e256 : tensor<256xf32>) -> tensor<256xf32>
  %r256 = linalg.reduce { arith.addf } ins(%z : tensor<16x256xf32>) outs(%f256 : tensor<256xf32>) dimensions = [0]
  return %r, %r16, %r256 : tensor<64xf32>, tensor<16xf32>, tensor<256xf32>
}

// -----

// A fill of a whole static tensor fills it as one dimension (a generic:
// the canonicalizer would fold a reshaped fill back); LLVM unrolled the
// inner loops of 256x4x4x8 and vectorized across rows with scatters.
// Slices of larger tensors and dynamic extents stay.
// CHECK-LABEL: func @fills
// CHECK:       %[[FLAT:.*]] = tensor.collapse_shape %{{.*}} {{\[}}[0, 1, 2, 3]] : tensor<256x4x4x8xf32> into tensor<32768xf32>
// CHECK:       %[[FILLED:.*]] = linalg.generic {{.*}} outs(%[[FLAT]] : tensor<32768xf32>)
// CHECK:       tensor.expand_shape %[[FILLED]] {{\[}}[0, 1, 2, 3]] output_shape [256, 4, 4, 8]
// CHECK:       linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<?x8xf32>)
// CHECK:       linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<4x8xf32>)
func.func @fills(%n: index, %big: tensor<16x16xf32>) -> (tensor<256x4x4x8xf32>, tensor<?x8xf32>, tensor<4x8xf32>) {
  %c = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<256x4x4x8xf32>
  %f = linalg.fill ins(%c : f32) outs(%e : tensor<256x4x4x8xf32>) -> tensor<256x4x4x8xf32>
  %d = tensor.empty(%n) : tensor<?x8xf32>
  %g = linalg.fill ins(%c : f32) outs(%d : tensor<?x8xf32>) -> tensor<?x8xf32>
  %s = tensor.extract_slice %big[2, 4] [4, 8] [1, 1] : tensor<16x16xf32> to tensor<4x8xf32>
  %h = linalg.fill ins(%c : f32) outs(%s : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %f, %g, %h : tensor<256x4x4x8xf32>, tensor<?x8xf32>, tensor<4x8xf32>
}
