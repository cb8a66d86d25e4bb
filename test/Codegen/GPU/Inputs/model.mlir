// A dynamic-batch layer with softmax: matmul, bias, relu, a constant
// scale, exp and row reductions.
func.func @model(%x: tensor<?x64xf32>, %w: tensor<64x32xf32>, %b: tensor<32xf32>) -> tensor<?x32xf32> {
  %0 = google.matmul %x, %w : tensor<?x64xf32>, tensor<64x32xf32> -> tensor<?x32xf32>
  %1 = google.add %0, %b : tensor<?x32xf32>, tensor<32xf32> -> tensor<?x32xf32>
  %2 = google.relu %1 : tensor<?x32xf32>
  %scale = google.constant dense<[0.5, 1.0, 1.5, 2.0, 0.5, 1.0, 1.5, 2.0, 0.5, 1.0, 1.5, 2.0, 0.5, 1.0, 1.5, 2.0, 0.5, 1.0, 1.5, 2.0, 0.5, 1.0, 1.5, 2.0, 0.5, 1.0, 1.5, 2.0, 0.5, 1.0, 1.5, 2.0]> : tensor<32xf32>
  %3 = google.mul %2, %scale : tensor<?x32xf32>, tensor<32xf32> -> tensor<?x32xf32>
  %4 = google.softmax %3 {axis = 1 : i64} : tensor<?x32xf32>
  return %4 : tensor<?x32xf32>
}
