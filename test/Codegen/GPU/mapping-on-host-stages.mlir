// RUN: google-opt %s --google-test-gpu-mapping-on-host --mlir-print-ir-before=google-map-to-gpu --mlir-disable-threading -o /dev/null 2>&1 | FileCheck %s
// (One thread: IR printed from two threads interleaves, and the checks
// failed now and then.)

// The GPU emulation on the host maps the kernels of the GPU pipeline's own
// tensor stages: a convolution as a matmul of its windows (it was mapped as
// a convolution's loops, which no GPU ran), and a fill that two matmuls
// start from duplicated, one per matmul (it was filled once and copied).

// CHECK-LABEL: func.func @conv
// CHECK-NOT:     linalg.conv_2d
// CHECK:         linalg.matmul
// CHECK-NOT:     linalg.conv_2d
func.func @conv(%x: tensor<2x8x8x4xf32>, %w: tensor<3x3x4x8xf32>) -> tensor<2x6x6x8xf32> {
  %y = google.conv2d %x, %w {strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, padding = array<i64: 0, 0, 0, 0>, groups = 1 : i64} : tensor<2x8x8x4xf32>, tensor<3x3x4x8xf32> -> tensor<2x6x6x8xf32>
  return %y : tensor<2x6x6x8xf32>
}

// CHECK-LABEL: func.func @shared_fill
// CHECK-NOT:     copy
// CHECK:         linalg.fill
// CHECK-NEXT:    linalg.matmul
// CHECK-NOT:     copy
// CHECK:         linalg.fill
// CHECK-NEXT:    linalg.matmul
// CHECK-NOT:     copy
// CHECK:         return
func.func @shared_fill(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>, %c: tensor<8x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>) {
  %x = google.matmul %a, %b : tensor<4x8xf32>, tensor<8x4xf32> -> tensor<4x4xf32>
  %y = google.matmul %a, %c : tensor<4x8xf32>, tensor<8x4xf32> -> tensor<4x4xf32>
  return %x, %y : tensor<4x4xf32>, tensor<4x4xf32>
}
