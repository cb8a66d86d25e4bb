// A 2-layer MLP classifier: dense + relu, dense + relu, softmax.
// examples/run_mlp.sh optimizes it (the two dense layers become
// google.matmul_bias_relu), compiles it to native code and runs it on
// random inputs, checking the result against NumPy.
//
// E2E: @mlp(x: 8x64xf32, w1: 64x128xf32[-0.2:0.2], b1: 128xf32[-0.1:0.1], w2: 128x10xf32[-0.2:0.2], b2: 10xf32[-0.1:0.1]) -> softmax(relu(relu(x @ w1 + b1) @ w2 + b2))

func.func @mlp(%x: tensor<?x64xf32>, %w1: tensor<64x128xf32>, %b1: tensor<128xf32>,
               %w2: tensor<128x10xf32>, %b2: tensor<10xf32>) -> tensor<?x10xf32> {
  %0 = google.matmul %x, %w1 : tensor<?x64xf32>, tensor<64x128xf32> -> tensor<?x128xf32>
  %1 = google.add %0, %b1 : tensor<?x128xf32>, tensor<128xf32> -> tensor<?x128xf32>
  %2 = google.relu %1 : tensor<?x128xf32>
  %3 = google.matmul %2, %w2 : tensor<?x128xf32>, tensor<128x10xf32> -> tensor<?x10xf32>
  %4 = google.add %b2, %3 : tensor<10xf32>, tensor<?x10xf32> -> tensor<?x10xf32>
  %5 = google.relu %4 : tensor<?x10xf32>
  %6 = google.softmax %5 {axis = -1 : i64} : tensor<?x10xf32>
  return %6 : tensor<?x10xf32>
}
