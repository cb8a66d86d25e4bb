// RUN: %python %e2e run %s google-run | FileCheck %s
// CHECK: e2e: 6 cases match numpy, 4 fail as expected
// google.scatter_add (the adjoint of gather): repeated and negative indices
// accumulate, f16/bf16 in f32 rounded once, and bad indices or update
// shapes are run-time errors of the call.

// E2E: @rows(b: 10x4xf32, ids: 3x5xi64[-10:9], u: 3x5x4xf32) -> scatter_add(b, ids, u)
// E2E: @middle(b: 2x6x3xbf16, ids: 7xi32[-6:5], u: 2x7x3xbf16) -> scatter_add(b, ids, u, axis=1)
// E2E: @ints(b: 5x3xi32, ids: 6xi64[0:4], u: 6x3xi32) -> scatter_add(b, ids, u)
// E2E: @dynamic(b: 7x4xf32, ids: 9xi64[-7:6], u: 9x4xf32) -> scatter_add(b, ids, u)
// E2E: @dynamic(b: 7x4xf32, ids: 0xi64, u: 0x4xf32) -> b
// E2E: @last(b: 3x5xf16, ids: 2x2xi32[0:4], u: 3x2x2xf16) -> scatter_add(b, ids, u, axis=1)
// E2E-ERROR: @rows(b: 10x4xf32, ids: 3x5xi64[10:12], u: 3x5x4xf32) -> @rows: google.scatter_add: 15 indices are outside [-10, 10) for axis 0 (expected 0)
// E2E-ERROR: @dynamic(b: 7x4xf32, ids: 9xi64[0:6], u: 8x4xf32) -> google.scatter_add: dimension 0 of the updates is 8, expected 9
// E2E-ERROR: @dynamic(b: 7x4xf32, ids: 9xi64[0:6], u: 9x3xf32) -> google.scatter_add: dimension 1 of the updates is 3, expected 4
// E2E-ERROR: @dynamic(b: 0x4xf32, ids: 2xi64[0:0], u: 2x4xf32) -> google.scatter_add: 2 indices are outside its extent for axis 0

func.func @rows(%b: tensor<10x4xf32>, %ids: tensor<3x5xi64>, %u: tensor<3x5x4xf32>) -> tensor<10x4xf32> {
  %0 = google.scatter_add %b, %ids, %u {axis = 0 : i64} : tensor<10x4xf32>, tensor<3x5xi64>, tensor<3x5x4xf32> -> tensor<10x4xf32>
  return %0 : tensor<10x4xf32>
}
func.func @middle(%b: tensor<2x6x3xbf16>, %ids: tensor<7xi32>, %u: tensor<2x7x3xbf16>) -> tensor<2x6x3xbf16> {
  %0 = google.scatter_add %b, %ids, %u {axis = 1 : i64} : tensor<2x6x3xbf16>, tensor<7xi32>, tensor<2x7x3xbf16> -> tensor<2x6x3xbf16>
  return %0 : tensor<2x6x3xbf16>
}
func.func @ints(%b: tensor<5x3xi32>, %ids: tensor<6xi64>, %u: tensor<6x3xi32>) -> tensor<5x3xi32> {
  %0 = google.scatter_add %b, %ids, %u {axis = -2 : i64} : tensor<5x3xi32>, tensor<6xi64>, tensor<6x3xi32> -> tensor<5x3xi32>
  return %0 : tensor<5x3xi32>
}
func.func @dynamic(%b: tensor<?x4xf32>, %ids: tensor<?xi64>, %u: tensor<?x?xf32>) -> tensor<?x4xf32> {
  %0 = google.scatter_add %b, %ids, %u {axis = 0 : i64} : tensor<?x4xf32>, tensor<?xi64>, tensor<?x?xf32> -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}
func.func @last(%b: tensor<3x5xf16>, %ids: tensor<2x2xi32>, %u: tensor<3x2x2xf16>) -> tensor<3x5xf16> {
  %0 = google.scatter_add %b, %ids, %u {axis = 1 : i64} : tensor<3x5xf16>, tensor<2x2xi32>, tensor<3x2x2xf16> -> tensor<3x5xf16>
  return %0 : tensor<3x5xf16>
}
