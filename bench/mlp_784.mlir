// The MLP of the CPU-performance issue, for compile-time measurements
// (build/bin/runtime_bench bench/mlp_784.mlir): 32x784 -> 256 -> 10, softmax.
func.func @mlp(%x: tensor<32x784xf32>, %w1: tensor<784x256xf32>, %b1: tensor<256xf32>,
               %w2: tensor<256x10xf32>, %b2: tensor<10xf32>) -> tensor<32x10xf32> {
  %0 = google.matmul %x, %w1 : tensor<32x784xf32>, tensor<784x256xf32> -> tensor<32x256xf32>
  %1 = google.add %0, %b1 : tensor<32x256xf32>, tensor<256xf32> -> tensor<32x256xf32>
  %2 = google.relu %1 : tensor<32x256xf32>
  %3 = google.matmul %2, %w2 : tensor<32x256xf32>, tensor<256x10xf32> -> tensor<32x10xf32>
  %4 = google.add %3, %b2 : tensor<32x10xf32>, tensor<10xf32> -> tensor<32x10xf32>
  %5 = google.softmax %4 {axis = 1 : i64} : tensor<32x10xf32>
  return %5 : tensor<32x10xf32>
}
