// RUN: %python %e2e run %s google-run | FileCheck %s
// CHECK: e2e: 20 cases match numpy, 12 fail as expected
// concat, pad, iota and gather (numpy.take): data movement by index.

// E2E: @join(a: 2x3xf32, b: 2x5xf32, c: 2x0xf32) -> np.concatenate([a, b, c], axis=1)
// E2E: @join_dynamic(a: 3x4xf32, b: 2x4xf32) -> np.concatenate([a, b, a], axis=0)
// E2E-ERROR: @join_dynamic(a: 3x4xf32, b: 2x5xf32) -> @join_dynamic: google.concat: dimension 1 of input 1 is 5, expected 4
// E2E: @stack_bools(p: 4xi1, q: 4xi1) -> np.stack([p, q])
// E2E: @pad(x: 3x4xf32, v: f32) -> (np.pad(x, ((1, 2), (0, 3)), constant_values=v), np.pad(x, ((0, 0), (2, 2))))
// E2E: @pad_dynamic(x: 5x2xi32) -> np.pad(x, ((2, 1), (1, 1)), constant_values=7)
// E2E: @iota() -> (np.broadcast_to(np.arange(5), (3, 5)), np.broadcast_to(np.arange(3.0)[:, None], (3, 4)))
// E2E: @iota_like(x: 6x3xi1) -> np.broadcast_to(np.arange(6)[:, None], (6, 3))
// E2E: @take(t: 10x4xf32, ids: 3x5xi64[-10:9]) -> np.take(t, ids, axis=0)
// E2E: @take_middle(t: 2x6x3xbf16, ids: 4xi32[0:5]) -> np.take(t, ids, axis=1)
// E2E-ERROR: @take(t: 10x4xf32, ids: 3x5xi64[10:12]) -> @take: google.gather: 15 indices are outside [-10, 10) for axis 0 (expected 0)
// E2E-ERROR: @take(t: 10x4xf32, ids: 3x5xi64[-12:-11]) -> google.gather: 15 indices are outside
// E2E: @take_dynamic(t: 7x4xf32, ids: 9xi64[-7:6]) -> np.take(t, ids, axis=0)
// E2E-ERROR: @take_dynamic(t: 0x4xf32, ids: 2xi64[0:0]) -> google.gather: 2 indices are outside its extent for axis 0
// A statically empty axis with a dynamic number of indices verifies (the
// count is checked at run time; the verifier once read the element count
// of the dynamic index shape).
// E2E: @take_from_empty(t: 3x0xi32, ids: 0xi64) -> np.take(t, ids, axis=1)
// E2E-ERROR: @take_from_empty(t: 3x0xi32, ids: 2xi64[0:0]) -> google.gather: 2 indices are outside
// One index (0-d indices): the slice at it.
// E2E: @take_one(t: 6x3x4xf32, i: i64[-6:5]) -> np.take(t, i, axis=0)
// E2E: @take_one_middle(t: 2x5x3xbf16, i: i32[-5:4]) -> np.take(t, i, axis=1)
// E2E: @take_one_dynamic(t: 7x4xf32, i: i64[-7:6]) -> np.take(t, i, axis=0)
// E2E: @take_one_last(x: 1x2x3x3xf64, w: 1x3x3x2xf64, i: i32[-2:1]) -> np.take(conv(x, w, (2, 1), (2, 1), (1, 1, 2, 2), 1), i, axis=3)
// E2E: @take_one_empty(t: 3x0xf64, i: i64[-3:2]) -> np.take(t, i, axis=0)
// An index gathered from an index vector, then used on the host to gather
// (how a scan's backward step reads its step's index: on GPUs the host
// reads it from a view of the vector, which failed to lower).
// E2E: @take_taken(order: 5xi32[-6:5], i: i64[-5:4], t: 6x3xf32) -> np.take(t, np.take(order, i), axis=0)
// E2E-ERROR: @take_one(t: 6x3x4xf32, i: i64[6:9]) -> @take_one: google.gather: 1 indices are outside [-6, 6) for axis 0 (expected 0)
// E2E-ERROR: @take_one_dynamic(t: 0x4xf32, i: i64[0:0]) -> google.gather: 1 indices are outside its extent for axis 0
// Index checks are made where the call ends (on GPUs, no copy and wait in
// its middle), after the work that reads the clamped rows, but before
// another check: the first failure in program order is reported.
// E2E: @embed(t: 10x4xf32, ids: 6xi64[-10:9], w: 4x5xf32) -> softmax(np.take(t, ids, axis=0) @ w)
// E2E-ERROR: @embed(t: 10x4xf32, ids: 6xi64[10:12], w: 4x5xf32) -> @embed: google.gather: 6 indices are outside [-10, 10) for axis 0 (expected 0)
// E2E: @two_tables(t: 10x4xf32, u: 6x4xf32, ids: 3xi64[0:5]) -> np.tanh(np.take(t, ids, axis=0)) + np.take(u, ids, axis=0)
// E2E-ERROR: @two_tables(t: 10x4xf32, u: 6x4xf32, ids: 3xi64[12:14]) -> google.gather: 3 indices are outside [-10, 10) for axis 0
// E2E-ERROR: @two_tables(t: 10x4xf32, u: 6x4xf32, ids: 3xi64[7:9]) -> google.gather: 3 indices are outside [-6, 6) for axis 0
// E2E: @take_then_join(t: 10x4xf32, ids: 3xi64[0:9], b: 2x4xf32) -> np.concatenate([np.take(t, ids, axis=0) * 2, b], axis=0)
// E2E-ERROR: @take_then_join(t: 10x4xf32, ids: 3xi64[10:12], b: 2x5xf32) -> google.gather: 3 indices are outside [-10, 10) for axis 0
// E2E-ERROR: @take_then_join(t: 10x4xf32, ids: 3xi64[0:9], b: 2x5xf32) -> google.concat: dimension 1 of input 1 is 5, expected 4

func.func @join(%a: tensor<2x3xf32>, %b: tensor<2x5xf32>, %c: tensor<2x0xf32>) -> tensor<2x8xf32> {
  %0 = google.concat %a, %b, %c {axis = -1 : i64} : tensor<2x3xf32>, tensor<2x5xf32>, tensor<2x0xf32> -> tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}
func.func @join_dynamic(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %0 = google.concat %a, %b, %a {axis = 0 : i64} : tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32> -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}
func.func @stack_bools(%p: tensor<4xi1>, %q: tensor<4xi1>) -> tensor<2x4xi1> {
  %0 = google.reshape %p : tensor<4xi1> -> tensor<1x4xi1>
  %1 = google.reshape %q : tensor<4xi1> -> tensor<1x4xi1>
  %2 = google.concat %0, %1 {axis = 0 : i64} : tensor<1x4xi1>, tensor<1x4xi1> -> tensor<2x4xi1>
  return %2 : tensor<2x4xi1>
}
func.func @pad(%x: tensor<3x4xf32>, %v: tensor<f32>) -> (tensor<6x7xf32>, tensor<3x8xf32>) {
  %0 = google.pad %x, %v {low = array<i64: 1, 0>, high = array<i64: 2, 3>} : tensor<3x4xf32>, tensor<f32> -> tensor<6x7xf32>
  %zero = google.constant dense<0.0> : tensor<f32>
  %1 = google.pad %x, %zero {low = array<i64: 0, 2>, high = array<i64: 0, 2>} : tensor<3x4xf32>, tensor<f32> -> tensor<3x8xf32>
  return %0, %1 : tensor<6x7xf32>, tensor<3x8xf32>
}
func.func @pad_dynamic(%x: tensor<?x2xi32>) -> tensor<?x4xi32> {
  %seven = google.constant dense<7> : tensor<i32>
  %0 = google.pad %x, %seven {low = array<i64: 2, 1>, high = array<i64: 1, 1>} : tensor<?x2xi32>, tensor<i32> -> tensor<?x4xi32>
  return %0 : tensor<?x4xi32>
}
func.func @iota() -> (tensor<3x5xi64>, tensor<3x4xf32>) {
  %0 = google.iota {dimension = 1 : i64} : tensor<3x5xi64>
  %1 = google.iota {dimension = 0 : i64} : tensor<3x4xf32>
  return %0, %1 : tensor<3x5xi64>, tensor<3x4xf32>
}
func.func @iota_like(%x: tensor<?x3xi1>) -> tensor<?x3xi64> {
  %0 = google.iota like(%x : tensor<?x3xi1>) {dimension = 0 : i64} : tensor<?x3xi64>
  return %0 : tensor<?x3xi64>
}
func.func @take(%t: tensor<10x4xf32>, %ids: tensor<3x5xi64>) -> tensor<3x5x4xf32> {
  %0 = google.gather %t, %ids {axis = 0 : i64} : tensor<10x4xf32>, tensor<3x5xi64> -> tensor<3x5x4xf32>
  return %0 : tensor<3x5x4xf32>
}
func.func @take_middle(%t: tensor<2x6x3xbf16>, %ids: tensor<4xi32>) -> tensor<2x4x3xbf16> {
  %0 = google.gather %t, %ids {axis = 1 : i64} : tensor<2x6x3xbf16>, tensor<4xi32> -> tensor<2x4x3xbf16>
  return %0 : tensor<2x4x3xbf16>
}
func.func @take_from_empty(%t: tensor<?x0xi32>, %ids: tensor<?xi64>) -> tensor<?x?xi32> {
  %0 = google.gather %t, %ids {axis = 1 : i64} : tensor<?x0xi32>, tensor<?xi64> -> tensor<?x?xi32>
  return %0 : tensor<?x?xi32>
}
func.func @take_dynamic(%t: tensor<?x4xf32>, %ids: tensor<?xi64>) -> tensor<?x4xf32> {
  %0 = google.gather %t, %ids {axis = 0 : i64} : tensor<?x4xf32>, tensor<?xi64> -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}
func.func @embed(%t: tensor<10x4xf32>, %ids: tensor<6xi64>, %w: tensor<4x5xf32>) -> tensor<6x5xf32> {
  %0 = google.gather %t, %ids {axis = 0 : i64} : tensor<10x4xf32>, tensor<6xi64> -> tensor<6x4xf32>
  %1 = google.matmul %0, %w : tensor<6x4xf32>, tensor<4x5xf32> -> tensor<6x5xf32>
  %2 = google.softmax %1 {axis = -1 : i64} : tensor<6x5xf32>
  return %2 : tensor<6x5xf32>
}
func.func @two_tables(%t: tensor<10x4xf32>, %u: tensor<6x4xf32>, %ids: tensor<3xi64>) -> tensor<3x4xf32> {
  %0 = google.gather %t, %ids {axis = 0 : i64} : tensor<10x4xf32>, tensor<3xi64> -> tensor<3x4xf32>
  %1 = google.tanh %0 : tensor<3x4xf32>
  %2 = google.gather %u, %ids {axis = 0 : i64} : tensor<6x4xf32>, tensor<3xi64> -> tensor<3x4xf32>
  %3 = google.add %1, %2 : tensor<3x4xf32>, tensor<3x4xf32> -> tensor<3x4xf32>
  return %3 : tensor<3x4xf32>
}
func.func @take_then_join(%t: tensor<10x4xf32>, %ids: tensor<3xi64>, %b: tensor<?x?xf32>) -> tensor<?x4xf32> {
  %0 = google.gather %t, %ids {axis = 0 : i64} : tensor<10x4xf32>, tensor<3xi64> -> tensor<3x4xf32>
  %1 = google.add %0, %0 : tensor<3x4xf32>, tensor<3x4xf32> -> tensor<3x4xf32>
  %2 = google.concat %1, %b {axis = 0 : i64} : tensor<3x4xf32>, tensor<?x?xf32> -> tensor<?x4xf32>
  return %2 : tensor<?x4xf32>
}
func.func @take_one_last(%x: tensor<1x2x3x3xf64>, %w: tensor<1x3x3x2xf64>, %i: tensor<i32>) -> tensor<1x2x5xf64> {
  %c = google.conv2d %x, %w {strides = array<i64: 2, 1>, dilations = array<i64: 2, 1>, padding = array<i64: 1, 1, 2, 2>, groups = 1 : i64} : tensor<1x2x3x3xf64>, tensor<1x3x3x2xf64> -> tensor<1x2x5x2xf64>
  %0 = google.gather %c, %i {axis = 3 : i64} : tensor<1x2x5x2xf64>, tensor<i32> -> tensor<1x2x5xf64>
  return %0 : tensor<1x2x5xf64>
}
func.func @take_one_empty(%t: tensor<3x0xf64>, %i: tensor<i64>) -> tensor<0xf64> {
  %0 = google.gather %t, %i {axis = 0 : i64} : tensor<3x0xf64>, tensor<i64> -> tensor<0xf64>
  return %0 : tensor<0xf64>
}
func.func @take_one(%t: tensor<6x3x4xf32>, %i: tensor<i64>) -> tensor<3x4xf32> {
  %0 = google.gather %t, %i {axis = 0 : i64} : tensor<6x3x4xf32>, tensor<i64> -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}
func.func @take_one_middle(%t: tensor<2x5x3xbf16>, %i: tensor<i32>) -> tensor<2x3xbf16> {
  %0 = google.gather %t, %i {axis = 1 : i64} : tensor<2x5x3xbf16>, tensor<i32> -> tensor<2x3xbf16>
  return %0 : tensor<2x3xbf16>
}
func.func @take_one_dynamic(%t: tensor<?x4xf32>, %i: tensor<i64>) -> tensor<4xf32> {
  %0 = google.gather %t, %i {axis = 0 : i64} : tensor<?x4xf32>, tensor<i64> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func @take_taken(%order: tensor<5xi32>, %i: tensor<i64>, %t: tensor<6x3xf32>) -> tensor<3xf32> {
  %k = google.gather %order, %i {axis = 0 : i64} : tensor<5xi32>, tensor<i64> -> tensor<i32>
  %0 = google.gather %t, %k {axis = 0 : i64} : tensor<6x3xf32>, tensor<i32> -> tensor<3xf32>
  return %0 : tensor<3xf32>
}
