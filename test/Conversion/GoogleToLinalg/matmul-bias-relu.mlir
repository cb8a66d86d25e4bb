// RUN: google-opt %s -split-input-file -convert-google-to-linalg | FileCheck %s

// The product, then an epilogue reading it and the bias by column into a
// new tensor.
// CHECK-DAG: #[[BIAS:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func @fused
// CHECK-SAME: (%[[A:.*]]: tensor<4x8xf32>, %[[B:.*]]: tensor<8x16xf32>, %[[C:.*]]: tensor<16xf32>)
// CHECK: %[[M:.*]] = linalg.matmul ins(%[[A]], %[[B]] : tensor<4x8xf32>, tensor<8x16xf32>)
// CHECK: %[[R:.*]] = linalg.generic {indexing_maps = [#[[ID]], #[[BIAS]], #[[ID]]], iterator_types = ["parallel", "parallel"]}
// CHECK-SAME: ins(%[[M]], %[[C]] : tensor<4x16xf32>, tensor<16xf32>) outs(%{{.*}} : tensor<4x16xf32>)
// CHECK: ^bb0(%[[ACC:.*]]: f32, %[[BV:.*]]: f32, %{{.*}}: f32):
// CHECK: %[[S:.*]] = arith.addf %[[ACC]], %[[BV]] : f32
// CHECK: %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[X:.*]] = arith.maximumf %[[S]], %[[Z]] : f32
// CHECK: linalg.yield %[[X]]
// CHECK: return %[[R]]
func.func @fused(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %c: tensor<16xf32>) -> tensor<4x16xf32> {
  %0 = google.matmul_bias_relu %a, %b, %c : tensor<4x8xf32>, tensor<8x16xf32>, tensor<16xf32> -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}

// -----

// CHECK-LABEL: func @fused_dynamic_batch
// CHECK: %[[M:.*]] = tensor.dim %{{.*}}, %{{.*}} : tensor<?x8xf32>
// CHECK: tensor.empty(%[[M]]) : tensor<?x16xf32>
// CHECK: linalg.matmul
// CHECK: linalg.generic
// CHECK: arith.maximumf
func.func @fused_dynamic_batch(%a: tensor<?x8xf32>, %b: tensor<8x16xf32>, %c: tensor<16xf32>) -> tensor<?x16xf32> {
  %0 = google.matmul_bias_relu %a, %b, %c : tensor<?x8xf32>, tensor<8x16xf32>, tensor<16xf32> -> tensor<?x16xf32>
  return %0 : tensor<?x16xf32>
}

// -----

// A static bias length is N: a dynamic N of rhs is checked against it.
// CHECK-LABEL: func @fused_static_bias_dynamic_n
// CHECK-SAME: (%[[A:.*]]: tensor<4x8xf32>, %[[B:.*]]: tensor<8x?xf32>, %[[C:.*]]: tensor<16xf32>)
// CHECK: cf.assert %{{.*}}, "google.matmul_bias_relu: dimension 1 of rhs is {0}, expected {1}"
// CHECK: %[[RB:.*]] = tensor.cast %[[B]] : tensor<8x?xf32> to tensor<8x16xf32>
// CHECK: linalg.matmul ins(%[[A]], %[[RB]] : tensor<4x8xf32>, tensor<8x16xf32>)
func.func @fused_static_bias_dynamic_n(%a: tensor<4x8xf32>, %b: tensor<8x?xf32>, %c: tensor<16xf32>) -> tensor<4x?xf32> {
  %0 = google.matmul_bias_relu %a, %b, %c : tensor<4x8xf32>, tensor<8x?xf32>, tensor<16xf32> -> tensor<4x?xf32>
  return %0 : tensor<4x?xf32>
}
