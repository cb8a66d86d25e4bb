// RUN: google-opt %s -split-input-file -google-results-to-out-params | FileCheck %s

// A static result becomes a trailing out-parameter the result is written
// into directly.
// CHECK-LABEL: func @static_result
// CHECK-SAME: (%[[X:.*]]: memref<4xf32>, %[[OUT:.*]]: memref<4xf32>)
// CHECK-SAME: google.results_out
// CHECK-NOT: memref.alloc
// CHECK: linalg.generic {{.*}} ins(%[[X]] : memref<4xf32>) outs(%[[OUT]] : memref<4xf32>)
// CHECK: return
// CHECK-NOT: memref<4xf32>
func.func @static_result(%x: memref<4xf32>) -> memref<4xf32> attributes {google.signature = (tensor<4xf32>) -> tensor<4xf32>} {
  %0 = memref.alloc() : memref<4xf32>
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : memref<4xf32>) outs(%0 : memref<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %1 = arith.negf %in : f32
    linalg.yield %1 : f32
  }
  return %0 : memref<4xf32>
}

// -----

// A dynamic result keeps being returned.
// CHECK-LABEL: func @negative_dynamic_result
// CHECK-SAME: (%{{.*}}: memref<?xf32>) -> memref<?xf32>
// CHECK-NOT: google.results_out
func.func @negative_dynamic_result(%x: memref<?xf32>) -> memref<?xf32> attributes {google.signature = (tensor<?xf32>) -> tensor<?xf32>} {
  return %x : memref<?xf32>
}

// -----

// Only exported functions change; callers are updated.
// CHECK-LABEL: func private @negative_not_exported
// CHECK-SAME: -> memref<2xf32>
// CHECK-LABEL: func @caller
// CHECK: %[[BUF:.*]] = memref.alloc() : memref<2xf32>
// CHECK: call @exported(%[[BUF]]) : (memref<2xf32>) -> ()
func.func private @negative_not_exported() -> memref<2xf32> {
  %0 = memref.alloc() : memref<2xf32>
  return %0 : memref<2xf32>
}
func.func @exported() -> memref<2xf32> attributes {google.signature = () -> tensor<2xf32>} {
  %0 = memref.alloc() : memref<2xf32>
  return %0 : memref<2xf32>
}
func.func @caller() -> memref<2xf32> {
  %0 = call @exported() : () -> memref<2xf32>
  return %0 : memref<2xf32>
}

// -----

// A buffer returned twice gets a copy for its second result, so that each
// out-parameter is written (this once crashed the upstream conversion).
// CHECK-LABEL: func @repeated_result
// CHECK-SAME: (%[[X:.*]]: memref<4xf32>, %[[OUT0:.*]]: memref<4xf32>, %[[OUT1:.*]]: memref<4xf32>)
// CHECK-DAG: memref.copy %[[X]], %[[OUT0]]
// CHECK-DAG: memref.copy %[[X]], %[[OUT1]]
// CHECK: return
func.func @repeated_result(%x: memref<4xf32>) -> (memref<4xf32>, memref<4xf32>) attributes {google.signature = (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)} {
  return %x, %x : memref<4xf32>, memref<4xf32>
}
