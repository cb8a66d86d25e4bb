// RUN: %python %e2e run %s google-run | FileCheck %s
// CHECK: e2e: 8 cases match numpy

// E2E: @add(x: 4x8xf32, y: 8xf32) -> x + y
// E2E: @sub(x: 4x1xf32, y: 1x8xf32) -> x - y
// E2E: @mul(x: 3x4xf32, y: f32) -> x * y
// E2E: @div(x: 2x3x4xf32, y: 3x1xf32[0.5:3]) -> x / y
// E2E: @max(x: 5xf32, y: 5xf32) -> np.maximum(x, y)
// E2E: @min(x: 2x5xf32, y: 5xf32) -> np.minimum(x, y)
// E2E: @chain(x: 4x8xf32, y: 8xf32, z: 4x1xf32) -> (x + y) * z - y
// E2E: @two_results(x: 3x3xf32, y: 3xf32) -> (x + y, x * y)

func.func @add(%x: tensor<4x8xf32>, %y: tensor<8xf32>) -> tensor<4x8xf32> {
  %0 = google.add %x, %y : tensor<4x8xf32>, tensor<8xf32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}
func.func @sub(%x: tensor<4x1xf32>, %y: tensor<1x8xf32>) -> tensor<4x8xf32> {
  %0 = google.sub %x, %y : tensor<4x1xf32>, tensor<1x8xf32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}
func.func @mul(%x: tensor<3x4xf32>, %y: tensor<f32>) -> tensor<3x4xf32> {
  %0 = google.mul %x, %y : tensor<3x4xf32>, tensor<f32> -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}
func.func @div(%x: tensor<2x3x4xf32>, %y: tensor<3x1xf32>) -> tensor<2x3x4xf32> {
  %0 = google.div %x, %y : tensor<2x3x4xf32>, tensor<3x1xf32> -> tensor<2x3x4xf32>
  return %0 : tensor<2x3x4xf32>
}
func.func @max(%x: tensor<5xf32>, %y: tensor<5xf32>) -> tensor<5xf32> {
  %0 = google.max %x, %y : tensor<5xf32>, tensor<5xf32> -> tensor<5xf32>
  return %0 : tensor<5xf32>
}
func.func @min(%x: tensor<2x5xf32>, %y: tensor<5xf32>) -> tensor<2x5xf32> {
  %0 = google.min %x, %y : tensor<2x5xf32>, tensor<5xf32> -> tensor<2x5xf32>
  return %0 : tensor<2x5xf32>
}
func.func @chain(%x: tensor<4x8xf32>, %y: tensor<8xf32>, %z: tensor<4x1xf32>) -> tensor<4x8xf32> {
  %0 = google.add %x, %y : tensor<4x8xf32>, tensor<8xf32> -> tensor<4x8xf32>
  %1 = google.mul %0, %z : tensor<4x8xf32>, tensor<4x1xf32> -> tensor<4x8xf32>
  %2 = google.sub %1, %y : tensor<4x8xf32>, tensor<8xf32> -> tensor<4x8xf32>
  return %2 : tensor<4x8xf32>
}
func.func @two_results(%x: tensor<3x3xf32>, %y: tensor<3xf32>) -> (tensor<3x3xf32>, tensor<3x3xf32>) {
  %0 = google.add %x, %y : tensor<3x3xf32>, tensor<3xf32> -> tensor<3x3xf32>
  %1 = google.mul %x, %y : tensor<3x3xf32>, tensor<3xf32> -> tensor<3x3xf32>
  return %0, %1 : tensor<3x3xf32>, tensor<3x3xf32>
}
