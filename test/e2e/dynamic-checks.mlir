// Every run-time check, through the whole pipeline at every opt-level:
// mismatched dynamic extents are an error of the call that names the op
// and both extents, never an out-of-bounds access or a wrong result.
// RUN: %python %e2e run %s google-run | FileCheck %s
// CHECK: e2e: 14 cases match numpy, 18 fail as expected at opt-level {{0, 1, 2, 3|3}}

// E2E: @add(a: 4x8xf32, b: 4x8xf32) -> a + b
// E2E-ERROR: @add(a: 4x8xf32, b: 3x8xf32) -> @add: google.add: dimension 0 of operand #1 is 3, expected 4 like the other operand (dynamic dimensions are not broadcast)
func.func @add(%a: tensor<?x8xf32>, %b: tensor<?x8xf32>) -> tensor<?x8xf32> {
  %0 = google.add %a, %b : tensor<?x8xf32>, tensor<?x8xf32> -> tensor<?x8xf32>
  return %0 : tensor<?x8xf32>
}

// Elementwise fusion moves the refinement of %a to 4 elements into the
// neg; the check must survive it (it once vanished, printing nan).
// E2E: @neg_add(a: 4xf32, b: 4xf32) -> -a + b
// E2E-ERROR: @neg_add(a: 2xf32, b: 4xf32) -> @neg_add: google.add: dimension 0 of operand #0 is 2, expected 4 (dynamic dimensions are not broadcast)
func.func @neg_add(%a: tensor<?xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %n = google.neg %a : tensor<?xf32>
  %s = google.add %n, %b : tensor<?xf32>, tensor<4xf32> -> tensor<4xf32>
  return %s : tensor<4xf32>
}

// x >= x is true for integers, but folding it to a constant leaves x
// unused: the check of the comparison that computes x must stay (the
// differential tester's seed 140105 got results).
// E2E: @self_comparison(a: 8xi32, b: 3x8xi32) -> np.broadcast_to(a, (3, 8))
// E2E-ERROR: @self_comparison(a: 8xi32, b: 3x9xi32) -> @self_comparison: google.ge: dimension 1 of operand #1 is 9, expected 8 (dynamic dimensions are not broadcast)
func.func @self_comparison(%a: tensor<8xi32>, %b: tensor<3x?xi32>) -> tensor<3x8xi32> {
  %0 = google.ge %a, %b : tensor<8xi32>, tensor<3x?xi32> -> tensor<3x8xi1>
  %1 = google.select %0, %a, %a : tensor<3x8xi1>, tensor<8xi32>, tensor<8xi32> -> tensor<3x8xi32>
  %2 = google.ge %1, %1 : tensor<3x8xi32>, tensor<3x8xi32> -> tensor<3x8xi1>
  %3 = google.select %2, %a, %a : tensor<3x8xi1>, tensor<8xi32>, tensor<8xi32> -> tensor<3x8xi32>
  return %3 : tensor<3x8xi32>
}

// A static result extent fed by a dynamic operand extent (this once wrote
// past the caller's buffer with 3 rows and returned garbage with 1).
// E2E: @matmul_static_rows(a: 2x4xf32, b: 4x8xf32) -> a @ b
// E2E-ERROR: @matmul_static_rows(a: 3x4xf32, b: 4x8xf32) -> @matmul_static_rows: google.matmul: dimension 0 of lhs is 3, expected 2
// E2E-ERROR: @matmul_static_rows(a: 1x4xf32, b: 4x8xf32) -> @matmul_static_rows: google.matmul: dimension 0 of lhs is 1, expected 2
func.func @matmul_static_rows(%a: tensor<?x4xf32>, %b: tensor<4x8xf32>) -> tensor<2x8xf32> {
  %0 = google.matmul %a, %b : tensor<?x4xf32>, tensor<4x8xf32> -> tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}

// E2E-ERROR: @matmul_k(a: 2x3xf32, b: 4x5xf32) -> @matmul_k: google.matmul: the contracting dimension of rhs is 4, expected 3 like lhs's
// E2E-ERROR: @batch_matmul(a: 2x3x4xf32, b: 3x4x5xf32) -> @batch_matmul: google.matmul: the batch dimension of rhs is 3, expected 2 like lhs's
func.func @matmul_k(%a: tensor<2x?xf32>, %b: tensor<?x5xf32>) -> tensor<2x5xf32> {
  %0 = google.matmul %a, %b : tensor<2x?xf32>, tensor<?x5xf32> -> tensor<2x5xf32>
  return %0 : tensor<2x5xf32>
}
func.func @batch_matmul(%a: tensor<?x3x4xf32>, %b: tensor<?x4x5xf32>) -> tensor<?x3x5xf32> {
  %0 = google.matmul %a, %b : tensor<?x3x4xf32>, tensor<?x4x5xf32> -> tensor<?x3x5xf32>
  return %0 : tensor<?x3x5xf32>
}

// A matmul with dynamic N and a 4-element bias, given N = 5: unfused (the
// product is also returned) and fused.
// E2E: @matmul_bias_unfused(a: 2x3xf32, b: 3x4xf32, c: 4xf32) -> (relu(a @ b + c), a @ b)
// E2E-ERROR: @matmul_bias_unfused(a: 2x3xf32, b: 3x5xf32, c: 4xf32) -> @matmul_bias_unfused: google.add: dimension 1 of operand #0 is 5, expected 4 (dynamic dimensions are not broadcast)
// E2E-ERROR: @matmul_bias_fused(a: 2x3xf32, b: 3x5xf32, c: 4xf32) -> @matmul_bias_fused: google.matmul_bias_relu: dimension 1 of rhs is 5, expected 4
func.func @matmul_bias_unfused(%a: tensor<2x3xf32>, %b: tensor<3x?xf32>, %c: tensor<4xf32>) -> (tensor<2x?xf32>, tensor<2x?xf32>) {
  %m = google.matmul %a, %b : tensor<2x3xf32>, tensor<3x?xf32> -> tensor<2x?xf32>
  %s = google.add %m, %c : tensor<2x?xf32>, tensor<4xf32> -> tensor<2x?xf32>
  %r = google.relu %s : tensor<2x?xf32>
  return %r, %m : tensor<2x?xf32>, tensor<2x?xf32>
}
func.func @matmul_bias_fused(%a: tensor<2x3xf32>, %b: tensor<3x?xf32>, %c: tensor<4xf32>) -> tensor<2x?xf32> {
  %m = google.matmul %a, %b : tensor<2x3xf32>, tensor<3x?xf32> -> tensor<2x?xf32>
  %s = google.add %m, %c : tensor<2x?xf32>, tensor<4xf32> -> tensor<2x?xf32>
  %r = google.relu %s : tensor<2x?xf32>
  return %r : tensor<2x?xf32>
}

// A [1] bias stretches over a dynamic N: fusion must leave it alone.
// E2E: @unit_bias(a: 2x3xf32, b: 3x4xf32, c: 1xf32) -> relu(a @ b + c)
func.func @unit_bias(%a: tensor<2x3xf32>, %b: tensor<3x?xf32>, %c: tensor<1xf32>) -> tensor<2x?xf32> {
  %m = google.matmul %a, %b : tensor<2x3xf32>, tensor<3x?xf32> -> tensor<2x?xf32>
  %s = google.add %m, %c : tensor<2x?xf32>, tensor<1xf32> -> tensor<2x?xf32>
  %r = google.relu %s : tensor<2x?xf32>
  return %r : tensor<2x?xf32>
}

// E2E: @fused_bias(a: 2x3xf32, b: 3x4xf32, c: 4xf32) -> relu(a @ b + c)
// E2E-ERROR: @fused_bias(a: 2x3xf32, b: 3x4xf32, c: 5xf32) -> @fused_bias: google.matmul_bias_relu: the bias has 5 elements, expected N = 4
func.func @fused_bias(%a: tensor<2x3xf32>, %b: tensor<3x?xf32>, %c: tensor<?xf32>) -> tensor<2x?xf32> {
  %0 = google.matmul_bias_relu %a, %b, %c : tensor<2x3xf32>, tensor<3x?xf32>, tensor<?xf32> -> tensor<2x?xf32>
  return %0 : tensor<2x?xf32>
}

// E2E: @reduce_static(x: 2x4xf32) -> x.sum(axis=1)
// E2E-ERROR: @reduce_static(x: 1x4xf32) -> @reduce_static: google.reduce_sum: dimension 0 of the input is 1, expected 2
func.func @reduce_static(%x: tensor<?x4xf32>) -> tensor<2xf32> {
  %0 = google.reduce_sum %x {axes = array<i64: 1>, keep_dims = false} : tensor<?x4xf32> -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// E2E: @transpose_static(x: 2x4xf32) -> x.T
// E2E-ERROR: @transpose_static(x: 3x4xf32) -> @transpose_static: google.transpose: dimension 0 of the input is 3, expected 2
func.func @transpose_static(%x: tensor<?x4xf32>) -> tensor<4x2xf32> {
  %0 = google.transpose %x {perm = array<i64: 1, 0>} : tensor<?x4xf32> -> tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}

// E2E: @reshape_dynamic(x: 3x6xf32) -> x.reshape(-1, 9)
// E2E-ERROR: @reshape_dynamic(x: 2x6xf32) -> @reshape_dynamic: google.reshape: the element count is not a multiple of 9 (the result's static extents): the remainder is 3
// E2E-ERROR: @reshape_static(x: 3x4xf32) -> @reshape_static: google.reshape: the input has 12 elements, expected 8
func.func @reshape_dynamic(%x: tensor<?x6xf32>) -> tensor<?x9xf32> {
  %0 = google.reshape %x : tensor<?x6xf32> -> tensor<?x9xf32>
  return %0 : tensor<?x9xf32>
}
func.func @reshape_static(%x: tensor<?x4xf32>) -> tensor<2x4xf32> {
  %0 = google.reshape %x : tensor<?x4xf32> -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// E2E: @cast_static(x: 3xf32) -> x.astype(np.float16)
// E2E-ERROR: @cast_static(x: 2xf32) -> @cast_static: google.cast: dimension 0 of operand #0 is 2, expected 3
func.func @cast_static(%x: tensor<?xf32>) -> tensor<3xf16> {
  %0 = google.cast %x : tensor<?xf32> -> tensor<3xf16>
  return %0 : tensor<3xf16>
}

// A dynamic extent meets another through a private function: the check
// runs after the call that produces it.
// E2E-ERROR: @via_call(a: 2x8xf32, b: 3x8xf32) -> @via_call: google.add: dimension 0 of operand #1 is 3, expected 2 like the other operand
func.func private @twice(%a: tensor<?x8xf32>) -> tensor<?x8xf32> {
  %0 = google.add %a, %a : tensor<?x8xf32>, tensor<?x8xf32> -> tensor<?x8xf32>
  return %0 : tensor<?x8xf32>
}
func.func @via_call(%a: tensor<?x8xf32>, %b: tensor<?x8xf32>) -> tensor<?x8xf32> {
  %t = func.call @twice(%a) : (tensor<?x8xf32>) -> tensor<?x8xf32>
  %0 = google.add %t, %b : tensor<?x8xf32>, tensor<?x8xf32> -> tensor<?x8xf32>
  return %0 : tensor<?x8xf32>
}

// Dynamic against a static 1: the 1 stretches, the dynamic extent does not.
// E2E: @stretch_static_one(a: 3x8xf32, b: 1x8xf32) -> a * b
// E2E: @stretch_static_one(a: 1x8xf32, b: 1x8xf32) -> a * b
func.func @stretch_static_one(%a: tensor<?x8xf32>, %b: tensor<1x8xf32>) -> tensor<?x8xf32> {
  %0 = google.mul %a, %b : tensor<?x8xf32>, tensor<1x8xf32> -> tensor<?x8xf32>
  return %0 : tensor<?x8xf32>
}
// E2E-ERROR: @no_dynamic_stretch(a: 1x8xf32, b: 3x8xf32) -> @no_dynamic_stretch: google.add: dimension 0 of operand #1 is 3, expected 1 like the other operand
func.func @no_dynamic_stretch(%a: tensor<?x8xf32>, %b: tensor<?x8xf32>) -> tensor<?x8xf32> {
  %0 = google.add %a, %b : tensor<?x8xf32>, tensor<?x8xf32> -> tensor<?x8xf32>
  return %0 : tensor<?x8xf32>
}

// x / 1 must not fold away the check that the dynamic extent is 5
// (difftest seed 2814).
// E2E: @div_one_checks(x: 2x5x5xf32) -> x
// E2E-ERROR: @div_one_checks(x: 2x6x5xf32) -> @div_one_checks: google.div: dimension 1 of operand #0 is 6, expected 5
func.func @div_one_checks(%x: tensor<2x?x5xf32>) -> tensor<2x?x5xf32> {
  %one = google.constant dense<1.0> : tensor<2x5x1xf32>
  %0 = google.div %x, %one : tensor<2x?x5xf32>, tensor<2x5x1xf32> -> tensor<2x?x5xf32>
  return %0 : tensor<2x?x5xf32>
}
