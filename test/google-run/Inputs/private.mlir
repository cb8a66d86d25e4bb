func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = func.call @helper(%a) : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
func.func private @helper(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = google.neg %a : tensor<2xf32>
  return %0 : tensor<2xf32>
}
