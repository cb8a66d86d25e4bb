// RUN: google-opt %s -split-input-file -convert-google-to-linalg | FileCheck %s

// CHECK-LABEL: func @float_casts
// CHECK: arith.truncf %{{.*}} : f32 to f16
// CHECK: arith.extf %{{.*}} : f16 to f64
// CHECK: arith.extf %{{.*}} : f16 to f32
// CHECK-NEXT: arith.truncf %{{.*}} : f32 to bf16
func.func @float_casts(%x: tensor<4xf32>) -> (tensor<4xf64>, tensor<4xbf16>) {
  %0 = google.cast %x : tensor<4xf32> -> tensor<4xf16>
  %1 = google.cast %0 : tensor<4xf16> -> tensor<4xf64>
  %2 = google.cast %0 : tensor<4xf16> -> tensor<4xbf16>
  return %1, %2 : tensor<4xf64>, tensor<4xbf16>
}

// -----

// CHECK-LABEL: func @int_casts
// CHECK: arith.fptosi %{{.*}} : f32 to i32
// CHECK: arith.extsi %{{.*}} : i32 to i64
// CHECK: arith.trunci %{{.*}} : i64 to i32
// CHECK: arith.sitofp %{{.*}} : i32 to f64
func.func @int_casts(%x: tensor<?xf32>) -> tensor<?xf64> {
  %0 = google.cast %x : tensor<?xf32> -> tensor<?xi32>
  %1 = google.cast %0 : tensor<?xi32> -> tensor<?xi64>
  %2 = google.cast %1 : tensor<?xi64> -> tensor<?xi32>
  %3 = google.cast %2 : tensor<?xi32> -> tensor<?xf64>
  return %3 : tensor<?xf64>
}
