// RUN: google-opt %s -split-input-file -convert-google-to-linalg | FileCheck %s

// CHECK-LABEL: func @relu
// CHECK: %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: arith.maximumf %{{.*}}, %[[Z]] : f32
func.func @relu(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = google.relu %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// f16 transcendental functions run in f32.
// CHECK-LABEL: func @math
// CHECK: arith.negf %{{.*}} : f16
// CHECK: %[[W:.*]] = arith.extf %{{.*}} : f16 to f32
// CHECK-NEXT: %[[E:.*]] = math.exp %[[W]] : f32
// CHECK-NEXT: arith.truncf %[[E]] : f32 to f16
// CHECK: math.log %{{.*}} : f32
// CHECK: math.tanh %{{.*}} : f32
// CHECK: math.sqrt %{{.*}} : f32
// CHECK: %[[W2:.*]] = arith.extf %{{.*}} : f16 to f32
// CHECK-NEXT: %[[ERF:.*]] = math.erf %[[W2]] : f32
// CHECK-NEXT: arith.truncf %[[ERF]] : f32 to f16
// CHECK: math.absf %{{.*}} : f16
func.func @math(%x: tensor<4xf16>) -> tensor<4xf16> {
  %0 = google.neg %x : tensor<4xf16>
  %1 = google.exp %0 : tensor<4xf16>
  %2 = google.log %1 : tensor<4xf16>
  %3 = google.tanh %2 : tensor<4xf16>
  %4 = google.sqrt %3 : tensor<4xf16>
  %e = google.erf %4 : tensor<4xf16>
  %5 = google.abs %e : tensor<4xf16>
  return %5 : tensor<4xf16>
}

// -----

// sigmoid(x) = 1 / (1 + exp(-x))
// CHECK-LABEL: func @sigmoid
// CHECK: ^bb0(%[[X:.*]]: f32, %{{.*}}: f32):
// CHECK: %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK: %[[N:.*]] = arith.negf %[[X]]
// CHECK: %[[E:.*]] = math.exp %[[N]]
// CHECK: %[[D:.*]] = arith.addf %[[ONE]], %[[E]]
// CHECK: %[[R:.*]] = arith.divf %[[ONE]], %[[D]]
// CHECK: linalg.yield %[[R]]
func.func @sigmoid(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = google.sigmoid %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// CHECK-LABEL: func @int_unary
// CHECK: arith.maxsi
// CHECK: arith.subi
// CHECK: math.absi
func.func @int_unary(%x: tensor<4xi64>) -> tensor<4xi64> {
  %0 = google.relu %x : tensor<4xi64>
  %1 = google.neg %0 : tensor<4xi64>
  %2 = google.abs %1 : tensor<4xi64>
  return %2 : tensor<4xi64>
}

// -----

// sin and cos are math ops; rsqrt is 1 / sqrt(x), two roundings everywhere.
// CHECK-LABEL: func @trig_rsqrt
// CHECK: math.sin %{{.*}} : f32
// CHECK: math.cos %{{.*}} : f32
// CHECK: %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK: %[[ROOT:.*]] = math.sqrt %{{.*}} : f32
// CHECK: arith.divf %[[ONE]], %[[ROOT]] : f32
func.func @trig_rsqrt(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = google.sin %x : tensor<4xf32>
  %1 = google.cos %0 : tensor<4xf32>
  %2 = google.rsqrt %1 : tensor<4xf32>
  return %2 : tensor<4xf32>
}
