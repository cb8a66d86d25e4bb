// RUN: google-opt %s -split-input-file -convert-google-to-linalg | FileCheck %s

// CHECK-LABEL: func @transpose
// CHECK-SAME: (%[[X:.*]]: tensor<4x8xf32>)
// CHECK: %[[E:.*]] = tensor.empty() : tensor<8x4xf32>
// CHECK: %[[T:.*]] = linalg.transpose ins(%[[X]] : tensor<4x8xf32>) outs(%[[E]] : tensor<8x4xf32>) permutation = [1, 0]
// CHECK: return %[[T]]
func.func @transpose(%x: tensor<4x8xf32>) -> tensor<8x4xf32> {
  %0 = google.transpose %x {perm = array<i64: 1, 0>} : tensor<4x8xf32> -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// -----

// The dynamic extent moves with its dimension.
// CHECK-LABEL: func @transpose_dynamic
// CHECK-SAME: (%[[X:.*]]: tensor<?x3x5xi32>)
// CHECK: %[[D:.*]] = tensor.dim %[[X]], %{{.*}} : tensor<?x3x5xi32>
// CHECK: %[[E:.*]] = tensor.empty(%[[D]]) : tensor<5x?x3xi32>
// CHECK: linalg.transpose ins(%[[X]] : tensor<?x3x5xi32>) outs(%[[E]] : tensor<5x?x3xi32>) permutation = [2, 0, 1]
func.func @transpose_dynamic(%x: tensor<?x3x5xi32>) -> tensor<5x?x3xi32> {
  %0 = google.transpose %x {perm = array<i64: 2, 0, 1>} : tensor<?x3x5xi32> -> tensor<5x?x3xi32>
  return %0 : tensor<5x?x3xi32>
}
