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

// Other dimensions are loops around a transpose of 2-D slices: (2, 0, 1)
// of 17x5x20 loops over the 17 and transposes 5x20 slices, with a
// dynamic extent.
// CHECK-LABEL: func @rank3
// CHECK:       %[[N:.*]] = tensor.dim %arg1, %c1
// CHECK:       scf.for %[[I:.*]] = %c0 to %[[N]] step
// CHECK:         %[[IN:.*]] = tensor.extract_slice %arg0[%[[I]], 0, 0] [1, 5, 20] [1, 1, 1] : tensor<?x5x20xi32> to tensor<5x20xi32>
// CHECK:         tensor.extract_slice %{{.*}}[0, %[[I]], 0] [20, 1, 5] [1, 1, 1] : tensor<20x?x5xi32> to tensor<20x5xi32>
// CHECK:         scf.for
// CHECK:           scf.for
// CHECK:             vector.transfer_read %[[IN]]
// CHECK:             vector.transfer_write
// CHECK:         tensor.insert_slice {{.*}}[0, %[[I]], 0] [20, 1, 5] [1, 1, 1] : tensor<20x5xi32> into tensor<20x?x5xi32>
func.func @rank3(%x: tensor<?x5x20xi32>, %e: tensor<20x?x5xi32>) -> tensor<20x?x5xi32> {
  %t = linalg.transpose ins(%x : tensor<?x5x20xi32>) outs(%e : tensor<20x?x5xi32>) permutation = [2, 0, 1]
  return %t : tensor<20x?x5xi32>
}

// -----

// Left to LLVM: the innermost dimension stays (rows are copied whole),
// 64-bit elements, and a moved dimension shorter than 4.
// CHECK-LABEL: func @left
// CHECK-COUNT-3: linalg.transpose
// CHECK-NOT:   vector.transfer_read
func.func @left(%a: tensor<8x9x32xf32>, %b: tensor<32x40xf64>, %c: tensor<3x100xf32>) -> (tensor<9x8x32xf32>, tensor<40x32xf64>, tensor<100x3xf32>) {
  %ea = tensor.empty() : tensor<9x8x32xf32>
  %ta = linalg.transpose ins(%a : tensor<8x9x32xf32>) outs(%ea : tensor<9x8x32xf32>) permutation = [1, 0, 2]
  %eb = tensor.empty() : tensor<40x32xf64>
  %tb = linalg.transpose ins(%b : tensor<32x40xf64>) outs(%eb : tensor<40x32xf64>) permutation = [1, 0]
  %ec = tensor.empty() : tensor<100x3xf32>
  %tc = linalg.transpose ins(%c : tensor<3x100xf32>) outs(%ec : tensor<100x3xf32>) permutation = [1, 0]
  return %ta, %tb, %tc : tensor<9x8x32xf32>, tensor<40x32xf64>, tensor<100x3xf32>
}
