// f16 and bf16 sums accumulate in f32 and round once (SPEC section 2):
// sums and means over thousands of elements, a mean whose element count
// is no f16 value, softmax's denominator, layer norm and matmul's K.
// Summed in f16, the mean of 5000 ones was 0.41 and their sum 2048.
// RUN: %python %e2e run %s google-run | FileCheck %s
// CHECK: e2e: 9 cases match numpy

// E2E: @mean(x: 5000xf16[1:1]) -> x.mean()
// E2E: @sum(x: 5000xf16[0.5:1]) -> x.sum()
// E2E: @mean_bf16(x: 10000xbf16[1:1]) -> x.mean()
// E2E: @mean_count_past_f16(x: 70000xf16[0.0001:0.0001]) -> x.mean()
// E2E: @rows(x: 3x4096xf16) -> (x.sum(axis=1), x.mean(axis=1))
// E2E: @softmax_sum(x: 1x5000xf16[0:0]) -> softmax(x).sum()
// E2E: @layer_norm(x: 2x4096xf16) -> (x - x.mean(axis=1, keepdims=True)) / np.sqrt(((x - x.mean(axis=1, keepdims=True)) ** 2).mean(axis=1, keepdims=True) + 1e-3)
// E2E: @matmul_bf16(a: 4x200xbf16[0:1], b: 200x3xbf16[0:1]) -> a @ b
// E2E: @matmul_f16(a: 4x3000xf16[0:0.1], b: 3000x2xf16[0:0.1]) -> a @ b

func.func @mean(%x: tensor<5000xf16>) -> tensor<f16> {
  %0 = google.reduce_mean %x {axes = array<i64: 0>, keep_dims = false} : tensor<5000xf16> -> tensor<f16>
  return %0 : tensor<f16>
}
func.func @sum(%x: tensor<5000xf16>) -> tensor<f16> {
  %0 = google.reduce_sum %x {axes = array<i64: 0>, keep_dims = false} : tensor<5000xf16> -> tensor<f16>
  return %0 : tensor<f16>
}
func.func @mean_bf16(%x: tensor<?xbf16>) -> tensor<bf16> {
  %0 = google.reduce_mean %x {axes = array<i64: 0>, keep_dims = false} : tensor<?xbf16> -> tensor<bf16>
  return %0 : tensor<bf16>
}
func.func @mean_count_past_f16(%x: tensor<?xf16>) -> tensor<f16> {
  %0 = google.reduce_mean %x {axes = array<i64: 0>, keep_dims = false} : tensor<?xf16> -> tensor<f16>
  return %0 : tensor<f16>
}
func.func @rows(%x: tensor<3x4096xf16>) -> (tensor<3xf16>, tensor<3xf16>) {
  %0 = google.reduce_sum %x {axes = array<i64: 1>, keep_dims = false} : tensor<3x4096xf16> -> tensor<3xf16>
  %1 = google.reduce_mean %x {axes = array<i64: 1>, keep_dims = false} : tensor<3x4096xf16> -> tensor<3xf16>
  return %0, %1 : tensor<3xf16>, tensor<3xf16>
}
func.func @softmax_sum(%x: tensor<1x5000xf16>) -> tensor<f16> {
  %0 = google.softmax %x {axis = 1 : i64} : tensor<1x5000xf16>
  %1 = google.reduce_sum %0 {axes = array<i64: 0, 1>, keep_dims = false} : tensor<1x5000xf16> -> tensor<f16>
  return %1 : tensor<f16>
}
func.func @layer_norm(%x: tensor<?x4096xf16>) -> tensor<?x4096xf16> {
  %mean = google.reduce_mean %x {axes = array<i64: 1>, keep_dims = true} : tensor<?x4096xf16> -> tensor<?x1xf16>
  %c = google.sub %x, %mean : tensor<?x4096xf16>, tensor<?x1xf16> -> tensor<?x4096xf16>
  %sq = google.mul %c, %c : tensor<?x4096xf16>, tensor<?x4096xf16> -> tensor<?x4096xf16>
  %var = google.reduce_mean %sq {axes = array<i64: 1>, keep_dims = true} : tensor<?x4096xf16> -> tensor<?x1xf16>
  %eps = google.constant dense<1.0e-3> : tensor<f16>
  %ve = google.add %var, %eps : tensor<?x1xf16>, tensor<f16> -> tensor<?x1xf16>
  %sd = google.sqrt %ve : tensor<?x1xf16>
  %y = google.div %c, %sd : tensor<?x4096xf16>, tensor<?x1xf16> -> tensor<?x4096xf16>
  return %y : tensor<?x4096xf16>
}
func.func @matmul_bf16(%a: tensor<4x200xbf16>, %b: tensor<200x3xbf16>) -> tensor<4x3xbf16> {
  %0 = google.matmul %a, %b : tensor<4x200xbf16>, tensor<200x3xbf16> -> tensor<4x3xbf16>
  return %0 : tensor<4x3xbf16>
}
func.func @matmul_f16(%a: tensor<4x3000xf16>, %b: tensor<3000x2xf16>) -> tensor<4x2xf16> {
  %0 = google.matmul %a, %b : tensor<4x3000xf16>, tensor<3000x2xf16> -> tensor<4x2xf16>
  return %0 : tensor<4x2xf16>
}
