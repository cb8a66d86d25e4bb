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

// The dynamic result extent is the element count over the static ones,
// which must divide it; the count is computed from the input's extents.
// CHECK-LABEL: func @dynamic
// CHECK-SAME: (%[[X:.*]]: tensor<?x6xf32>)
// CHECK: %[[ROWS:.*]] = tensor.dim %[[X]], %{{.*}} : tensor<?x6xf32>
// CHECK: %[[N:.*]] = affine.apply #{{.*}}()[%[[ROWS]]]
// CHECK: %[[C8:.*]] = arith.constant 8 : index
// CHECK: %[[REM:.*]] = arith.remui %[[N]], %[[C8]] : index
// CHECK: cf.assert %{{.*}}, "google.reshape: the element count is not a multiple of 8 (the result's static extents): the remainder is {0}"
// CHECK: %[[F:.*]] = tensor.collapse_shape %[[X]] {{\[\[}}0, 1]] : tensor<?x6xf32> into tensor<?xf32>
// CHECK: %[[D:.*]] = arith.divui %[[N]], %[[C8]] : index
// CHECK: tensor.expand_shape %[[F]] {{\[\[}}0, 1, 2]] output_shape [%[[D]], 2, 4] : tensor<?xf32> into tensor<?x2x4xf32>
func.func @dynamic(%x: tensor<?x6xf32>) -> tensor<?x2x4xf32> {
  %0 = google.reshape %x : tensor<?x6xf32> -> tensor<?x2x4xf32>
  return %0 : tensor<?x2x4xf32>
}

// -----

// One dynamic extent on each side, kept in one group: one collapse or
// expansion (a batch around a matmul), no flat form. Splitting the dynamic
// extent checks the element count as the flat form does.
// CHECK-LABEL: func @dynamic_same
// CHECK-SAME: (%[[X:.*]]: tensor<?x8xf32>)
// CHECK: %[[N:.*]] = tensor.dim %[[X]], %c0
// CHECK-NOT: cf.assert
// CHECK: tensor.expand_shape %[[X]] {{\[\[}}0], [1, 2]] output_shape [%[[N]], 2, 4] : tensor<?x8xf32> into tensor<?x2x4xf32>
func.func @dynamic_same(%x: tensor<?x8xf32>) -> tensor<?x2x4xf32> {
  %0 = google.reshape %x : tensor<?x8xf32> -> tensor<?x2x4xf32>
  return %0 : tensor<?x2x4xf32>
}
// CHECK-LABEL: func @dynamic_collapse
// CHECK-SAME: (%[[Y:.*]]: tensor<?x8x32xf32>)
// CHECK: tensor.collapse_shape %[[Y]] {{\[\[}}0, 1], [2]] : tensor<?x8x32xf32> into tensor<?x32xf32>
func.func @dynamic_collapse(%y: tensor<?x8x32xf32>) -> tensor<?x32xf32> {
  %0 = google.reshape %y : tensor<?x8x32xf32> -> tensor<?x32xf32>
  return %0 : tensor<?x32xf32>
}
// CHECK-LABEL: func @dynamic_split
// CHECK-SAME: (%[[Z:.*]]: tensor<?x64xf32>)
// CHECK: %[[M:.*]] = tensor.dim %[[Z]], %c0
// CHECK: %[[COUNT:.*]] = arith.muli %[[M]], %c64
// CHECK: arith.remui %[[COUNT]], %c512
// CHECK: cf.assert %{{.*}}, "google.reshape: the element count is not a multiple of 512 (the result's static extents): the remainder is {0}"
// CHECK: %[[R:.*]] = arith.divui %[[M]], %c8
// CHECK: tensor.expand_shape %[[Z]] {{\[\[}}0, 1], [2]] output_shape [%[[R]], 8, 64] : tensor<?x64xf32> into tensor<?x8x64xf32>
func.func @dynamic_split(%z: tensor<?x64xf32>) -> tensor<?x8x64xf32> {
  %0 = google.reshape %z : tensor<?x64xf32> -> tensor<?x8x64xf32>
  return %0 : tensor<?x8x64xf32>
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

// -----

// A dynamic input reshaped to a static result: the element count is checked,
// then made static.
// CHECK-LABEL: func @dynamic_to_static
// CHECK: cf.assert %{{.*}}, "google.reshape: the input has {0} elements, expected {1}"
// CHECK: %[[C:.*]] = tensor.cast %{{.*}} : tensor<?xf32> to tensor<8xf32>
// CHECK: tensor.expand_shape %[[C]] {{\[\[}}0, 1]] output_shape [2, 4] : tensor<8xf32> into tensor<2x4xf32>
func.func @dynamic_to_static(%x: tensor<?x4xf32>) -> tensor<2x4xf32> {
  %0 = google.reshape %x : tensor<?x4xf32> -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

// To rank 1 and rank 0 from dynamic inputs: checked too (both checks
// come first, on the arguments).
// CHECK-LABEL: func @dynamic_to_low_rank
// CHECK-COUNT-2: cf.assert %{{.*}}, "google.reshape: the input has {0} elements, expected {1}"
// CHECK: tensor.cast %{{.*}} : tensor<?xf32> to tensor<8xf32>
// CHECK: tensor.cast %{{.*}} : tensor<?xf32> to tensor<1xf32>
func.func @dynamic_to_low_rank(%x: tensor<?x4xf32>, %y: tensor<?xf32>) -> (tensor<8xf32>, tensor<f32>) {
  %0 = google.reshape %x : tensor<?x4xf32> -> tensor<8xf32>
  %1 = google.reshape %y : tensor<?xf32> -> tensor<f32>
  return %0, %1 : tensor<8xf32>, tensor<f32>
}

// -----

// An input with a static extent of 0 has no elements: the result is an
// empty tensor (flattening it collapsed a dynamic extent into a static 0,
// which bufferization rejected; found by the differential tester, seed
// 890). A dynamic result extent is 0 then.
// CHECK-LABEL: func @empty_input
// CHECK-NOT: tensor.collapse_shape
// CHECK: %[[A:.*]] = tensor.empty() : tensor<1x1x0x1xf32>
// CHECK: %[[B:.*]] = tensor.empty() : tensor<0x3xf32>
// CHECK: %[[C:.*]] = tensor.cast %[[B]] : tensor<0x3xf32> to tensor<?x3xf32>
// CHECK: return %[[A]], %[[C]]
func.func @empty_input(%x: tensor<0x?xf32>, %y: tensor<2x0x?xf32>) -> (tensor<1x1x0x1xf32>, tensor<?x3xf32>) {
  %0 = google.reshape %x : tensor<0x?xf32> -> tensor<1x1x0x1xf32>
  %1 = google.reshape %y : tensor<2x0x?xf32> -> tensor<?x3xf32>
  return %0, %1 : tensor<1x1x0x1xf32>, tensor<?x3xf32>
}

// -----

// A forward window is one tensor.extract_slice; a backward one is taken
// forward and its reversed dimensions read backwards.
// CHECK-DAG: #[[REV:.*]] = affine_map<(d0, d1) -> (-d0 + 3, d1)>
// CHECK-LABEL: func @slice
// CHECK: tensor.extract_slice %{{.*}}[1, 0] [2, 4] [1, 2] : tensor<4x8xf32> to tensor<2x4xf32>
// CHECK: %[[W:.*]] = tensor.extract_slice %{{.*}}[0, 1] [4, 4] [1, 2] : tensor<4x8xf32> to tensor<4x4xf32>
// CHECK: linalg.generic {indexing_maps = [#[[REV]], #{{.*}}]{{.*}} ins(%[[W]] : tensor<4x4xf32>)
// CHECK: tensor.empty() : tensor<0x8xf32>
func.func @slice(%x: tensor<4x8xf32>) -> (tensor<2x4xf32>, tensor<4x4xf32>, tensor<0x8xf32>) {
  %0 = google.slice %x {starts = array<i64: 1, 0>, limits = array<i64: 3, 8>, strides = array<i64: 1, 2>} : tensor<4x8xf32> -> tensor<2x4xf32>
  %1 = google.slice %x {starts = array<i64: 3, 1>, limits = array<i64: -1, 8>, strides = array<i64: -1, 2>} : tensor<4x8xf32> -> tensor<4x4xf32>
  %2 = google.slice %x {starts = array<i64: 4, 0>, limits = array<i64: 4, 8>, strides = array<i64: 1, 1>} : tensor<4x8xf32> -> tensor<0x8xf32>
  return %0, %1, %2 : tensor<2x4xf32>, tensor<4x4xf32>, tensor<0x8xf32>
}
