// RUN: google-opt %s -split-input-file | FileCheck %s
// Round-trips through the custom and the generic form.
// RUN: google-opt %s -split-input-file | google-opt -split-input-file | FileCheck %s
// RUN: google-opt %s -split-input-file -mlir-print-op-generic | google-opt -split-input-file | FileCheck %s

// CHECK-LABEL: func @constant
func.func @constant() -> tensor<2x2xf32> {
  // CHECK: google.constant dense<{{\[\[}}1.000000e+00, 2.000000e+00], [3.000000e+00, 4.000000e+00]]> : tensor<2x2xf32>
  %c = google.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  return %c : tensor<2x2xf32>
}

// -----

// CHECK-LABEL: func @constant_types
func.func @constant_types() -> (tensor<3xi32>, tensor<i64>, tensor<2xf16>, tensor<2xbf16>, tensor<f64>) {
  // CHECK: google.constant dense<[1, 2, 3]> : tensor<3xi32>
  // CHECK: google.constant dense<7> : tensor<i64>
  // CHECK: google.constant dense<[1.500000e+00, 2.500000e+00]> : tensor<2xf16>
  // CHECK: google.constant dense<5.000000e-01> : tensor<2xbf16>
  // CHECK: google.constant dense<2.500000e-01> : tensor<f64>
  %a = google.constant dense<[1, 2, 3]> : tensor<3xi32>
  %b = google.constant dense<7> : tensor<i64>
  %c = google.constant dense<[1.5, 2.5]> : tensor<2xf16>
  %d = google.constant dense<0.5> : tensor<2xbf16>
  %e = google.constant dense<0.25> : tensor<f64>
  return %a, %b, %c, %d, %e : tensor<3xi32>, tensor<i64>, tensor<2xf16>, tensor<2xbf16>, tensor<f64>
}

// -----

// CHECK-LABEL: func @binary
// CHECK-SAME: (%[[A:.*]]: tensor<4x8xf32>, %[[B:.*]]: tensor<8xf32>)
func.func @binary(%a: tensor<4x8xf32>, %b: tensor<8xf32>) -> tensor<4x8xf32> {
  // CHECK: google.add %[[A]], %[[B]] : tensor<4x8xf32>, tensor<8xf32> -> tensor<4x8xf32>
  %0 = google.add %a, %b : tensor<4x8xf32>, tensor<8xf32> -> tensor<4x8xf32>
  // CHECK: google.sub %{{.*}}, %[[B]] : tensor<4x8xf32>, tensor<8xf32> -> tensor<4x8xf32>
  %1 = google.sub %0, %b : tensor<4x8xf32>, tensor<8xf32> -> tensor<4x8xf32>
  // CHECK: google.mul %[[B]], %{{.*}} : tensor<8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %2 = google.mul %b, %1 : tensor<8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  // CHECK: google.div
  %3 = google.div %2, %a : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  // CHECK: google.max
  %4 = google.max %3, %b : tensor<4x8xf32>, tensor<8xf32> -> tensor<4x8xf32>
  // CHECK: google.min
  %5 = google.min %4, %a : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  // CHECK: google.pow %{{.*}}, %[[B]] : tensor<4x8xf32>, tensor<8xf32> -> tensor<4x8xf32>
  %6 = google.pow %5, %b : tensor<4x8xf32>, tensor<8xf32> -> tensor<4x8xf32>
  // CHECK: google.floor_div %{{.*}}, %[[B]] : tensor<4x8xf32>, tensor<8xf32> -> tensor<4x8xf32>
  %7 = google.floor_div %6, %b : tensor<4x8xf32>, tensor<8xf32> -> tensor<4x8xf32>
  // CHECK: google.rem %{{.*}}, %[[A]] : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %8 = google.rem %7, %a : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  return %8 : tensor<4x8xf32>
}

// -----

// Both operands stretch: 4x1 and 1x8 give 4x8.
// CHECK-LABEL: func @binary_broadcast_both
func.func @binary_broadcast_both(%a: tensor<4x1xf32>, %b: tensor<1x8xf32>) -> tensor<4x8xf32> {
  // CHECK: google.add %{{.*}}, %{{.*}} : tensor<4x1xf32>, tensor<1x8xf32> -> tensor<4x8xf32>
  %0 = google.add %a, %b : tensor<4x1xf32>, tensor<1x8xf32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// CHECK-LABEL: func @binary_dynamic
func.func @binary_dynamic(%a: tensor<?x8xf32>, %b: tensor<8xf32>, %c: tensor<?x?xf32>) -> tensor<?x8xf32> {
  // CHECK: google.add %{{.*}}, %{{.*}} : tensor<?x8xf32>, tensor<8xf32> -> tensor<?x8xf32>
  %0 = google.add %a, %b : tensor<?x8xf32>, tensor<8xf32> -> tensor<?x8xf32>
  // CHECK: google.mul %{{.*}}, %{{.*}} : tensor<?x8xf32>, tensor<?x?xf32> -> tensor<?x8xf32>
  %1 = google.mul %0, %c : tensor<?x8xf32>, tensor<?x?xf32> -> tensor<?x8xf32>
  return %1 : tensor<?x8xf32>
}

// -----

// CHECK-LABEL: func @binary_int
func.func @binary_int(%a: tensor<4xi32>, %b: tensor<4xi64>) -> (tensor<4xi32>, tensor<4xi64>) {
  // CHECK: google.add %{{.*}}, %{{.*}} : tensor<4xi32>, tensor<4xi32> -> tensor<4xi32>
  %0 = google.add %a, %a : tensor<4xi32>, tensor<4xi32> -> tensor<4xi32>
  // CHECK: google.max %{{.*}}, %{{.*}} : tensor<4xi64>, tensor<4xi64> -> tensor<4xi64>
  %1 = google.max %b, %b : tensor<4xi64>, tensor<4xi64> -> tensor<4xi64>
  return %0, %1 : tensor<4xi32>, tensor<4xi64>
}

// -----

// CHECK-LABEL: func @unary
func.func @unary(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // CHECK: google.relu %{{.*}} : tensor<4x8xf32>
  %0 = google.relu %x : tensor<4x8xf32>
  // CHECK: google.neg %{{.*}} : tensor<4x8xf32>
  %1 = google.neg %0 : tensor<4x8xf32>
  // CHECK: google.exp %{{.*}} : tensor<4x8xf32>
  %2 = google.exp %1 : tensor<4x8xf32>
  // CHECK: google.log %{{.*}} : tensor<4x8xf32>
  %3 = google.log %2 : tensor<4x8xf32>
  // CHECK: google.tanh %{{.*}} : tensor<4x8xf32>
  %4 = google.tanh %3 : tensor<4x8xf32>
  // CHECK: google.sigmoid %{{.*}} : tensor<4x8xf32>
  %5 = google.sigmoid %4 : tensor<4x8xf32>
  // CHECK: google.sqrt %{{.*}} : tensor<4x8xf32>
  %6 = google.sqrt %5 : tensor<4x8xf32>
  // CHECK: google.abs %{{.*}} : tensor<4x8xf32>
  %7 = google.abs %6 : tensor<4x8xf32>
  // CHECK: google.erf %{{.*}} : tensor<4x8xf32>
  %8 = google.erf %7 : tensor<4x8xf32>
  // CHECK: google.sin %{{.*}} : tensor<4x8xf32>
  %9 = google.sin %8 : tensor<4x8xf32>
  // CHECK: google.cos %{{.*}} : tensor<4x8xf32>
  %10 = google.cos %9 : tensor<4x8xf32>
  // CHECK: google.rsqrt %{{.*}} : tensor<4x8xf32>
  %11 = google.rsqrt %10 : tensor<4x8xf32>
  return %11 : tensor<4x8xf32>
}

// -----

// CHECK-LABEL: func @unary_other_types
func.func @unary_other_types(%a: tensor<?xf16>, %b: tensor<3xbf16>, %c: tensor<2xf64>, %d: tensor<5xi32>) -> (tensor<?xf16>, tensor<3xbf16>, tensor<2xf64>, tensor<5xi32>) {
  // CHECK: google.exp %{{.*}} : tensor<?xf16>
  %0 = google.exp %a : tensor<?xf16>
  // CHECK: google.tanh %{{.*}} : tensor<3xbf16>
  %1 = google.tanh %b : tensor<3xbf16>
  // CHECK: google.sqrt %{{.*}} : tensor<2xf64>
  %2 = google.sqrt %c : tensor<2xf64>
  // CHECK: google.abs %{{.*}} : tensor<5xi32>
  %3 = google.abs %d : tensor<5xi32>
  return %0, %1, %2, %3 : tensor<?xf16>, tensor<3xbf16>, tensor<2xf64>, tensor<5xi32>
}

// -----

// CHECK-LABEL: func @matmul
func.func @matmul(%a: tensor<128x512xf32>, %b: tensor<512x256xf32>) -> tensor<128x256xf32> {
  // CHECK: google.matmul %{{.*}}, %{{.*}} : tensor<128x512xf32>, tensor<512x256xf32> -> tensor<128x256xf32>
  %m = google.matmul %a, %b : tensor<128x512xf32>, tensor<512x256xf32> -> tensor<128x256xf32>
  return %m : tensor<128x256xf32>
}

// -----

// CHECK-LABEL: func @matmul_batched_dynamic
func.func @matmul_batched_dynamic(%a: tensor<?x4x8xf32>, %b: tensor<?x8x?xf32>) -> tensor<?x4x?xf32> {
  // CHECK: google.matmul %{{.*}}, %{{.*}} : tensor<?x4x8xf32>, tensor<?x8x?xf32> -> tensor<?x4x?xf32>
  %m = google.matmul %a, %b : tensor<?x4x8xf32>, tensor<?x8x?xf32> -> tensor<?x4x?xf32>
  return %m : tensor<?x4x?xf32>
}

// -----

// CHECK-LABEL: func @matmul_bias_relu
func.func @matmul_bias_relu(%a: tensor<128x512xf32>, %b: tensor<512x256xf32>, %bias: tensor<256xf32>) -> tensor<128x256xf32> {
  // CHECK: google.matmul_bias_relu %{{.*}}, %{{.*}}, %{{.*}} : tensor<128x512xf32>, tensor<512x256xf32>, tensor<256xf32> -> tensor<128x256xf32>
  %f = google.matmul_bias_relu %a, %b, %bias : tensor<128x512xf32>, tensor<512x256xf32>, tensor<256xf32> -> tensor<128x256xf32>
  return %f : tensor<128x256xf32>
}

// -----

// CHECK-LABEL: func @layout
func.func @layout(%x: tensor<4x8xf32>, %y: tensor<?x8xf32>) -> (tensor<8x4xf32>, tensor<32xf32>, tensor<?x2x4xf32>) {
  // CHECK: google.transpose %{{.*}} {perm = array<i64: 1, 0>} : tensor<4x8xf32> -> tensor<8x4xf32>
  %t = google.transpose %x {perm = array<i64: 1, 0>} : tensor<4x8xf32> -> tensor<8x4xf32>
  // CHECK: google.reshape %{{.*}} : tensor<4x8xf32> -> tensor<32xf32>
  %v = google.reshape %x : tensor<4x8xf32> -> tensor<32xf32>
  // CHECK: google.reshape %{{.*}} : tensor<?x8xf32> -> tensor<?x2x4xf32>
  %w = google.reshape %y : tensor<?x8xf32> -> tensor<?x2x4xf32>
  return %t, %v, %w : tensor<8x4xf32>, tensor<32xf32>, tensor<?x2x4xf32>
}

// -----

// CHECK-LABEL: func @reductions
func.func @reductions(%x: tensor<4x8xf32>) -> (tensor<4xf32>, tensor<1x8xf32>, tensor<f32>) {
  // CHECK: google.reduce_sum %{{.*}} {axes = array<i64: 1>, keep_dims = false} : tensor<4x8xf32> -> tensor<4xf32>
  %k = google.reduce_sum %x {axes = array<i64: 1>, keep_dims = false} : tensor<4x8xf32> -> tensor<4xf32>
  // CHECK: google.reduce_max %{{.*}} {axes = array<i64: -2>, keep_dims = true} : tensor<4x8xf32> -> tensor<1x8xf32>
  %m = google.reduce_max %x {axes = array<i64: -2>, keep_dims = true} : tensor<4x8xf32> -> tensor<1x8xf32>
  // CHECK: google.reduce_mean %{{.*}} {axes = array<i64: 0, 1>, keep_dims = false} : tensor<4x8xf32> -> tensor<f32>
  %a = google.reduce_mean %x {axes = array<i64: 0, 1>, keep_dims = false} : tensor<4x8xf32> -> tensor<f32>
  return %k, %m, %a : tensor<4xf32>, tensor<1x8xf32>, tensor<f32>
}

// -----

// CHECK-LABEL: func @softmax_cast
func.func @softmax_cast(%x: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf16>, tensor<4x8xi32>) {
  // CHECK: google.softmax %{{.*}} {axis = 1 : i64} : tensor<4x8xf32>
  %p = google.softmax %x {axis = 1 : i64} : tensor<4x8xf32>
  // CHECK: google.cast %{{.*}} : tensor<4x8xf32> -> tensor<4x8xf16>
  %h = google.cast %x : tensor<4x8xf32> -> tensor<4x8xf16>
  // CHECK: google.cast %{{.*}} : tensor<4x8xf16> -> tensor<4x8xi32>
  %i = google.cast %h : tensor<4x8xf16> -> tensor<4x8xi32>
  return %p, %h, %i : tensor<4x8xf32>, tensor<4x8xf16>, tensor<4x8xi32>
}

// -----

// Comparisons give booleans; select, the logical ops, casts and the layout
// ops take them.
// CHECK-LABEL: func @booleans
func.func @booleans(%a: tensor<4x8xf32>, %b: tensor<8xf32>, %p: tensor<4x8xi1>) -> (tensor<4x8xf32>, tensor<8x4xi1>, tensor<4x8xf32>) {
  // CHECK: google.eq %{{.*}}, %{{.*}} : tensor<4x8xf32>, tensor<8xf32> -> tensor<4x8xi1>
  %0 = google.eq %a, %b : tensor<4x8xf32>, tensor<8xf32> -> tensor<4x8xi1>
  // CHECK: google.ne
  %1 = google.ne %a, %b : tensor<4x8xf32>, tensor<8xf32> -> tensor<4x8xi1>
  // CHECK: google.lt
  %2 = google.lt %a, %b : tensor<4x8xf32>, tensor<8xf32> -> tensor<4x8xi1>
  // CHECK: google.le
  %3 = google.le %a, %b : tensor<4x8xf32>, tensor<8xf32> -> tensor<4x8xi1>
  // CHECK: google.gt
  %4 = google.gt %a, %b : tensor<4x8xf32>, tensor<8xf32> -> tensor<4x8xi1>
  // CHECK: google.ge
  %5 = google.ge %a, %b : tensor<4x8xf32>, tensor<8xf32> -> tensor<4x8xi1>
  // CHECK: google.and %{{.*}}, %{{.*}} : tensor<4x8xi1>, tensor<4x8xi1> -> tensor<4x8xi1>
  %6 = google.and %0, %1 : tensor<4x8xi1>, tensor<4x8xi1> -> tensor<4x8xi1>
  // CHECK: google.or
  %7 = google.or %6, %2 : tensor<4x8xi1>, tensor<4x8xi1> -> tensor<4x8xi1>
  // CHECK: google.xor
  %8 = google.xor %7, %3 : tensor<4x8xi1>, tensor<4x8xi1> -> tensor<4x8xi1>
  // CHECK: google.not %{{.*}} : tensor<4x8xi1>
  %9 = google.not %8 : tensor<4x8xi1>
  // CHECK: google.select %{{.*}}, %{{.*}}, %{{.*}} : tensor<4x8xi1>, tensor<4x8xf32>, tensor<8xf32> -> tensor<4x8xf32>
  %10 = google.select %9, %a, %b : tensor<4x8xi1>, tensor<4x8xf32>, tensor<8xf32> -> tensor<4x8xf32>
  // CHECK: google.transpose %{{.*}} {perm = array<i64: 1, 0>} : tensor<4x8xi1> -> tensor<8x4xi1>
  %11 = google.transpose %p {perm = array<i64: 1, 0>} : tensor<4x8xi1> -> tensor<8x4xi1>
  // CHECK: google.cast %{{.*}} : tensor<4x8xi1> -> tensor<4x8xf32>
  %12 = google.cast %5 : tensor<4x8xi1> -> tensor<4x8xf32>
  return %10, %11, %12 : tensor<4x8xf32>, tensor<8x4xi1>, tensor<4x8xf32>
}

// -----

// CHECK-LABEL: func @reduce_min_prod
func.func @reduce_min_prod(%x: tensor<4x8xf32>) -> (tensor<4xf32>, tensor<1x8xf32>) {
  // CHECK: google.reduce_min %{{.*}} {axes = array<i64: 1>, keep_dims = false} : tensor<4x8xf32> -> tensor<4xf32>
  %0 = google.reduce_min %x {axes = array<i64: 1>, keep_dims = false} : tensor<4x8xf32> -> tensor<4xf32>
  // CHECK: google.reduce_prod %{{.*}} {axes = array<i64: 0>, keep_dims = true} : tensor<4x8xf32> -> tensor<1x8xf32>
  %1 = google.reduce_prod %x {axes = array<i64: 0>, keep_dims = true} : tensor<4x8xf32> -> tensor<1x8xf32>
  return %0, %1 : tensor<4xf32>, tensor<1x8xf32>
}

// -----

// CHECK-LABEL: func @slice
func.func @slice(%x: tensor<4x8xf32>) -> (tensor<2x4xf32>, tensor<?x8xf32>) {
  // CHECK: google.slice %{{.*}} {limits = array<i64: 3, 8>, starts = array<i64: 1, 0>, strides = array<i64: 1, 2>} : tensor<4x8xf32> -> tensor<2x4xf32>
  %0 = google.slice %x {starts = array<i64: 1, 0>, limits = array<i64: 3, 8>, strides = array<i64: 1, 2>} : tensor<4x8xf32> -> tensor<2x4xf32>
  // CHECK: google.slice %{{.*}} {limits = array<i64: -1, 8>, starts = array<i64: 3, 0>, strides = array<i64: -1, 1>} : tensor<4x8xf32> -> tensor<?x8xf32>
  %1 = google.slice %x {starts = array<i64: 3, 0>, limits = array<i64: -1, 8>, strides = array<i64: -1, 1>} : tensor<4x8xf32> -> tensor<?x8xf32>
  return %0, %1 : tensor<2x4xf32>, tensor<?x8xf32>
}

// -----

// CHECK-LABEL: func @indexing
func.func @indexing(%a: tensor<2x3xf32>, %b: tensor<2x?xf32>, %v: tensor<f32>, %ids: tensor<5xi32>) -> (tensor<2x?xf32>, tensor<3x6xf32>, tensor<4x2xi64>, tensor<2x5xf32>) {
  // CHECK: google.concat %{{.*}}, %{{.*}} {axis = 1 : i64} : tensor<2x3xf32>, tensor<2x?xf32> -> tensor<2x?xf32>
  %0 = google.concat %a, %b {axis = 1 : i64} : tensor<2x3xf32>, tensor<2x?xf32> -> tensor<2x?xf32>
  // CHECK: google.pad %{{.*}}, %{{.*}} {high = array<i64: 0, 1>, low = array<i64: 1, 2>} : tensor<2x3xf32>, tensor<f32> -> tensor<3x6xf32>
  %1 = google.pad %a, %v {low = array<i64: 1, 2>, high = array<i64: 0, 1>} : tensor<2x3xf32>, tensor<f32> -> tensor<3x6xf32>
  // CHECK: google.iota {dimension = 1 : i64} : tensor<4x2xi64>
  %2 = google.iota {dimension = 1 : i64} : tensor<4x2xi64>
  // CHECK: google.iota like(%{{.*}} : tensor<2x?xf32>) {dimension = 1 : i64} : tensor<2x?xi64>
  %like = google.iota like(%b : tensor<2x?xf32>) {dimension = 1 : i64} : tensor<2x?xi64>
  // CHECK: google.gather %{{.*}}, %{{.*}} {axis = 1 : i64} : tensor<2x3xf32>, tensor<5xi32> -> tensor<2x5xf32>
  %3 = google.gather %a, %ids {axis = 1 : i64} : tensor<2x3xf32>, tensor<5xi32> -> tensor<2x5xf32>
  return %0, %1, %2, %3 : tensor<2x?xf32>, tensor<3x6xf32>, tensor<4x2xi64>, tensor<2x5xf32>
}

// -----

// CHECK-LABEL: func @scatter_add
func.func @scatter_add(%b: tensor<?x3xf32>, %ids: tensor<5xi32>, %u: tensor<5x?xf32>) -> tensor<?x3xf32> {
  // CHECK: google.scatter_add %{{.*}}, %{{.*}}, %{{.*}} {axis = 0 : i64} : tensor<?x3xf32>, tensor<5xi32>, tensor<5x?xf32> -> tensor<?x3xf32>
  %0 = google.scatter_add %b, %ids, %u {axis = 0 : i64} : tensor<?x3xf32>, tensor<5xi32>, tensor<5x?xf32> -> tensor<?x3xf32>
  return %0 : tensor<?x3xf32>
}

// -----

// CHECK-LABEL: func @argreduce
func.func @argreduce(%x: tensor<4x8xf32>) -> (tensor<4xi64>, tensor<1x8xi64>) {
  // CHECK: google.argmax %{{.*}} {axis = 1 : i64, keep_dims = false} : tensor<4x8xf32> -> tensor<4xi64>
  %0 = google.argmax %x {axis = 1 : i64, keep_dims = false} : tensor<4x8xf32> -> tensor<4xi64>
  // CHECK: google.argmin %{{.*}} {axis = 0 : i64, keep_dims = true} : tensor<4x8xf32> -> tensor<1x8xi64>
  %1 = google.argmin %x {axis = 0 : i64, keep_dims = true} : tensor<4x8xf32> -> tensor<1x8xi64>
  return %0, %1 : tensor<4xi64>, tensor<1x8xi64>
}

// -----

// CHECK-LABEL: func @windows
func.func @windows(%x: tensor<?x8x8x3xf32>, %w: tensor<3x3x1x6xf32>) -> (tensor<?x8x8x6xf32>, tensor<?x4x4x3xf32>, tensor<?x3x3x3xf32>) {
  // CHECK: google.conv2d %{{.*}}, %{{.*}} {dilations = array<i64: 1, 1>, groups = 3 : i64, padding = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : tensor<?x8x8x3xf32>, tensor<3x3x1x6xf32> -> tensor<?x8x8x6xf32>
  %0 = google.conv2d %x, %w {strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, padding = array<i64: 1, 1, 1, 1>, groups = 3 : i64} : tensor<?x8x8x3xf32>, tensor<3x3x1x6xf32> -> tensor<?x8x8x6xf32>
  // CHECK: google.max_pool2d %{{.*}} {padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 2, 2>, window = array<i64: 2, 2>} : tensor<?x8x8x3xf32> -> tensor<?x4x4x3xf32>
  %1 = google.max_pool2d %x {window = array<i64: 2, 2>, strides = array<i64: 2, 2>, padding = array<i64: 0, 0, 0, 0>} : tensor<?x8x8x3xf32> -> tensor<?x4x4x3xf32>
  // CHECK: google.avg_pool2d %{{.*}} {padding = array<i64: 0, 1, 0, 1>, strides = array<i64: 3, 3>, window = array<i64: 3, 3>} : tensor<?x8x8x3xf32> -> tensor<?x3x3x3xf32>
  %2 = google.avg_pool2d %x {window = array<i64: 3, 3>, strides = array<i64: 3, 3>, padding = array<i64: 0, 1, 0, 1>} : tensor<?x8x8x3xf32> -> tensor<?x3x3x3xf32>
  return %0, %1, %2 : tensor<?x8x8x6xf32>, tensor<?x4x4x3xf32>, tensor<?x3x3x3xf32>
}
