// A training step's parameter updates at its end (w - lr * dw after every
// gradient): on the GPU each moves up to the kernel that computes its
// gradient and runs as its epilogue (the bias's after its column sum, the
// weight's after its matmul), past the ops between that touch neither.
// An update whose result a later op reads stays where it is.
// RUN: %python %e2e run %s google-run | FileCheck %s
// CHECK: e2e: 2 cases match numpy

// E2E: @sgd_step(x: 64x32xf32, w: 32x16xf32, b: 16xf32, dy: 64x16xf32) -> (w - np.float32(0.1) * (x.T @ dy), b - np.float32(0.1) * dy.sum(axis=0), np.maximum(x @ w, 0))
func.func @sgd_step(%x: tensor<64x32xf32>, %w: tensor<32x16xf32>, %b: tensor<16xf32>, %dy: tensor<64x16xf32>) -> (tensor<32x16xf32>, tensor<16xf32>, tensor<64x16xf32>) {
  %db = google.reduce_sum %dy {axes = array<i64: 0>, keep_dims = false} : tensor<64x16xf32> -> tensor<16xf32>
  %xt = google.transpose %x {perm = array<i64: 1, 0>} : tensor<64x32xf32> -> tensor<32x64xf32>
  %dw = google.matmul %xt, %dy : tensor<32x64xf32>, tensor<64x16xf32> -> tensor<32x16xf32>
  %y = google.matmul %x, %w : tensor<64x32xf32>, tensor<32x16xf32> -> tensor<64x16xf32>
  %r = google.relu %y : tensor<64x16xf32>
  %lr = google.constant dense<0.1> : tensor<f32>
  %sdb = google.mul %db, %lr : tensor<16xf32>, tensor<f32> -> tensor<16xf32>
  %b2 = google.sub %b, %sdb : tensor<16xf32>, tensor<16xf32> -> tensor<16xf32>
  %sdw = google.mul %dw, %lr : tensor<32x16xf32>, tensor<f32> -> tensor<32x16xf32>
  %w2 = google.sub %w, %sdw : tensor<32x16xf32>, tensor<32x16xf32> -> tensor<32x16xf32>
  return %w2, %b2, %r : tensor<32x16xf32>, tensor<16xf32>, tensor<64x16xf32>
}

// E2E: @read_after(x: 100x40xf32, b: 40xf32) -> (b - np.float32(0.5) * x.sum(axis=0), (np.tanh(x) * (b - np.float32(0.5) * x.sum(axis=0))).sum(axis=1))
func.func @read_after(%x: tensor<100x40xf32>, %b: tensor<40xf32>) -> (tensor<40xf32>, tensor<100xf32>) {
  %db = google.reduce_sum %x {axes = array<i64: 0>, keep_dims = false} : tensor<100x40xf32> -> tensor<40xf32>
  %t = google.tanh %x : tensor<100x40xf32>
  %lr = google.constant dense<0.5> : tensor<f32>
  %s = google.mul %db, %lr : tensor<40xf32>, tensor<f32> -> tensor<40xf32>
  %b2 = google.sub %b, %s : tensor<40xf32>, tensor<40xf32> -> tensor<40xf32>
  %m = google.mul %t, %b2 : tensor<100x40xf32>, tensor<40xf32> -> tensor<100x40xf32>
  %p = google.reduce_sum %m {axes = array<i64: 1>, keep_dims = false} : tensor<100x40xf32> -> tensor<100xf32>
  return %b2, %p : tensor<40xf32>, tensor<100xf32>
}
