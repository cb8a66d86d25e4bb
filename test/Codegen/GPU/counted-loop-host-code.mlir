// RUN: google-opt %s --google-test-gpu-mapping-on-host --mlir-print-ir-after=google-gpu-device-buffers -o /dev/null 2>&1 | FileCheck %s

// A scan on a GPU: the counted loop's counter, the gather's and the
// scatter's indices and their checks are host scalars. The host reads the
// bound once, before the loop, and nothing from the device inside it (the
// counter lived in device memory and was read back each step before
// counted loops).
// CHECK-LABEL: func.func @scan
// CHECK: gpu.memcpy %[[HOST:.*]], %arg1 : memref<i64>, memref<i64>
// CHECK: memref.load %[[HOST]][] : memref<i64>
// CHECK: scf.for
// CHECK-NOT: gpu.memcpy
// CHECK-NOT: memref.load
// CHECK: cf.assert %{{.*}}, "google.gather: {0} indices are outside [-8, 8) for axis 0
// CHECK-NOT: gpu.memcpy
// CHECK-NOT: memref.load
// CHECK: return
func.func @scan(%xs: tensor<8x3xf32>, %n: tensor<i64>) -> tensor<8x3xf32> {
  %zero = google.constant dense<0> : tensor<i64>
  %ys0 = google.constant dense<-0.0> : tensor<8x3xf32>
  %r:2 = google.while %zero, %ys0 : (tensor<i64>, tensor<8x3xf32>) -> (tensor<i64>, tensor<8x3xf32>) cond {
  ^bb0(%i: tensor<i64>, %ys: tensor<8x3xf32>):
    %c = google.lt %i, %n : tensor<i64>, tensor<i64> -> tensor<i1>
    google.condition %c : tensor<i1>
  } do {
  ^bb0(%i: tensor<i64>, %ys: tensor<8x3xf32>):
    %one = google.constant dense<1> : tensor<i64>
    %next = google.add %i, %one : tensor<i64>, tensor<i64> -> tensor<i64>
    %seven = google.constant dense<7> : tensor<i64>
    %back = google.sub %seven, %i : tensor<i64>, tensor<i64> -> tensor<i64>
    %x = google.gather %xs, %back {axis = 0 : i64} : tensor<8x3xf32>, tensor<i64> -> tensor<3xf32>
    %y = google.tanh %x : tensor<3xf32>
    %ys1 = google.scatter_add %ys, %i, %y {axis = 0 : i64} : tensor<8x3xf32>, tensor<i64>, tensor<3xf32> -> tensor<8x3xf32>
    google.yield %next, %ys1 : tensor<i64>, tensor<8x3xf32>
  }
  return %r#1 : tensor<8x3xf32>
}
