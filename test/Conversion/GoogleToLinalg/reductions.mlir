// RUN: google-opt %s -split-input-file -convert-google-to-linalg | FileCheck %s

// CHECK-LABEL: func @reduce_sum
// CHECK-SAME: (%[[X:.*]]: tensor<4x8xf32>)
// CHECK: %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[E:.*]] = tensor.empty() : tensor<4xf32>
// CHECK: %[[I:.*]] = linalg.fill ins(%[[Z]] : f32) outs(%[[E]] : tensor<4xf32>)
// CHECK: %[[R:.*]] = linalg.reduce { arith.addf } ins(%[[X]] : tensor<4x8xf32>) outs(%[[I]] : tensor<4xf32>) dimensions = [1]
// CHECK: return %[[R]]
func.func @reduce_sum(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  %0 = google.reduce_sum %x {axes = array<i64: 1>, keep_dims = false} : tensor<4x8xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Negative axes count from the end; keep_dims reinserts unit dims.
// CHECK-LABEL: func @reduce_max_keep_dims
// CHECK: %[[NEGINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK: linalg.fill ins(%[[NEGINF]] : f32)
// CHECK: %[[R:.*]] = linalg.reduce { arith.maximumf } ins(%{{.*}} : tensor<?x4x8xf32>) outs(%{{.*}} : tensor<4xf32>) dimensions = [0, 2]
// CHECK: tensor.expand_shape %[[R]] {{\[\[}}0, 1, 2]] output_shape [1, 4, 1] : tensor<4xf32> into tensor<1x4x1xf32>
func.func @reduce_max_keep_dims(%x: tensor<?x4x8xf32>) -> tensor<1x4x1xf32> {
  %0 = google.reduce_max %x {axes = array<i64: 0, -1>, keep_dims = true} : tensor<?x4x8xf32> -> tensor<1x4x1xf32>
  return %0 : tensor<1x4x1xf32>
}

// -----

// The mean divides the sum by the number of reduced elements.
// CHECK-LABEL: func @reduce_mean
// The division reads the sum as an input and writes a new tensor.
// CHECK: %[[S:.*]] = linalg.reduce {{.*}}ins(%{{.*}} : tensor<?x4x8xf32>) outs(%{{.*}} : tensor<?xf32>) dimensions = [1, 2]
// CHECK: %[[M:.*]] = linalg.generic {{.*}} ins(%[[S]] : tensor<?xf32>) outs(%{{.*}} : tensor<?xf32>)
// CHECK: %[[COUNT:.*]] = arith.sitofp %{{.*}} : i64 to f32
// CHECK: arith.divf %{{.*}}, %[[COUNT]] : f32
// CHECK: tensor.expand_shape %[[M]] {{\[\[}}0, 1, 2]] output_shape [%{{.*}}, 1, 1] : tensor<?xf32> into tensor<?x1x1xf32>
func.func @reduce_mean(%x: tensor<?x4x8xf32>) -> tensor<?x1x1xf32> {
  %0 = google.reduce_mean %x {axes = array<i64: 1, 2>, keep_dims = true} : tensor<?x4x8xf32> -> tensor<?x1x1xf32>
  return %0 : tensor<?x1x1xf32>
}

// -----

// Every axis without keep_dims gives rank 0.
// CHECK-LABEL: func @reduce_all
// CHECK: linalg.reduce {{.*}}ins(%{{.*}} : tensor<2x3xf64>) outs(%{{.*}} : tensor<f64>) dimensions = [0, 1]
func.func @reduce_all(%x: tensor<2x3xf64>) -> tensor<f64> {
  %0 = google.reduce_sum %x {axes = array<i64: 0, 1>, keep_dims = false} : tensor<2x3xf64> -> tensor<f64>
  return %0 : tensor<f64>
}

// -----

// Integer max starts from the smallest value.
// CHECK-LABEL: func @reduce_max_int
// CHECK: arith.constant -2147483648 : i32
// CHECK: arith.maxsi
func.func @reduce_max_int(%x: tensor<4x8xi32>) -> tensor<8xi32> {
  %0 = google.reduce_max %x {axes = array<i64: 0>, keep_dims = false} : tensor<4x8xi32> -> tensor<8xi32>
  return %0 : tensor<8xi32>
}

// -----

// A static result extent refines the dynamic input extent it comes from.
// CHECK-LABEL: func @reduce_static_result_of_dynamic
// CHECK-SAME: (%[[X:.*]]: tensor<?x4xf32>)
// CHECK: cf.assert %{{.*}}, "google.reduce_sum: dimension 0 of the input is {0}, expected {1}"
// CHECK: %[[C:.*]] = tensor.cast %[[X]] : tensor<?x4xf32> to tensor<2x4xf32>
// CHECK: linalg.reduce {{.*}}ins(%[[C]] : tensor<2x4xf32>) outs(%{{.*}} : tensor<2xf32>) dimensions = [1]
func.func @reduce_static_result_of_dynamic(%x: tensor<?x4xf32>) -> tensor<2xf32> {
  %0 = google.reduce_sum %x {axes = array<i64: 1>, keep_dims = false} : tensor<?x4xf32> -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// Minimum from +inf (the integers' maximum); products from 1, f16 ones
// accumulating in f32 and rounding once.
// CHECK-LABEL: func @reduce_min_prod
// CHECK: %[[INF:.*]] = arith.constant 0x7F800000 : f32
// CHECK: linalg.fill ins(%[[INF]] : f32)
// CHECK: linalg.reduce { arith.minimumf } ins(%{{.*}} : tensor<4x8xf32>) outs(%{{.*}} : tensor<4xf32>) dimensions = [1]
// CHECK: %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK: linalg.fill ins(%[[ONE]] : f32)
// CHECK: linalg.reduce
// CHECK: arith.extf %{{.*}} : f16 to f32
// CHECK: arith.mulf %{{.*}}, %{{.*}} : f32
// CHECK: arith.truncf %{{.*}} : f32 to f16
// CHECK: %[[MAX:.*]] = arith.constant 9223372036854775807 : i64
// CHECK: linalg.fill ins(%[[MAX]] : i64)
// CHECK: linalg.reduce { arith.minsi }
func.func @reduce_min_prod(%x: tensor<4x8xf32>, %h: tensor<4x8xf16>, %i: tensor<4x8xi64>) -> (tensor<4xf32>, tensor<8xf16>, tensor<4xi64>) {
  %0 = google.reduce_min %x {axes = array<i64: 1>, keep_dims = false} : tensor<4x8xf32> -> tensor<4xf32>
  %1 = google.reduce_prod %h {axes = array<i64: 0>, keep_dims = false} : tensor<4x8xf16> -> tensor<8xf16>
  %2 = google.reduce_min %i {axes = array<i64: -1>, keep_dims = false} : tensor<4x8xi64> -> tensor<4xi64>
  return %0, %1, %2 : tensor<4xf32>, tensor<8xf16>, tensor<4xi64>
}
