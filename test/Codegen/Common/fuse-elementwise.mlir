// RUN: google-opt %s -split-input-file -google-fuse-elementwise | FileCheck %s
// RUN: google-opt %s -split-input-file -google-fuse-elementwise=reductions=1 | FileCheck %s --check-prefix=REDUCE
// RUN: google-opt %s -split-input-file -google-fuse-elementwise=reshapes=1 | FileCheck %s --check-prefix=RESHAPE
// RUN: google-opt %s -split-input-file -google-fuse-elementwise=epilogues=1 | FileCheck %s --check-prefix=EPILOGUE

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

// -----

// A pooling gradient's windows (4x2x2) collapsed to the image (8x2), then
// masked: with `reshapes` the mask's generic expands to the windows'
// shape (its other operand, and the comparison producing the mask behind
// an expand_shape, follow) and one generic remains, collapsed after it.
// RESHAPE-LABEL: func @through_reshapes
// RESHAPE: %[[X:.*]] = tensor.expand_shape %arg1 {{\[\[}}0, 1], [2]] output_shape [4, 2, 2]
// RESHAPE: %[[G:.*]] = linalg.generic {{.*}} ins(%arg0, %[[X]] : tensor<4x1x2xf32>, tensor<4x2x2xf32>)
// RESHAPE:   arith.divf
// RESHAPE:   arith.cmpf
// RESHAPE:   arith.mulf
// RESHAPE-NOT: linalg.generic
// RESHAPE: tensor.collapse_shape %[[G]] {{\[\[}}0, 1], [2]] : tensor<4x2x2xf32> into tensor<8x2xf32>
// CHECK-LABEL: func @through_reshapes
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<4x2x2xf32>)
// CHECK: tensor.collapse_shape
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<8x2xf32>)
#spread = affine_map<(d0, d1, d2) -> (d0, 0, d2)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @through_reshapes(%ct: tensor<4x1x2xf32>, %x: tensor<8x2xf32>) -> tensor<8x2xf32> {
  %four = arith.constant 4.0 : f32
  %zero = arith.constant 0.0 : f32
  %e3 = tensor.empty() : tensor<4x2x2xf32>
  %spread = linalg.generic {indexing_maps = [#spread, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ct : tensor<4x1x2xf32>) outs(%e3 : tensor<4x2x2xf32>) {
  ^bb0(%v: f32, %o: f32):
    %0 = arith.divf %v, %four : f32
    linalg.yield %0 : f32
  } -> tensor<4x2x2xf32>
  %image = tensor.collapse_shape %spread [[0, 1], [2]] : tensor<4x2x2xf32> into tensor<8x2xf32>
  %eb = tensor.empty() : tensor<8x2xi1>
  %mask = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<8x2xf32>) outs(%eb : tensor<8x2xi1>) {
  ^bb0(%v: f32, %o: i1):
    %0 = arith.cmpf ogt, %v, %zero : f32
    linalg.yield %0 : i1
  } -> tensor<8x2xi1>
  %e2 = tensor.empty() : tensor<8x2xf32>
  %r = linalg.generic {indexing_maps = [#id2, #id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%image, %mask : tensor<8x2xf32>, tensor<8x2xi1>) outs(%e2 : tensor<8x2xf32>) {
  ^bb0(%v: f32, %m: i1, %o: f32):
    %0 = arith.uitofp %m : i1 to f32
    %1 = arith.mulf %v, %0 : f32
    linalg.yield %1 : f32
  } -> tensor<8x2xf32>
  return %r : tensor<8x2xf32>
}

// -----

// No propagation where it would not fuse: a producer with another user, or
// dynamic shapes (MLIR 22's --expand-strided-metadata crashes on the
// reshapes the propagation makes of them).
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
// RESHAPE-LABEL: func @not_through_reshapes
// RESHAPE-COUNT-2: linalg.generic {{.*}} tensor<4x2x2xf32>
// RESHAPE: tensor.collapse_shape %{{.*}} {{\[\[}}0, 1], [2]] : tensor<4x2x2xf32> into tensor<8x2xf32>
// RESHAPE: linalg.generic {{.*}} tensor<8x2xf32>
// RESHAPE: tensor.collapse_shape %{{.*}} {{\[\[}}0, 1], [2]] : tensor<?x2x2xf32> into tensor<?x2xf32>
// RESHAPE: linalg.generic {{.*}} tensor<?x2xf32>
func.func @not_through_reshapes(%a: tensor<4x2x2xf32>, %d: tensor<?x2x2xf32>) -> (tensor<8x2xf32>, tensor<4x2x2xf32>, tensor<?x2xf32>) {
  %e3 = tensor.empty() : tensor<4x2x2xf32>
  %twice = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%a : tensor<4x2x2xf32>) outs(%e3 : tensor<4x2x2xf32>) {
  ^bb0(%v: f32, %o: f32):
    %0 = arith.addf %v, %v : f32
    linalg.yield %0 : f32
  } -> tensor<4x2x2xf32>
  %other = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%twice : tensor<4x2x2xf32>) outs(%e3 : tensor<4x2x2xf32>) {
  ^bb0(%v: f32, %o: f32):
    %0 = arith.mulf %v, %v : f32
    linalg.yield %0 : f32
  } -> tensor<4x2x2xf32>
  %image = tensor.collapse_shape %twice [[0, 1], [2]] : tensor<4x2x2xf32> into tensor<8x2xf32>
  %e2 = tensor.empty() : tensor<8x2xf32>
  %r = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%image : tensor<8x2xf32>) outs(%e2 : tensor<8x2xf32>) {
  ^bb0(%v: f32, %o: f32):
    %0 = math.absf %v : f32
    linalg.yield %0 : f32
  } -> tensor<8x2xf32>
  %c0 = arith.constant 0 : index
  %n = tensor.dim %d, %c0 : tensor<?x2x2xf32>
  %ed = tensor.empty(%n) : tensor<?x2x2xf32>
  %dt = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%d : tensor<?x2x2xf32>) outs(%ed : tensor<?x2x2xf32>) {
  ^bb0(%v: f32, %o: f32):
    %0 = arith.addf %v, %v : f32
    linalg.yield %0 : f32
  } -> tensor<?x2x2xf32>
  %dimage = tensor.collapse_shape %dt [[0, 1], [2]] : tensor<?x2x2xf32> into tensor<?x2xf32>
  %c2 = arith.constant 2 : index
  %m = arith.muli %n, %c2 : index
  %ed2 = tensor.empty(%m) : tensor<?x2xf32>
  %dr = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%dimage : tensor<?x2xf32>) outs(%ed2 : tensor<?x2xf32>) {
  ^bb0(%v: f32, %o: f32):
    %0 = math.absf %v : f32
    linalg.yield %0 : f32
  } -> tensor<?x2xf32>
  return %r, %other, %dr : tensor<8x2xf32>, tensor<4x2x2xf32>, tensor<?x2xf32>
}

// -----

// With epilogues, an elementwise op on a matmul's expanded result (a
// rank-3 activation times a weight) is collapsed to the matmul's
// dimensions and reads it directly; its result is expanded instead. The
// residual it adds is collapsed with it.
// EPILOGUE-LABEL: func @expanded_product
// EPILOGUE-SAME: %[[X:[a-z0-9]+]]: tensor<16x8x32xf32>, %[[W:[a-z0-9]+]]: tensor<32x64xf32>, %[[B:[a-z0-9]+]]: tensor<64xf32>, %[[R:[a-z0-9]+]]: tensor<16x8x64xf32>
// EPILOGUE: %[[M:.*]] = linalg.matmul
// EPILOGUE: %[[RC:.*]] = tensor.collapse_shape %[[R]] {{\[\[}}0, 1], [2]] : tensor<16x8x64xf32> into tensor<128x64xf32>
// EPILOGUE: %[[E:.*]] = linalg.generic {{.*}} ins(%[[M]], %[[B]], %[[RC]] : tensor<128x64xf32>, tensor<64xf32>, tensor<128x64xf32>)
// EPILOGUE: %[[Y:.*]] = tensor.expand_shape %[[E]] {{\[\[}}0, 1], [2]] output_shape [16, 8, 64]
// EPILOGUE: return %[[Y]]
// Without it, the op stays on the expansion.
// CHECK-LABEL: func @expanded_product
// CHECK: %[[M:.*]] = linalg.matmul
// CHECK: %[[Y:.*]] = tensor.expand_shape %[[M]]
// CHECK: linalg.generic {{.*}} ins(%[[Y]]
func.func @expanded_product(%x: tensor<16x8x32xf32>, %w: tensor<32x64xf32>, %b: tensor<64xf32>, %r: tensor<16x8x64xf32>) -> tensor<16x8x64xf32> {
  %zero = arith.constant 0.0 : f32
  %a = tensor.collapse_shape %x [[0, 1], [2]] : tensor<16x8x32xf32> into tensor<128x32xf32>
  %e = tensor.empty() : tensor<128x64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<128x64xf32>) -> tensor<128x64xf32>
  %m = linalg.matmul ins(%a, %w : tensor<128x32xf32>, tensor<32x64xf32>) outs(%f : tensor<128x64xf32>) -> tensor<128x64xf32>
  %y = tensor.expand_shape %m [[0, 1], [2]] output_shape [16, 8, 64] : tensor<128x64xf32> into tensor<16x8x64xf32>
  %out = tensor.empty() : tensor<16x8x64xf32>
  %z = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%y, %b, %r : tensor<16x8x64xf32>, tensor<64xf32>, tensor<16x8x64xf32>) outs(%out : tensor<16x8x64xf32>) {
  ^bb0(%in: f32, %bias: f32, %res: f32, %o: f32):
    %s = arith.addf %in, %bias : f32
    %g = arith.maximumf %s, %zero : f32
    %t = arith.addf %g, %res : f32
    linalg.yield %t : f32
  } -> tensor<16x8x64xf32>
  return %z : tensor<16x8x64xf32>
}
