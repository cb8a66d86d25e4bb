// RUN: %python %e2e run %s google-run | FileCheck %s
// CHECK: e2e: 5 cases match numpy, 1 fail as expected
// argmax and argmin: the first index of the extreme, NaN first, as numpy.

// E2E: @arg(x: 6x33xf32) -> (np.argmax(x, axis=1), np.argmin(x, axis=0), np.argmax(x, axis=0)[None, :])
// E2E: @ints(x: 5x7xi32[-2:2], p: 3x4xi1) -> (np.argmax(x, axis=1), np.argmin(x, axis=-1), np.argmax(p, axis=1), np.argmin(p, axis=0))
// E2E: @nan(x: 4x5xf32) -> (np.argmax(np.where(x > 1, np.nan, x), axis=1), np.argmin(np.where(x > 1, np.nan, x), axis=1))
// E2E: @dynamic(x: 3x9xf64) -> np.argmax(x, axis=1)
// Several dynamic leading extents: no collapsed 2-D view (expanding its
// rows back crashed the memref lowering at opt-level 1 and up).
// E2E: @dynamic_rows(x: 4x3x6xi64[-3:3]) -> np.argmin(x, axis=-1)[..., None]
// E2E-ERROR: @dynamic(x: 3x0xf64) -> @dynamic: google.argmax: axis 1 is empty (extent 0)

func.func @arg(%x: tensor<6x33xf32>) -> (tensor<6xi64>, tensor<33xi64>, tensor<1x33xi64>) {
  %0 = google.argmax %x {axis = 1 : i64, keep_dims = false} : tensor<6x33xf32> -> tensor<6xi64>
  %1 = google.argmin %x {axis = 0 : i64, keep_dims = false} : tensor<6x33xf32> -> tensor<33xi64>
  %2 = google.argmax %x {axis = 0 : i64, keep_dims = true} : tensor<6x33xf32> -> tensor<1x33xi64>
  return %0, %1, %2 : tensor<6xi64>, tensor<33xi64>, tensor<1x33xi64>
}
func.func @ints(%x: tensor<5x7xi32>, %p: tensor<3x4xi1>) -> (tensor<5xi64>, tensor<5xi64>, tensor<3xi64>, tensor<4xi64>) {
  %0 = google.argmax %x {axis = 1 : i64, keep_dims = false} : tensor<5x7xi32> -> tensor<5xi64>
  %1 = google.argmin %x {axis = -1 : i64, keep_dims = false} : tensor<5x7xi32> -> tensor<5xi64>
  %2 = google.argmax %p {axis = 1 : i64, keep_dims = false} : tensor<3x4xi1> -> tensor<3xi64>
  %3 = google.argmin %p {axis = 0 : i64, keep_dims = false} : tensor<3x4xi1> -> tensor<4xi64>
  return %0, %1, %2, %3 : tensor<5xi64>, tensor<5xi64>, tensor<3xi64>, tensor<4xi64>
}
func.func @nan(%x: tensor<4x5xf32>) -> (tensor<4xi64>, tensor<4xi64>) {
  %one = google.constant dense<1.0> : tensor<f32>
  %nan = google.constant dense<0x7FC00000> : tensor<f32>
  %big = google.gt %x, %one : tensor<4x5xf32>, tensor<f32> -> tensor<4x5xi1>
  %y = google.select %big, %nan, %x : tensor<4x5xi1>, tensor<f32>, tensor<4x5xf32> -> tensor<4x5xf32>
  %0 = google.argmax %y {axis = 1 : i64, keep_dims = false} : tensor<4x5xf32> -> tensor<4xi64>
  %1 = google.argmin %y {axis = 1 : i64, keep_dims = false} : tensor<4x5xf32> -> tensor<4xi64>
  return %0, %1 : tensor<4xi64>, tensor<4xi64>
}
func.func @dynamic(%x: tensor<?x?xf64>) -> tensor<?xi64> {
  %0 = google.argmax %x {axis = 1 : i64, keep_dims = false} : tensor<?x?xf64> -> tensor<?xi64>
  return %0 : tensor<?xi64>
}
func.func @dynamic_rows(%x: tensor<?x?x?xi64>) -> tensor<?x?x1xi64> {
  %0 = google.argmin %x {axis = -1 : i64, keep_dims = true} : tensor<?x?x?xi64> -> tensor<?x?x1xi64>
  return %0 : tensor<?x?x1xi64>
}
