// A value returned more than once (CSE merges equal results), or an
// argument returned as it is: every result gets a buffer of its own, for
// static results (out-parameters; this once crashed the compiler) and
// dynamic ones (runtime-owned buffers).
// RUN: %python %e2e run %s google-run | FileCheck %s
// CHECK: e2e: 3 cases match numpy

// E2E: @static_twice(a: 1x2xi32) -> (np.maximum(np.full((4, 1), 7, np.int32) @ a, 0), np.maximum(np.full((4, 1), 7, np.int32) @ a, 0))
func.func @static_twice(%a: tensor<1x2xi32>) -> (tensor<4x2xi32>, tensor<4x2xi32>) {
  %c = google.constant dense<7> : tensor<4x1xi32>
  %m = google.matmul %c, %a : tensor<4x1xi32>, tensor<1x2xi32> -> tensor<4x2xi32>
  %r0 = google.relu %m : tensor<4x2xi32>
  %r1 = google.relu %m : tensor<4x2xi32>
  return %r1, %r0 : tensor<4x2xi32>, tensor<4x2xi32>
}

// E2E: @dynamic_twice(a: 3x2xf32) -> (np.maximum(a, 0), np.maximum(a, 0), a)
// E2E: @dynamic_twice(a: 1x2xf32) -> (np.maximum(a, 0), np.maximum(a, 0), a)
func.func @dynamic_twice(%a: tensor<?x2xf32>) -> (tensor<?x2xf32>, tensor<?x2xf32>, tensor<?x2xf32>) {
  %r0 = google.relu %a : tensor<?x2xf32>
  %r1 = google.relu %a : tensor<?x2xf32>
  return %r1, %r0, %a : tensor<?x2xf32>, tensor<?x2xf32>, tensor<?x2xf32>
}
