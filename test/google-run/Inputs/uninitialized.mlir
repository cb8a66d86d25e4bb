// Functions whose results are (partly) never written: what they return
// is what their buffers held.
func.func @empty() -> (tensor<4xf32>, tensor<3xi32>) {
  %0 = tensor.empty() : tensor<4xf32>
  %1 = tensor.empty() : tensor<3xi32>
  return %0, %1 : tensor<4xf32>, tensor<3xi32>
}

func.func @add_empty(%x: tensor<4xf32>) -> tensor<2x4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %s = google.add %e, %x : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  %o = tensor.empty() : tensor<2x4xf32>
  %r = tensor.insert_slice %s into %o[0, 0] [1, 4] [1, 1] : tensor<4xf32> into tensor<2x4xf32>
  return %r : tensor<2x4xf32>
}
