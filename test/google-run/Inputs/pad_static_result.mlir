// A dynamic number of rows padded to a static 5: the input must have 3.
func.func @main(%x: tensor<?x2xf32>) -> tensor<5x3xf32> {
  %v = google.constant dense<1.25> : tensor<f32>
  %0 = google.pad %x, %v {low = array<i64: 0, 0>, high = array<i64: 2, 1>} : tensor<?x2xf32>, tensor<f32> -> tensor<5x3xf32>
  return %0 : tensor<5x3xf32>
}
