// RUN: google-opt %s -split-input-file -convert-google-to-linalg | FileCheck %s

// CHECK-LABEL: func @collapse
// CHECK: tensor.collapse_shape %{{.*}} {{\[\[}}0, 1]] : tensor<4x8xf32> into tensor<32xf32>
// CHECK-NOT: tensor.expand_shape
func.func @collapse(%x: tensor<4x8xf32>) -> tensor<32xf32> {
  %0 = google.reshape %x : tensor<4x8xf32> -> tensor<32xf32>
  return %0 : tensor<32xf32>
}

// -----

// CHECK-LABEL: func @expand
// CHECK: tensor.expand_shape %{{.*}} {{\[\[}}0], [1, 2]] output_shape [4, 2, 4] : tensor<4x8xf32> into tensor<4x2x4xf32>
func.func @expand(%x: tensor<4x8xf32>) -> tensor<4x2x4xf32> {
  %0 = google.reshape %x : tensor<4x8xf32> -> tensor<4x2x4xf32>
  return %0 : tensor<4x2x4xf32>
}

// -----

// Neither a collapse nor an expansion: through 1-D.
// CHECK-LABEL: func @general
// CHECK: %[[F:.*]] = tensor.collapse_shape %{{.*}} {{\[\[}}0, 1]] : tensor<4x6xf32> into tensor<24xf32>
// CHECK: tensor.expand_shape %[[F]] {{\[\[}}0, 1]] output_shape [3, 8] : tensor<24xf32> into tensor<3x8xf32>
func.func @general(%x: tensor<4x6xf32>) -> tensor<3x8xf32> {
  %0 = google.reshape %x : tensor<4x6xf32> -> tensor<3x8xf32>
  return %0 : tensor<3x8xf32>
}

// -----

// The dynamic result extent is the element count over the static ones.
// CHECK-LABEL: func @dynamic
// CHECK: %[[F:.*]] = tensor.collapse_shape %{{.*}} {{\[\[}}0, 1]] : tensor<?x8xf32> into tensor<?xf32>
// CHECK: %[[N:.*]] = tensor.dim %[[F]], %{{.*}} : tensor<?xf32>
// CHECK: %[[C8:.*]] = arith.constant 8 : index
// CHECK: %[[D:.*]] = arith.divui %[[N]], %[[C8]] : index
// CHECK: tensor.expand_shape %[[F]] {{\[\[}}0, 1, 2]] output_shape [%[[D]], 2, 4] : tensor<?xf32> into tensor<?x2x4xf32>
func.func @dynamic(%x: tensor<?x8xf32>) -> tensor<?x2x4xf32> {
  %0 = google.reshape %x : tensor<?x8xf32> -> tensor<?x2x4xf32>
  return %0 : tensor<?x2x4xf32>
}

// -----

// A static source fixes the dynamic result extent at compile time.
// CHECK-LABEL: func @static_to_dynamic
// CHECK: tensor.expand_shape %{{.*}} output_shape [8, 3] : tensor<24xf32> into tensor<8x3xf32>
// CHECK: tensor.cast %{{.*}} : tensor<8x3xf32> to tensor<?x3xf32>
func.func @static_to_dynamic(%x: tensor<6x4xf32>) -> tensor<?x3xf32> {
  %0 = google.reshape %x : tensor<6x4xf32> -> tensor<?x3xf32>
  return %0 : tensor<?x3xf32>
}

// -----

// CHECK-LABEL: func @rank0_up
// CHECK: tensor.expand_shape %{{.*}} [] output_shape [1, 1] : tensor<f32> into tensor<1x1xf32>
func.func @rank0_up(%x: tensor<f32>) -> tensor<1x1xf32> {
  %0 = google.reshape %x : tensor<f32> -> tensor<1x1xf32>
  return %0 : tensor<1x1xf32>
}

// -----

// CHECK-LABEL: func @rank0_down
// CHECK: tensor.collapse_shape %{{.*}} [] : tensor<1x1xf32> into tensor<f32>
func.func @rank0_down(%x: tensor<1x1xf32>) -> tensor<f32> {
  %0 = google.reshape %x : tensor<1x1xf32> -> tensor<f32>
  return %0 : tensor<f32>
}
