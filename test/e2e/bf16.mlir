// RUN: %python %e2e run %s google-run | FileCheck %s
// CHECK: e2e: 3 cases match numpy

// E2E: @mul_add(x: 4x8xbf16, y: 8xbf16) -> x * y + y
// E2E: @sigmoid(x: 10xbf16[-4:4]) -> sigmoid(x)
// E2E: @matmul(a: 4x8xbf16[-1:1], b: 8x3xbf16[-1:1]) -> a @ b

func.func @mul_add(%x: tensor<4x8xbf16>, %y: tensor<8xbf16>) -> tensor<4x8xbf16> {
  %0 = google.mul %x, %y : tensor<4x8xbf16>, tensor<8xbf16> -> tensor<4x8xbf16>
  %1 = google.add %0, %y : tensor<4x8xbf16>, tensor<8xbf16> -> tensor<4x8xbf16>
  return %1 : tensor<4x8xbf16>
}
func.func @sigmoid(%x: tensor<10xbf16>) -> tensor<10xbf16> {
  %0 = google.sigmoid %x : tensor<10xbf16>
  return %0 : tensor<10xbf16>
}
func.func @matmul(%a: tensor<4x8xbf16>, %b: tensor<8x3xbf16>) -> tensor<4x3xbf16> {
  %0 = google.matmul %a, %b : tensor<4x8xbf16>, tensor<8x3xbf16> -> tensor<4x3xbf16>
  return %0 : tensor<4x3xbf16>
}
