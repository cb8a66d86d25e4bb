// RUN: google-opt %s --google-test-gpu-mapping-on-host --mlir-print-ir-after=google-gpu-device-buffers -o /dev/null 2>&1 | FileCheck %s

// A gather's index check on a GPU: its count is reduced on the device
// where the gather is, and copied back and tested where the call ends,
// after the work that reads the gathered rows (which clamps the indices):
// no copy and wait in the middle of the call.
// CHECK-LABEL: func.func @embed
// CHECK-NOT: gpu.memcpy
// CHECK: linalg.matmul
// CHECK-NOT: gpu.memcpy
// CHECK: linalg.reduce { arith.addf }
// CHECK: gpu.memcpy %[[HOST:.*]], %{{.*}} : memref<i64>, memref<i64>
// CHECK-NEXT: %[[N:.*]] = memref.load %[[HOST]][] : memref<i64>
// CHECK-NEXT: %[[OK:.*]] = arith.cmpi eq, %[[N]]
// CHECK-NEXT: cf.assert %[[OK]], "google.gather: {0} indices are outside [-10, 10) for axis 0
// CHECK-NEXT: return
func.func @embed(%t: tensor<10x4xf32>, %ids: tensor<3xi64>, %w: tensor<4x4xf32>) -> tensor<3x4xf32> {
  %g = google.gather %t, %ids {axis = 0 : i64} : tensor<10x4xf32>, tensor<3xi64> -> tensor<3x4xf32>
  %m = google.matmul %g, %w : tensor<3x4xf32>, tensor<4x4xf32> -> tensor<3x4xf32>
  %s = google.softmax %m {axis = -1 : i64} : tensor<3x4xf32>
  return %s : tensor<3x4xf32>
}
