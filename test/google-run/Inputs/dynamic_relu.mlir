func.func @main(%x: tensor<?x3xf32>) -> tensor<?x3xf32> {
  %0 = google.relu %x : tensor<?x3xf32>
  return %0 : tensor<?x3xf32>
}
