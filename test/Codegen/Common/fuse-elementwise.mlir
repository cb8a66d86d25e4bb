// RUN: google-opt %s -split-input-file -google-fuse-elementwise | FileCheck %s

// A producer whose only user is an elementwise consumer fuses into it.
// CHECK-LABEL: func @chain
// CHECK: linalg.generic
// CHECK: math.exp
// CHECK: arith.addf
// CHECK-NOT: linalg.generic
#map = affine_map<(d0) -> (d0)>
func.func @chain(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %e0 = tensor.empty() : tensor<4xf32>
  %e = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%x : tensor<4xf32>) outs(%e0 : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %0 = math.exp %a : f32
    linalg.yield %0 : f32
  } -> tensor<4xf32>
  %r0 = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel"]} ins(%e, %y : tensor<4xf32>, tensor<4xf32>) outs(%r0 : tensor<4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %0 = arith.addf %a, %b : f32
    linalg.yield %0 : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// A reshape between two generics stays where it is: propagating it would
// expand the generic into a ?x?x3 iteration space whose buffer MLIR 22
// cannot lower (see test/Upstream/expand-strided-metadata-two-dynamic.mlir).
// CHECK-LABEL: func @negative_reshape_not_propagated
// CHECK: tensor.collapse_shape
// CHECK: linalg.generic {{.*}} ins(%{{.*}} : tensor<?xf32>)
#id = affine_map<(d0) -> (d0)>
func.func @negative_reshape_not_propagated(%x: tensor<?x?x3xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %flat = tensor.collapse_shape %x [[0, 1, 2]] : tensor<?x?x3xf32> into tensor<?xf32>
  %n = tensor.dim %flat, %c0 : tensor<?xf32>
  %init = tensor.empty(%n) : tensor<?xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%flat : tensor<?xf32>) outs(%init : tensor<?xf32>) {
  ^bb0(%a: f32, %o: f32):
    %0 = math.absf %a : f32
    linalg.yield %0 : f32
  } -> tensor<?xf32>
  return %r : tensor<?xf32>
}
