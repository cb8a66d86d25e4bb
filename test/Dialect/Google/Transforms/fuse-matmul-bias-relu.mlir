// RUN: google-opt %s -split-input-file -google-fuse-matmul-bias-relu | FileCheck %s

// CHECK-LABEL: func @bias_rhs
// CHECK-SAME: (%[[A:.*]]: tensor<4x8xf32>, %[[B:.*]]: tensor<8x16xf32>, %[[BIAS:.*]]: tensor<16xf32>)
// CHECK-NEXT: %[[F:.*]] = google.matmul_bias_relu %[[A]], %[[B]], %[[BIAS]] : tensor<4x8xf32>, tensor<8x16xf32>, tensor<16xf32> -> tensor<4x16xf32>
// CHECK-NEXT: return %[[F]]
func.func @bias_rhs(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %bias: tensor<16xf32>) -> tensor<4x16xf32> {
  %m = google.matmul %a, %b : tensor<4x8xf32>, tensor<8x16xf32> -> tensor<4x16xf32>
  %s = google.add %m, %bias : tensor<4x16xf32>, tensor<16xf32> -> tensor<4x16xf32>
  %r = google.relu %s : tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}

// -----

// CHECK-LABEL: func @bias_lhs
// CHECK-SAME: (%[[A:.*]]: tensor<4x8xf32>, %[[B:.*]]: tensor<8x16xf32>, %[[BIAS:.*]]: tensor<16xf32>)
// CHECK-NEXT: %[[F:.*]] = google.matmul_bias_relu %[[A]], %[[B]], %[[BIAS]]
// CHECK-NEXT: return %[[F]]
func.func @bias_lhs(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %bias: tensor<16xf32>) -> tensor<4x16xf32> {
  %m = google.matmul %a, %b : tensor<4x8xf32>, tensor<8x16xf32> -> tensor<4x16xf32>
  %s = google.add %bias, %m : tensor<16xf32>, tensor<4x16xf32> -> tensor<4x16xf32>
  %r = google.relu %s : tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}

// -----

// A [1, N] bias is reshaped to [N].
// CHECK-LABEL: func @bias_row
// CHECK-SAME: (%[[A:.*]]: tensor<4x8xf32>, %[[B:.*]]: tensor<8x16xf32>, %[[BIAS:.*]]: tensor<1x16xf32>)
// CHECK-NEXT: %[[V:.*]] = google.reshape %[[BIAS]] : tensor<1x16xf32> -> tensor<16xf32>
// CHECK-NEXT: %[[F:.*]] = google.matmul_bias_relu %[[A]], %[[B]], %[[V]]
// CHECK-NEXT: return %[[F]]
func.func @bias_row(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %bias: tensor<1x16xf32>) -> tensor<4x16xf32> {
  %m = google.matmul %a, %b : tensor<4x8xf32>, tensor<8x16xf32> -> tensor<4x16xf32>
  %s = google.add %m, %bias : tensor<4x16xf32>, tensor<1x16xf32> -> tensor<4x16xf32>
  %r = google.relu %s : tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}

// -----

// Dynamic batch, bias from a constant.
// CHECK-LABEL: func @dynamic_batch
// CHECK: google.matmul_bias_relu %{{.*}}, %{{.*}}, %{{.*}} : tensor<?x8xf32>, tensor<8x16xf32>, tensor<16xf32> -> tensor<?x16xf32>
// CHECK-NOT: google.relu
func.func @dynamic_batch(%a: tensor<?x8xf32>, %b: tensor<8x16xf32>) -> tensor<?x16xf32> {
  %bias = google.constant dense<0.5> : tensor<16xf32>
  %m = google.matmul %a, %b : tensor<?x8xf32>, tensor<8x16xf32> -> tensor<?x16xf32>
  %s = google.add %m, %bias : tensor<?x16xf32>, tensor<16xf32> -> tensor<?x16xf32>
  %r = google.relu %s : tensor<?x16xf32>
  return %r : tensor<?x16xf32>
}

// -----

// Two layers fuse independently.
// CHECK-LABEL: func @two_layers
// CHECK-COUNT-2: google.matmul_bias_relu
// CHECK-NOT: google.relu
func.func @two_layers(%x: tensor<4x8xf32>, %w1: tensor<8x16xf32>, %b1: tensor<16xf32>, %w2: tensor<16x2xf32>, %b2: tensor<2xf32>) -> tensor<4x2xf32> {
  %0 = google.matmul %x, %w1 : tensor<4x8xf32>, tensor<8x16xf32> -> tensor<4x16xf32>
  %1 = google.add %0, %b1 : tensor<4x16xf32>, tensor<16xf32> -> tensor<4x16xf32>
  %2 = google.relu %1 : tensor<4x16xf32>
  %3 = google.matmul %2, %w2 : tensor<4x16xf32>, tensor<16x2xf32> -> tensor<4x2xf32>
  %4 = google.add %b2, %3 : tensor<2xf32>, tensor<4x2xf32> -> tensor<4x2xf32>
  %5 = google.relu %4 : tensor<4x2xf32>
  return %5 : tensor<4x2xf32>
}

// -----

// The matmul result is also returned, so it must still be computed.
// CHECK-LABEL: func @negative_matmul_second_user
// CHECK-NOT: google.matmul_bias_relu
// CHECK: google.relu
func.func @negative_matmul_second_user(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %bias: tensor<16xf32>) -> (tensor<4x16xf32>, tensor<4x16xf32>) {
  %m = google.matmul %a, %b : tensor<4x8xf32>, tensor<8x16xf32> -> tensor<4x16xf32>
  %s = google.add %m, %bias : tensor<4x16xf32>, tensor<16xf32> -> tensor<4x16xf32>
  %r = google.relu %s : tensor<4x16xf32>
  return %r, %m : tensor<4x16xf32>, tensor<4x16xf32>
}

// -----

// The add result feeds something else too.
// CHECK-LABEL: func @negative_add_second_user
// CHECK-NOT: google.matmul_bias_relu
// CHECK: google.relu
func.func @negative_add_second_user(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %bias: tensor<16xf32>) -> (tensor<4x16xf32>, tensor<4x16xf32>) {
  %m = google.matmul %a, %b : tensor<4x8xf32>, tensor<8x16xf32> -> tensor<4x16xf32>
  %s = google.add %m, %bias : tensor<4x16xf32>, tensor<16xf32> -> tensor<4x16xf32>
  %r = google.relu %s : tensor<4x16xf32>
  %e = google.exp %s : tensor<4x16xf32>
  return %r, %e : tensor<4x16xf32>, tensor<4x16xf32>
}

// -----

// An [M, N] addend is not a bias.
// CHECK-LABEL: func @negative_full_addend
// CHECK-NOT: google.matmul_bias_relu
func.func @negative_full_addend(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %c: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %m = google.matmul %a, %b : tensor<4x8xf32>, tensor<8x16xf32> -> tensor<4x16xf32>
  %s = google.add %m, %c : tensor<4x16xf32>, tensor<4x16xf32> -> tensor<4x16xf32>
  %r = google.relu %s : tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}

// -----

// A column vector [M, 1] broadcasts along rows, not a bias over columns.
// CHECK-LABEL: func @negative_column_addend
// CHECK-NOT: google.matmul_bias_relu
func.func @negative_column_addend(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %c: tensor<4x1xf32>) -> tensor<4x16xf32> {
  %m = google.matmul %a, %b : tensor<4x8xf32>, tensor<8x16xf32> -> tensor<4x16xf32>
  %s = google.add %m, %c : tensor<4x16xf32>, tensor<4x1xf32> -> tensor<4x16xf32>
  %r = google.relu %s : tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}

// -----

// Batched matmuls have no fused form.
// CHECK-LABEL: func @negative_batched
// CHECK-NOT: google.matmul_bias_relu
func.func @negative_batched(%a: tensor<2x4x8xf32>, %b: tensor<2x8x16xf32>, %bias: tensor<16xf32>) -> tensor<2x4x16xf32> {
  %m = google.matmul %a, %b : tensor<2x4x8xf32>, tensor<2x8x16xf32> -> tensor<2x4x16xf32>
  %s = google.add %m, %bias : tensor<2x4x16xf32>, tensor<16xf32> -> tensor<2x4x16xf32>
  %r = google.relu %s : tensor<2x4x16xf32>
  return %r : tensor<2x4x16xf32>
}

// -----

// The add broadcasts the product to a bigger shape.
// CHECK-LABEL: func @negative_add_broadcasts_product
// CHECK-NOT: google.matmul_bias_relu
func.func @negative_add_broadcasts_product(%a: tensor<1x8xf32>, %b: tensor<8x16xf32>, %c: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %m = google.matmul %a, %b : tensor<1x8xf32>, tensor<8x16xf32> -> tensor<1x16xf32>
  %s = google.add %m, %c : tensor<1x16xf32>, tensor<4x16xf32> -> tensor<4x16xf32>
  %r = google.relu %s : tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}

// -----

// No relu: nothing to fuse.
// CHECK-LABEL: func @negative_no_relu
// CHECK-NOT: google.matmul_bias_relu
func.func @negative_no_relu(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %bias: tensor<16xf32>) -> tensor<4x16xf32> {
  %m = google.matmul %a, %b : tensor<4x8xf32>, tensor<8x16xf32> -> tensor<4x16xf32>
  %s = google.add %m, %bias : tensor<4x16xf32>, tensor<16xf32> -> tensor<4x16xf32>
  return %s : tensor<4x16xf32>
}

// -----

// sub is not add.
// CHECK-LABEL: func @negative_sub
// CHECK-NOT: google.matmul_bias_relu
func.func @negative_sub(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %bias: tensor<16xf32>) -> tensor<4x16xf32> {
  %m = google.matmul %a, %b : tensor<4x8xf32>, tensor<8x16xf32> -> tensor<4x16xf32>
  %s = google.sub %m, %bias : tensor<4x16xf32>, tensor<16xf32> -> tensor<4x16xf32>
  %r = google.relu %s : tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}

// -----

// A [1] bias stretches over N in the add; the fused op never stretches its
// bias, so fusing would change the result (it once gave 2x1 values).
// CHECK-LABEL: func @negative_unit_bias_stretches
// CHECK: google.matmul
// CHECK: google.add
// CHECK: google.relu
// CHECK-NOT: google.matmul_bias_relu
func.func @negative_unit_bias_stretches(%a: tensor<2x3xf32>, %b: tensor<3x?xf32>, %c: tensor<1xf32>) -> tensor<2x?xf32> {
  %m = google.matmul %a, %b : tensor<2x3xf32>, tensor<3x?xf32> -> tensor<2x?xf32>
  %s = google.add %m, %c : tensor<2x?xf32>, tensor<1xf32> -> tensor<2x?xf32>
  %r = google.relu %s : tensor<2x?xf32>
  return %r : tensor<2x?xf32>
}

// -----

// A [1] bias over N = 1 does not stretch: it fuses.
// CHECK-LABEL: func @unit_bias_unit_n
// CHECK: google.matmul_bias_relu
func.func @unit_bias_unit_n(%a: tensor<2x3xf32>, %b: tensor<3x1xf32>, %c: tensor<1xf32>) -> tensor<2x1xf32> {
  %m = google.matmul %a, %b : tensor<2x3xf32>, tensor<3x1xf32> -> tensor<2x1xf32>
  %s = google.add %m, %c : tensor<2x1xf32>, tensor<1xf32> -> tensor<2x1xf32>
  %r = google.relu %s : tensor<2x1xf32>
  return %r : tensor<2x1xf32>
}
