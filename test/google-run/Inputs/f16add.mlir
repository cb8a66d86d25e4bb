func.func @main(%a: tensor<64xf16>, %b: tensor<64xf16>) -> tensor<64xf16> {
  %0 = google.add %a, %b : tensor<64xf16>, tensor<64xf16> -> tensor<64xf16>
  return %0 : tensor<64xf16>
}
