// Extents of 0 are valid everywhere: a matmul with K = 0 is all zeros
// (the CPU schedule divided by the empty loop's extent), softmax over an
// empty axis is empty, elementwise ops over empty tensors do nothing.
// RUN: %python %e2e run %s google-run | FileCheck %s
// CHECK: e2e: 9 cases match numpy

// E2E: @matmul(a: 8x0xf32, b: 0x8xf32) -> a @ b
// E2E: @batched(a: 2x8x0xf32, b: 2x0x8xf32) -> a @ b
// E2E: @fused(a: 8x0xf32, b: 0x8xf32, c: 8xf32) -> np.maximum(a @ b + c, 0)
// E2E: @matmul_dynamic(a: 40x0xf32, b: 0x33xf32) -> a @ b
// E2E: @softmax(x: 4x0xf32) -> softmax(x)
// E2E: @empty_rows(x: 0x300xf32) -> (softmax(x), x.sum(axis=1))
// E2E: @casts(x: 2x0x4xi64) -> x
// E2E: @big_empty(x: 0x65536xf32, y: 65536xf32) -> np.maximum(x * 2 + y, 0)
// E2E: @reshape_empty(x: 0x5xf32, y: 2x0x7xi32) -> (x.reshape(1, 1, 0, 1), y.reshape(0, 3))

func.func @matmul(%a: tensor<8x0xf32>, %b: tensor<0x8xf32>) -> tensor<8x8xf32> {
  %0 = google.matmul %a, %b : tensor<8x0xf32>, tensor<0x8xf32> -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
func.func @batched(%a: tensor<2x8x0xf32>, %b: tensor<2x0x8xf32>) -> tensor<2x8x8xf32> {
  %0 = google.matmul %a, %b : tensor<2x8x0xf32>, tensor<2x0x8xf32> -> tensor<2x8x8xf32>
  return %0 : tensor<2x8x8xf32>
}
func.func @fused(%a: tensor<8x0xf32>, %b: tensor<0x8xf32>, %c: tensor<8xf32>) -> tensor<8x8xf32> {
  %0 = google.matmul_bias_relu %a, %b, %c : tensor<8x0xf32>, tensor<0x8xf32>, tensor<8xf32> -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
func.func @matmul_dynamic(%a: tensor<?x0xf32>, %b: tensor<0x?xf32>) -> tensor<?x?xf32> {
  %0 = google.matmul %a, %b : tensor<?x0xf32>, tensor<0x?xf32> -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}
func.func @softmax(%x: tensor<4x0xf32>) -> tensor<4x0xf32> {
  %0 = google.softmax %x {axis = 1 : i64} : tensor<4x0xf32>
  return %0 : tensor<4x0xf32>
}
func.func @empty_rows(%x: tensor<0x300xf32>) -> (tensor<0x300xf32>, tensor<0xf32>) {
  %0 = google.softmax %x {axis = 1 : i64} : tensor<0x300xf32>
  %1 = google.reduce_sum %x {axes = array<i64: 1>, keep_dims = false} : tensor<0x300xf32> -> tensor<0xf32>
  return %0, %1 : tensor<0x300xf32>, tensor<0xf32>
}
func.func @casts(%x: tensor<?x0x4xi64>) -> tensor<?x0x4xi64> {
  %0 = google.cast %x : tensor<?x0x4xi64> -> tensor<?x0x4xf16>
  %1 = google.cast %0 : tensor<?x0x4xf16> -> tensor<?x0x4xi64>
  return %1 : tensor<?x0x4xi64>
}
func.func @big_empty(%x: tensor<0x65536xf32>, %y: tensor<65536xf32>) -> tensor<0x65536xf32> {
  %two = google.constant dense<2.0> : tensor<f32>
  %0 = google.mul %x, %two : tensor<0x65536xf32>, tensor<f32> -> tensor<0x65536xf32>
  %1 = google.add %0, %y : tensor<0x65536xf32>, tensor<65536xf32> -> tensor<0x65536xf32>
  %2 = google.relu %1 : tensor<0x65536xf32>
  return %2 : tensor<0x65536xf32>
}
func.func @reshape_empty(%x: tensor<0x?xf32>, %y: tensor<2x0x?xi32>) -> (tensor<1x1x0x1xf32>, tensor<?x3xi32>) {
  %0 = google.reshape %x : tensor<0x?xf32> -> tensor<1x1x0x1xf32>
  %1 = google.reshape %y : tensor<2x0x?xi32> -> tensor<?x3xi32>
  return %0, %1 : tensor<1x1x0x1xf32>, tensor<?x3xi32>
}
