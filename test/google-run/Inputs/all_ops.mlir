// Every op for every element type it takes, with several results: the
// functions --check compares with the reference interpreter.
func.func @ops_f32(%x: tensor<2x3xf32>, %y: tensor<2x3xf32>, %w: tensor<3x4xf32>, %b: tensor<4xf32>, %v: tensor<3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x2x2xf32>, tensor<3x2xf32>, tensor<3x2xf32>, tensor<2xf32>, tensor<1x3xf32>, tensor<f32>, tensor<2x3xf32>, tensor<2x3xf16>, tensor<2x3xbf16>, tensor<2x3xi32>, tensor<2x3xi64>) {
  %p = google.abs %y : tensor<2x3xf32>
  %one = google.constant dense<1.0> : tensor<f32>
  %pos = google.add %p, %one : tensor<2x3xf32>, tensor<f32> -> tensor<2x3xf32>
  %0 = google.add %x, %v : tensor<2x3xf32>, tensor<3xf32> -> tensor<2x3xf32>
  %1 = google.sub %x, %y : tensor<2x3xf32>, tensor<2x3xf32> -> tensor<2x3xf32>
  %2 = google.mul %x, %y : tensor<2x3xf32>, tensor<2x3xf32> -> tensor<2x3xf32>
  %3 = google.div %x, %pos : tensor<2x3xf32>, tensor<2x3xf32> -> tensor<2x3xf32>
  %4 = google.max %x, %y : tensor<2x3xf32>, tensor<2x3xf32> -> tensor<2x3xf32>
  %5 = google.min %x, %y : tensor<2x3xf32>, tensor<2x3xf32> -> tensor<2x3xf32>
  %6 = google.relu %x : tensor<2x3xf32>
  %7 = google.neg %x : tensor<2x3xf32>
  %8 = google.abs %x : tensor<2x3xf32>
  %9 = google.exp %x : tensor<2x3xf32>
  %10 = google.log %pos : tensor<2x3xf32>
  %11 = google.tanh %x : tensor<2x3xf32>
  %12 = google.sigmoid %x : tensor<2x3xf32>
  %13 = google.sqrt %pos : tensor<2x3xf32>
  %14 = google.matmul %x, %w : tensor<2x3xf32>, tensor<3x4xf32> -> tensor<2x4xf32>
  %15 = google.matmul_bias_relu %x, %w, %b : tensor<2x3xf32>, tensor<3x4xf32>, tensor<4xf32> -> tensor<2x4xf32>
  %xb = google.reshape %x : tensor<2x3xf32> -> tensor<2x3x1xf32>
  %x3 = google.reshape %xb : tensor<2x3x1xf32> -> tensor<1x2x3xf32>
  %w3 = google.reshape %w : tensor<3x4xf32> -> tensor<1x3x4xf32>
  %bm = google.matmul %x3, %w3 : tensor<1x2x3xf32>, tensor<1x3x4xf32> -> tensor<1x2x4xf32>
  %16 = google.reshape %bm : tensor<1x2x4xf32> -> tensor<2x2x2xf32>
  %17 = google.transpose %x {perm = array<i64: 1, 0>} : tensor<2x3xf32> -> tensor<3x2xf32>
  %18 = google.reshape %x : tensor<2x3xf32> -> tensor<3x2xf32>
  %19 = google.reduce_sum %x {axes = array<i64: 1>, keep_dims = false} : tensor<2x3xf32> -> tensor<2xf32>
  %20 = google.reduce_max %x {axes = array<i64: 0>, keep_dims = true} : tensor<2x3xf32> -> tensor<1x3xf32>
  %21 = google.reduce_mean %x {axes = array<i64: 0, 1>, keep_dims = false} : tensor<2x3xf32> -> tensor<f32>
  %22 = google.softmax %x {axis = -1 : i64} : tensor<2x3xf32>
  %23 = google.cast %x : tensor<2x3xf32> -> tensor<2x3xf16>
  %24 = google.cast %x : tensor<2x3xf32> -> tensor<2x3xbf16>
  %25 = google.cast %x : tensor<2x3xf32> -> tensor<2x3xi32>
  %26 = google.cast %x : tensor<2x3xf32> -> tensor<2x3xi64>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26 : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x2x2xf32>, tensor<3x2xf32>, tensor<3x2xf32>, tensor<2xf32>, tensor<1x3xf32>, tensor<f32>, tensor<2x3xf32>, tensor<2x3xf16>, tensor<2x3xbf16>, tensor<2x3xi32>, tensor<2x3xi64>
}

func.func @ops_f16(%x: tensor<2x3xf16>, %y: tensor<2x3xf16>, %w: tensor<3x4xf16>, %b: tensor<4xf16>, %v: tensor<3xf16>) -> (tensor<2x3xf16>, tensor<2x3xf16>, tensor<2x3xf16>, tensor<2x3xf16>, tensor<2x3xf16>, tensor<2x3xf16>, tensor<2x3xf16>, tensor<2x3xf16>, tensor<2x3xf16>, tensor<2x3xf16>, tensor<2x3xf16>, tensor<2x3xf16>, tensor<2x3xf16>, tensor<2x3xf16>, tensor<2x4xf16>, tensor<2x4xf16>, tensor<2x2x2xf16>, tensor<3x2xf16>, tensor<3x2xf16>, tensor<2xf16>, tensor<1x3xf16>, tensor<f16>, tensor<2x3xf16>, tensor<2x3xf32>, tensor<2x3xbf16>, tensor<2x3xi32>, tensor<2x3xi64>) {
  %p = google.abs %y : tensor<2x3xf16>
  %one = google.constant dense<1.0> : tensor<f16>
  %pos = google.add %p, %one : tensor<2x3xf16>, tensor<f16> -> tensor<2x3xf16>
  %0 = google.add %x, %v : tensor<2x3xf16>, tensor<3xf16> -> tensor<2x3xf16>
  %1 = google.sub %x, %y : tensor<2x3xf16>, tensor<2x3xf16> -> tensor<2x3xf16>
  %2 = google.mul %x, %y : tensor<2x3xf16>, tensor<2x3xf16> -> tensor<2x3xf16>
  %3 = google.div %x, %pos : tensor<2x3xf16>, tensor<2x3xf16> -> tensor<2x3xf16>
  %4 = google.max %x, %y : tensor<2x3xf16>, tensor<2x3xf16> -> tensor<2x3xf16>
  %5 = google.min %x, %y : tensor<2x3xf16>, tensor<2x3xf16> -> tensor<2x3xf16>
  %6 = google.relu %x : tensor<2x3xf16>
  %7 = google.neg %x : tensor<2x3xf16>
  %8 = google.abs %x : tensor<2x3xf16>
  %9 = google.exp %x : tensor<2x3xf16>
  %10 = google.log %pos : tensor<2x3xf16>
  %11 = google.tanh %x : tensor<2x3xf16>
  %12 = google.sigmoid %x : tensor<2x3xf16>
  %13 = google.sqrt %pos : tensor<2x3xf16>
  %14 = google.matmul %x, %w : tensor<2x3xf16>, tensor<3x4xf16> -> tensor<2x4xf16>
  %15 = google.matmul_bias_relu %x, %w, %b : tensor<2x3xf16>, tensor<3x4xf16>, tensor<4xf16> -> tensor<2x4xf16>
  %xb = google.reshape %x : tensor<2x3xf16> -> tensor<2x3x1xf16>
  %x3 = google.reshape %xb : tensor<2x3x1xf16> -> tensor<1x2x3xf16>
  %w3 = google.reshape %w : tensor<3x4xf16> -> tensor<1x3x4xf16>
  %bm = google.matmul %x3, %w3 : tensor<1x2x3xf16>, tensor<1x3x4xf16> -> tensor<1x2x4xf16>
  %16 = google.reshape %bm : tensor<1x2x4xf16> -> tensor<2x2x2xf16>
  %17 = google.transpose %x {perm = array<i64: 1, 0>} : tensor<2x3xf16> -> tensor<3x2xf16>
  %18 = google.reshape %x : tensor<2x3xf16> -> tensor<3x2xf16>
  %19 = google.reduce_sum %x {axes = array<i64: 1>, keep_dims = false} : tensor<2x3xf16> -> tensor<2xf16>
  %20 = google.reduce_max %x {axes = array<i64: 0>, keep_dims = true} : tensor<2x3xf16> -> tensor<1x3xf16>
  %21 = google.reduce_mean %x {axes = array<i64: 0, 1>, keep_dims = false} : tensor<2x3xf16> -> tensor<f16>
  %22 = google.softmax %x {axis = -1 : i64} : tensor<2x3xf16>
  %23 = google.cast %x : tensor<2x3xf16> -> tensor<2x3xf32>
  %24 = google.cast %x : tensor<2x3xf16> -> tensor<2x3xbf16>
  %25 = google.cast %x : tensor<2x3xf16> -> tensor<2x3xi32>
  %26 = google.cast %x : tensor<2x3xf16> -> tensor<2x3xi64>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26 : tensor<2x3xf16>, tensor<2x3xf16>, tensor<2x3xf16>, tensor<2x3xf16>, tensor<2x3xf16>, tensor<2x3xf16>, tensor<2x3xf16>, tensor<2x3xf16>, tensor<2x3xf16>, tensor<2x3xf16>, tensor<2x3xf16>, tensor<2x3xf16>, tensor<2x3xf16>, tensor<2x3xf16>, tensor<2x4xf16>, tensor<2x4xf16>, tensor<2x2x2xf16>, tensor<3x2xf16>, tensor<3x2xf16>, tensor<2xf16>, tensor<1x3xf16>, tensor<f16>, tensor<2x3xf16>, tensor<2x3xf32>, tensor<2x3xbf16>, tensor<2x3xi32>, tensor<2x3xi64>
}

func.func @ops_bf16(%x: tensor<2x3xbf16>, %y: tensor<2x3xbf16>, %w: tensor<3x4xbf16>, %b: tensor<4xbf16>, %v: tensor<3xbf16>) -> (tensor<2x3xbf16>, tensor<2x3xbf16>, tensor<2x3xbf16>, tensor<2x3xbf16>, tensor<2x3xbf16>, tensor<2x3xbf16>, tensor<2x3xbf16>, tensor<2x3xbf16>, tensor<2x3xbf16>, tensor<2x3xbf16>, tensor<2x3xbf16>, tensor<2x3xbf16>, tensor<2x3xbf16>, tensor<2x3xbf16>, tensor<2x4xbf16>, tensor<2x4xbf16>, tensor<2x2x2xbf16>, tensor<3x2xbf16>, tensor<3x2xbf16>, tensor<2xbf16>, tensor<1x3xbf16>, tensor<bf16>, tensor<2x3xbf16>, tensor<2x3xf32>, tensor<2x3xf16>, tensor<2x3xi32>, tensor<2x3xi64>) {
  %p = google.abs %y : tensor<2x3xbf16>
  %one = google.constant dense<1.0> : tensor<bf16>
  %pos = google.add %p, %one : tensor<2x3xbf16>, tensor<bf16> -> tensor<2x3xbf16>
  %0 = google.add %x, %v : tensor<2x3xbf16>, tensor<3xbf16> -> tensor<2x3xbf16>
  %1 = google.sub %x, %y : tensor<2x3xbf16>, tensor<2x3xbf16> -> tensor<2x3xbf16>
  %2 = google.mul %x, %y : tensor<2x3xbf16>, tensor<2x3xbf16> -> tensor<2x3xbf16>
  %3 = google.div %x, %pos : tensor<2x3xbf16>, tensor<2x3xbf16> -> tensor<2x3xbf16>
  %4 = google.max %x, %y : tensor<2x3xbf16>, tensor<2x3xbf16> -> tensor<2x3xbf16>
  %5 = google.min %x, %y : tensor<2x3xbf16>, tensor<2x3xbf16> -> tensor<2x3xbf16>
  %6 = google.relu %x : tensor<2x3xbf16>
  %7 = google.neg %x : tensor<2x3xbf16>
  %8 = google.abs %x : tensor<2x3xbf16>
  %9 = google.exp %x : tensor<2x3xbf16>
  %10 = google.log %pos : tensor<2x3xbf16>
  %11 = google.tanh %x : tensor<2x3xbf16>
  %12 = google.sigmoid %x : tensor<2x3xbf16>
  %13 = google.sqrt %pos : tensor<2x3xbf16>
  %14 = google.matmul %x, %w : tensor<2x3xbf16>, tensor<3x4xbf16> -> tensor<2x4xbf16>
  %15 = google.matmul_bias_relu %x, %w, %b : tensor<2x3xbf16>, tensor<3x4xbf16>, tensor<4xbf16> -> tensor<2x4xbf16>
  %xb = google.reshape %x : tensor<2x3xbf16> -> tensor<2x3x1xbf16>
  %x3 = google.reshape %xb : tensor<2x3x1xbf16> -> tensor<1x2x3xbf16>
  %w3 = google.reshape %w : tensor<3x4xbf16> -> tensor<1x3x4xbf16>
  %bm = google.matmul %x3, %w3 : tensor<1x2x3xbf16>, tensor<1x3x4xbf16> -> tensor<1x2x4xbf16>
  %16 = google.reshape %bm : tensor<1x2x4xbf16> -> tensor<2x2x2xbf16>
  %17 = google.transpose %x {perm = array<i64: 1, 0>} : tensor<2x3xbf16> -> tensor<3x2xbf16>
  %18 = google.reshape %x : tensor<2x3xbf16> -> tensor<3x2xbf16>
  %19 = google.reduce_sum %x {axes = array<i64: 1>, keep_dims = false} : tensor<2x3xbf16> -> tensor<2xbf16>
  %20 = google.reduce_max %x {axes = array<i64: 0>, keep_dims = true} : tensor<2x3xbf16> -> tensor<1x3xbf16>
  %21 = google.reduce_mean %x {axes = array<i64: 0, 1>, keep_dims = false} : tensor<2x3xbf16> -> tensor<bf16>
  %22 = google.softmax %x {axis = -1 : i64} : tensor<2x3xbf16>
  %23 = google.cast %x : tensor<2x3xbf16> -> tensor<2x3xf32>
  %24 = google.cast %x : tensor<2x3xbf16> -> tensor<2x3xf16>
  %25 = google.cast %x : tensor<2x3xbf16> -> tensor<2x3xi32>
  %26 = google.cast %x : tensor<2x3xbf16> -> tensor<2x3xi64>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26 : tensor<2x3xbf16>, tensor<2x3xbf16>, tensor<2x3xbf16>, tensor<2x3xbf16>, tensor<2x3xbf16>, tensor<2x3xbf16>, tensor<2x3xbf16>, tensor<2x3xbf16>, tensor<2x3xbf16>, tensor<2x3xbf16>, tensor<2x3xbf16>, tensor<2x3xbf16>, tensor<2x3xbf16>, tensor<2x3xbf16>, tensor<2x4xbf16>, tensor<2x4xbf16>, tensor<2x2x2xbf16>, tensor<3x2xbf16>, tensor<3x2xbf16>, tensor<2xbf16>, tensor<1x3xbf16>, tensor<bf16>, tensor<2x3xbf16>, tensor<2x3xf32>, tensor<2x3xf16>, tensor<2x3xi32>, tensor<2x3xi64>
}

func.func @ops_f64(%x: tensor<2x3xf64>, %y: tensor<2x3xf64>, %w: tensor<3x4xf64>, %b: tensor<4xf64>, %v: tensor<3xf64>) -> (tensor<2x3xf64>, tensor<2x3xf64>, tensor<2x3xf64>, tensor<2x3xf64>, tensor<2x3xf64>, tensor<2x3xf64>, tensor<2x3xf64>, tensor<2x3xf64>, tensor<2x3xf64>, tensor<2x3xf64>, tensor<2x3xf64>, tensor<2x3xf64>, tensor<2x3xf64>, tensor<2x3xf64>, tensor<2x4xf64>, tensor<2x4xf64>, tensor<2x2x2xf64>, tensor<3x2xf64>, tensor<3x2xf64>, tensor<2xf64>, tensor<1x3xf64>, tensor<f64>, tensor<2x3xf64>, tensor<2x3xf32>, tensor<2x3xbf16>, tensor<2x3xi32>, tensor<2x3xi64>) {
  %p = google.abs %y : tensor<2x3xf64>
  %one = google.constant dense<1.0> : tensor<f64>
  %pos = google.add %p, %one : tensor<2x3xf64>, tensor<f64> -> tensor<2x3xf64>
  %0 = google.add %x, %v : tensor<2x3xf64>, tensor<3xf64> -> tensor<2x3xf64>
  %1 = google.sub %x, %y : tensor<2x3xf64>, tensor<2x3xf64> -> tensor<2x3xf64>
  %2 = google.mul %x, %y : tensor<2x3xf64>, tensor<2x3xf64> -> tensor<2x3xf64>
  %3 = google.div %x, %pos : tensor<2x3xf64>, tensor<2x3xf64> -> tensor<2x3xf64>
  %4 = google.max %x, %y : tensor<2x3xf64>, tensor<2x3xf64> -> tensor<2x3xf64>
  %5 = google.min %x, %y : tensor<2x3xf64>, tensor<2x3xf64> -> tensor<2x3xf64>
  %6 = google.relu %x : tensor<2x3xf64>
  %7 = google.neg %x : tensor<2x3xf64>
  %8 = google.abs %x : tensor<2x3xf64>
  %9 = google.exp %x : tensor<2x3xf64>
  %10 = google.log %pos : tensor<2x3xf64>
  %11 = google.tanh %x : tensor<2x3xf64>
  %12 = google.sigmoid %x : tensor<2x3xf64>
  %13 = google.sqrt %pos : tensor<2x3xf64>
  %14 = google.matmul %x, %w : tensor<2x3xf64>, tensor<3x4xf64> -> tensor<2x4xf64>
  %15 = google.matmul_bias_relu %x, %w, %b : tensor<2x3xf64>, tensor<3x4xf64>, tensor<4xf64> -> tensor<2x4xf64>
  %xb = google.reshape %x : tensor<2x3xf64> -> tensor<2x3x1xf64>
  %x3 = google.reshape %xb : tensor<2x3x1xf64> -> tensor<1x2x3xf64>
  %w3 = google.reshape %w : tensor<3x4xf64> -> tensor<1x3x4xf64>
  %bm = google.matmul %x3, %w3 : tensor<1x2x3xf64>, tensor<1x3x4xf64> -> tensor<1x2x4xf64>
  %16 = google.reshape %bm : tensor<1x2x4xf64> -> tensor<2x2x2xf64>
  %17 = google.transpose %x {perm = array<i64: 1, 0>} : tensor<2x3xf64> -> tensor<3x2xf64>
  %18 = google.reshape %x : tensor<2x3xf64> -> tensor<3x2xf64>
  %19 = google.reduce_sum %x {axes = array<i64: 1>, keep_dims = false} : tensor<2x3xf64> -> tensor<2xf64>
  %20 = google.reduce_max %x {axes = array<i64: 0>, keep_dims = true} : tensor<2x3xf64> -> tensor<1x3xf64>
  %21 = google.reduce_mean %x {axes = array<i64: 0, 1>, keep_dims = false} : tensor<2x3xf64> -> tensor<f64>
  %22 = google.softmax %x {axis = -1 : i64} : tensor<2x3xf64>
  %23 = google.cast %x : tensor<2x3xf64> -> tensor<2x3xf32>
  %24 = google.cast %x : tensor<2x3xf64> -> tensor<2x3xbf16>
  %25 = google.cast %x : tensor<2x3xf64> -> tensor<2x3xi32>
  %26 = google.cast %x : tensor<2x3xf64> -> tensor<2x3xi64>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26 : tensor<2x3xf64>, tensor<2x3xf64>, tensor<2x3xf64>, tensor<2x3xf64>, tensor<2x3xf64>, tensor<2x3xf64>, tensor<2x3xf64>, tensor<2x3xf64>, tensor<2x3xf64>, tensor<2x3xf64>, tensor<2x3xf64>, tensor<2x3xf64>, tensor<2x3xf64>, tensor<2x3xf64>, tensor<2x4xf64>, tensor<2x4xf64>, tensor<2x2x2xf64>, tensor<3x2xf64>, tensor<3x2xf64>, tensor<2xf64>, tensor<1x3xf64>, tensor<f64>, tensor<2x3xf64>, tensor<2x3xf32>, tensor<2x3xbf16>, tensor<2x3xi32>, tensor<2x3xi64>
}

func.func @ops_i32(%x: tensor<2x3xi32>, %y: tensor<2x3xi32>, %w: tensor<3x4xi32>, %b: tensor<4xi32>, %v: tensor<3xi32>) -> (tensor<2x3xi32>, tensor<2x3xi32>, tensor<2x3xi32>, tensor<2x3xi32>, tensor<2x3xi32>, tensor<2x3xi32>, tensor<2x3xi32>, tensor<2x3xi32>, tensor<2x4xi32>, tensor<2x4xi32>, tensor<3x2xi32>, tensor<3x2xi32>, tensor<2xi32>, tensor<1x3xi32>, tensor<2x3xi64>, tensor<2x3xf32>, tensor<2x3xbf16>, tensor<2x3xf16>, tensor<2x3xf64>) {
  %0 = google.add %x, %v : tensor<2x3xi32>, tensor<3xi32> -> tensor<2x3xi32>
  %1 = google.sub %x, %y : tensor<2x3xi32>, tensor<2x3xi32> -> tensor<2x3xi32>
  %2 = google.mul %x, %y : tensor<2x3xi32>, tensor<2x3xi32> -> tensor<2x3xi32>
  %3 = google.max %x, %y : tensor<2x3xi32>, tensor<2x3xi32> -> tensor<2x3xi32>
  %4 = google.min %x, %y : tensor<2x3xi32>, tensor<2x3xi32> -> tensor<2x3xi32>
  %5 = google.relu %x : tensor<2x3xi32>
  %6 = google.neg %x : tensor<2x3xi32>
  %7 = google.abs %x : tensor<2x3xi32>
  %8 = google.matmul %x, %w : tensor<2x3xi32>, tensor<3x4xi32> -> tensor<2x4xi32>
  %9 = google.matmul_bias_relu %x, %w, %b : tensor<2x3xi32>, tensor<3x4xi32>, tensor<4xi32> -> tensor<2x4xi32>
  %10 = google.transpose %x {perm = array<i64: 1, 0>} : tensor<2x3xi32> -> tensor<3x2xi32>
  %11 = google.reshape %x : tensor<2x3xi32> -> tensor<3x2xi32>
  %12 = google.reduce_sum %x {axes = array<i64: 1>, keep_dims = false} : tensor<2x3xi32> -> tensor<2xi32>
  %13 = google.reduce_max %x {axes = array<i64: 0>, keep_dims = true} : tensor<2x3xi32> -> tensor<1x3xi32>
  %14 = google.cast %x : tensor<2x3xi32> -> tensor<2x3xi64>
  %15 = google.cast %x : tensor<2x3xi32> -> tensor<2x3xf32>
  %16 = google.cast %x : tensor<2x3xi32> -> tensor<2x3xbf16>
  %17 = google.cast %x : tensor<2x3xi32> -> tensor<2x3xf16>
  %18 = google.cast %x : tensor<2x3xi32> -> tensor<2x3xf64>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18 : tensor<2x3xi32>, tensor<2x3xi32>, tensor<2x3xi32>, tensor<2x3xi32>, tensor<2x3xi32>, tensor<2x3xi32>, tensor<2x3xi32>, tensor<2x3xi32>, tensor<2x4xi32>, tensor<2x4xi32>, tensor<3x2xi32>, tensor<3x2xi32>, tensor<2xi32>, tensor<1x3xi32>, tensor<2x3xi64>, tensor<2x3xf32>, tensor<2x3xbf16>, tensor<2x3xf16>, tensor<2x3xf64>
}

func.func @ops_i64(%x: tensor<2x3xi64>, %y: tensor<2x3xi64>, %w: tensor<3x4xi64>, %b: tensor<4xi64>, %v: tensor<3xi64>) -> (tensor<2x3xi64>, tensor<2x3xi64>, tensor<2x3xi64>, tensor<2x3xi64>, tensor<2x3xi64>, tensor<2x3xi64>, tensor<2x3xi64>, tensor<2x3xi64>, tensor<2x4xi64>, tensor<2x4xi64>, tensor<3x2xi64>, tensor<3x2xi64>, tensor<2xi64>, tensor<1x3xi64>, tensor<2x3xi32>, tensor<2x3xf32>, tensor<2x3xbf16>, tensor<2x3xf16>, tensor<2x3xf64>) {
  %0 = google.add %x, %v : tensor<2x3xi64>, tensor<3xi64> -> tensor<2x3xi64>
  %1 = google.sub %x, %y : tensor<2x3xi64>, tensor<2x3xi64> -> tensor<2x3xi64>
  %2 = google.mul %x, %y : tensor<2x3xi64>, tensor<2x3xi64> -> tensor<2x3xi64>
  %3 = google.max %x, %y : tensor<2x3xi64>, tensor<2x3xi64> -> tensor<2x3xi64>
  %4 = google.min %x, %y : tensor<2x3xi64>, tensor<2x3xi64> -> tensor<2x3xi64>
  %5 = google.relu %x : tensor<2x3xi64>
  %6 = google.neg %x : tensor<2x3xi64>
  %7 = google.abs %x : tensor<2x3xi64>
  %8 = google.matmul %x, %w : tensor<2x3xi64>, tensor<3x4xi64> -> tensor<2x4xi64>
  %9 = google.matmul_bias_relu %x, %w, %b : tensor<2x3xi64>, tensor<3x4xi64>, tensor<4xi64> -> tensor<2x4xi64>
  %10 = google.transpose %x {perm = array<i64: 1, 0>} : tensor<2x3xi64> -> tensor<3x2xi64>
  %11 = google.reshape %x : tensor<2x3xi64> -> tensor<3x2xi64>
  %12 = google.reduce_sum %x {axes = array<i64: 1>, keep_dims = false} : tensor<2x3xi64> -> tensor<2xi64>
  %13 = google.reduce_max %x {axes = array<i64: 0>, keep_dims = true} : tensor<2x3xi64> -> tensor<1x3xi64>
  %14 = google.cast %x : tensor<2x3xi64> -> tensor<2x3xi32>
  %15 = google.cast %x : tensor<2x3xi64> -> tensor<2x3xf32>
  %16 = google.cast %x : tensor<2x3xi64> -> tensor<2x3xbf16>
  %17 = google.cast %x : tensor<2x3xi64> -> tensor<2x3xf16>
  %18 = google.cast %x : tensor<2x3xi64> -> tensor<2x3xf64>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18 : tensor<2x3xi64>, tensor<2x3xi64>, tensor<2x3xi64>, tensor<2x3xi64>, tensor<2x3xi64>, tensor<2x3xi64>, tensor<2x3xi64>, tensor<2x3xi64>, tensor<2x4xi64>, tensor<2x4xi64>, tensor<3x2xi64>, tensor<3x2xi64>, tensor<2xi64>, tensor<1x3xi64>, tensor<2x3xi32>, tensor<2x3xf32>, tensor<2x3xbf16>, tensor<2x3xf16>, tensor<2x3xf64>
}
