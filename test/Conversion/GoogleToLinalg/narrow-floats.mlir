// RUN: google-opt %s -split-input-file -convert-google-to-linalg | FileCheck %s
// f16 and bf16 (SPEC section 2): sums accumulate in f32 and round once;
// every arithmetic op computes in f32 and rounds on its own, so that no
// f32 value carries from one op into the next once ops are fused.

// CHECK-LABEL: func @reduce_sum_f16
// CHECK: %[[INIT:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<4xf32>)
// CHECK: linalg.reduce ins(%{{.*}} : tensor<4x5000xf16>) outs(%[[INIT]] : tensor<4xf32>)
// CHECK: (%[[IN:.*]]: f16, %[[ACC:.*]]: f32)
// CHECK: %[[WIDE:.*]] = arith.extf %[[IN]] : f16 to f32
// CHECK: arith.addf %[[ACC]], %[[WIDE]] : f32
// CHECK: linalg.generic
// CHECK: arith.truncf %{{.*}} : f32 to f16
func.func @reduce_sum_f16(%x: tensor<4x5000xf16>) -> tensor<4xf16> {
  %0 = google.reduce_sum %x {axes = array<i64: 1>, keep_dims = false} : tensor<4x5000xf16> -> tensor<4xf16>
  return %0 : tensor<4xf16>
}

// -----

// The mean divides the f32 sum by the count in f32, then rounds once.
// CHECK-LABEL: func @reduce_mean_bf16
// CHECK: linalg.reduce
// CHECK: arith.extf %{{.*}} : bf16 to f32
// CHECK: linalg.generic
// CHECK: %[[COUNT:.*]] = arith.sitofp %{{.*}} : i64 to f32
// CHECK: %[[MEAN:.*]] = arith.divf %{{.*}}, %[[COUNT]] : f32
// CHECK: arith.truncf %[[MEAN]] : f32 to bf16
func.func @reduce_mean_bf16(%x: tensor<?xbf16>) -> tensor<bf16> {
  %0 = google.reduce_mean %x {axes = array<i64: 0>, keep_dims = false} : tensor<?xbf16> -> tensor<bf16>
  return %0 : tensor<bf16>
}

// -----

// The matmul accumulates in f32 (linalg extends its operands); the
// product rounds once, then the bias adds in f16.
// CHECK-LABEL: func @matmul_bias_relu_f16
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<4x200xf16>, tensor<200x8xf16>) outs(%{{.*}} : tensor<4x8xf32>)
// CHECK: linalg.generic
// CHECK: %[[P:.*]] = arith.truncf %{{.*}} : f32 to f16
// CHECK: %[[PW:.*]] = arith.extf %[[P]] : f16 to f32
// CHECK: arith.addf %[[PW]], %{{.*}} : f32
func.func @matmul_bias_relu_f16(%a: tensor<4x200xf16>, %b: tensor<200x8xf16>, %c: tensor<8xf16>) -> tensor<4x8xf16> {
  %0 = google.matmul_bias_relu %a, %b, %c : tensor<4x200xf16>, tensor<200x8xf16>, tensor<8xf16> -> tensor<4x8xf16>
  return %0 : tensor<4x8xf16>
}

// -----

// Softmax: the maximum is exact in bf16; the denominator stays f32 and
// each quotient rounds once.
// CHECK-LABEL: func @softmax_bf16
// CHECK: linalg.reduce
// CHECK: arith.maxnumf %{{.*}} : f32
// CHECK: linalg.reduce
// CHECK: arith.addf %{{.*}} : f32
// CHECK: linalg.generic
// CHECK-SAME: ins(%{{.*}}, %{{.*}} : tensor<3x300xbf16>, tensor<3xf32>)
// CHECK: arith.divf %{{.*}} : f32
// CHECK: arith.truncf %{{.*}} : f32 to bf16
func.func @softmax_bf16(%x: tensor<3x300xbf16>) -> tensor<3x300xbf16> {
  %0 = google.softmax %x {axis = 1 : i64} : tensor<3x300xbf16>
  return %0 : tensor<3x300xbf16>
}

// -----

// Each op rounds: (a + b) * a is add in f32, truncf, extf, mul in f32.
// CHECK-LABEL: func @elementwise_bf16
// CHECK: %[[S:.*]] = arith.addf %{{.*}}, %{{.*}} : f32
// CHECK: arith.truncf %[[S]] : f32 to bf16
// CHECK: %[[M:.*]] = arith.mulf %{{.*}}, %{{.*}} : f32
// CHECK: arith.truncf %[[M]] : f32 to bf16
func.func @elementwise_bf16(%a: tensor<8xbf16>, %b: tensor<8xbf16>) -> tensor<8xbf16> {
  %0 = google.add %a, %b : tensor<8xbf16>, tensor<8xbf16> -> tensor<8xbf16>
  %1 = google.mul %0, %a : tensor<8xbf16>, tensor<8xbf16> -> tensor<8xbf16>
  return %1 : tensor<8xbf16>
}
