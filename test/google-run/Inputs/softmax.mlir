func.func @softmax(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %0 = google.softmax %x {axis = 1 : i64} : tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}
