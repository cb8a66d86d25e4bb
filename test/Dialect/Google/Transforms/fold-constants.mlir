// RUN: google-opt %s -split-input-file -google-fold-constants | FileCheck %s

// CHECK-LABEL: func @add_broadcast
// CHECK-NEXT: %[[C:.*]] = google.constant dense<{{\[\[}}1.100000e+01, 2.200000e+01], [1.300000e+01, 2.400000e+01]]> : tensor<2x2xf32>
// CHECK-NEXT: return %[[C]]
func.func @add_broadcast() -> tensor<2x2xf32> {
  %a = google.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %b = google.constant dense<[10.0, 20.0]> : tensor<2xf32>
  %0 = google.add %a, %b : tensor<2x2xf32>, tensor<2xf32> -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// -----

// CHECK-LABEL: func @binary_ops
// CHECK-DAG: google.constant dense<[-2.000000e+00, 2.000000e+00]> : tensor<2xf32>
// CHECK-DAG: google.constant dense<[3.000000e+00, 8.000000e+00]> : tensor<2xf32>
// CHECK-DAG: google.constant dense<[2.500000e-01, 2.000000e+00]> : tensor<2xf32>
// CHECK-DAG: google.constant dense<[3.000000e+00, 4.000000e+00]> : tensor<2xf32>
// CHECK-DAG: google.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
// CHECK-NOT: google.sub
// CHECK-NOT: google.mul
// CHECK-NOT: google.div
// CHECK-NOT: google.max
// CHECK-NOT: google.min
func.func @binary_ops() -> (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) {
  %a = google.constant dense<[1.0, 4.0]> : tensor<2xf32>
  %b = google.constant dense<[3.0, 2.0]> : tensor<2xf32>
  %0 = google.sub %a, %b : tensor<2xf32>, tensor<2xf32> -> tensor<2xf32>
  %1 = google.mul %a, %b : tensor<2xf32>, tensor<2xf32> -> tensor<2xf32>
  %c = google.constant dense<[4.0, 1.0]> : tensor<2xf32>
  %d = google.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %2 = google.div %d, %c : tensor<2xf32>, tensor<2xf32> -> tensor<2xf32>
  %3 = google.max %a, %b : tensor<2xf32>, tensor<2xf32> -> tensor<2xf32>
  %e = google.constant dense<[1.0, 5.0]> : tensor<2xf32>
  %4 = google.min %e, %d : tensor<2xf32>, tensor<2xf32> -> tensor<2xf32>
  return %0, %1, %2, %3, %4 : tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>
}

// -----

// Integer arithmetic wraps at the element width.
// CHECK-LABEL: func @int_ops
// CHECK-DAG: google.constant dense<[-2147483648, 5]> : tensor<2xi32>
// CHECK-DAG: google.constant dense<[-2, 4]> : tensor<2xi32>
// CHECK-NOT: google.add
// CHECK-NOT: google.mul
func.func @int_ops() -> (tensor<2xi32>, tensor<2xi32>) {
  %a = google.constant dense<[2147483647, 2]> : tensor<2xi32>
  %b = google.constant dense<[1, 3]> : tensor<2xi32>
  %0 = google.add %a, %b : tensor<2xi32>, tensor<2xi32> -> tensor<2xi32>
  %c = google.constant dense<[-1, 2]> : tensor<2xi32>
  %d = google.constant dense<2> : tensor<i32>
  %1 = google.mul %c, %d : tensor<2xi32>, tensor<i32> -> tensor<2xi32>
  return %0, %1 : tensor<2xi32>, tensor<2xi32>
}

// -----

// CHECK-LABEL: func @unary_ops
// CHECK-DAG: google.constant dense<[0.000000e+00, 2.000000e+00]> : tensor<2xf32>
// CHECK-DAG: google.constant dense<[1.000000e+00, -2.000000e+00]> : tensor<2xf32>
// CHECK-DAG: google.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
// CHECK-DAG: google.constant dense<[0.36787945, 7.3890562]> : tensor<2xf32>
// CHECK-DAG: google.constant dense<[0.000000e+00, 0.693147182]> : tensor<2xf32>
// CHECK-DAG: google.constant dense<[-0.761594176, 0.964027583]> : tensor<2xf32>
// CHECK-DAG: google.constant dense<[0.268941432, 8.807970e-01]> : tensor<2xf32>
// CHECK-DAG: google.constant dense<[1.000000e+00, 1.41421354]> : tensor<2xf32>
// CHECK-NOT: google.relu
// CHECK-NOT: google.exp
func.func @unary_ops() -> (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) {
  %x = google.constant dense<[-1.0, 2.0]> : tensor<2xf32>
  %p = google.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %0 = google.relu %x : tensor<2xf32>
  %1 = google.neg %x : tensor<2xf32>
  %2 = google.abs %x : tensor<2xf32>
  %3 = google.exp %x : tensor<2xf32>
  %4 = google.log %p : tensor<2xf32>
  %5 = google.tanh %x : tensor<2xf32>
  %6 = google.sigmoid %x : tensor<2xf32>
  %7 = google.sqrt %p : tensor<2xf32>
  return %0, %1, %2, %3, %4, %5, %6, %7 : tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>
}

// -----

// CHECK-LABEL: func @matmul
// CHECK-NEXT: %[[C:.*]] = google.constant dense<{{\[\[}}1.900000e+01, 2.200000e+01], [4.300000e+01, 5.000000e+01]]> : tensor<2x2xf32>
// CHECK-NEXT: return %[[C]]
func.func @matmul() -> tensor<2x2xf32> {
  %a = google.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %b = google.constant dense<[[5.0, 6.0], [7.0, 8.0]]> : tensor<2x2xf32>
  %0 = google.matmul %a, %b : tensor<2x2xf32>, tensor<2x2xf32> -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// -----

// CHECK-LABEL: func @matmul_batched
// CHECK-NEXT: %[[C:.*]] = google.constant dense<{{\[\[\[}}2.000000e+00]], {{\[\[}}1.200000e+01]]]> : tensor<2x1x1xf32>
func.func @matmul_batched() -> tensor<2x1x1xf32> {
  %a = google.constant dense<[[[1.0, 1.0]], [[2.0, 2.0]]]> : tensor<2x1x2xf32>
  %b = google.constant dense<[[[1.0], [1.0]], [[3.0], [3.0]]]> : tensor<2x2x1xf32>
  %0 = google.matmul %a, %b : tensor<2x1x2xf32>, tensor<2x2x1xf32> -> tensor<2x1x1xf32>
  return %0 : tensor<2x1x1xf32>
}

// -----

// relu([[1, 2], [3, 4]] @ I + [-2, 1]) = [[0, 3], [1, 5]]
// CHECK-LABEL: func @matmul_bias_relu
// CHECK-NEXT: %[[C:.*]] = google.constant dense<{{\[\[}}0.000000e+00, 3.000000e+00], [1.000000e+00, 5.000000e+00]]> : tensor<2x2xf32>
func.func @matmul_bias_relu() -> tensor<2x2xf32> {
  %a = google.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %i = google.constant dense<[[1.0, 0.0], [0.0, 1.0]]> : tensor<2x2xf32>
  %bias = google.constant dense<[-2.0, 1.0]> : tensor<2xf32>
  %0 = google.matmul_bias_relu %a, %i, %bias : tensor<2x2xf32>, tensor<2x2xf32>, tensor<2xf32> -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// -----

// CHECK-LABEL: func @transpose
// CHECK-NEXT: %[[C:.*]] = google.constant dense<{{\[\[}}1, 4], [2, 5], [3, 6]]> : tensor<3x2xi64>
func.func @transpose() -> tensor<3x2xi64> {
  %a = google.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi64>
  %0 = google.transpose %a {perm = array<i64: 1, 0>} : tensor<2x3xi64> -> tensor<3x2xi64>
  return %0 : tensor<3x2xi64>
}

// -----

// CHECK-LABEL: func @reshape
// CHECK-NEXT: %[[C:.*]] = google.constant dense<{{\[\[}}1, 2], [3, 4], [5, 6]]> : tensor<3x2xi32>
func.func @reshape() -> tensor<3x2xi32> {
  %a = google.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  %0 = google.reshape %a : tensor<2x3xi32> -> tensor<3x2xi32>
  return %0 : tensor<3x2xi32>
}

// -----

// CHECK-LABEL: func @reductions
// CHECK-DAG: google.constant dense<[6.000000e+00, 1.500000e+01]> : tensor<2xf32>
// CHECK-DAG: google.constant dense<{{\[\[}}4.000000e+00, 5.000000e+00, 6.000000e+00]]> : tensor<1x3xf32>
// CHECK-DAG: google.constant dense<3.500000e+00> : tensor<f32>
// CHECK-NOT: google.reduce
func.func @reductions() -> (tensor<2xf32>, tensor<1x3xf32>, tensor<f32>) {
  %a = google.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %0 = google.reduce_sum %a {axes = array<i64: 1>, keep_dims = false} : tensor<2x3xf32> -> tensor<2xf32>
  %1 = google.reduce_max %a {axes = array<i64: -2>, keep_dims = true} : tensor<2x3xf32> -> tensor<1x3xf32>
  %2 = google.reduce_mean %a {axes = array<i64: 0, 1>, keep_dims = false} : tensor<2x3xf32> -> tensor<f32>
  return %0, %1, %2 : tensor<2xf32>, tensor<1x3xf32>, tensor<f32>
}

// -----

// CHECK-LABEL: func @softmax
// CHECK-NEXT: google.constant dense<{{\[\[}}0.268941432, 0.731058597], [5.000000e-01, 5.000000e-01]]> : tensor<2x2xf32>
func.func @softmax() -> tensor<2x2xf32> {
  %a = google.constant dense<[[1.0, 2.0], [3.0, 3.0]]> : tensor<2x2xf32>
  %0 = google.softmax %a {axis = -1 : i64} : tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// -----

// Float to int truncates toward zero; f32 to f16 rounds.
// CHECK-LABEL: func @cast
// CHECK-DAG: google.constant dense<[-1, 2]> : tensor<2xi32>
// CHECK-DAG: google.constant dense<[-1.750000e+00, 2.500000e+00]> : tensor<2xf16>
// CHECK-DAG: google.constant dense<[3.000000e+00, -4.000000e+00]> : tensor<2xf64>
// CHECK-NOT: google.cast
func.func @cast() -> (tensor<2xi32>, tensor<2xf16>, tensor<2xf64>) {
  %a = google.constant dense<[-1.75, 2.5]> : tensor<2xf32>
  %0 = google.cast %a : tensor<2xf32> -> tensor<2xi32>
  %1 = google.cast %a : tensor<2xf32> -> tensor<2xf16>
  %b = google.constant dense<[3, -4]> : tensor<2xi64>
  %2 = google.cast %b : tensor<2xi64> -> tensor<2xf64>
  return %0, %1, %2 : tensor<2xi32>, tensor<2xf16>, tensor<2xf64>
}

// -----

// f16 arithmetic rounds to f16: 2048 + 1 is 2048.
// CHECK-LABEL: func @f16_rounding
// CHECK-NEXT: google.constant dense<2.048000e+03> : tensor<f16>
func.func @f16_rounding() -> tensor<f16> {
  %a = google.constant dense<2048.0> : tensor<f16>
  %b = google.constant dense<1.0> : tensor<f16>
  %0 = google.add %a, %b : tensor<f16>, tensor<f16> -> tensor<f16>
  return %0 : tensor<f16>
}

// -----

// A chain of constant ops folds completely.
// CHECK-LABEL: func @chain
// CHECK-NEXT: %[[C:.*]] = google.constant dense<{{\[\[}}2.000000e+00, 0.000000e+00]]> : tensor<1x2xf32>
// CHECK-NEXT: return %[[C]]
func.func @chain() -> tensor<1x2xf32> {
  %a = google.constant dense<[1.0, -1.0]> : tensor<2xf32>
  %b = google.constant dense<1.0> : tensor<2xf32>
  %0 = google.add %a, %b : tensor<2xf32>, tensor<2xf32> -> tensor<2xf32>
  %1 = google.relu %0 : tensor<2xf32>
  %2 = google.reshape %1 : tensor<2xf32> -> tensor<1x2xf32>
  return %2 : tensor<1x2xf32>
}

// -----

// Splat operands give a splat result whatever the size.
// CHECK-LABEL: func @splat_stays_splat
// CHECK-NEXT: google.constant dense<3.000000e+00> : tensor<1024x1024xf32>
func.func @splat_stays_splat() -> tensor<1024x1024xf32> {
  %a = google.constant dense<1.0> : tensor<1024x1024xf32>
  %b = google.constant dense<2.0> : tensor<1024xf32>
  %0 = google.add %a, %b : tensor<1024x1024xf32>, tensor<1024xf32> -> tensor<1024x1024xf32>
  return %0 : tensor<1024x1024xf32>
}

// -----

// Identities apply to non-constant operands too.
// CHECK-LABEL: func @identities
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>)
// CHECK-NEXT: return %[[X]]
func.func @identities(%x: tensor<4xf32>) -> tensor<4xf32> {
  %zero = google.constant dense<0.0> : tensor<4xf32>
  %minus_zero = google.constant dense<-0.0> : tensor<4xf32>
  %one = google.constant dense<1.0> : tensor<f32>
  %0 = google.add %minus_zero, %x : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  %1 = google.mul %0, %one : tensor<4xf32>, tensor<f32> -> tensor<4xf32>
  %2 = google.sub %1, %zero : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  %3 = google.div %2, %one : tensor<4xf32>, tensor<f32> -> tensor<4xf32>
  return %3 : tensor<4xf32>
}

// -----

// Float to int truncates toward zero and saturates; NaN gives 0 (SPEC
// section 1): folded values agree with compiled code.
// CHECK-LABEL: func @cast_float_to_int_saturates
// CHECK-DAG: google.constant dense<[2147483647, -2147483648, 0, -2, 2]> : tensor<5xi32>
// CHECK-DAG: google.constant dense<[9223372036854775807, -9223372036854775808]> : tensor<2xi64>
// CHECK-NOT: google.cast
func.func @cast_float_to_int_saturates() -> (tensor<5xi32>, tensor<2xi64>) {
  %a = google.constant dense<[3.0e9, -3.0e9, 0x7FC00000, -2.9, 2.9]> : tensor<5xf32>
  %0 = google.cast %a : tensor<5xf32> -> tensor<5xi32>
  %b = google.constant dense<[1.0e30, 0xFF800000]> : tensor<2xf32>
  %1 = google.cast %b : tensor<2xf32> -> tensor<2xi64>
  return %0, %1 : tensor<5xi32>, tensor<2xi64>
}

// -----

// Casts to bf16 round once, from the exact value: through f32 they would
// round twice and give 1.0 and 16777216.
// CHECK-LABEL: func @cast_to_bf16_rounds_once
// CHECK-DAG: google.constant dense<1.007810e+00> : tensor<bf16>
// CHECK-DAG: google.constant dense<1.690830e+07> : tensor<bf16>
func.func @cast_to_bf16_rounds_once() -> (tensor<bf16>, tensor<bf16>) {
  %a = google.constant dense<0x3FF0100000400000> : tensor<f64>
  %0 = google.cast %a : tensor<f64> -> tensor<bf16>
  %b = google.constant dense<16842753> : tensor<i32>
  %1 = google.cast %b : tensor<i32> -> tensor<bf16>
  return %0, %1 : tensor<bf16>, tensor<bf16>
}

// -----

// relu(-0) is +0 (maximum orders -0 below +0), as compiled code gives.
// CHECK-LABEL: func @relu_negative_zero
// CHECK: google.constant dense<0.000000e+00> : tensor<2xf32>
func.func @relu_negative_zero() -> tensor<2xf32> {
  %a = google.constant dense<[-0.0, 0.0]> : tensor<2xf32>
  %0 = google.relu %a : tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// Not all operands are constant.
// CHECK-LABEL: func @negative_not_constant
// CHECK: google.add
func.func @negative_not_constant(%x: tensor<2xf32>) -> tensor<2xf32> {
  %a = google.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %0 = google.add %a, %x : tensor<2xf32>, tensor<2xf32> -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// Floored division and remainder fold with NumPy's rules: the remainder
// has the divisor's sign, integer division by 0 gives 0, and the minimum
// divided by -1 wraps.
// CHECK-LABEL: func @floor_div_rem
// CHECK-DAG: google.constant dense<[3, -4, -4, 3, 0, -2147483648]> : tensor<6xi32>
// CHECK-DAG: google.constant dense<[1, 1, -1, -1, 0, 0]> : tensor<6xi32>
// CHECK-DAG: google.constant dense<[3.000000e+00, -4.000000e+00, -0.000000e+00, 0x7F800000]> : tensor<4xf32>
// CHECK-DAG: google.constant dense<[1.000000e+00, 1.000000e+00, 0.000000e+00, {{0x7FC00000|0xFFC00000}}]> : tensor<4xf32>
// CHECK-DAG: google.constant dense<[4.900000e+01, 2.500000e-01, 1.000000e+00, 8.000000e+00]> : tensor<4xf32>
// CHECK-NOT: google.floor_div
// CHECK-NOT: google.rem
// CHECK-NOT: google.pow
func.func @floor_div_rem() -> (tensor<6xi32>, tensor<6xi32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %a = google.constant dense<[7, -7, 7, -7, 5, -2147483648]> : tensor<6xi32>
  %b = google.constant dense<[2, 2, -2, -2, 0, -1]> : tensor<6xi32>
  %0 = google.floor_div %a, %b : tensor<6xi32>, tensor<6xi32> -> tensor<6xi32>
  %1 = google.rem %a, %b : tensor<6xi32>, tensor<6xi32> -> tensor<6xi32>
  %x = google.constant dense<[7.0, -7.0, -0.0, 5.5]> : tensor<4xf32>
  %y = google.constant dense<[2.0, 2.0, 3.0, 0.0]> : tensor<4xf32>
  %2 = google.floor_div %x, %y : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  %3 = google.rem %x, %y : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  %p = google.constant dense<[7.0, 4.0, 0.0, 4.0]> : tensor<4xf32>
  %q = google.constant dense<[2.0, -1.0, 0.0, 1.5]> : tensor<4xf32>
  %4 = google.pow %p, %q : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  return %0, %1, %2, %3, %4 : tensor<6xi32>, tensor<6xi32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

// Comparisons, select and the logical ops fold; NaN compares unequal.
// CHECK-LABEL: func @booleans
// CHECK-DAG: google.constant dense<[true, false, false]> : tensor<3xi1>
// CHECK-DAG: google.constant dense<[false, true, true]> : tensor<3xi1>
// CHECK-DAG: google.constant dense<[1.000000e+00, 5.000000e+00, 6.000000e+00]> : tensor<3xf32>
// CHECK-DAG: google.constant dense<[false, true, false]> : tensor<3xi1>
// CHECK-NOT: google.lt
// CHECK-NOT: google.select
// CHECK-NOT: google.not
func.func @booleans() -> (tensor<3xi1>, tensor<3xi1>, tensor<3xf32>, tensor<3xi1>) {
  %a = google.constant dense<[1.0, 2.0, 0x7FC00000]> : tensor<3xf32>
  %b = google.constant dense<[4.0, 5.0, 6.0]> : tensor<3xf32>
  %c = google.constant dense<[1.5, 1.5, 1.5]> : tensor<3xf32>
  %lt = google.lt %a, %c : tensor<3xf32>, tensor<3xf32> -> tensor<3xi1>
  %ge = google.not %lt : tensor<3xi1>
  %s = google.select %lt, %a, %b : tensor<3xi1>, tensor<3xf32>, tensor<3xf32> -> tensor<3xf32>
  %ne = google.ne %a, %a : tensor<3xf32>, tensor<3xf32> -> tensor<3xi1>
  %x = google.xor %ne, %ge : tensor<3xi1>, tensor<3xi1> -> tensor<3xi1>
  return %lt, %ge, %s, %x : tensor<3xi1>, tensor<3xi1>, tensor<3xf32>, tensor<3xi1>
}

// -----

// CHECK-LABEL: func @reduce_min_prod
// CHECK-DAG: google.constant dense<[1.000000e+00, -3.000000e+00]> : tensor<2xf32>
// CHECK-DAG: google.constant dense<[6.000000e+00, -3.600000e+01]> : tensor<2xf32>
// CHECK-NOT: google.reduce_
func.func @reduce_min_prod() -> (tensor<2xf32>, tensor<2xf32>) {
  %a = google.constant dense<[[1.0, 2.0, 3.0], [-3.0, 4.0, 3.0]]> : tensor<2x3xf32>
  %0 = google.reduce_min %a {axes = array<i64: 1>, keep_dims = false} : tensor<2x3xf32> -> tensor<2xf32>
  %1 = google.reduce_prod %a {axes = array<i64: 1>, keep_dims = false} : tensor<2x3xf32> -> tensor<2xf32>
  return %0, %1 : tensor<2xf32>, tensor<2xf32>
}

// -----

// CHECK-LABEL: func @indexing
// CHECK-DAG: google.constant dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00, 5.000000e+00]> : tensor<5xf32>
// CHECK-DAG: google.constant dense<[0.000000e+00, 1.000000e+00, 2.000000e+00, 0.000000e+00]> : tensor<4xf32>
// CHECK-DAG: google.constant dense<[4, 0]> : tensor<2xi64>
// CHECK-DAG: google.constant dense<[5.000000e+00, 1.000000e+00]> : tensor<2xf32>
// CHECK-DAG: google.constant dense<[0, 1, 2]> : tensor<3xi32>
// CHECK-NOT: google.concat
// CHECK-NOT: google.pad
// CHECK-NOT: google.arg
// CHECK-NOT: google.gather
// CHECK-NOT: google.iota
func.func @indexing() -> (tensor<5xf32>, tensor<4xf32>, tensor<2xi64>, tensor<2xf32>, tensor<3xi32>) {
  %a = google.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %b = google.constant dense<[3.0, 4.0, 5.0]> : tensor<3xf32>
  %zero = google.constant dense<0.0> : tensor<f32>
  %ids = google.constant dense<[-1, 0]> : tensor<2xi64>
  %0 = google.concat %a, %b {axis = 0 : i64} : tensor<2xf32>, tensor<3xf32> -> tensor<5xf32>
  %1 = google.pad %a, %zero {low = array<i64: 1>, high = array<i64: 1>} : tensor<2xf32>, tensor<f32> -> tensor<4xf32>
  %m = google.reshape %0 : tensor<5xf32> -> tensor<1x5xf32>
  %max = google.argmax %m {axis = 1 : i64, keep_dims = false} : tensor<1x5xf32> -> tensor<1xi64>
  %min = google.argmin %m {axis = 1 : i64, keep_dims = false} : tensor<1x5xf32> -> tensor<1xi64>
  %2 = google.concat %max, %min {axis = 0 : i64} : tensor<1xi64>, tensor<1xi64> -> tensor<2xi64>
  %3 = google.gather %0, %ids {axis = 0 : i64} : tensor<5xf32>, tensor<2xi64> -> tensor<2xf32>
  %4 = google.iota {dimension = 0 : i64} : tensor<3xi32>
  return %0, %1, %2, %3, %4 : tensor<5xf32>, tensor<4xf32>, tensor<2xi64>, tensor<2xf32>, tensor<3xi32>
}

// -----

// An out-of-range index is left for the run-time check to report.
// CHECK-LABEL: func @gather_out_of_range
// CHECK: google.gather
func.func @gather_out_of_range() -> tensor<1xf32> {
  %a = google.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %ids = google.constant dense<[2]> : tensor<1xi64>
  %0 = google.gather %a, %ids {axis = 0 : i64} : tensor<2xf32>, tensor<1xi64> -> tensor<1xf32>
  return %0 : tensor<1xf32>
}

// -----

// scatter_add of constants folds (repeated and negative indices add up).
// CHECK-LABEL: func @scatter_add
// CHECK: %[[C:.*]] = google.constant dense<[1.000000e+00, 1.200000e+01, 3.000000e+00, 9.000000e+00]> : tensor<4xf32>
// CHECK-NEXT: return %[[C]]
func.func @scatter_add() -> tensor<4xf32> {
  %b = google.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %ids = google.constant dense<[1, -1, 1]> : tensor<3xi32>
  %u = google.constant dense<[4.0, 5.0, 6.0]> : tensor<3xf32>
  %0 = google.scatter_add %b, %ids, %u {axis = 0 : i64} : tensor<4xf32>, tensor<3xi32>, tensor<3xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// A google.if on a constant condition becomes the branch it takes.
// CHECK-LABEL: func @constant_if
// CHECK-NOT: google.if
// CHECK: %[[E:.*]] = google.exp %arg0
// CHECK: return %[[E]]
func.func @constant_if(%x: tensor<3xf32>) -> tensor<3xf32> {
  %p = google.constant dense<true> : tensor<i1>
  %r = google.if %p : tensor<i1> -> (tensor<3xf32>) {
    %e = google.exp %x : tensor<3xf32>
    google.yield %e : tensor<3xf32>
  } else {
    google.yield %x : tensor<3xf32>
  }
  return %r : tensor<3xf32>
}
