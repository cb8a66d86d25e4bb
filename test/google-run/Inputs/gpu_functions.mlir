func.func @identity(%x: tensor<?x3xf32>) -> tensor<?x3xf32> {
  return %x : tensor<?x3xf32>
}
func.func @reshape(%x: tensor<2x3xf32>) -> tensor<6xf32> {
  %0 = google.reshape %x : tensor<2x3xf32> -> tensor<6xf32>
  return %0 : tensor<6xf32>
}
func.func @relu(%x: tensor<?x3xf32>) -> tensor<?x3xf32> {
  %0 = google.relu %x : tensor<?x3xf32>
  return %0 : tensor<?x3xf32>
}
func.func @add(%x: tensor<?x3xf32>, %y: tensor<?x3xf32>) -> tensor<?x3xf32> {
  %0 = google.add %x, %y : tensor<?x3xf32>, tensor<?x3xf32> -> tensor<?x3xf32>
  return %0 : tensor<?x3xf32>
}
