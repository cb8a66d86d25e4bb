// A single-head attention block: softmax(q k^T / sqrt(d)) v, batched.
// RUN: %python %e2e run %s google-run | FileCheck %s
// CHECK: e2e: 2 cases match numpy

// E2E: @attention(q: 2x4x8xf32, k: 2x6x8xf32, v: 2x6x8xf32) -> softmax(q @ np.transpose(k, (0, 2, 1)) / np.sqrt(8.0)) @ v
// E2E: @attention(q: 1x4x8xf32, k: 1x6x8xf32, v: 1x6x8xf32) -> softmax(q @ np.transpose(k, (0, 2, 1)) / np.sqrt(8.0)) @ v

func.func @attention(%q: tensor<?x4x8xf32>, %k: tensor<?x6x8xf32>, %v: tensor<?x6x8xf32>) -> tensor<?x4x8xf32> {
  %kt = google.transpose %k {perm = array<i64: 0, 2, 1>} : tensor<?x6x8xf32> -> tensor<?x8x6xf32>
  %s = google.matmul %q, %kt : tensor<?x4x8xf32>, tensor<?x8x6xf32> -> tensor<?x4x6xf32>
  %scale = google.constant dense<2.82842712> : tensor<f32>
  %scaled = google.div %s, %scale : tensor<?x4x6xf32>, tensor<f32> -> tensor<?x4x6xf32>
  %p = google.softmax %scaled {axis = -1 : i64} : tensor<?x4x6xf32>
  %o = google.matmul %p, %v : tensor<?x4x6xf32>, tensor<?x6x8xf32> -> tensor<?x4x8xf32>
  return %o : tensor<?x4x8xf32>
}
