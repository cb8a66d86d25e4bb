// RUN: google-opt %s -split-input-file -google-tile-and-vectorize | FileCheck %s

// A max pooling runs one output row at a time: the batch loop goes to
// threads, the window's rows are a loop, and each row of the window is
// vector ops on a tile of columns x channels (here the whole 4 x 8 row):
// one read of the input row, one max per window column and output column
// (2 x 4), in the order of the window's columns, and one write.
// CHECK-LABEL: func @max_rows
// CHECK:       %[[N:.*]] = tensor.dim %arg0, %c0
// CHECK:       scf.for %[[B:.*]] = %c0 to %[[N]] step %c1
// CHECK:         scf.for %[[R:.*]] = %c0 to %c4 step %c1
// CHECK:           scf.for %[[W:.*]] = %c0 to %c2 step %c1
// CHECK:             %[[ROW:.*]] = affine.apply {{.*}}(%[[R]], %[[W]])
// CHECK:             vector.transfer_read %arg0[%[[B]], %[[ROW]], %c0, %c0], {{.*}} : tensor<?x8x8x8xf32>, vector<1x8x8xf32>
// CHECK:             vector.transfer_read {{.*}}[%[[B]], %[[R]], %c0, %c0], {{.*}} : tensor<?x4x4x8xf32>, vector<1x4x8xf32>
// CHECK-COUNT-8:     arith.maximumf {{.*}} : vector<1x1x8xf32>
// CHECK:             vector.transfer_write {{.*}} : vector<1x4x8xf32>, tensor<1x1x4x8xf32>
// CHECK:       } {google.parallel}
// CHECK-NOT:   linalg.pooling
func.func @max_rows(%x: tensor<?x8x8x8xf32>, %init: tensor<?x4x4x8xf32>) -> tensor<?x4x4x8xf32> {
  %w = tensor.empty() : tensor<2x2xf32>
  %p = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%x, %w : tensor<?x8x8x8xf32>, tensor<2x2xf32>) outs(%init : tensor<?x4x4x8xf32>) -> tensor<?x4x4x8xf32>
  return %p : tensor<?x4x4x8xf32>
}

// -----

// Channels in tiles that divide them (70 f64 channels: 14, at most 4
// vectors of 8), columns in tiles that divide the row (6: 3, at most 8
// vectors of results in all). With stride 1, each window column adds a
// slice of the input row's vector to the whole tile, in the columns' order.
// CHECK-LABEL: func @sum_tiles
// CHECK:       scf.for {{.*}} = %c0 to %c2 step %c1
// CHECK:         scf.for {{.*}} = %c0 to %c5 step %c1
// CHECK:           scf.for {{.*}} = %c0 to %c6 step %c3
// CHECK:             scf.for {{.*}} = %c0 to %c70 step %c14
// CHECK:               scf.for {{.*}} = %c0 to %c3 step %c1
// CHECK:                 vector.transfer_read {{.*}} : tensor<2x7x8x70xf64>, vector<1x5x14xf64>
// CHECK:                 %[[ACC:.*]] = vector.transfer_read {{.*}} : tensor<2x5x6x70xf64>, vector<1x3x14xf64>
// CHECK:                 %[[C0:.*]] = vector.extract_strided_slice {{.*}}offsets = [0, 0, 0]
// CHECK:                 %[[C1:.*]] = vector.extract_strided_slice {{.*}}offsets = [0, 1, 0]
// CHECK:                 %[[C2:.*]] = vector.extract_strided_slice {{.*}}offsets = [0, 2, 0]
// CHECK:                 %[[S0:.*]] = arith.addf %[[C0]], %[[ACC]] : vector<1x3x14xf64>
// CHECK:                 %[[S1:.*]] = arith.addf %[[C1]], %[[S0]] : vector<1x3x14xf64>
// CHECK:                 arith.addf %[[C2]], %[[S1]] : vector<1x3x14xf64>
// CHECK:       } {google.parallel}
// CHECK-NOT:   linalg.pooling
func.func @sum_tiles(%x: tensor<2x7x8x70xf64>, %init: tensor<2x5x6x70xf64>) -> tensor<2x5x6x70xf64> {
  %w = tensor.empty() : tensor<3x3xf64>
  %p = linalg.pooling_nhwc_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<2x7x8x70xf64>, tensor<3x3xf64>) outs(%init : tensor<2x5x6x70xf64>) -> tensor<2x5x6x70xf64>
  return %p : tensor<2x5x6x70xf64>
}

// -----

// Integer poolings, and poolings with dynamic rows, stay loops.
// CHECK-LABEL: func @not_taken
// CHECK:       linalg.pooling_nhwc_max {{.*}} tensor<1x4x4x2xi32>
// CHECK:       linalg.pooling_nhwc_max {{.*}} tensor<1x?x4x2xf32>
func.func @not_taken(%x: tensor<1x4x4x2xi32>, %i: tensor<1x3x3x2xi32>, %y: tensor<1x?x4x2xf32>, %j: tensor<1x?x3x2xf32>) -> (tensor<1x3x3x2xi32>, tensor<1x?x3x2xf32>) {
  %w = tensor.empty() : tensor<2x2xi32>
  %p = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<1x4x4x2xi32>, tensor<2x2xi32>) outs(%i : tensor<1x3x3x2xi32>) -> tensor<1x3x3x2xi32>
  %v = tensor.empty() : tensor<2x2xf32>
  %q = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%y, %v : tensor<1x?x4x2xf32>, tensor<2x2xf32>) outs(%j : tensor<1x?x3x2xf32>) -> tensor<1x?x3x2xf32>
  return %p, %q : tensor<1x3x3x2xi32>, tensor<1x?x3x2xf32>
}
