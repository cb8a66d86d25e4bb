// RUN: google-opt %s -split-input-file -google-check-shape-assumptions | FileCheck %s

// A cast that makes a dynamic extent static is checked first; the message
// names the google op from the location.
// CHECK-LABEL: func @refining_cast
// CHECK-SAME: (%[[X:.*]]: memref<?x8xf32>)
// CHECK: %[[D:.*]] = memref.dim %[[X]], %{{.*}} : memref<?x8xf32>
// CHECK: %[[C4:.*]] = arith.constant 4 : index
// CHECK: %[[OK:.*]] = arith.cmpi eq, %[[D]], %[[C4]] : index
// CHECK: cf.assert %[[OK]], "google.add: an extent is {0} at run time where {1} is assumed"
// CHECK: memref.cast %[[X]] : memref<?x8xf32> to memref<4x8xf32>
func.func @refining_cast(%x: memref<?x8xf32>) -> memref<4x8xf32> {
  %0 = memref.cast %x : memref<?x8xf32> to memref<4x8xf32> loc("google.add"("f.mlir":3:8))
  return %0 : memref<4x8xf32>
}

// -----

// Casts that only lose static information assume nothing.
// CHECK-LABEL: func @negative_relaxing_cast
// CHECK-NOT: cf.assert
func.func @negative_relaxing_cast(%x: memref<4x8xf32>) -> memref<?x8xf32> {
  %0 = memref.cast %x : memref<4x8xf32> to memref<?x8xf32>
  return %0 : memref<?x8xf32>
}

// -----

// Every operand extent indexed by a loop equals that loop's range, taken
// from the first operand that indexes it; without a name in the location,
// the message names the op itself.
#map = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func @generic_operands
// CHECK-SAME: (%[[A:.*]]: memref<?xf32>, %[[B:.*]]: memref<?xf32>, %[[OUT:.*]]: memref<4xf32>)
// CHECK-DAG: %[[DA:.*]] = memref.dim %[[A]]
// CHECK-DAG: %[[DB:.*]] = memref.dim %[[B]]
// CHECK: %[[OK:.*]] = arith.cmpi eq, %[[DB]], %[[DA]] : index
// CHECK: cf.assert %[[OK]], "linalg.generic: an extent is {0} at run time where {1} is assumed"
// CHECK: %[[C4:.*]] = arith.constant 4 : index
// CHECK: %[[OK2:.*]] = arith.cmpi eq, %[[C4]], %[[DA]] : index
// CHECK: cf.assert %[[OK2]]
// CHECK: linalg.generic
func.func @generic_operands(%a: memref<?xf32>, %b: memref<?xf32>, %out: memref<4xf32>) {
  linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel"]}
      ins(%a, %b : memref<?xf32>, memref<?xf32>) outs(%out : memref<4xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// An expand_shape assumes its source extent is the product of the output
// extents of its group.
// CHECK-LABEL: func @expand
// CHECK-SAME: (%[[X:.*]]: memref<?xf32>, %[[N:.*]]: index)
// CHECK: %[[D:.*]] = memref.dim %[[X]]
// CHECK: %[[C4:.*]] = arith.constant 4 : index
// CHECK: %[[P:.*]] = arith.muli %[[N]], %[[C4]] : index
// CHECK: arith.cmpi eq, %[[D]], %[[P]] : index
// CHECK: cf.assert
func.func @expand(%x: memref<?xf32>, %n: index) -> memref<?x4xf32> {
  %0 = memref.expand_shape %x [[0, 1]] output_shape [%n, 4] : memref<?xf32> into memref<?x4xf32>
  return %0 : memref<?x4xf32>
}

// -----

// Static shapes were compared by the verifiers: nothing to check.
// CHECK-LABEL: func @negative_static
// CHECK-NOT: cf.assert
func.func @negative_static(%a: memref<4xf32>, %b: memref<4xf32>) {
  memref.copy %a, %b : memref<4xf32> to memref<4xf32>
  linalg.copy ins(%a : memref<4xf32>) outs(%b : memref<4xf32>)
  return
}
