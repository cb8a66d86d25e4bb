// Mismatched dynamic extents stop the program instead of reading out of
// bounds.
// RUN: %python %e2e emit %s | google-opt --google-extreme-pipeline | not --crash mlir-runner -e main -entry-point-result=void -shared-libs=%google_runtime,%mlir_runner_utils,%mlir_c_runner_utils

// E2E: @add(a: 4x8xf32, b: 3x8xf32) -> a + b

func.func @add(%a: tensor<?x8xf32>, %b: tensor<?x8xf32>) -> tensor<?x8xf32> {
  %0 = google.add %a, %b : tensor<?x8xf32>, tensor<?x8xf32> -> tensor<?x8xf32>
  return %0 : tensor<?x8xf32>
}
