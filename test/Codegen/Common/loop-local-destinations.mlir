// RUN: google-opt %s -split-input-file --google-loop-local-destinations | FileCheck %s

// The empty tensor a loop's yielded value is computed into, merged by CSE
// with one above the loop, is made again in the loop.
// CHECK-LABEL: func.func @yielded_into_empty_above
// CHECK: %[[ABOVE:.*]] = tensor.empty() : tensor<4xf32>
// CHECK: linalg.generic {{.*}} outs(%[[ABOVE]] : tensor<4xf32>)
// CHECK: scf.for
// CHECK:   %[[MINE:.*]] = tensor.empty() : tensor<4xf32>
// CHECK:   %[[Y:.*]] = linalg.generic {{.*}} outs(%[[MINE]] : tensor<4xf32>)
// CHECK:   scf.yield %[[Y]]
#map = affine_map<(d0) -> (d0)>
func.func @yielded_into_empty_above(%x: tensor<4xf32>, %n: index) -> (tensor<4xf32>, tensor<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %e = tensor.empty() : tensor<4xf32>
  %before = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %in : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> (tensor<4xf32>) {
    %y = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%acc : tensor<4xf32>) outs(%e : tensor<4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %t = math.tanh %in : f32
      linalg.yield %t : f32
    } -> tensor<4xf32>
    scf.yield %y : tensor<4xf32>
  }
  return %before, %r : tensor<4xf32>, tensor<4xf32>
}

// -----

// Through an inner (tiled) loop's init and a reshape: the fill of the
// empty tensor is made again just before the inner loop.
// CHECK-LABEL: func.func @through_inner_loop
// CHECK: %[[FILL:.*]] = linalg.fill
// CHECK: scf.for
// CHECK:   %[[EMPTY:.*]] = tensor.empty() : tensor<2x4xf32>
// CHECK:   %[[MINE:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[EMPTY]] : tensor<2x4xf32>)
// CHECK:   scf.for {{.*}} iter_args(%{{.*}} = %[[MINE]])
// CHECK:   tensor.collapse_shape
// CHECK:   scf.yield
func.func @through_inner_loop(%x: tensor<8xf32>, %n: index) -> (tensor<8xf32>, tensor<2x4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4xf32>) -> tensor<2x4xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> (tensor<8xf32>) {
    %tiled = scf.for %j = %c0 to %c2 step %c1 iter_args(%t = %f) -> (tensor<2x4xf32>) {
      %row = tensor.extract_slice %acc[0] [4] [1] : tensor<8xf32> to tensor<4xf32>
      %ins = tensor.insert_slice %row into %t[%j, 0] [1, 4] [1, 1] : tensor<4xf32> into tensor<2x4xf32>
      scf.yield %ins : tensor<2x4xf32>
    }
    %flat = tensor.collapse_shape %tiled [[0, 1]] : tensor<2x4xf32> into tensor<8xf32>
    scf.yield %flat : tensor<8xf32>
  }
  return %r, %f : tensor<8xf32>, tensor<2x4xf32>
}

// -----

// A loop whose yield is written in place of its iteration argument, or
// whose destination above is not empty (the function's argument): left
// alone.
// CHECK-LABEL: func.func @left_alone
// CHECK-COUNT-1: tensor.empty
// CHECK-NOT: tensor.empty
#map = affine_map<(d0) -> (d0)>
func.func @left_alone(%x: tensor<4xf32>, %n: index) -> (tensor<4xf32>, tensor<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %e = tensor.empty() : tensor<4xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> (tensor<4xf32>) {
    %y = linalg.generic {indexing_maps = [#map], iterator_types = ["parallel"]} outs(%acc : tensor<4xf32>) {
    ^bb0(%out: f32):
      %t = math.tanh %out : f32
      linalg.yield %t : f32
    } -> tensor<4xf32>
    scf.yield %y : tensor<4xf32>
  }
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> (tensor<4xf32>) {
    %y = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%acc : tensor<4xf32>) outs(%x : tensor<4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %t = math.tanh %in : f32
      linalg.yield %t : f32
    } -> tensor<4xf32>
    scf.yield %y : tensor<4xf32>
  }
  return %r, %s : tensor<4xf32>, tensor<4xf32>
}
