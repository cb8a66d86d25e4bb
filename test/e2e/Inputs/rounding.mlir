func.func @chain(%a: tensor<8xbf16>, %b: tensor<8xbf16>) -> tensor<8xbf16> {
  %0 = google.add %a, %b : tensor<8xbf16>, tensor<8xbf16> -> tensor<8xbf16>
  %1 = google.mul %0, %a : tensor<8xbf16>, tensor<8xbf16> -> tensor<8xbf16>
  return %1 : tensor<8xbf16>
}
func.func @chain_f16(%a: tensor<4xf16>, %b: tensor<4xf16>) -> tensor<4xf16> {
  %0 = google.add %a, %b : tensor<4xf16>, tensor<4xf16> -> tensor<4xf16>
  %1 = google.sub %0, %b : tensor<4xf16>, tensor<4xf16> -> tensor<4xf16>
  return %1 : tensor<4xf16>
}
func.func @add_zero(%x: tensor<4xf32>) -> tensor<4xf32> {
  %z = google.constant dense<0.0> : tensor<f32>
  %0 = google.add %x, %z : tensor<4xf32>, tensor<f32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func @zero_add(%x: tensor<4xbf16>) -> tensor<4xbf16> {
  %z = google.constant dense<0.0> : tensor<4xbf16>
  %0 = google.add %z, %x : tensor<4xbf16>, tensor<4xbf16> -> tensor<4xbf16>
  return %0 : tensor<4xbf16>
}
func.func @sub_minus_zero(%x: tensor<4xf16>) -> tensor<4xf16> {
  %z = google.constant dense<-0.0> : tensor<4xf16>
  %0 = google.sub %x, %z : tensor<4xf16>, tensor<4xf16> -> tensor<4xf16>
  return %0 : tensor<4xf16>
}
func.func @neg(%x: tensor<4xbf16>) -> tensor<4xbf16> {
  %0 = google.neg %x : tensor<4xbf16>
  return %0 : tensor<4xbf16>
}
func.func @folded() -> (tensor<2xf32>, tensor<2xbf16>) {
  %x = google.constant dense<[-0.0, 0.0]> : tensor<2xf32>
  %z = google.constant dense<0.0> : tensor<f32>
  %0 = google.add %x, %z : tensor<2xf32>, tensor<f32> -> tensor<2xf32>
  %y = google.constant dense<[0.0, -0.0]> : tensor<2xbf16>
  %1 = google.neg %y : tensor<2xbf16>
  return %0, %1 : tensor<2xf32>, tensor<2xbf16>
}
