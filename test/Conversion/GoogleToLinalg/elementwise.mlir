// RUN: google-opt %s -split-input-file -convert-google-to-linalg | FileCheck %s

// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[ROW:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func @add_broadcast_row
// CHECK-SAME: (%[[A:.*]]: tensor<4x8xf32>, %[[B:.*]]: tensor<8xf32>)
// CHECK: %[[E:.*]] = tensor.empty() : tensor<4x8xf32>
// CHECK: %[[G:.*]] = linalg.generic {indexing_maps = [#[[ID]], #[[ROW]], #[[ID]]], iterator_types = ["parallel", "parallel"]}
// CHECK-SAME: ins(%[[A]], %[[B]] : tensor<4x8xf32>, tensor<8xf32>) outs(%[[E]] : tensor<4x8xf32>)
// CHECK: ^bb0(%[[X:.*]]: f32, %[[Y:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[X]], %[[Y]] : f32
// CHECK-NEXT: linalg.yield %[[S]]
// CHECK: return %[[G]]
func.func @add_broadcast_row(%a: tensor<4x8xf32>, %b: tensor<8xf32>) -> tensor<4x8xf32> {
  %0 = google.add %a, %b : tensor<4x8xf32>, tensor<8xf32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// A static 1 stretches: it reads index 0.
// CHECK-DAG: #[[COL:.*]] = affine_map<(d0, d1) -> (d0, 0)>
// CHECK-DAG: #[[ROW:.*]] = affine_map<(d0, d1) -> (0, d1)>
// CHECK-LABEL: func @sub_broadcast_both
// CHECK: linalg.generic {indexing_maps = [#[[COL]], #[[ROW]], #{{.*}}]
// CHECK: arith.subf
func.func @sub_broadcast_both(%a: tensor<4x1xf32>, %b: tensor<1x8xf32>) -> tensor<4x8xf32> {
  %0 = google.sub %a, %b : tensor<4x1xf32>, tensor<1x8xf32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// CHECK-DAG: #[[SCALAR:.*]] = affine_map<(d0) -> ()>
// CHECK-LABEL: func @mul_scalar
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #[[SCALAR]], #{{.*}}]
// CHECK: arith.mulf
func.func @mul_scalar(%a: tensor<4xf32>, %b: tensor<f32>) -> tensor<4xf32> {
  %0 = google.mul %a, %b : tensor<4xf32>, tensor<f32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// CHECK-LABEL: func @float_ops
// CHECK: arith.divf
// CHECK: arith.maximumf
// CHECK: arith.minimumf
func.func @float_ops(%a: tensor<4xf64>, %b: tensor<4xf64>) -> tensor<4xf64> {
  %0 = google.div %a, %b : tensor<4xf64>, tensor<4xf64> -> tensor<4xf64>
  %1 = google.max %0, %b : tensor<4xf64>, tensor<4xf64> -> tensor<4xf64>
  %2 = google.min %1, %a : tensor<4xf64>, tensor<4xf64> -> tensor<4xf64>
  return %2 : tensor<4xf64>
}

// -----

// CHECK-LABEL: func @int_ops
// CHECK: arith.addi %{{.*}}, %{{.*}} : i32
// CHECK: arith.subi %{{.*}}, %{{.*}} : i32
// CHECK: arith.muli %{{.*}}, %{{.*}} : i32
// CHECK: arith.maxsi %{{.*}}, %{{.*}} : i32
// CHECK: arith.minsi %{{.*}}, %{{.*}} : i32
func.func @int_ops(%a: tensor<4xi32>, %b: tensor<4xi32>) -> tensor<4xi32> {
  %0 = google.add %a, %b : tensor<4xi32>, tensor<4xi32> -> tensor<4xi32>
  %1 = google.sub %0, %b : tensor<4xi32>, tensor<4xi32> -> tensor<4xi32>
  %2 = google.mul %1, %b : tensor<4xi32>, tensor<4xi32> -> tensor<4xi32>
  %3 = google.max %2, %b : tensor<4xi32>, tensor<4xi32> -> tensor<4xi32>
  %4 = google.min %3, %b : tensor<4xi32>, tensor<4xi32> -> tensor<4xi32>
  return %4 : tensor<4xi32>
}

// -----

// CHECK-LABEL: func @constant
// CHECK: %[[C:.*]] = arith.constant dense<[1, 2]> : tensor<2xi64>
// CHECK: return %[[C]]
func.func @constant() -> tensor<2xi64> {
  %0 = google.constant dense<[1, 2]> : tensor<2xi64>
  return %0 : tensor<2xi64>
}

// -----

// Integer floored division never traps: the divisor is 1 where it is 0 or
// where the minimum is divided by -1, and the results are then chosen.
// CHECK-LABEL: func @floor_div_int
// CHECK: linalg.generic
// CHECK-DAG: arith.cmpi eq
// CHECK-DAG: arith.ori
// CHECK: %[[D:.*]] = arith.select %{{.*}}, %{{.*}}, %{{.*}} : i32
// CHECK: arith.divsi %{{.*}}, %[[D]] : i32
// CHECK: arith.remsi %{{.*}}, %[[D]] : i32
// CHECK: arith.xori
// CHECK: linalg.yield
func.func @floor_div_int(%a: tensor<4xi32>, %b: tensor<4xi32>) -> tensor<4xi32> {
  %0 = google.floor_div %a, %b : tensor<4xi32>, tensor<4xi32> -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

// Floats follow npy_divmod: fmod, then the quotient snapped to an integer.
// CHECK-LABEL: func @floor_div_rem_pow_f32
// CHECK: arith.remf
// CHECK: math.floor
// CHECK: math.copysign
// CHECK: arith.remf
// CHECK: math.powf
func.func @floor_div_rem_pow_f32(%a: tensor<4xf32>, %b: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %0 = google.floor_div %a, %b : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  %1 = google.rem %a, %b : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  %2 = google.pow %a, %b : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  return %0, %1, %2 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

// Comparisons are NumPy's: ordered but for ne; a select computes in its
// values' type; casts to i1 test for nonzero (NaN is true).
// CHECK-LABEL: func @booleans
// CHECK: arith.cmpf olt, %{{.*}}, %{{.*}} : f32
// CHECK: arith.cmpf une, %{{.*}}, %{{.*}} : f32
// CHECK: ^bb0(%[[C:.*]]: i1, %[[X:.*]]: f32, %[[Y:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[S:.*]] = arith.select %[[C]], %[[X]], %[[Y]] : f32
// CHECK-NEXT: linalg.yield %[[S]]
// CHECK: arith.cmpi slt, %{{.*}}, %{{.*}} : i64
// CHECK: arith.cmpf une, %{{.*}}, %{{.*}} : f32
// CHECK: arith.uitofp %{{.*}} : i1 to f32
// CHECK: arith.truncf %{{.*}} : f32 to bf16
func.func @booleans(%a: tensor<4xf32>, %b: tensor<f32>, %i: tensor<4xi64>, %j: tensor<4xi64>) -> (tensor<4xi1>, tensor<4xi1>, tensor<4xf32>, tensor<4xi1>, tensor<4xi1>, tensor<4xbf16>) {
  %0 = google.lt %a, %b : tensor<4xf32>, tensor<f32> -> tensor<4xi1>
  %1 = google.ne %a, %b : tensor<4xf32>, tensor<f32> -> tensor<4xi1>
  %2 = google.select %0, %a, %b : tensor<4xi1>, tensor<4xf32>, tensor<f32> -> tensor<4xf32>
  %3 = google.lt %i, %j : tensor<4xi64>, tensor<4xi64> -> tensor<4xi1>
  %4 = google.cast %a : tensor<4xf32> -> tensor<4xi1>
  %5 = google.cast %4 : tensor<4xi1> -> tensor<4xbf16>
  return %0, %1, %2, %3, %4, %5 : tensor<4xi1>, tensor<4xi1>, tensor<4xf32>, tensor<4xi1>, tensor<4xi1>, tensor<4xbf16>
}

// -----

// Large splat constants are filled at run time (not stored in the object:
// a loop gradient's tape of -0.0 grows with its trip count); small ones
// stay constants.
// CHECK-LABEL: func @splats
// CHECK: %[[NZ:.*]] = arith.constant -0.000000e+00 : f32
// CHECK: %[[E:.*]] = tensor.empty() : tensor<1024x32xf32>
// CHECK: linalg.fill ins(%[[NZ]] : f32) outs(%[[E]] : tensor<1024x32xf32>)
// CHECK: arith.constant dense<1.000000e+00> : tensor<16xf32>
func.func @splats() -> (tensor<1024x32xf32>, tensor<16xf32>) {
  %big = google.constant dense<-0.0> : tensor<1024x32xf32>
  %small = google.constant dense<1.0> : tensor<16xf32>
  return %big, %small : tensor<1024x32xf32>, tensor<16xf32>
}
