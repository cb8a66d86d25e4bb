// RUN: google-opt %s -split-input-file -convert-google-to-linalg | FileCheck %s

// max, exp(x - max), sum, divide: never exp of an unshifted input. The
// max skips NaNs (maxnumf, cheaper than maximumf): a NaN makes its row NaN
// through its own exp(NaN - max) anyway.
// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[ROW:.*]] = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func @softmax
// CHECK-SAME: (%[[X:.*]]: tensor<4x8xf32>)
// CHECK: %[[MAX:.*]] = linalg.reduce { arith.maxnumf } ins(%[[X]] : tensor<4x8xf32>) {{.*}} dimensions = [1]
// CHECK: %[[EXP:.*]] = linalg.generic {indexing_maps = [#[[ID]], #[[ROW]], #[[ID]]]{{.*}} ins(%[[X]], %[[MAX]] : tensor<4x8xf32>, tensor<4xf32>)
// CHECK: %[[SH:.*]] = arith.subf
// Below -87 the numerator is 0 and exp never sees the underflowing lane.
// CHECK: %[[LOW:.*]] = arith.cmpf olt, %[[SH]], %[[M87:.*]] : f32
// CHECK: %[[CLAMPED:.*]] = arith.maximumf %[[SH]], %[[M87]] : f32
// CHECK: %[[E:.*]] = math.exp %[[CLAMPED]]
// CHECK: arith.select %[[LOW]], %{{.*}}, %[[E]] : f32
// CHECK: %[[SUM:.*]] = linalg.reduce { arith.addf } ins(%[[EXP]] : tensor<4x8xf32>) {{.*}} dimensions = [1]
// The division reads both as inputs: no generic reads its outs.
// CHECK: %[[R:.*]] = linalg.generic {indexing_maps = [#[[ID]], #[[ROW]], #[[ID]]]{{.*}} ins(%[[EXP]], %[[SUM]] : tensor<4x8xf32>, tensor<4xf32>) outs(%{{.*}} : tensor<4x8xf32>)
// CHECK: ^bb0(%[[E:.*]]: f32, %[[S:.*]]: f32, %{{.*}}: f32):
// CHECK: arith.divf %[[E]], %[[S]]
// CHECK: return %[[R]]
func.func @softmax(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = google.softmax %x {axis = 1 : i64} : tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// axis = -3 is the leading, dynamic dimension.
// CHECK-DAG: #[[DROP0:.*]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-LABEL: func @softmax_dynamic_negative_axis
// CHECK: linalg.reduce {{.*}}ins(%{{.*}} : tensor<?x2x3xf16>) {{.*}} dimensions = [0]
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #[[DROP0]], #{{.*}}]
func.func @softmax_dynamic_negative_axis(%x: tensor<?x2x3xf16>) -> tensor<?x2x3xf16> {
  %0 = google.softmax %x {axis = -3 : i64} : tensor<?x2x3xf16>
  return %0 : tensor<?x2x3xf16>
}
