// Chains of row-wise ops over rows of at least 128 elements run row by row
// in one loop (threads at run time): softmax, layer normalization, and a
// softmax whose rows are divided by their maximum; over 2-D and 3-D
// tensors, static and dynamic rows, f32 and f64, at 1 and 2 threads (300
// rows of 300 are enough work to start them).
// RUN: %python %e2e run %s google-run | FileCheck %s
// RUN: env GOOGLE_MLIR_NUM_THREADS=1 GOOGLE_E2E_OPT_LEVELS=3 %python %e2e run %s google-run | FileCheck %s
// RUN: env GOOGLE_MLIR_NUM_THREADS=2 GOOGLE_E2E_OPT_LEVELS=3 %python %e2e run %s google-run | FileCheck %s
// CHECK: e2e: 12 cases match numpy

// E2E: @softmax(x: 5x300xf32[-30:30]) -> softmax(x, axis=-1)
// E2E: @softmax(x: 1x300xf32[-30:30]) -> softmax(x, axis=-1)
// E2E: @softmax(x: 0x300xf32) -> softmax(x, axis=-1)
// E2E: @softmax(x: 67x300xf32[-30:30]) -> softmax(x, axis=-1)
// E2E: @softmax(x: 300x300xf32[-30:30]) -> softmax(x, axis=-1)
func.func @softmax(%x: tensor<?x300xf32>) -> tensor<?x300xf32> {
  %0 = google.softmax %x {axis = 1 : i64} : tensor<?x300xf32>
  return %0 : tensor<?x300xf32>
}

// E2E: @softmax_3d(x: 2x3x128xf64[-30:30]) -> softmax(x, axis=-1)
func.func @softmax_3d(%x: tensor<2x3x128xf64>) -> tensor<2x3x128xf64> {
  %0 = google.softmax %x {axis = -1 : i64} : tensor<2x3x128xf64>
  return %0 : tensor<2x3x128xf64>
}

// E2E: @layer_norm(x: 6x129xf32, g: 129xf32, b: 129xf32) -> (x - x.mean(axis=-1, keepdims=True)) / np.sqrt(((x - x.mean(axis=-1, keepdims=True)) ** 2).mean(axis=-1, keepdims=True) + 1e-5) * g + b
// E2E: @layer_norm(x: 40x129xf32, g: 129xf32, b: 129xf32) -> (x - x.mean(axis=-1, keepdims=True)) / np.sqrt(((x - x.mean(axis=-1, keepdims=True)) ** 2).mean(axis=-1, keepdims=True) + 1e-5) * g + b
func.func @layer_norm(%x: tensor<?x129xf32>, %g: tensor<129xf32>, %b: tensor<129xf32>) -> tensor<?x129xf32> {
  %mean = google.reduce_mean %x {axes = array<i64: -1>, keep_dims = true} : tensor<?x129xf32> -> tensor<?x1xf32>
  %c = google.sub %x, %mean : tensor<?x129xf32>, tensor<?x1xf32> -> tensor<?x129xf32>
  %sq = google.mul %c, %c : tensor<?x129xf32>, tensor<?x129xf32> -> tensor<?x129xf32>
  %var = google.reduce_mean %sq {axes = array<i64: -1>, keep_dims = true} : tensor<?x129xf32> -> tensor<?x1xf32>
  %eps = google.constant dense<1.0e-5> : tensor<f32>
  %ve = google.add %var, %eps : tensor<?x1xf32>, tensor<f32> -> tensor<?x1xf32>
  %sd = google.sqrt %ve : tensor<?x1xf32>
  %n = google.div %c, %sd : tensor<?x129xf32>, tensor<?x1xf32> -> tensor<?x129xf32>
  %s = google.mul %n, %g : tensor<?x129xf32>, tensor<129xf32> -> tensor<?x129xf32>
  %r = google.add %s, %b : tensor<?x129xf32>, tensor<129xf32> -> tensor<?x129xf32>
  return %r : tensor<?x129xf32>
}

// E2E: @softmax_normalized(x: 3x2000xf32) -> softmax(x, axis=1) / softmax(x, axis=1).max(axis=1, keepdims=True)
func.func @softmax_normalized(%x: tensor<3x2000xf32>) -> tensor<3x2000xf32> {
  %p = google.softmax %x {axis = 1 : i64} : tensor<3x2000xf32>
  %m = google.reduce_max %p {axes = array<i64: 1>, keep_dims = true} : tensor<3x2000xf32> -> tensor<3x1xf32>
  %r = google.div %p, %m : tensor<3x2000xf32>, tensor<3x1xf32> -> tensor<3x2000xf32>
  return %r : tensor<3x2000xf32>
}

// The softmax feeds both a reduction and the end of the chain: fused
// once (the copies fusion makes of its ops are merged).
// E2E: @shared(x: 4x256xf32) -> softmax(x, axis=1) + softmax(x, axis=1) / softmax(x, axis=1).sum(axis=1, keepdims=True)
// E2E: @shared(x: 33x256xf32) -> softmax(x, axis=1) + softmax(x, axis=1) / softmax(x, axis=1).sum(axis=1, keepdims=True)
func.func @shared(%x: tensor<?x256xf32>) -> tensor<?x256xf32> {
  %p = google.softmax %x {axis = 1 : i64} : tensor<?x256xf32>
  %s = google.reduce_sum %p {axes = array<i64: 1>, keep_dims = true} : tensor<?x256xf32> -> tensor<?x1xf32>
  %q = google.div %p, %s : tensor<?x256xf32>, tensor<?x1xf32> -> tensor<?x256xf32>
  %r = google.add %p, %q : tensor<?x256xf32>, tensor<?x256xf32> -> tensor<?x256xf32>
  return %r : tensor<?x256xf32>
}

// A column sum in the chain: computed once, outside the row loop.
// E2E: @column_sums(x: 9x200xf32[0.5:2]) -> (x - x.max(axis=1, keepdims=True)) / x.sum(axis=0, keepdims=True)
func.func @column_sums(%x: tensor<?x200xf32>) -> tensor<?x200xf32> {
  %m = google.reduce_max %x {axes = array<i64: 1>, keep_dims = true} : tensor<?x200xf32> -> tensor<?x1xf32>
  %c = google.reduce_sum %x {axes = array<i64: 0>, keep_dims = true} : tensor<?x200xf32> -> tensor<1x200xf32>
  %d = google.sub %x, %m : tensor<?x200xf32>, tensor<?x1xf32> -> tensor<?x200xf32>
  %r = google.div %d, %c : tensor<?x200xf32>, tensor<1x200xf32> -> tensor<?x200xf32>
  return %r : tensor<?x200xf32>
}
