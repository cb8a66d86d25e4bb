// RUN: google-opt %s -split-input-file -verify-diagnostics

func.func @add_incompatible(%a: tensor<4x8xf32>, %b: tensor<4xf32>) {
  // expected-error@+1 {{'google.add' op expected broadcast-compatible operands, got lhs 'tensor<4x8xf32>' and rhs 'tensor<4xf32>'}}
  %0 = google.add %a, %b : tensor<4x8xf32>, tensor<4xf32> -> tensor<4x8xf32>
  return
}

// -----

func.func @sub_wrong_result(%a: tensor<4x8xf32>, %b: tensor<8xf32>) {
  // expected-error@+1 {{'google.sub' op expected result type tensor<4x8xf32>, got 'tensor<8x8xf32>'}}
  %0 = google.sub %a, %b : tensor<4x8xf32>, tensor<8xf32> -> tensor<8x8xf32>
  return
}

// -----

func.func @mul_wrong_result_rank(%a: tensor<4x8xf32>, %b: tensor<8xf32>) {
  // expected-error@+1 {{'google.mul' op expected result type tensor<4x8xf32>, got 'tensor<32xf32>'}}
  %0 = google.mul %a, %b : tensor<4x8xf32>, tensor<8xf32> -> tensor<32xf32>
  return
}

// -----

func.func @max_element_types(%a: tensor<4xf32>, %b: tensor<4xf16>) {
  // expected-error@+1 {{'google.max' op failed to verify that all of {lhs, rhs, result} have same element type}}
  %0 = google.max %a, %b : tensor<4xf32>, tensor<4xf16> -> tensor<4xf32>
  return
}

// -----

func.func @div_int(%a: tensor<4xi32>) {
  // expected-error@+1 {{'google.div' op operand #0 must be ranked tensor of floating-point type (f16, bf16, f32, f64) values, but got 'tensor<4xi32>'}}
  %0 = google.div %a, %a : tensor<4xi32>, tensor<4xi32> -> tensor<4xi32>
  return
}

// -----

func.func @add_unsupported_element(%a: tensor<4xi8>) {
  // expected-error@+1 {{'google.add' op operand #0 must be ranked tensor of f16, bf16, f32, f64, i32 or i64 values, but got 'tensor<4xi8>'}}
  %0 = google.add %a, %a : tensor<4xi8>, tensor<4xi8> -> tensor<4xi8>
  return
}

// -----

func.func @add_unranked(%a: tensor<*xf32>) {
  // expected-error@+1 {{'google.add' op operand #0 must be ranked tensor}}
  %0 = "google.add"(%a, %a) : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
  return
}

// -----

func.func @exp_int(%a: tensor<4xi32>) {
  // expected-error@+1 {{'google.exp' op operand #0 must be ranked tensor of floating-point type (f16, bf16, f32, f64) values, but got 'tensor<4xi32>'}}
  %0 = google.exp %a : tensor<4xi32>
  return
}

// -----

func.func @log_int(%a: tensor<4xi64>) {
  // expected-error@+1 {{'google.log' op operand #0 must be ranked tensor of floating-point type}}
  %0 = google.log %a : tensor<4xi64>
  return
}

// -----

func.func @tanh_int(%a: tensor<4xi32>) {
  // expected-error@+1 {{'google.tanh' op operand #0 must be ranked tensor of floating-point type}}
  %0 = google.tanh %a : tensor<4xi32>
  return
}

// -----

func.func @sigmoid_int(%a: tensor<4xi32>) {
  // expected-error@+1 {{'google.sigmoid' op operand #0 must be ranked tensor of floating-point type}}
  %0 = google.sigmoid %a : tensor<4xi32>
  return
}

// -----

func.func @sqrt_int(%a: tensor<4xi32>) {
  // expected-error@+1 {{'google.sqrt' op operand #0 must be ranked tensor of floating-point type}}
  %0 = google.sqrt %a : tensor<4xi32>
  return
}

// -----

func.func @erf_int(%a: tensor<4xi64>) {
  // expected-error@+1 {{'google.erf' op operand #0 must be ranked tensor of floating-point type}}
  %0 = google.erf %a : tensor<4xi64>
  return
}

// -----

func.func @pow_int(%a: tensor<4xi32>) {
  // expected-error@+1 {{'google.pow' op operand #0 must be ranked tensor of floating-point type}}
  %0 = google.pow %a, %a : tensor<4xi32>, tensor<4xi32> -> tensor<4xi32>
  return
}

// -----

func.func @floor_div_shapes(%a: tensor<4xi32>, %b: tensor<3xi32>) {
  // expected-error@+1 {{'google.floor_div' op expected broadcast-compatible operands, got lhs 'tensor<4xi32>' and rhs 'tensor<3xi32>'}}
  %0 = google.floor_div %a, %b : tensor<4xi32>, tensor<3xi32> -> tensor<4xi32>
  return
}

// -----

func.func @rsqrt_int(%a: tensor<4xi32>) {
  // expected-error@+1 {{'google.rsqrt' op operand #0 must be ranked tensor of floating-point type}}
  %0 = google.rsqrt %a : tensor<4xi32>
  return
}

// -----

func.func @relu_type_mismatch(%a: tensor<4xf32>) {
  // expected-error@+1 {{'google.relu' op requires the same type for all operands and results}}
  %0 = "google.relu"(%a) : (tensor<4xf32>) -> tensor<5xf32>
  return
}

// -----

func.func @matmul_rank1(%a: tensor<4xf32>, %b: tensor<4x8xf32>) {
  // expected-error@+1 {{'google.matmul' op expected lhs of rank 2 (MxK) or 3 (BxMxK), got 'tensor<4xf32>'}}
  %0 = google.matmul %a, %b : tensor<4xf32>, tensor<4x8xf32> -> tensor<8xf32>
  return
}

// -----

func.func @matmul_rank_mismatch(%a: tensor<4x8xf32>, %b: tensor<2x8x3xf32>) {
  // expected-error@+1 {{'google.matmul' op expected rhs of rank 2 like lhs, got 'tensor<2x8x3xf32>'}}
  %0 = google.matmul %a, %b : tensor<4x8xf32>, tensor<2x8x3xf32> -> tensor<4x3xf32>
  return
}

// -----

func.func @matmul_k_mismatch(%a: tensor<128x512xf32>, %b: tensor<256x256xf32>) {
  // expected-error@+1 {{'google.matmul' op expected rhs dimension 0 to equal the lhs contracting dimension K = 512, got 'tensor<256x256xf32>'}}
  %0 = google.matmul %a, %b : tensor<128x512xf32>, tensor<256x256xf32> -> tensor<128x256xf32>
  return
}

// -----

func.func @matmul_batch_mismatch(%a: tensor<2x4x8xf32>, %b: tensor<3x8x5xf32>) {
  // expected-error@+1 {{'google.matmul' op expected equal batch dimensions, got lhs 'tensor<2x4x8xf32>' and rhs 'tensor<3x8x5xf32>'}}
  %0 = google.matmul %a, %b : tensor<2x4x8xf32>, tensor<3x8x5xf32> -> tensor<2x4x5xf32>
  return
}

// -----

func.func @matmul_wrong_result(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>) {
  // expected-error@+1 {{'google.matmul' op expected result type tensor<4x16xf32>, got 'tensor<4x8xf32>'}}
  %0 = google.matmul %a, %b : tensor<4x8xf32>, tensor<8x16xf32> -> tensor<4x8xf32>
  return
}

// -----

func.func @matmul_element_types(%a: tensor<4x8xf32>, %b: tensor<8x16xf64>) {
  // expected-error@+1 {{'google.matmul' op failed to verify that all of {lhs, rhs, result} have same element type}}
  %0 = google.matmul %a, %b : tensor<4x8xf32>, tensor<8x16xf64> -> tensor<4x16xf32>
  return
}

// -----

func.func @fused_batched(%a: tensor<2x4x8xf32>, %b: tensor<2x8x16xf32>, %bias: tensor<16xf32>) {
  // expected-error@+1 {{'google.matmul_bias_relu' op expected lhs of rank 2 (MxK), got 'tensor<2x4x8xf32>'}}
  %0 = google.matmul_bias_relu %a, %b, %bias : tensor<2x4x8xf32>, tensor<2x8x16xf32>, tensor<16xf32> -> tensor<2x4x16xf32>
  return
}

// -----

func.func @fused_bias_length(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %bias: tensor<8xf32>) {
  // expected-error@+1 {{'google.matmul_bias_relu' op expected bias of shape [N] = [16], got 'tensor<8xf32>'}}
  %0 = google.matmul_bias_relu %a, %b, %bias : tensor<4x8xf32>, tensor<8x16xf32>, tensor<8xf32> -> tensor<4x16xf32>
  return
}

// -----

func.func @fused_bias_rank(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %bias: tensor<4x16xf32>) {
  // expected-error@+1 {{'google.matmul_bias_relu' op expected bias of shape [N] = [16], got 'tensor<4x16xf32>'}}
  %0 = google.matmul_bias_relu %a, %b, %bias : tensor<4x8xf32>, tensor<8x16xf32>, tensor<4x16xf32> -> tensor<4x16xf32>
  return
}

// -----

func.func @fused_k_mismatch(%a: tensor<4x8xf32>, %b: tensor<7x16xf32>, %bias: tensor<16xf32>) {
  // expected-error@+1 {{'google.matmul_bias_relu' op expected rhs dimension 0 to equal the lhs contracting dimension K = 8}}
  %0 = google.matmul_bias_relu %a, %b, %bias : tensor<4x8xf32>, tensor<7x16xf32>, tensor<16xf32> -> tensor<4x16xf32>
  return
}

// -----

func.func @fused_wrong_result(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %bias: tensor<16xf32>) {
  // expected-error@+1 {{'google.matmul_bias_relu' op expected result type tensor<4x16xf32>, got 'tensor<16x4xf32>'}}
  %0 = google.matmul_bias_relu %a, %b, %bias : tensor<4x8xf32>, tensor<8x16xf32>, tensor<16xf32> -> tensor<16x4xf32>
  return
}

// -----

func.func @transpose_not_permutation(%x: tensor<4x8xf32>) {
  // expected-error@+1 {{'google.transpose' op expected perm to be a permutation of [0, 2), got [0, 0]}}
  %0 = google.transpose %x {perm = array<i64: 0, 0>} : tensor<4x8xf32> -> tensor<4x4xf32>
  return
}

// -----

func.func @transpose_perm_length(%x: tensor<4x8xf32>) {
  // expected-error@+1 {{'google.transpose' op expected perm to be a permutation of [0, 2), got [2, 1, 0]}}
  %0 = google.transpose %x {perm = array<i64: 2, 1, 0>} : tensor<4x8xf32> -> tensor<8x4xf32>
  return
}

// -----

func.func @transpose_perm_out_of_range(%x: tensor<4x8xf32>) {
  // expected-error@+1 {{'google.transpose' op expected perm to be a permutation of [0, 2), got [1, 2]}}
  %0 = google.transpose %x {perm = array<i64: 1, 2>} : tensor<4x8xf32> -> tensor<8x4xf32>
  return
}

// -----

func.func @transpose_wrong_result(%x: tensor<4x8xf32>) {
  // expected-error@+1 {{'google.transpose' op expected result type tensor<8x4xf32>, got 'tensor<4x8xf32>'}}
  %0 = google.transpose %x {perm = array<i64: 1, 0>} : tensor<4x8xf32> -> tensor<4x8xf32>
  return
}

// -----

func.func @transpose_missing_perm(%x: tensor<4x8xf32>) {
  // expected-error@+1 {{'google.transpose' op requires attribute 'perm'}}
  %0 = google.transpose %x : tensor<4x8xf32> -> tensor<8x4xf32>
  return
}

// -----

func.func @reshape_count(%x: tensor<4x8xf32>) {
  // expected-error@+1 {{'google.reshape' op expected result with 32 elements like the input 'tensor<4x8xf32>', got 'tensor<30xf32>' with 30}}
  %0 = google.reshape %x : tensor<4x8xf32> -> tensor<30xf32>
  return
}

// -----

func.func @reshape_two_dynamic(%x: tensor<?x8xf32>) {
  // expected-error@+1 {{'google.reshape' op expected at most one dynamic dimension in the result, got 'tensor<?x?xf32>'}}
  %0 = google.reshape %x : tensor<?x8xf32> -> tensor<?x?xf32>
  return
}

// -----

func.func @reshape_not_divisible(%x: tensor<4x8xf32>) {
  // expected-error@+1 {{'google.reshape' op expected the static result dimensions to divide the 32 elements of the input 'tensor<4x8xf32>', got 'tensor<?x5xf32>'}}
  %0 = google.reshape %x : tensor<4x8xf32> -> tensor<?x5xf32>
  return
}

// -----

func.func @reshape_zero_dynamic(%x: tensor<?x8xf32>) {
  // expected-error@+1 {{'google.reshape' op cannot infer the dynamic result dimension next to a zero-sized one in 'tensor<?x0xf32>'}}
  %0 = google.reshape %x : tensor<?x8xf32> -> tensor<?x0xf32>
  return
}

// -----

func.func @reshape_element_type(%x: tensor<4xf32>) {
  // expected-error@+1 {{'google.reshape' op failed to verify that all of {input, result} have same element type}}
  %0 = google.reshape %x : tensor<4xf32> -> tensor<2x2xf16>
  return
}

// -----

func.func @reduce_empty_axes(%x: tensor<4x8xf32>) {
  // expected-error@+1 {{'google.reduce_sum' op invalid axes for input 'tensor<4x8xf32>': expected at least one axis}}
  %0 = google.reduce_sum %x {axes = array<i64>, keep_dims = false} : tensor<4x8xf32> -> tensor<4x8xf32>
  return
}

// -----

func.func @reduce_axis_out_of_range(%x: tensor<4x8xf32>) {
  // expected-error@+1 {{'google.reduce_max' op invalid axes for input 'tensor<4x8xf32>': axis 2 is out of range [-2, 2)}}
  %0 = google.reduce_max %x {axes = array<i64: 2>, keep_dims = false} : tensor<4x8xf32> -> tensor<4xf32>
  return
}

// -----

func.func @reduce_negative_axis_out_of_range(%x: tensor<4x8xf32>) {
  // expected-error@+1 {{'google.reduce_sum' op invalid axes for input 'tensor<4x8xf32>': axis -3 is out of range [-2, 2)}}
  %0 = google.reduce_sum %x {axes = array<i64: -3>, keep_dims = false} : tensor<4x8xf32> -> tensor<4xf32>
  return
}

// -----

func.func @reduce_repeated_axis(%x: tensor<4x8xf32>) {
  // expected-error@+1 {{'google.reduce_mean' op invalid axes for input 'tensor<4x8xf32>': axis 1 is repeated; expected unique axes}}
  %0 = google.reduce_mean %x {axes = array<i64: 1, -1>, keep_dims = false} : tensor<4x8xf32> -> tensor<4xf32>
  return
}

// -----

func.func @reduce_wrong_result(%x: tensor<4x8xf32>) {
  // expected-error@+1 {{'google.reduce_sum' op expected result type tensor<4x1xf32>, got 'tensor<4xf32>'}}
  %0 = google.reduce_sum %x {axes = array<i64: 1>, keep_dims = true} : tensor<4x8xf32> -> tensor<4xf32>
  return
}

// -----

func.func @reduce_missing_keep_dims(%x: tensor<4x8xf32>) {
  // expected-error@+1 {{'google.reduce_sum' op requires attribute 'keep_dims'}}
  %0 = google.reduce_sum %x {axes = array<i64: 1>} : tensor<4x8xf32> -> tensor<4xf32>
  return
}

// -----

func.func @reduce_mean_int(%x: tensor<4x8xi32>) {
  // expected-error@+1 {{'google.reduce_mean' op operand #0 must be ranked tensor of floating-point type}}
  %0 = google.reduce_mean %x {axes = array<i64: 1>, keep_dims = false} : tensor<4x8xi32> -> tensor<4xi32>
  return
}

// -----

func.func @softmax_axis(%x: tensor<4x8xf32>) {
  // expected-error@+1 {{'google.softmax' op expected axis in [-2, 2) for input 'tensor<4x8xf32>', got 2}}
  %0 = google.softmax %x {axis = 2 : i64} : tensor<4x8xf32>
  return
}

// -----

// A negative axis prints as given (it printed 18446744073709551614).
func.func @softmax_negative_axis(%x: tensor<4xf32>) {
  // expected-error@+1 {{'google.softmax' op expected axis in [-1, 1) for input 'tensor<4xf32>', got -2}}
  %0 = google.softmax %x {axis = -2 : i64} : tensor<4xf32>
  return
}

// -----

func.func @softmax_int(%x: tensor<4x8xi32>) {
  // expected-error@+1 {{'google.softmax' op operand #0 must be ranked tensor of floating-point type}}
  %0 = google.softmax %x {axis = 1 : i64} : tensor<4x8xi32>
  return
}

// -----

func.func @cast_shape(%x: tensor<4x8xf32>) {
  // expected-error@+1 {{'google.cast' op expected result type tensor<4x8xf16>, got 'tensor<8x4xf16>'}}
  %0 = google.cast %x : tensor<4x8xf32> -> tensor<8x4xf16>
  return
}

// -----

func.func @constant_type_mismatch() {
  // expected-error@+1 {{'google.constant' op failed to verify that all of {value, result} have same type}}
  %0 = "google.constant"() {value = dense<1.0> : tensor<4xf32>} : () -> tensor<5xf32>
  return
}

// -----

func.func @constant_unsupported_type() {
  // expected-error@+1 {{'google.constant' op result #0 must be ranked tensor of f16, bf16, f32, f64, i32, i64 or i1 values, but got 'tensor<4xi8>'}}
  %0 = google.constant dense<1> : tensor<4xi8>
  return
}

// -----

func.func @compare_result_not_bool(%a: tensor<4xf32>) {
  // expected-error@+1 {{'google.lt' op result #0 must be ranked tensor of i1 (bool) values}}
  %0 = google.lt %a, %a : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  return
}

// -----

func.func @compare_booleans(%a: tensor<4xi1>) {
  // expected-error@+1 {{'google.gt' op operand #0 must be ranked tensor of f16, bf16, f32, f64, i32 or i64 values}}
  %0 = google.gt %a, %a : tensor<4xi1>, tensor<4xi1> -> tensor<4xi1>
  return
}

// -----

func.func @select_condition_not_bool(%c: tensor<4xf32>, %a: tensor<4xf32>) {
  // expected-error@+1 {{'google.select' op operand #0 must be ranked tensor of i1 (bool) values}}
  %0 = google.select %c, %a, %a : tensor<4xf32>, tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  return
}

// -----

func.func @select_shapes(%c: tensor<3xi1>, %a: tensor<4xf32>) {
  // expected-error@+1 {{'google.select' op expected broadcast-compatible operands, got 'tensor<3xi1>', 'tensor<4xf32>' and 'tensor<4xf32>'}}
  %0 = google.select %c, %a, %a : tensor<3xi1>, tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  return
}

// -----

func.func @select_value_types(%c: tensor<4xi1>, %a: tensor<4xf32>, %b: tensor<4xf16>) {
  // expected-error@+1 {{'google.select' op failed to verify that all of {on_true, on_false, result} have same element type}}
  %0 = google.select %c, %a, %b : tensor<4xi1>, tensor<4xf32>, tensor<4xf16> -> tensor<4xf32>
  return
}

// -----

func.func @and_floats(%a: tensor<4xf32>) {
  // expected-error@+1 {{'google.and' op operand #0 must be ranked tensor of i1 (bool) values}}
  %0 = google.and %a, %a : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  return
}

// -----

func.func @bool_arithmetic(%a: tensor<4xi1>) {
  // expected-error@+1 {{'google.add' op operand #0 must be ranked tensor of f16, bf16, f32, f64, i32 or i64 values}}
  %0 = google.add %a, %a : tensor<4xi1>, tensor<4xi1> -> tensor<4xi1>
  return
}

// -----

func.func @reduce_min_axis(%a: tensor<4x8xf32>) {
  // expected-error@+1 {{'google.reduce_min' op invalid axes for input 'tensor<4x8xf32>': axis 2 is out of range [-2, 2)}}
  %0 = google.reduce_min %a {axes = array<i64: 2>, keep_dims = false} : tensor<4x8xf32> -> tensor<4xf32>
  return
}

// -----

func.func @slice_out_of_bounds(%x: tensor<4x8xf32>) {
  // expected-error@+1 {{'google.slice' op dimension 1 reads indices 2 to 8, outside [0, 8)}}
  %0 = google.slice %x {starts = array<i64: 0, 2>, limits = array<i64: 4, 9>, strides = array<i64: 1, 2>} : tensor<4x8xf32> -> tensor<4x4xf32>
  return
}

// -----

func.func @slice_zero_stride(%x: tensor<4x8xf32>) {
  // expected-error@+1 {{'google.slice' op stride of dimension 0 is 0}}
  %0 = google.slice %x {starts = array<i64: 0, 0>, limits = array<i64: 4, 8>, strides = array<i64: 0, 1>} : tensor<4x8xf32> -> tensor<4x8xf32>
  return
}

// -----

func.func @slice_rank(%x: tensor<4x8xf32>) {
  // expected-error@+1 {{'google.slice' op expected 2 starts, limits and strides (the input's rank), got 1, 2 and 2}}
  %0 = google.slice %x {starts = array<i64: 0>, limits = array<i64: 4, 8>, strides = array<i64: 1, 1>} : tensor<4x8xf32> -> tensor<4x8xf32>
  return
}

// -----

func.func @slice_dynamic(%x: tensor<?x8xf32>) {
  // expected-error@+1 {{'google.slice' op expected an input of static shape, got 'tensor<?x8xf32>'}}
  %0 = google.slice %x {starts = array<i64: 0, 0>, limits = array<i64: 1, 8>, strides = array<i64: 1, 1>} : tensor<?x8xf32> -> tensor<1x8xf32>
  return
}

// -----

func.func @slice_result(%x: tensor<4x8xf32>) {
  // expected-error@+1 {{'google.slice' op}}
  %0 = google.slice %x {starts = array<i64: 0, 0>, limits = array<i64: 2, 8>, strides = array<i64: 1, 1>} : tensor<4x8xf32> -> tensor<3x8xf32>
  return
}
