// RUN: google-opt %s -split-input-file --google-loop-local-destinations | FileCheck %s

// A yielded value computed into an empty tensor (here merged by CSE with
// one above the loop) where nothing reads the iteration argument later: it
// is computed in the iteration argument, read elementwise where written.
// CHECK-LABEL: func.func @into_state
// CHECK: %[[ABOVE:.*]] = tensor.empty() : tensor<4xf32>
// CHECK: linalg.generic {{.*}} outs(%[[ABOVE]] : tensor<4xf32>)
// CHECK: scf.for {{.*}} iter_args(%[[ACC:.*]] = %{{.*}})
// CHECK-NOT: tensor.empty
// CHECK:   %[[Y:.*]] = linalg.generic {{.*}} ins(%[[ACC]] : tensor<4xf32>) outs(%[[ACC]] : tensor<4xf32>)
// CHECK:   scf.yield %[[Y]]
#map = affine_map<(d0) -> (d0)>
func.func @into_state(%x: tensor<4xf32>, %n: index) -> (tensor<4xf32>, tensor<4xf32>) {
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

// The iteration argument read transposed by the op that writes the yielded
// value: the empty tensor above is made again in the loop instead.
// CHECK-LABEL: func.func @yielded_into_empty_above
// CHECK: %[[ABOVE:.*]] = tensor.empty() : tensor<4x4xf32>
// CHECK: linalg.generic {{.*}} outs(%[[ABOVE]] : tensor<4x4xf32>)
// CHECK: scf.for
// CHECK:   %[[MINE:.*]] = tensor.empty() : tensor<4x4xf32>
// CHECK:   %[[Y:.*]] = linalg.generic {{.*}} outs(%[[MINE]] : tensor<4x4xf32>)
// CHECK:   scf.yield %[[Y]]
#map = affine_map<(d0, d1) -> (d0, d1)>
#transposed = affine_map<(d0, d1) -> (d1, d0)>
func.func @yielded_into_empty_above(%x: tensor<4x4xf32>, %n: index) -> (tensor<4x4xf32>, tensor<4x4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %e = tensor.empty() : tensor<4x4xf32>
  %before = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x4xf32>) outs(%e : tensor<4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %in : f32
    linalg.yield %s : f32
  } -> tensor<4x4xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> (tensor<4x4xf32>) {
    %y = linalg.generic {indexing_maps = [#transposed, #map], iterator_types = ["parallel", "parallel"]} ins(%acc : tensor<4x4xf32>) outs(%e : tensor<4x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %t = math.tanh %in : f32
      linalg.yield %t : f32
    } -> tensor<4x4xf32>
    scf.yield %y : tensor<4x4xf32>
  }
  return %before, %r : tensor<4x4xf32>, tensor<4x4xf32>
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
// CHECK: return
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

// -----

// An scf.while whose condition passes its state on: the body's elementwise
// update goes into the state, through the reshapes it reads it by (the
// collapse it already has is reused).
// CHECK-LABEL: func.func @while_state
// CHECK: scf.while
// CHECK: } do {
// CHECK: ^bb0(%[[STATE:.*]]: tensor<4x4xf32>):
// CHECK-NOT: tensor.empty
// CHECK:   %[[FLAT:.*]] = tensor.collapse_shape %[[STATE]]
// CHECK-NOT: tensor.collapse_shape
// CHECK:   linalg.generic {{.*}} ins(%[[FLAT]] : tensor<16xf32>) outs(%[[FLAT]] : tensor<16xf32>)
#map = affine_map<(d0) -> (d0)>
func.func @while_state(%x: tensor<4x4xf32>, %limit: f32) -> tensor<4x4xf32> {
  %r = scf.while (%s = %x) : (tensor<4x4xf32>) -> tensor<4x4xf32> {
    %c0 = arith.constant 0 : index
    %v = tensor.extract %s[%c0, %c0] : tensor<4x4xf32>
    %go = arith.cmpf ogt, %v, %limit : f32
    scf.condition(%go) %s : tensor<4x4xf32>
  } do {
  ^bb0(%s: tensor<4x4xf32>):
    %e = tensor.empty() : tensor<4x4xf32>
    %flat = tensor.collapse_shape %s [[0, 1]] : tensor<4x4xf32> into tensor<16xf32>
    %eflat = tensor.collapse_shape %e [[0, 1]] : tensor<4x4xf32> into tensor<16xf32>
    %h = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%flat : tensor<16xf32>) outs(%eflat : tensor<16xf32>) {
    ^bb0(%in: f32, %out: f32):
      %half = arith.constant 0.5 : f32
      %m = arith.mulf %in, %half : f32
      linalg.yield %m : f32
    } -> tensor<16xf32>
    %back = tensor.expand_shape %h [[0, 1]] output_shape [4, 4] : tensor<16xf32> into tensor<4x4xf32>
    scf.yield %back : tensor<4x4xf32>
  }
  return %r : tensor<4x4xf32>
}

// -----

// The fill a matmul accumulates in takes the state when the state is only
// read before it; a state the matmul itself reads keeps its own empty.
// CHECK-LABEL: func.func @fill_into_state
// CHECK: scf.for {{.*}} iter_args(%[[A:.*]] = %{{.*}}, %[[B:.*]] = %{{.*}})
// CHECK:   %[[T:.*]] = linalg.generic {{.*}} ins(%[[A]] : tensor<4x4xf32>)
// CHECK:   %[[FA:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[A]] : tensor<4x4xf32>)
// CHECK:   linalg.matmul ins(%[[T]], %{{.*}} : tensor<4x4xf32>, tensor<4x4xf32>) outs(%[[FA]] : tensor<4x4xf32>)
// CHECK:   %[[EB:.*]] = tensor.empty() : tensor<4x4xf32>
// CHECK:   %[[FB:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[EB]] : tensor<4x4xf32>)
// CHECK:   linalg.matmul ins(%[[B]], %{{.*}} : tensor<4x4xf32>, tensor<4x4xf32>) outs(%[[FB]] : tensor<4x4xf32>)
#map = affine_map<(d0, d1) -> (d0, d1)>
func.func @fill_into_state(%x: tensor<4x4xf32>, %w: tensor<4x4xf32>, %n: index) -> (tensor<4x4xf32>, tensor<4x4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%a = %x, %b = %x) -> (tensor<4x4xf32>, tensor<4x4xf32>) {
    %e0 = tensor.empty() : tensor<4x4xf32>
    %t = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<4x4xf32>) outs(%e0 : tensor<4x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %th = math.tanh %in : f32
      linalg.yield %th : f32
    } -> tensor<4x4xf32>
    %e1 = tensor.empty() : tensor<4x4xf32>
    %fa = linalg.fill ins(%zero : f32) outs(%e1 : tensor<4x4xf32>) -> tensor<4x4xf32>
    %ma = linalg.matmul ins(%t, %w : tensor<4x4xf32>, tensor<4x4xf32>) outs(%fa : tensor<4x4xf32>) -> tensor<4x4xf32>
    %e2 = tensor.empty() : tensor<4x4xf32>
    %fb = linalg.fill ins(%zero : f32) outs(%e2 : tensor<4x4xf32>) -> tensor<4x4xf32>
    %mb = linalg.matmul ins(%b, %w : tensor<4x4xf32>, tensor<4x4xf32>) outs(%fb : tensor<4x4xf32>) -> tensor<4x4xf32>
    scf.yield %ma, %mb : tensor<4x4xf32>, tensor<4x4xf32>
  }
  return %r#0, %r#1 : tensor<4x4xf32>, tensor<4x4xf32>
}

// -----

// Dynamic extents: an empty tensor sized by the state's own extent takes
// the state; one sized by another value (the state may change its extent)
// does not.
// CHECK-LABEL: func.func @dynamic_extents
// CHECK: scf.for {{.*}} iter_args(%[[A:.*]] = %{{.*}}, %[[B:.*]] = %{{.*}})
// CHECK:   linalg.generic {{.*}} ins(%[[A]] : tensor<?xf32>) outs(%[[A]] : tensor<?xf32>)
// CHECK:   %[[E:.*]] = tensor.empty(%{{.*}}) : tensor<?xf32>
// CHECK:   linalg.generic {{.*}} ins(%[[B]] : tensor<?xf32>) outs(%[[E]] : tensor<?xf32>)
#map = affine_map<(d0) -> (d0)>
func.func @dynamic_extents(%x: tensor<?xf32>, %m: index, %n: index) -> (tensor<?xf32>, tensor<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%a = %x, %b = %x) -> (tensor<?xf32>, tensor<?xf32>) {
    %da = tensor.dim %a, %c0 : tensor<?xf32>
    %ea = tensor.empty(%da) : tensor<?xf32>
    %ya = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%a : tensor<?xf32>) outs(%ea : tensor<?xf32>) {
    ^bb0(%in: f32, %out: f32):
      %t = math.tanh %in : f32
      linalg.yield %t : f32
    } -> tensor<?xf32>
    %eb = tensor.empty(%m) : tensor<?xf32>
    %yb = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%b : tensor<?xf32>) outs(%eb : tensor<?xf32>) {
    ^bb0(%in: f32, %out: f32):
      %t = math.tanh %in : f32
      linalg.yield %t : f32
    } -> tensor<?xf32>
    scf.yield %ya, %yb : tensor<?xf32>, tensor<?xf32>
  }
  return %r#0, %r#1 : tensor<?xf32>, tensor<?xf32>
}

// -----

// An scf.while whose condition passes on another value than its state:
// the body's update keeps its own empty tensor (the state's buffer is not
// the same through both regions).
// CHECK-LABEL: func.func @while_passes_another
// CHECK: } do {
// CHECK: ^bb0(%[[STATE:.*]]: tensor<4xf32>):
// CHECK:   %[[E:.*]] = tensor.empty() : tensor<4xf32>
// CHECK:   linalg.generic {{.*}} ins(%[[STATE]] : tensor<4xf32>) outs(%[[E]] : tensor<4xf32>)
#map = affine_map<(d0) -> (d0)>
func.func @while_passes_another(%x: tensor<4xf32>, %other: tensor<4xf32>, %limit: f32) -> tensor<4xf32> {
  %r = scf.while (%s = %x) : (tensor<4xf32>) -> tensor<4xf32> {
    %c0 = arith.constant 0 : index
    %v = tensor.extract %s[%c0] : tensor<4xf32>
    %go = arith.cmpf ogt, %v, %limit : f32
    scf.condition(%go) %other : tensor<4xf32>
  } do {
  ^bb0(%s: tensor<4xf32>):
    %e = tensor.empty() : tensor<4xf32>
    %h = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%s : tensor<4xf32>) outs(%e : tensor<4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %half = arith.constant 0.5 : f32
      %m = arith.mulf %in, %half : f32
      linalg.yield %m : f32
    } -> tensor<4xf32>
    scf.yield %h : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}
