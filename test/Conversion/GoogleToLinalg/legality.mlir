// RUN: google-opt %s -split-input-file -convert-google-to-linalg | FileCheck %s

// After the lowering no google op is left, in any function.
// CHECK-LABEL: func @mlp
// CHECK-NOT: {{google\.[a-z_]+ %}}
// CHECK-LABEL: func private @helper
// CHECK-NOT: {{google\.[a-z_]+ %}}
func.func @mlp(%x: tensor<?x8xf32>, %w: tensor<8x4xf32>, %b: tensor<4xf32>) -> tensor<?x4xf32> {
  %0 = google.matmul_bias_relu %x, %w, %b : tensor<?x8xf32>, tensor<8x4xf32>, tensor<4xf32> -> tensor<?x4xf32>
  %1 = call @helper(%0) : (tensor<?x4xf32>) -> tensor<?x4xf32>
  return %1 : tensor<?x4xf32>
}
func.func private @helper(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %0 = google.softmax %x {axis = -1 : i64} : tensor<?x4xf32>
  %1 = google.transpose %0 {perm = array<i64: 1, 0>} : tensor<?x4xf32> -> tensor<4x?xf32>
  %2 = google.reshape %1 : tensor<4x?xf32> -> tensor<?x4xf32>
  return %2 : tensor<?x4xf32>
}
