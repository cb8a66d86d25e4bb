// RUN: google-opt %s -split-input-file -convert-google-to-linalg | FileCheck %s

// CHECK-LABEL: func @matmul
// CHECK-SAME: (%[[A:.*]]: tensor<128x512xf32>, %[[B:.*]]: tensor<512x256xf32>)
// CHECK: %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[E:.*]] = tensor.empty() : tensor<128x256xf32>
// CHECK: %[[F:.*]] = linalg.fill ins(%[[Z]] : f32) outs(%[[E]] : tensor<128x256xf32>)
// CHECK: %[[M:.*]] = linalg.matmul ins(%[[A]], %[[B]] : tensor<128x512xf32>, tensor<512x256xf32>) outs(%[[F]] : tensor<128x256xf32>)
// CHECK: return %[[M]]
func.func @matmul(%a: tensor<128x512xf32>, %b: tensor<512x256xf32>) -> tensor<128x256xf32> {
  %0 = google.matmul %a, %b : tensor<128x512xf32>, tensor<512x256xf32> -> tensor<128x256xf32>
  return %0 : tensor<128x256xf32>
}

// -----

// CHECK-LABEL: func @matmul_dynamic
// CHECK-SAME: (%[[A:.*]]: tensor<?x8xf64>, %[[B:.*]]: tensor<8x?xf64>)
// CHECK-DAG: %[[M:.*]] = tensor.dim %[[A]], %{{.*}} : tensor<?x8xf64>
// CHECK-DAG: %[[N:.*]] = tensor.dim %[[B]], %{{.*}} : tensor<8x?xf64>
// CHECK: tensor.empty(%[[M]], %[[N]]) : tensor<?x?xf64>
// CHECK: linalg.matmul
func.func @matmul_dynamic(%a: tensor<?x8xf64>, %b: tensor<8x?xf64>) -> tensor<?x?xf64> {
  %0 = google.matmul %a, %b : tensor<?x8xf64>, tensor<8x?xf64> -> tensor<?x?xf64>
  return %0 : tensor<?x?xf64>
}

// -----

// CHECK-LABEL: func @batch_matmul
// CHECK: linalg.fill
// CHECK: linalg.batch_matmul ins(%{{.*}}, %{{.*}} : tensor<?x4x8xf32>, tensor<?x8x16xf32>) outs(%{{.*}} : tensor<?x4x16xf32>)
func.func @batch_matmul(%a: tensor<?x4x8xf32>, %b: tensor<?x8x16xf32>) -> tensor<?x4x16xf32> {
  %0 = google.matmul %a, %b : tensor<?x4x8xf32>, tensor<?x8x16xf32> -> tensor<?x4x16xf32>
  return %0 : tensor<?x4x16xf32>
}

// -----

// CHECK-LABEL: func @matmul_int
// CHECK: arith.constant 0 : i32
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<2x3xi32>, tensor<3x4xi32>)
func.func @matmul_int(%a: tensor<2x3xi32>, %b: tensor<3x4xi32>) -> tensor<2x4xi32> {
  %0 = google.matmul %a, %b : tensor<2x3xi32>, tensor<3x4xi32> -> tensor<2x4xi32>
  return %0 : tensor<2x4xi32>
}
