// RUN: %python %e2e run %s google-run | FileCheck %s
// CHECK: e2e: 6 cases match numpy
// A matmul of a transposed A (every weight gradient is one: x^T @ dy)
// reads A^T where it is, a row of it per K step, instead of a transposed
// copy: static and dynamic M (A^T's columns), M, N and K that no block
// divides, the fused bias + relu, and a transpose with another user (kept).

// E2E: @weight_grad(x: 250x64xf32, dy: 250x256xf32) -> x.T @ dy
// E2E: @odd(a: 37x13xf32, b: 37x29xf32) -> a.T @ b
// E2E: @dynamic(a: 19x11xf32, b: 19x40xf32) -> a.T @ b
// E2E: @dynamic(a: 19x3xf32, b: 19x40xf32) -> a.T @ b
// E2E: @epilogue(a: 64x24xf32, b: 64x48xf32, c: 48xf32) -> np.maximum(a.T @ b + c, 0)
// E2E: @shared(a: 64x24xf32, b: 64x48xf32) -> (a.T @ b, a.T)

func.func @weight_grad(%x: tensor<250x64xf32>, %dy: tensor<250x256xf32>) -> tensor<64x256xf32> {
  %t = google.transpose %x {perm = array<i64: 1, 0>} : tensor<250x64xf32> -> tensor<64x250xf32>
  %m = google.matmul %t, %dy : tensor<64x250xf32>, tensor<250x256xf32> -> tensor<64x256xf32>
  return %m : tensor<64x256xf32>
}
func.func @odd(%a: tensor<37x13xf32>, %b: tensor<37x29xf32>) -> tensor<13x29xf32> {
  %t = google.transpose %a {perm = array<i64: 1, 0>} : tensor<37x13xf32> -> tensor<13x37xf32>
  %m = google.matmul %t, %b : tensor<13x37xf32>, tensor<37x29xf32> -> tensor<13x29xf32>
  return %m : tensor<13x29xf32>
}
func.func @dynamic(%a: tensor<19x?xf32>, %b: tensor<19x40xf32>) -> tensor<?x40xf32> {
  %t = google.transpose %a {perm = array<i64: 1, 0>} : tensor<19x?xf32> -> tensor<?x19xf32>
  %m = google.matmul %t, %b : tensor<?x19xf32>, tensor<19x40xf32> -> tensor<?x40xf32>
  return %m : tensor<?x40xf32>
}
func.func @epilogue(%a: tensor<64x24xf32>, %b: tensor<64x48xf32>, %c: tensor<48xf32>) -> tensor<24x48xf32> {
  %t = google.transpose %a {perm = array<i64: 1, 0>} : tensor<64x24xf32> -> tensor<24x64xf32>
  %m = google.matmul %t, %b : tensor<24x64xf32>, tensor<64x48xf32> -> tensor<24x48xf32>
  %s = google.add %m, %c : tensor<24x48xf32>, tensor<48xf32> -> tensor<24x48xf32>
  %r = google.relu %s : tensor<24x48xf32>
  return %r : tensor<24x48xf32>
}
func.func @shared(%a: tensor<64x24xf32>, %b: tensor<64x48xf32>) -> (tensor<24x48xf32>, tensor<24x64xf32>) {
  %t = google.transpose %a {perm = array<i64: 1, 0>} : tensor<64x24xf32> -> tensor<24x64xf32>
  %m = google.matmul %t, %b : tensor<24x64xf32>, tensor<64x48xf32> -> tensor<24x48xf32>
  return %m, %t : tensor<24x48xf32>, tensor<24x64xf32>
}
