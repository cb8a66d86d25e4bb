// RUN: google-opt %s -split-input-file -google-fuse-elementwise | FileCheck %s
// RUN: google-opt %s -split-input-file -google-fuse-elementwise=reductions=1 | FileCheck %s --check-prefix=REDUCE

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

// -----

// A reduction of an elementwise op's only result becomes a generic with
// the producer's body fused in: one loop nest, no tensor in between. A
// reduction whose input has other users stays a linalg.reduce, and so does
// one of an exp (its vector body would call exp once per lane). Without
// the option (the GPU's pipeline) all stay.
// REDUCE-LABEL: func @reduction
// REDUCE: %[[R:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%arg0 : tensor<4x8xf32>)
// REDUCE:   arith.mulf
// REDUCE:   math.absf
// REDUCE:   arith.addf
// REDUCE: %[[F:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]} ins(%arg1
// REDUCE: linalg.reduce { arith.maximumf } ins(%[[F]]
// REDUCE: %[[E:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]} ins(%arg0
// REDUCE:   math.exp
// REDUCE: linalg.reduce { arith.addf } ins(%[[E]]
// REDUCE: return %[[R]], %{{.*}}, %[[F]], %{{.*}}
// CHECK-LABEL: func @reduction
// CHECK-COUNT-3: linalg.reduce
#map = affine_map<(d0, d1) -> (d0, d1)>
func.func @reduction(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4x8xf32>, tensor<4xf32>) {
  %e0 = tensor.empty() : tensor<4x8xf32>
  %a = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x8xf32>) outs(%e0 : tensor<4x8xf32>) {
  ^bb0(%v: f32, %o: f32):
    %0 = arith.mulf %v, %v : f32
    %1 = math.absf %0 : f32
    linalg.yield %1 : f32
  } -> tensor<4x8xf32>
  %zero = arith.constant 0.0 : f32
  %s0 = tensor.empty() : tensor<4xf32>
  %s1 = linalg.fill ins(%zero : f32) outs(%s0 : tensor<4xf32>) -> tensor<4xf32>
  %s = linalg.reduce { arith.addf } ins(%a : tensor<4x8xf32>) outs(%s1 : tensor<4xf32>) dimensions = [1]
  %f = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%y : tensor<4x8xf32>) outs(%e0 : tensor<4x8xf32>) {
  ^bb0(%v: f32, %o: f32):
    %0 = arith.mulf %v, %v : f32
    linalg.yield %0 : f32
  } -> tensor<4x8xf32>
  %m = linalg.reduce { arith.maximumf } ins(%f : tensor<4x8xf32>) outs(%s1 : tensor<4xf32>) dimensions = [1]
  %e = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x8xf32>) outs(%e0 : tensor<4x8xf32>) {
  ^bb0(%v: f32, %o: f32):
    %0 = math.exp %v : f32
    linalg.yield %0 : f32
  } -> tensor<4x8xf32>
  %t = linalg.reduce { arith.addf } ins(%e : tensor<4x8xf32>) outs(%s1 : tensor<4xf32>) dimensions = [1]
  return %s, %m, %f, %t : tensor<4xf32>, tensor<4xf32>, tensor<4x8xf32>, tensor<4xf32>
}
