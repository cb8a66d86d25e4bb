// RUN: google-opt %s --linalg-fuse-elementwise-ops | FileCheck %s
//
// Upstream behaviour we must not rely on (MLIR 22): a parallel generic that
// computes its value from its own `outs` operand (%div below divides the
// sums in place) is fused into a broadcasting consumer as an extra result
// whose indexing map broadcasts, (d0, d1) -> (d0, 0). The division then runs
// once per column, on the value the previous column left there: x - mean(x)
// came out wrong. The google lowering therefore never reads `outs` outside
// a true reduction (see createParallelGeneric); this test records the
// upstream behaviour, so a change upstream shows up here.

#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>

// CHECK-DAG: #[[BROADCAST:.*]] = affine_map<(d0, d1) -> (d0, 0)>
// CHECK-LABEL: func @divide_in_place_then_broadcast
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #[[BROADCAST]], #{{.*}}]
// CHECK-SAME: outs(%{{.*}}, %{{.*}} : tensor<2x1xf32>, tensor<2x3xf32>)
// CHECK: arith.divf
// CHECK: arith.subf
func.func @divide_in_place_then_broadcast(%x: tensor<2x3xf32>, %sums: tensor<2xf32>) -> tensor<2x3xf32> {
  %three = arith.constant 3.0 : f32
  %div = linalg.generic {indexing_maps = [#id1], iterator_types = ["parallel"]}
      outs(%sums : tensor<2xf32>) {
  ^bb0(%out: f32):
    %q = arith.divf %out, %three : f32
    linalg.yield %q : f32
  } -> tensor<2xf32>
  %mean = tensor.expand_shape %div [[0, 1]] output_shape [2, 1] : tensor<2xf32> into tensor<2x1xf32>
  %empty = tensor.empty() : tensor<2x3xf32>
  %r = linalg.generic {indexing_maps = [#id2, affine_map<(d0, d1) -> (d0, 0)>, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %mean : tensor<2x3xf32>, tensor<2x1xf32>) outs(%empty : tensor<2x3xf32>) {
  ^bb0(%a: f32, %m: f32, %o: f32):
    %d = arith.subf %a, %m : f32
    linalg.yield %d : f32
  } -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}
