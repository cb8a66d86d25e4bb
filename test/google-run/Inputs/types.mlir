func.func @half(%x: tensor<3xf16>) -> tensor<3xf16> {
  %0 = google.add %x, %x : tensor<3xf16>, tensor<3xf16> -> tensor<3xf16>
  return %0 : tensor<3xf16>
}
func.func @brain(%x: tensor<3xbf16>) -> tensor<3xbf16> {
  %0 = google.mul %x, %x : tensor<3xbf16>, tensor<3xbf16> -> tensor<3xbf16>
  return %0 : tensor<3xbf16>
}
func.func @ints(%x: tensor<2x2xi32>, %y: tensor<2xi64>) -> (tensor<2x2xi32>, tensor<2xi64>) {
  %0 = google.neg %x : tensor<2x2xi32>
  %1 = google.add %y, %y : tensor<2xi64>, tensor<2xi64> -> tensor<2xi64>
  return %0, %1 : tensor<2x2xi32>, tensor<2xi64>
}
func.func @double(%x: tensor<2xf64>) -> tensor<2xf64> {
  %0 = google.sqrt %x : tensor<2xf64>
  return %0 : tensor<2xf64>
}
