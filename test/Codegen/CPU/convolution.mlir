// RUN: google-opt %s -google-convolution-to-matmul -google-tile-and-vectorize | FileCheck %s

// An f32 convolution is an im2col copy (each output position's 3x3x8 window,
// each of its rows one run of 3x8 input elements of the [N, H, W*C] view,
// one vector read)
// and a matmul of 72-deep rows, blocked for registers like any matmul.
// CHECK-LABEL: func @conv
// CHECK: tensor.collapse_shape %{{.*}} {{\[\[}}0], [1], [2, 3]] : tensor<?x10x10x8xf32> into tensor<?x10x80xf32>
// CHECK: vector.transfer_read {{.*}} : tensor<?x10x80xf32>, vector<24xf32>
// CHECK: vector.transfer_write {{.*}} : vector<24xf32>, tensor<1x8x8x3x24xf32>
// CHECK: %[[ROWS:.*]] = tensor.collapse_shape %{{.*}} {{\[\[}}0, 1, 2], [3, 4]] : tensor<?x8x8x3x24xf32> into tensor<?x72xf32>
// CHECK: tensor.collapse_shape %{{.*}} {{\[\[}}0, 1, 2], [3]] : tensor<3x3x8x16xf32> into tensor<72x16xf32>
// CHECK: scf.for %{{.*}} = %c0 to %c72 step %c1 iter_args(%{{.*}} = %{{.*}}) -> (vector<8x16xf32>)
// CHECK: vector.contract {{.*}} : vector<8x1xf32>, vector<1x16xf32> into vector<8x16xf32>
// CHECK: tensor.expand_shape %{{.*}} {{\[\[}}0, 1, 2], [3]] output_shape [%{{.*}}, 8, 8, 16] : tensor<?x16xf32> into tensor<?x8x8x16xf32>
// CHECK-NOT: linalg.conv_2d
func.func @conv(%x: tensor<?x10x10x8xf32>, %w: tensor<3x3x8x16xf32>) -> tensor<?x8x8x16xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x10x10x8xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty(%n) : tensor<?x8x8x16xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<?x8x8x16xf32>) -> tensor<?x8x8x16xf32>
  %0 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<?x10x10x8xf32>, tensor<3x3x8x16xf32>) outs(%acc : tensor<?x8x8x16xf32>) -> tensor<?x8x8x16xf32>
  return %0 : tensor<?x8x8x16xf32>
}
