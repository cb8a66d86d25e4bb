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

// -----

func.func @concat_rank(%a: tensor<2x3xf32>, %b: tensor<6xf32>) {
  // expected-error@+1 {{'google.concat' op expected input 1 of rank 2 like input 0, got 'tensor<6xf32>'}}
  %0 = google.concat %a, %b {axis = 0 : i64} : tensor<2x3xf32>, tensor<6xf32> -> tensor<4x3xf32>
  return
}

// -----

func.func @concat_mismatch(%a: tensor<2x3xf32>, %b: tensor<2x4xf32>) {
  // expected-error@+1 {{'google.concat' op expected input 1 to match the other inputs in dimension 1 (all but axis 0), got 'tensor<2x4xf32>'}}
  %0 = google.concat %a, %b {axis = 0 : i64} : tensor<2x3xf32>, tensor<2x4xf32> -> tensor<4x3xf32>
  return
}

// -----

func.func @concat_axis(%a: tensor<2x3xf32>) {
  // expected-error@+1 {{'google.concat' op expected axis in [-2, 2) for inputs of rank 2, got 2}}
  %0 = google.concat %a {axis = 2 : i64} : tensor<2x3xf32> -> tensor<2x3xf32>
  return
}

// -----

func.func @concat_element_type(%a: tensor<2x3xf32>, %b: tensor<2x3xf64>) {
  // expected-error@+1 {{'google.concat' op expected input 1 of element type 'f32' like the result, got 'tensor<2x3xf64>'}}
  %0 = google.concat %a, %b {axis = 0 : i64} : tensor<2x3xf32>, tensor<2x3xf64> -> tensor<4x3xf32>
  return
}

// -----

func.func @concat_result(%a: tensor<2x3xf32>, %b: tensor<?x3xf32>) {
  // expected-error@+1 {{'google.concat' op expected result type tensor<?x3xf32>, got 'tensor<4x4xf32>'}}
  %0 = google.concat %a, %b {axis = 0 : i64} : tensor<2x3xf32>, tensor<?x3xf32> -> tensor<4x4xf32>
  return
}

// -----

func.func @pad_negative(%x: tensor<4xf32>, %v: tensor<f32>) {
  // expected-error@+1 {{'google.pad' op expected non-negative paddings, got -1 and 0 in dimension 0}}
  %0 = google.pad %x, %v {low = array<i64: -1>, high = array<i64: 0>} : tensor<4xf32>, tensor<f32> -> tensor<3xf32>
  return
}

// -----

func.func @pad_value(%x: tensor<4xf32>, %v: tensor<1xf32>) {
  // expected-error@+1 {{'google.pad' op expected a rank-0 padding value, got 'tensor<1xf32>'}}
  %0 = google.pad %x, %v {low = array<i64: 1>, high = array<i64: 0>} : tensor<4xf32>, tensor<1xf32> -> tensor<5xf32>
  return
}

// -----

func.func @pad_result(%x: tensor<4xf32>, %v: tensor<f32>) {
  // expected-error@+1 {{'google.pad' op expected result type tensor<7xf32>, got 'tensor<6xf32>'}}
  %0 = google.pad %x, %v {low = array<i64: 1>, high = array<i64: 2>} : tensor<4xf32>, tensor<f32> -> tensor<6xf32>
  return
}

// -----

func.func @iota_dimension() {
  // expected-error@+1 {{'google.iota' op expected dimension in [0, 2) for result 'tensor<3x4xi64>', got 2}}
  %0 = google.iota {dimension = 2 : i64} : tensor<3x4xi64>
  return
}

// -----

func.func @iota_dynamic() {
  // expected-error@+1 {{'google.iota' op expected a result of static shape (or a 'like' operand), got 'tensor<?xi64>'}}
  %0 = google.iota {dimension = 0 : i64} : tensor<?xi64>
  return
}

// -----

func.func @iota_like(%x: tensor<?x3xf32>) {
  // expected-error@+1 {{'google.iota' op expected a result of the shape of 'like' ('tensor<?x3xf32>'), got 'tensor<2x3xi64>'}}
  %0 = google.iota like(%x : tensor<?x3xf32>) {dimension = 0 : i64} : tensor<2x3xi64>
  return
}

// -----

func.func @gather_index_type(%t: tensor<4x3xf32>, %i: tensor<2xf32>) {
  // expected-error@+1 {{'google.gather' op operand #1 must be ranked tensor of 32-bit signless integer or 64-bit signless integer values}}
  %0 = google.gather %t, %i {axis = 0 : i64} : tensor<4x3xf32>, tensor<2xf32> -> tensor<2x3xf32>
  return
}

// -----

func.func @gather_result(%t: tensor<4x3xf32>, %i: tensor<5xi64>) {
  // expected-error@+1 {{'google.gather' op expected result type tensor<4x5xf32>, got 'tensor<5x3xf32>'}}
  %0 = google.gather %t, %i {axis = 1 : i64} : tensor<4x3xf32>, tensor<5xi64> -> tensor<5x3xf32>
  return
}

// -----

func.func @gather_empty_axis(%t: tensor<0x3xf32>, %i: tensor<2xi64>) {
  // expected-error@+1 {{'google.gather' op cannot gather from axis 0 of extent 0 of input 'tensor<0x3xf32>'}}
  %0 = google.gather %t, %i {axis = 0 : i64} : tensor<0x3xf32>, tensor<2xi64> -> tensor<2x3xf32>
  return
}

// -----

func.func @scatter_add_updates(%b: tensor<4x3xf32>, %i: tensor<5xi64>, %u: tensor<5x2xf32>) {
  // expected-error@+1 {{'google.scatter_add' op expected updates of type tensor<5x3xf32> (base.shape[:axis] + indices.shape + base.shape[axis+1:]), got 'tensor<5x2xf32>'}}
  %0 = google.scatter_add %b, %i, %u {axis = 0 : i64} : tensor<4x3xf32>, tensor<5xi64>, tensor<5x2xf32> -> tensor<4x3xf32>
  return
}

// -----

func.func @scatter_add_axis(%b: tensor<4x3xf32>, %i: tensor<5xi64>, %u: tensor<5x3xf32>) {
  // expected-error@+1 {{'google.scatter_add' op expected axis in [-2, 2) for base 'tensor<4x3xf32>', got 2}}
  %0 = google.scatter_add %b, %i, %u {axis = 2 : i64} : tensor<4x3xf32>, tensor<5xi64>, tensor<5x3xf32> -> tensor<4x3xf32>
  return
}

// -----

func.func @scatter_add_result(%b: tensor<4x3xf32>, %i: tensor<5xi64>, %u: tensor<5x3xf32>) {
  // expected-error@+1 {{'google.scatter_add' op failed to verify that all of {base, result} have same type}}
  %0 = google.scatter_add %b, %i, %u {axis = 0 : i64} : tensor<4x3xf32>, tensor<5xi64>, tensor<5x3xf32> -> tensor<?x3xf32>
  return
}

// -----

func.func @scatter_add_empty_axis(%b: tensor<0x3xf32>, %i: tensor<2xi64>, %u: tensor<2x3xf32>) {
  // expected-error@+1 {{'google.scatter_add' op cannot scatter into axis 0 of extent 0 of base 'tensor<0x3xf32>'}}
  %0 = google.scatter_add %b, %i, %u {axis = 0 : i64} : tensor<0x3xf32>, tensor<2xi64>, tensor<2x3xf32> -> tensor<0x3xf32>
  return
}

// -----

func.func @scatter_add_bool(%b: tensor<4xi1>, %i: tensor<2xi64>, %u: tensor<2xi1>) {
  // expected-error@+1 {{'google.scatter_add' op operand #0 must be ranked tensor of f16, bf16, f32, f64, i32 or i64 values}}
  %0 = google.scatter_add %b, %i, %u {axis = 0 : i64} : tensor<4xi1>, tensor<2xi64>, tensor<2xi1> -> tensor<4xi1>
  return
}

// -----

func.func @argmax_empty(%x: tensor<4x0xf32>) {
  // expected-error@+1 {{'google.argmax' op expected a non-empty axis 1 (NumPy has no arg-extreme of an empty sequence), got 'tensor<4x0xf32>'}}
  %0 = google.argmax %x {axis = 1 : i64, keep_dims = false} : tensor<4x0xf32> -> tensor<4xi64>
  return
}

// -----

func.func @argmin_result(%x: tensor<4x5xf32>) {
  // expected-error@+1 {{'google.argmin' op expected result type tensor<4x1xi64>, got 'tensor<4xi64>'}}
  %0 = google.argmin %x {axis = -1 : i64, keep_dims = true} : tensor<4x5xf32> -> tensor<4xi64>
  return
}

// -----

func.func @argmax_result_type(%x: tensor<4x5xf32>) {
  // expected-error@+1 {{'google.argmax' op result #0 must be ranked tensor of 64-bit signless integer values}}
  %0 = google.argmax %x {axis = 0 : i64, keep_dims = false} : tensor<4x5xf32> -> tensor<5xi32>
  return
}

// -----

func.func @conv_rank(%x: tensor<9x9x3xf32>, %w: tensor<3x3x3x4xf32>) {
  // expected-error@+1 {{'google.conv2d' op expected an NHWC input of rank 4, got 'tensor<9x9x3xf32>'}}
  %0 = google.conv2d %x, %w {strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, padding = array<i64: 0, 0, 0, 0>, groups = 1 : i64} : tensor<9x9x3xf32>, tensor<3x3x3x4xf32> -> tensor<7x7x4xf32>
  return
}

// -----

func.func @conv_dynamic_width(%x: tensor<1x9x?x3xf32>, %w: tensor<3x3x3x4xf32>) {
  // expected-error@+1 {{'google.conv2d' op expected an input with static H, W and C, got 'tensor<1x9x?x3xf32>'}}
  %0 = google.conv2d %x, %w {strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, padding = array<i64: 0, 0, 0, 0>, groups = 1 : i64} : tensor<1x9x?x3xf32>, tensor<3x3x3x4xf32> -> tensor<1x7x?x4xf32>
  return
}

// -----

func.func @conv_channels(%x: tensor<1x9x9x3xf32>, %w: tensor<3x3x2x4xf32>) {
  // expected-error@+1 {{'google.conv2d' op expected a filter of C/groups = 3 input channels (dimension 2), got 'tensor<3x3x2x4xf32>'}}
  %0 = google.conv2d %x, %w {strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, padding = array<i64: 0, 0, 0, 0>, groups = 1 : i64} : tensor<1x9x9x3xf32>, tensor<3x3x2x4xf32> -> tensor<1x7x7x4xf32>
  return
}

// -----

func.func @conv_groups(%x: tensor<1x9x9x4xf32>, %w: tensor<3x3x2x3xf32>) {
  // expected-error@+1 {{'google.conv2d' op expected the input's C = 4 and the filter's output channels (3) to be multiples of groups = 2}}
  %0 = google.conv2d %x, %w {strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, padding = array<i64: 0, 0, 0, 0>, groups = 2 : i64} : tensor<1x9x9x4xf32>, tensor<3x3x2x3xf32> -> tensor<1x7x7x3xf32>
  return
}

// -----

func.func @conv_strides(%x: tensor<1x9x9x3xf32>, %w: tensor<3x3x3x4xf32>) {
  // expected-error@+1 {{'google.conv2d' op expected 2 positive strides (height, width), got [1, 0]}}
  %0 = google.conv2d %x, %w {strides = array<i64: 1, 0>, dilations = array<i64: 1, 1>, padding = array<i64: 0, 0, 0, 0>, groups = 1 : i64} : tensor<1x9x9x3xf32>, tensor<3x3x3x4xf32> -> tensor<1x7x7x4xf32>
  return
}

// -----

func.func @conv_window(%x: tensor<1x2x9x3xf32>, %w: tensor<3x3x3x4xf32>) {
  // expected-error@+1 {{'google.conv2d' op expected the window (5x3 with dilation) to fit the padded input (2x9), got input 'tensor<1x2x9x3xf32>'}}
  %0 = google.conv2d %x, %w {strides = array<i64: 1, 1>, dilations = array<i64: 2, 1>, padding = array<i64: 0, 0, 0, 0>, groups = 1 : i64} : tensor<1x2x9x3xf32>, tensor<3x3x3x4xf32> -> tensor<1x1x7x4xf32>
  return
}

// -----

func.func @conv_result(%x: tensor<?x9x9x3xf32>, %w: tensor<3x3x3x4xf32>) {
  // expected-error@+1 {{'google.conv2d' op expected result type tensor<?x5x5x4xf32>, got 'tensor<?x7x7x4xf32>'}}
  %0 = google.conv2d %x, %w {strides = array<i64: 2, 2>, dilations = array<i64: 1, 1>, padding = array<i64: 1, 1, 1, 1>, groups = 1 : i64} : tensor<?x9x9x3xf32>, tensor<3x3x3x4xf32> -> tensor<?x7x7x4xf32>
  return
}

// -----

func.func @pool_padding(%x: tensor<1x8x8x3xf32>) {
  // expected-error@+1 {{'google.max_pool2d' op expected each padding smaller than the window (a window of padding only has no value), got padding [2, 0, 0, 0] for a 2x2 window}}
  %0 = google.max_pool2d %x {window = array<i64: 2, 2>, strides = array<i64: 2, 2>, padding = array<i64: 2, 0, 0, 0>} : tensor<1x8x8x3xf32> -> tensor<1x5x4x3xf32>
  return
}

// -----

func.func @pool_paddings(%x: tensor<1x8x8x3xf32>) {
  // expected-error@+1 {{'google.avg_pool2d' op expected 4 non-negative paddings (top, bottom, left, right), got [0, 0]}}
  %0 = google.avg_pool2d %x {window = array<i64: 2, 2>, strides = array<i64: 2, 2>, padding = array<i64: 0, 0>} : tensor<1x8x8x3xf32> -> tensor<1x4x4x3xf32>
  return
}

// -----

func.func @pool_int_average(%x: tensor<1x8x8x3xi32>) {
  // expected-error@+1 {{'google.avg_pool2d' op operand #0 must be ranked tensor of floating-point type}}
  %0 = google.avg_pool2d %x {window = array<i64: 2, 2>, strides = array<i64: 2, 2>, padding = array<i64: 0, 0, 0, 0>} : tensor<1x8x8x3xi32> -> tensor<1x4x4x3xi32>
  return
}

// -----

func.func @pool_result(%x: tensor<1x8x8x3xf32>) {
  // expected-error@+1 {{'google.max_pool2d' op expected result type tensor<1x4x4x3xf32>, got 'tensor<1x4x4x2xf32>'}}
  %0 = google.max_pool2d %x {window = array<i64: 2, 2>, strides = array<i64: 2, 2>, padding = array<i64: 0, 0, 0, 0>} : tensor<1x8x8x3xf32> -> tensor<1x4x4x2xf32>
  return
}

// -----

func.func @if_condition(%p: tensor<2xi1>, %x: tensor<f32>) -> tensor<f32> {
  // expected-error@+1 {{'google.if' op operand #0 must be 0D tensor of 1-bit signless integer values}}
  %r = google.if %p : tensor<2xi1> -> (tensor<f32>) {
    google.yield %x : tensor<f32>
  } else {
    google.yield %x : tensor<f32>
  }
  return %r : tensor<f32>
}

// -----

func.func @if_yield_types(%p: tensor<i1>, %x: tensor<f32>, %y: tensor<2xf32>) -> tensor<f32> {
  // expected-error@+1 {{'google.if' op expected the else region to yield ('tensor<f32>'), got ('tensor<2xf32>')}}
  %r = google.if %p : tensor<i1> -> (tensor<f32>) {
    google.yield %x : tensor<f32>
  } else {
    google.yield %y : tensor<2xf32>
  }
  return %r : tensor<f32>
}

// -----

func.func @while_state(%x: tensor<f32>) -> tensor<f64> {
  // expected-error@+1 {{'google.while' op expected results of the state's types ('tensor<f32>'), got ('tensor<f64>')}}
  %r = google.while %x : (tensor<f32>) -> (tensor<f64>) cond {
  ^bb0(%a: tensor<f32>):
    %c = google.gt %a, %a : tensor<f32>, tensor<f32> -> tensor<i1>
    google.condition %c : tensor<i1>
  } do {
  ^bb0(%a: tensor<f32>):
    google.yield %a : tensor<f32>
  }
  return %r : tensor<f64>
}

// -----

func.func @while_block(%x: tensor<f32>) -> tensor<f32> {
  // expected-error@+1 {{'google.while' op expected the body block to take the state ('tensor<f32>'), got ('tensor<f64>')}}
  %r = google.while %x : (tensor<f32>) -> (tensor<f32>) cond {
  ^bb0(%a: tensor<f32>):
    %c = google.gt %a, %a : tensor<f32>, tensor<f32> -> tensor<i1>
    google.condition %c : tensor<i1>
  } do {
  ^bb0(%a: tensor<f64>):
    %b = google.cast %a : tensor<f64> -> tensor<f32>
    google.yield %b : tensor<f32>
  }
  return %r : tensor<f32>
}

// -----

func.func @while_cond_terminator(%x: tensor<f32>) -> tensor<f32> {
  // expected-error@+1 {{'google.while' op expected the cond region to end with google.condition}}
  %r = google.while %x : (tensor<f32>) -> (tensor<f32>) cond {
  ^bb0(%a: tensor<f32>):
    google.yield %a : tensor<f32>
  } do {
  ^bb0(%a: tensor<f32>):
    google.yield %a : tensor<f32>
  }
  return %r : tensor<f32>
}
