// Multi-head attention, one fused kernel per function with
// fused-attention (see device-binaries.test): K transposed by its own op,
// the scores scaled, softmax, and a causal mask with narrower heads.
func.func @heads(%q: tensor<4x64x64xf32>, %k: tensor<4x128x64xf32>, %v: tensor<4x128x64xf32>) -> tensor<4x64x64xf32> {
  %kt = google.transpose %k {perm = array<i64: 0, 2, 1>} : tensor<4x128x64xf32> -> tensor<4x64x128xf32>
  %s = google.matmul %q, %kt : tensor<4x64x64xf32>, tensor<4x64x128xf32> -> tensor<4x64x128xf32>
  %c = google.constant dense<8.0> : tensor<f32>
  %sc = google.div %s, %c : tensor<4x64x128xf32>, tensor<f32> -> tensor<4x64x128xf32>
  %p = google.softmax %sc {axis = -1 : i64} : tensor<4x64x128xf32>
  %o = google.matmul %p, %v : tensor<4x64x128xf32>, tensor<4x128x64xf32> -> tensor<4x64x64xf32>
  return %o : tensor<4x64x64xf32>
}
func.func @causal(%q: tensor<3x128x16xf32>, %k: tensor<3x128x16xf32>, %v: tensor<3x128x16xf32>) -> tensor<3x128x16xf32> {
  %kt = google.transpose %k {perm = array<i64: 0, 2, 1>} : tensor<3x128x16xf32> -> tensor<3x16x128xf32>
  %s = google.matmul %q, %kt : tensor<3x128x16xf32>, tensor<3x16x128xf32> -> tensor<3x128x128xf32>
  %c = google.constant dense<0.25> : tensor<f32>
  %sc = google.mul %s, %c : tensor<3x128x128xf32>, tensor<f32> -> tensor<3x128x128xf32>
  %rows = google.iota {dimension = 0 : i64} : tensor<128x128xi64>
  %cols = google.iota {dimension = 1 : i64} : tensor<128x128xi64>
  %sees = google.le %cols, %rows : tensor<128x128xi64>, tensor<128x128xi64> -> tensor<128x128xi1>
  %low = google.constant dense<-1.0e9> : tensor<f32>
  %m = google.select %sees, %sc, %low : tensor<128x128xi1>, tensor<3x128x128xf32>, tensor<f32> -> tensor<3x128x128xf32>
  %p = google.softmax %m {axis = -1 : i64} : tensor<3x128x128xf32>
  %o = google.matmul %p, %v : tensor<3x128x128xf32>, tensor<3x128x16xf32> -> tensor<3x128x16xf32>
  return %o : tensor<3x128x16xf32>
}
