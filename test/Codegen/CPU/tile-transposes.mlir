// RUN: google-opt %s -split-input-file -google-tile-and-vectorize | FileCheck %s
// RUN: google-opt %s -split-input-file -google-tile-and-vectorize=vector-bits=256 | FileCheck %s --check-prefix=AVX2

// A transpose that moves the innermost dimension goes in 16 x 16 tiles
// (8 x 8 with 256-bit vectors): a masked read of the input's tile, a
// register transpose as shuffles, a masked write; the masks cover the
// partial tiles (250 = 15 x 16 + 10).
// CHECK-LABEL: func @matrix
// CHECK-DAG:   %[[C16:.*]] = arith.constant 16 : index
// CHECK:       scf.for %[[R:.*]] = %c0 to %c256 step %[[C16]]
// CHECK:         scf.for %[[C:.*]] = %c0 to %c250 step %[[C16]]
// CHECK:           %[[ROWS:.*]] = affine.min {{.*}}(%c256, %[[R]])
// CHECK:           %[[COLUMNS:.*]] = affine.min {{.*}}(%c250, %[[C]])
// CHECK:           %[[READ_MASK:.*]] = vector.create_mask %[[COLUMNS]], %[[ROWS]] : vector<16x16xi1>
// CHECK:           vector.transfer_read %arg0[%[[C]], %[[R]]], {{.*}}, %[[READ_MASK]] {in_bounds = [true, true]} : tensor<250x256xf32>, vector<16x16xf32>
// CHECK-COUNT-64:  vector.shuffle
// CHECK:           %[[WRITE_MASK:.*]] = vector.create_mask %[[ROWS]], %[[COLUMNS]] : vector<16x16xi1>
// CHECK:           vector.transfer_write {{.*}}[%[[R]], %[[C]]], %[[WRITE_MASK]] {in_bounds = [true, true]} : vector<16x16xf32>, tensor<256x250xf32>
// CHECK-NOT:   linalg.transpose
// AVX2-LABEL:  func @matrix
// AVX2:        scf.for {{.*}} step %c8
// AVX2:          scf.for {{.*}} step %c8
// AVX2:            vector.transfer_read {{.*}} : tensor<250x256xf32>, vector<8x8xf32>
// AVX2:            vector.shuffle {{.*}} : vector<64xf32>, vector<64xf32>
// AVX2:            vector.transfer_write {{.*}} : vector<8x8xf32>, tensor<256x250xf32>
func.func @matrix(%x: tensor<250x256xf32>) -> tensor<256x250xf32> {
  %e = tensor.empty() : tensor<256x250xf32>
  %t = linalg.transpose ins(%x : tensor<250x256xf32>) outs(%e : tensor<256x250xf32>) permutation = [1, 0]
  return %t : tensor<256x250xf32>
}

// -----

// Other dimensions are loops around a transpose of 2-D slices: (2, 1, 0)
// of ?x5x20 loops over the 5 and transposes ?x20 slices.
// CHECK-LABEL: func @rank3
// CHECK:       scf.for %[[I:.*]] = %c0 to %c5 step
// CHECK:         %[[IN:.*]] = tensor.extract_slice %arg0[0, %[[I]], 0] [%{{.*}}, 1, 20] [1, 1, 1] : tensor<?x5x20xi32> to tensor<?x20xi32>
// CHECK:         tensor.extract_slice %{{.*}}[0, %[[I]], 0] [20, 1, %{{.*}}] [1, 1, 1] : tensor<20x5x?xi32> to tensor<20x?xi32>
// CHECK:         scf.for
// CHECK:           scf.for
// CHECK:             vector.transfer_read %[[IN]]
// CHECK:             vector.transfer_write
// CHECK:         tensor.insert_slice {{.*}}[0, %[[I]], 0] [20, 1, %{{.*}}] [1, 1, 1] : tensor<20x?xi32> into tensor<20x5x?xi32>
func.func @rank3(%x: tensor<?x5x20xi32>, %e: tensor<20x5x?xi32>) -> tensor<20x5x?xi32> {
  %t = linalg.transpose ins(%x : tensor<?x5x20xi32>) outs(%e : tensor<20x5x?xi32>) permutation = [2, 1, 0]
  return %t : tensor<20x5x?xi32>
}

// -----

// A transpose becomes one of the fewest dimensions that moves the same
// data, between free reshapes: unit dimensions dropped, dimensions that
// stay together merged. 256x10x10x1 -> 1x10x10x256 is the transpose of a
// 256x100 matrix (tiled as one); ?x4x6 -> 4x6x? of a ?x24 one; where the
// non-unit dimensions keep their order, nothing moves (a reshape).
// CHECK-LABEL: func @collapsed
// CHECK:       %[[IN:.*]] = tensor.collapse_shape %arg0 {{\[}}[0], [1, 2, 3]] : tensor<256x10x10x1xf32> into tensor<256x100xf32>
// CHECK:       scf.for
// CHECK:         scf.for
// CHECK:           vector.transfer_read %[[IN]]{{.*}} : tensor<256x100xf32>, vector<16x16xf32>
// CHECK:           vector.transfer_write {{.*}} : vector<16x16xf32>, tensor<100x256xf32>
// CHECK:       tensor.expand_shape %{{.*}} {{\[}}[0, 1, 2], [3]] output_shape [1, 10, 10, 256] : tensor<100x256xf32> into tensor<1x10x10x256xf32>
// CHECK:       %[[DYN:.*]] = tensor.collapse_shape %arg1 {{\[}}[0], [1, 2]] : tensor<?x4x6xf32> into tensor<?x24xf32>
// CHECK:       vector.transfer_read %[[DYN]]
// CHECK:       tensor.expand_shape %{{.*}} {{\[}}[0, 1], [2]] output_shape [4, 6, %{{.*}}] : tensor<24x?xf32> into tensor<4x6x?xf32>
// CHECK:       %[[FLAT:.*]] = tensor.collapse_shape %arg2 {{\[}}[0, 1, 2, 3]] : tensor<1x5x1x7xf32> into tensor<35xf32>
// CHECK:       tensor.expand_shape %[[FLAT]] {{\[}}[0, 1, 2, 3]] output_shape [5, 1, 7, 1] : tensor<35xf32> into tensor<5x1x7x1xf32>
// CHECK-NOT:   linalg.transpose
func.func @collapsed(%a: tensor<256x10x10x1xf32>, %b: tensor<?x4x6xf32>, %c: tensor<1x5x1x7xf32>) -> (tensor<1x10x10x256xf32>, tensor<4x6x?xf32>, tensor<5x1x7x1xf32>) {
  %ea = tensor.empty() : tensor<1x10x10x256xf32>
  %ta = linalg.transpose ins(%a : tensor<256x10x10x1xf32>) outs(%ea : tensor<1x10x10x256xf32>) permutation = [3, 1, 2, 0]
  %c0 = arith.constant 0 : index
  %n = tensor.dim %b, %c0 : tensor<?x4x6xf32>
  %eb = tensor.empty(%n) : tensor<4x6x?xf32>
  %tb = linalg.transpose ins(%b : tensor<?x4x6xf32>) outs(%eb : tensor<4x6x?xf32>) permutation = [1, 2, 0]
  %ec = tensor.empty() : tensor<5x1x7x1xf32>
  %tc = linalg.transpose ins(%c : tensor<1x5x1x7xf32>) outs(%ec : tensor<5x1x7x1xf32>) permutation = [1, 0, 3, 2]
  return %ta, %tb, %tc : tensor<1x10x10x256xf32>, tensor<4x6x?xf32>, tensor<5x1x7x1xf32>
}

// -----

// Left to LLVM: the innermost dimension stays (rows are copied whole),
// 64-bit elements and a moved dimension shorter than 4 past
// kSmallTransposeElements (4096).
// CHECK-LABEL: func @left
// CHECK-COUNT-3: linalg.transpose
// CHECK-NOT:   vector.transfer_read
func.func @left(%a: tensor<8x9x32xf32>, %b: tensor<64x80xf64>, %c: tensor<3x2000xf32>) -> (tensor<9x8x32xf32>, tensor<80x64xf64>, tensor<2000x3xf32>) {
  %ea = tensor.empty() : tensor<9x8x32xf32>
  %ta = linalg.transpose ins(%a : tensor<8x9x32xf32>) outs(%ea : tensor<9x8x32xf32>) permutation = [1, 0, 2]
  %eb = tensor.empty() : tensor<80x64xf64>
  %tb = linalg.transpose ins(%b : tensor<64x80xf64>) outs(%eb : tensor<80x64xf64>) permutation = [1, 0]
  %ec = tensor.empty() : tensor<2000x3xf32>
  %tc = linalg.transpose ins(%c : tensor<3x2000xf32>) outs(%ec : tensor<2000x3xf32>) permutation = [1, 0]
  return %ta, %tb, %tc : tensor<9x8x32xf32>, tensor<80x64xf64>, tensor<2000x3xf32>
}

// -----

// Static transposes of at most 4096 elements (a weight's, for a
// gradient's dY W^T) are scalar loops over the output, marked for LLVM
// neither to vectorize (gathers) nor to unroll them: any element type;
// 4160 elements take the tiles.
// CHECK:       #[[UNROLL:.*]] = #llvm.loop_unroll<disable = true>
// CHECK:       #[[VECTORIZE:.*]] = #llvm.loop_vectorize<disable = true>
// CHECK:       #[[SCALAR:.*]] = #llvm.loop_annotation<vectorize = #[[VECTORIZE]], unroll = #[[UNROLL]]>
// CHECK-LABEL: func @small
// CHECK:       scf.for
// CHECK:         scf.for
// CHECK:           %[[E:.*]] = tensor.extract %arg0[%{{.*}}, %{{.*}}] : tensor<64x64xf32>
// CHECK:           tensor.insert %[[E]] into %{{.*}} : tensor<64x64xf32>
// CHECK:         } {loop_annotation = #[[SCALAR]]}
// CHECK:       } {loop_annotation = #[[SCALAR]]}
// CHECK:       tensor.extract %arg1{{.*}} : tensor<32x40xf64>
// CHECK:       tensor.extract %arg2{{.*}} : tensor<3x100xi1>
// CHECK:       vector.transfer_read %arg3{{.*}} : tensor<65x64xf32>, vector<16x16xf32>
// CHECK-NOT:   linalg.transpose
func.func @small(%a: tensor<64x64xf32>, %b: tensor<32x40xf64>, %c: tensor<3x100xi1>, %d: tensor<65x64xf32>) -> (tensor<64x64xf32>, tensor<40x32xf64>, tensor<100x3xi1>, tensor<64x65xf32>) {
  %ea = tensor.empty() : tensor<64x64xf32>
  %ta = linalg.transpose ins(%a : tensor<64x64xf32>) outs(%ea : tensor<64x64xf32>) permutation = [1, 0]
  %eb = tensor.empty() : tensor<40x32xf64>
  %tb = linalg.transpose ins(%b : tensor<32x40xf64>) outs(%eb : tensor<40x32xf64>) permutation = [1, 0]
  %ec = tensor.empty() : tensor<100x3xi1>
  %tc = linalg.transpose ins(%c : tensor<3x100xi1>) outs(%ec : tensor<100x3xi1>) permutation = [1, 0]
  %ed = tensor.empty() : tensor<64x65xf32>
  %td = linalg.transpose ins(%d : tensor<65x64xf32>) outs(%ed : tensor<64x65xf32>) permutation = [1, 0]
  return %ta, %tb, %tc, %td : tensor<64x64xf32>, tensor<40x32xf64>, tensor<100x3xi1>, tensor<64x65xf32>
}

// -----

// Dimensions with two dynamic extents stay apart: MLIR 22's
// --expand-strided-metadata crashes on a reshape group with two
// (test/Upstream/expand-strided-metadata-two-dynamic.mlir). ?x?x5 ->
// 5x?x? keeps its rank; ?x4x? -> 4x?x? merges nothing either.
// CHECK-LABEL: func @two_dynamic
// CHECK-NOT:   tensor.collapse_shape
// CHECK-NOT:   tensor.expand_shape
// CHECK:       return
func.func @two_dynamic(%a: tensor<?x?x5xf32>, %ea: tensor<5x?x?xf32>) -> tensor<5x?x?xf32> {
  %t = linalg.transpose ins(%a : tensor<?x?x5xf32>) outs(%ea : tensor<5x?x?xf32>) permutation = [2, 0, 1]
  return %t : tensor<5x?x?xf32>
}

// -----

// An empty tensor (a static 0 extent) is left to the loops: a collapsed
// group of ? and 0 is 0 statically but not to every later fold.
// CHECK-LABEL: func @empty
// CHECK-NOT:   tensor.collapse_shape
// CHECK:       linalg.transpose
func.func @empty(%a: tensor<?x0x7x?xf32>, %e: tensor<?x0x?x7xf32>) -> tensor<?x0x?x7xf32> {
  %t = linalg.transpose ins(%a : tensor<?x0x7x?xf32>) outs(%e : tensor<?x0x?x7xf32>) permutation = [0, 1, 3, 2]
  return %t : tensor<?x0x?x7xf32>
}
