// RUN: google-opt %s -split-input-file -convert-google-to-linalg | FileCheck %s

// f16 accumulates in f32; the padding is a zero fill with the input
// inserted, so that every window lies inside the conv's operand.
// CHECK-LABEL: func @conv
// CHECK: %[[F:.*]] = linalg.fill ins(%{{.*}} : f16) outs(%{{.*}} : tensor<?x10x10x2xf16>)
// CHECK: %[[P:.*]] = tensor.insert_slice %{{.*}} into %[[F]][0, 1, 1, 0] [%{{.*}}, 8, 8, 2] [1, 1, 1, 1]
// CHECK: %[[ACC:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<?x8x8x4xf32>)
// CHECK: %[[C:.*]] = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%[[P]], %{{.*}} : tensor<?x10x10x2xf16>, tensor<3x3x2x4xf16>) outs(%[[ACC]] : tensor<?x8x8x4xf32>)
// CHECK: linalg.generic {{.*}} ins(%[[C]] : tensor<?x8x8x4xf32>)
// CHECK: arith.truncf
func.func @conv(%x: tensor<?x8x8x2xf16>, %w: tensor<3x3x2x4xf16>) -> tensor<?x8x8x4xf16> {
  %0 = google.conv2d %x, %w {strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, padding = array<i64: 1, 1, 1, 1>, groups = 1 : i64} : tensor<?x8x8x2xf16>, tensor<3x3x2x4xf16> -> tensor<?x8x8x4xf16>
  return %0 : tensor<?x8x8x4xf16>
}

// -----

// Groups: the channels split (N H W G C/G), the filter as G F kh kw C/G.
// CHECK-LABEL: func @grouped
// CHECK: %[[X:.*]] = tensor.expand_shape %{{.*}} {{\[\[}}0], [1], [2], [3, 4]] output_shape [1, 8, 8, 2, 2]
// CHECK: %[[W:.*]] = tensor.expand_shape %{{.*}} {{\[\[}}0], [1], [2], [3, 4]] output_shape [3, 3, 2, 2, 3]
// CHECK: %[[T:.*]] = linalg.transpose ins(%[[W]] : tensor<3x3x2x2x3xf32>) outs(%{{.*}} : tensor<2x3x3x3x2xf32>) permutation = [3, 4, 0, 1, 2]
// CHECK: %[[C:.*]] = linalg.conv_2d_nhwgc_gfhwc {{.*}} ins(%[[X]], %[[T]] : tensor<1x8x8x2x2xf32>, tensor<2x3x3x3x2xf32>)
// CHECK: tensor.collapse_shape %[[C]] {{\[\[}}0], [1], [2], [3, 4]] : tensor<1x6x6x2x3xf32> into tensor<1x6x6x6xf32>
func.func @grouped(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x2x6xf32>) -> tensor<1x6x6x6xf32> {
  %0 = google.conv2d %x, %w {strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, padding = array<i64: 0, 0, 0, 0>, groups = 2 : i64} : tensor<1x8x8x4xf32>, tensor<3x3x2x6xf32> -> tensor<1x6x6x6xf32>
  return %0 : tensor<1x6x6x6xf32>
}

// -----

// Sums of zero-padded windows, each divided by the input elements its
// window covers.
// CHECK-LABEL: func @avg
// CHECK: %[[S:.*]] = linalg.pooling_nhwc_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<3> : tensor<2xi64>}
// CHECK: linalg.generic {{.*}} ins(%[[S]] : tensor<1x3x3x3xf32>)
// CHECK: linalg.index 1
// CHECK: arith.maxsi
// CHECK: arith.minsi
// CHECK: linalg.index 2
// CHECK: arith.divf
func.func @avg(%x: tensor<1x8x8x3xf32>) -> tensor<1x3x3x3xf32> {
  %0 = google.avg_pool2d %x {window = array<i64: 3, 3>, strides = array<i64: 3, 3>, padding = array<i64: 0, 1, 0, 1>} : tensor<1x8x8x3xf32> -> tensor<1x3x3x3xf32>
  return %0 : tensor<1x3x3x3xf32>
}

// -----

// Without padding every window lies inside the input: the sums are divided
// by the window's size.
// CHECK-LABEL: func @avg_unpadded
// CHECK: %[[S:.*]] = linalg.pooling_nhwc_sum
// CHECK: linalg.generic {{.*}} ins(%[[S]] : tensor<?x2x2x16xf32>)
// CHECK-NOT: linalg.index
// CHECK: %[[FOUR:.*]] = arith.constant 4 : index
// CHECK: %[[I:.*]] = arith.index_cast %[[FOUR]]
// CHECK: %[[F:.*]] = arith.sitofp %[[I]]
// CHECK: arith.divf %{{.*}}, %[[F]]
func.func @avg_unpadded(%x: tensor<?x5x4x16xf32>) -> tensor<?x2x2x16xf32> {
  %0 = google.avg_pool2d %x {window = array<i64: 2, 2>, strides = array<i64: 2, 2>, padding = array<i64: 0, 0, 0, 0>} : tensor<?x5x4x16xf32> -> tensor<?x2x2x16xf32>
  return %0 : tensor<?x2x2x16xf32>
}

// -----

// CHECK-LABEL: func @max
// CHECK: %[[INIT:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<1x4x4x3xf32>)
// CHECK: linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%{{.*}}, %{{.*}} : tensor<1x8x8x3xf32>, tensor<2x2xf32>) outs(%[[INIT]] : tensor<1x4x4x3xf32>)
func.func @max(%x: tensor<1x8x8x3xf32>) -> tensor<1x4x4x3xf32> {
  %1 = google.max_pool2d %x {window = array<i64: 2, 2>, strides = array<i64: 2, 2>, padding = array<i64: 0, 0, 0, 0>} : tensor<1x8x8x3xf32> -> tensor<1x4x4x3xf32>
  return %1 : tensor<1x4x4x3xf32>
}
