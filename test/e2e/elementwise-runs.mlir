// Elementwise ops whose values are used more than once (results, or read
// again later) stay separate ops after fusion on tensors; on the GPU,
// consecutive ones over the same elements run as one kernel, each thread
// computing its element of each op in turn. A transpose between them ends
// the run.
// RUN: %python %e2e run %s google-run | FileCheck %s
// CHECK: e2e: 3 cases match numpy

// E2E: @saved(x: 64x96xf32[-2:2], y: 64x96xf32) -> (np.exp(x), np.exp(x) * y, np.exp(x) + np.exp(x) * y - y)
func.func @saved(%x: tensor<64x96xf32>, %y: tensor<64x96xf32>) -> (tensor<64x96xf32>, tensor<64x96xf32>, tensor<64x96xf32>) {
  %a = google.exp %x : tensor<64x96xf32>
  %b = google.mul %a, %y : tensor<64x96xf32>, tensor<64x96xf32> -> tensor<64x96xf32>
  %c = google.add %a, %b : tensor<64x96xf32>, tensor<64x96xf32> -> tensor<64x96xf32>
  %d = google.sub %c, %y : tensor<64x96xf32>, tensor<64x96xf32> -> tensor<64x96xf32>
  return %a, %b, %d : tensor<64x96xf32>, tensor<64x96xf32>, tensor<64x96xf32>
}

// E2E: @transposed(x: 48x48xf32, b: 48xf32) -> (np.tanh(x) + b, (np.tanh(x) + b).T * np.tanh(x))
func.func @transposed(%x: tensor<48x48xf32>, %b: tensor<48xf32>) -> (tensor<48x48xf32>, tensor<48x48xf32>) {
  %t = google.tanh %x : tensor<48x48xf32>
  %u = google.add %t, %b : tensor<48x48xf32>, tensor<48xf32> -> tensor<48x48xf32>
  %ut = google.transpose %u {perm = array<i64: 1, 0>} : tensor<48x48xf32> -> tensor<48x48xf32>
  %v = google.mul %ut, %t : tensor<48x48xf32>, tensor<48x48xf32> -> tensor<48x48xf32>
  return %u, %v : tensor<48x48xf32>, tensor<48x48xf32>
}

// E2E: @ints(x: 5x7x9xi32[-50:50], s: 9xi32[1:4]) -> (np.maximum(x, 0), np.maximum(x, 0) * s, np.maximum(x, 0) * s - x)
func.func @ints(%x: tensor<5x7x9xi32>, %s: tensor<9xi32>) -> (tensor<5x7x9xi32>, tensor<5x7x9xi32>, tensor<5x7x9xi32>) {
  %r = google.relu %x : tensor<5x7x9xi32>
  %m = google.mul %r, %s : tensor<5x7x9xi32>, tensor<9xi32> -> tensor<5x7x9xi32>
  %d = google.sub %m, %x : tensor<5x7x9xi32>, tensor<5x7x9xi32> -> tensor<5x7x9xi32>
  return %r, %m, %d : tensor<5x7x9xi32>, tensor<5x7x9xi32>, tensor<5x7x9xi32>
}
