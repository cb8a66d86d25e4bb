// Mismatched dynamic extents are an error of the call, reported by
// google-run, instead of an out-of-bounds read or a crash.
// RUN: not google-run %s --input=4x8xf32=1 --input=3x8xf32=2 2>&1 | FileCheck %s
// CHECK: error: @add: google.add: dimension 0 of operand #1 does not match the result (dynamic dimensions are not broadcast)
// CHECK-NOT: result[

func.func @add(%a: tensor<?x8xf32>, %b: tensor<?x8xf32>) -> tensor<?x8xf32> {
  %0 = google.add %a, %b : tensor<?x8xf32>, tensor<?x8xf32> -> tensor<?x8xf32>
  return %0 : tensor<?x8xf32>
}
