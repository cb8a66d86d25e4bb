func.func @scale(%x: tensor<?x3xf32>, %s: tensor<f32>) -> tensor<?x3xf32> {
  %0 = google.mul %x, %s : tensor<?x3xf32>, tensor<f32> -> tensor<?x3xf32>
  return %0 : tensor<?x3xf32>
}
func.func @stats(%x: tensor<2x3xf32>) -> (tensor<f32>, tensor<3xf32>, tensor<2x1x3xf32>) {
  %0 = google.reduce_sum %x {axes = array<i64: 0, 1>, keep_dims = false} : tensor<2x3xf32> -> tensor<f32>
  %1 = google.reduce_max %x {axes = array<i64: 0>, keep_dims = false} : tensor<2x3xf32> -> tensor<3xf32>
  %2 = google.reshape %x : tensor<2x3xf32> -> tensor<2x1x3xf32>
  return %0, %1, %2 : tensor<f32>, tensor<3xf32>, tensor<2x1x3xf32>
}
