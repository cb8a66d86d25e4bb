func.func @main(%x: tensor<3xf32>) -> tensor<3xf32> {
  %e = google.exp %x : tensor<3xf32>
  %0 = google.log %x : tensor<3xf32>
  %1 = google.relu %0 : tensor<3xf32>
  return %1 : tensor<3xf32>
}
