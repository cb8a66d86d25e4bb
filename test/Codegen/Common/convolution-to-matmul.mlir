// RUN: google-opt %s -split-input-file -google-convolution-to-matmul | FileCheck %s
// RUN: google-opt %s -split-input-file -google-convolution-to-matmul=direct-min-width=16 | FileCheck %s --check-prefix=DIRECT
// RUN: google-opt %s -split-input-file -google-convolution-to-matmul=row-copy-min-run=256 | FileCheck %s --check-prefix=RUNS
// RUN: google-opt %s -split-input-file -google-convolution-to-matmul=filter-gradients=1 | FileCheck %s --check-prefix=FILTER

// CHECK: #[[READ:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1 * 2 + d3, d2 + d4 * 2, d5)>
// CHECK-LABEL: func @strided_dilated
// CHECK: %[[E:.*]] = tensor.empty(%{{.*}}) : tensor<?x3x2x2x3x4xf16>
// CHECK: %[[P:.*]] = linalg.generic {indexing_maps = [#[[READ]], #{{.*}}], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%{{.*}} : tensor<?x7x8x4xf16>) outs(%[[E]] : tensor<?x3x2x2x3x4xf16>)
// CHECK: %[[L:.*]] = tensor.collapse_shape %[[P]] {{\[\[}}0, 1, 2], [3, 4, 5]] : tensor<?x3x2x2x3x4xf16> into tensor<?x24xf16>
// CHECK: %[[R:.*]] = tensor.collapse_shape %{{.*}} {{\[\[}}0, 1, 2], [3]] : tensor<2x3x4x5xf16> into tensor<24x5xf16>
// CHECK: %[[A:.*]] = tensor.collapse_shape %{{.*}} {{\[\[}}0, 1, 2], [3]] : tensor<?x3x2x5xf32> into tensor<?x5xf32>
// CHECK: %[[M:.*]] = linalg.matmul ins(%[[L]], %[[R]] : tensor<?x24xf16>, tensor<24x5xf16>) outs(%[[A]] : tensor<?x5xf32>)
// CHECK: tensor.expand_shape %[[M]] {{\[\[}}0, 1, 2], [3]] output_shape [%{{.*}}, 3, 2, 5] : tensor<?x5xf32> into tensor<?x3x2x5xf32>
func.func @strided_dilated(%x: tensor<?x7x8x4xf16>, %w: tensor<2x3x4x5xf16>, %acc: tensor<?x3x2x5xf32>) -> tensor<?x3x2x5xf32> {
  %0 = linalg.conv_2d_nhwc_hwcf {dilations = dense<[1, 2]> : tensor<2xi64>, strides = dense<[2, 1]> : tensor<2xi64>} ins(%x, %w : tensor<?x7x8x4xf16>, tensor<2x3x4x5xf16>) outs(%acc : tensor<?x3x2x5xf32>) -> tensor<?x3x2x5xf32>
  return %0 : tensor<?x3x2x5xf32>
}

// -----

// Dynamic windows and grouped convolutions stay.
// CHECK-LABEL: func @unchanged
// CHECK: linalg.conv_2d_nhwc_hwcf
// CHECK: linalg.conv_2d_nhwgc_gfhwc
// CHECK-NOT: linalg.matmul
func.func @unchanged(%x: tensor<1x?x8x4xf32>, %w: tensor<3x3x4x5xf32>, %acc: tensor<1x?x6x5xf32>, %gx: tensor<1x8x8x2x2xf32>, %gw: tensor<2x3x3x3x2xf32>, %gacc: tensor<1x6x6x2x3xf32>) -> (tensor<1x?x6x5xf32>, tensor<1x6x6x2x3xf32>) {
  %0 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<1x?x8x4xf32>, tensor<3x3x4x5xf32>) outs(%acc : tensor<1x?x6x5xf32>) -> tensor<1x?x6x5xf32>
  %1 = linalg.conv_2d_nhwgc_gfhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%gx, %gw : tensor<1x8x8x2x2xf32>, tensor<2x3x3x3x2xf32>) outs(%gacc : tensor<1x6x6x2x3xf32>) -> tensor<1x6x6x2x3xf32>
  return %0, %1 : tensor<1x?x6x5xf32>, tensor<1x6x6x2x3xf32>
}

// -----

// With direct-min-width, f32 convolutions with output rows of at least that
// many positions become a (parallel) loop over the N*OH output rows, with a
// matmul per window offset of the shifted input row (strided by the
// column stride) by the filter's slice; narrower ones keep the im2col copy.
// DIRECT-DAG: #[[N:.*]] = affine_map<(d0) -> (d0 floordiv 4)>
// DIRECT-DAG: #[[Y:.*]] = affine_map<(d0) -> (d0 mod 4)>
// DIRECT-DAG: #[[ROW:.*]] = affine_map<(d0, d1) -> (d0 + d1 * 2)>
// DIRECT-LABEL: func @rows
// DIRECT: %[[BATCH:.*]] = tensor.dim %{{.*}}, %c0 : tensor<?x4x19x16xf32>
// DIRECT: %[[ROWS:.*]] = arith.muli %[[BATCH]], %c4
// DIRECT: scf.for %[[R:[a-z0-9_]+]] = %{{.*}} to %[[ROWS]] step %{{.*}} iter_args(%[[OUT:.*]] = %{{.*}})
// DIRECT:   %[[NI:.*]] = affine.apply #[[N]](%[[R]])
// DIRECT:   %[[YI:.*]] = affine.apply #[[Y]](%[[R]])
// DIRECT:   %[[ACC:.*]] = tensor.extract_slice %[[OUT]][%[[NI]], %[[YI]], 0, 0] [1, 1, 19, 16] [1, 1, 1, 1] : tensor<?x4x19x16xf32> to tensor<19x16xf32>
// DIRECT:   scf.for %[[I:[a-z0-9_]+]] = {{.*}} iter_args(%{{.*}} = %[[ACC]]) -> (tensor<19x16xf32>)
// DIRECT:     scf.for %[[J:[a-z0-9_]+]] = {{.*}} -> (tensor<19x16xf32>)
// DIRECT:       %[[IY:.*]] = affine.apply #[[ROW]](%[[YI]], %[[I]])
// DIRECT:       %[[A:.*]] = tensor.extract_slice %{{.*}}[%[[NI]], %[[IY]], %{{.*}}, 0] [1, 1, 19, 8] [1, 1, 2, 1] : tensor<?x10x40x8xf32> to tensor<19x8xf32>
// DIRECT:       %[[B:.*]] = tensor.extract_slice %{{.*}}[%[[I]], %[[J]], 0, 0] [1, 1, 8, 16] [1, 1, 1, 1] : tensor<3x3x8x16xf32> to tensor<8x16xf32>
// DIRECT:       linalg.matmul ins(%[[A]], %[[B]] : tensor<19x8xf32>, tensor<8x16xf32>) outs(%{{.*}} : tensor<19x16xf32>)
// DIRECT:   tensor.insert_slice %{{.*}} into %[[OUT]][%[[NI]], %[[YI]], 0, 0] [1, 1, 19, 16]
// DIRECT: } {google.parallel}
// DIRECT-LABEL: func @narrow
// DIRECT: linalg.generic
// DIRECT: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<?x72xf32>, tensor<72x16xf32>)
// DIRECT-NOT: scf.for
// Without it, both take the im2col copy.
// CHECK-LABEL: func @rows
// CHECK: linalg.generic
// CHECK-NOT: scf.for
// CHECK-LABEL: func @narrow
// CHECK: linalg.generic
func.func @rows(%x: tensor<?x10x40x8xf32>, %w: tensor<3x3x8x16xf32>, %acc: tensor<?x4x19x16xf32>) -> tensor<?x4x19x16xf32> {
  %0 = linalg.conv_2d_nhwc_hwcf {dilations = dense<[2, 1]> : tensor<2xi64>, strides = dense<[1, 2]> : tensor<2xi64>} ins(%x, %w : tensor<?x10x40x8xf32>, tensor<3x3x8x16xf32>) outs(%acc : tensor<?x4x19x16xf32>) -> tensor<?x4x19x16xf32>
  return %0 : tensor<?x4x19x16xf32>
}
func.func @narrow(%x: tensor<?x10x10x8xf32>, %w: tensor<3x3x8x16xf32>, %acc: tensor<?x8x8x16xf32>) -> tensor<?x8x8x16xf32> {
  %0 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<?x10x10x8xf32>, tensor<3x3x8x16xf32>) outs(%acc : tensor<?x8x8x16xf32>) -> tensor<?x8x8x16xf32>
  return %0 : tensor<?x8x8x16xf32>
}

// -----

// With row-copy-min-run, a window copy whose runs (kw*C contiguous input
// elements) are at least that long is built run by run: loops over the
// output rows, output columns and window rows, each copying one run (here
// 2*256 elements, at column x*256, row y + 2i) for every image as one
// slice; shorter runs keep the generic.
// RUNS-DAG: #[[ROW:.*]] = affine_map<(d0, d1) -> (d0 + d1 * 2)>
// RUNS-DAG: #[[COLUMN:.*]] = affine_map<(d0) -> (d0 * 256)>
// RUNS-LABEL: func @runs
// RUNS: %[[N:.*]] = tensor.dim %arg0, %c0
// RUNS: %[[EMPTY:.*]] = tensor.empty(%[[N]]) : tensor<?x2x5x3x512xf32>
// RUNS: %[[SOURCE:.*]] = tensor.collapse_shape %arg0 {{\[\[}}0], [1], [2, 3]] : tensor<?x6x6x256xf32> into tensor<?x6x1536xf32>
// RUNS: scf.for %[[Y:[a-z0-9_]+]] = %{{.*}} to %c2 {{.*}} iter_args(%{{.*}} = %[[EMPTY]])
// RUNS:   scf.for %[[X:[a-z0-9_]+]] = %{{.*}} to %c5
// RUNS:     scf.for %[[I:[a-z0-9_]+]] = %{{.*}} to %c3 {{.*}} iter_args(%[[P:.*]] = %{{.*}})
// RUNS:       %[[R:.*]] = affine.apply #[[ROW]](%[[Y]], %[[I]])
// RUNS:       %[[C:.*]] = affine.apply #[[COLUMN]](%[[X]])
// RUNS:       %[[SLICE:.*]] = tensor.extract_slice %[[SOURCE]][0, %[[R]], %[[C]]] [%[[N]], 1, 512] [1, 1, 1] : tensor<?x6x1536xf32> to tensor<?x512xf32>
// RUNS:       tensor.insert_slice %[[SLICE]] into %[[P]][0, %[[Y]], %[[X]], %[[I]], 0] [%[[N]], 1, 1, 1, 512]
// RUNS: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<?x1536xf32>, tensor<1536x4xf32>)
// RUNS-LABEL: func @short_runs
// RUNS: linalg.generic
// RUNS: linalg.matmul
// CHECK-LABEL: func @runs
// CHECK: linalg.generic
// CHECK-NOT: scf.for
// CHECK: linalg.matmul
func.func @runs(%x: tensor<?x6x6x256xf32>, %w: tensor<3x2x256x4xf32>, %acc: tensor<?x2x5x4xf32>) -> tensor<?x2x5x4xf32> {
  %0 = linalg.conv_2d_nhwc_hwcf {dilations = dense<[2, 1]> : tensor<2xi64>, strides = dense<[1, 1]> : tensor<2xi64>} ins(%x, %w : tensor<?x6x6x256xf32>, tensor<3x2x256x4xf32>) outs(%acc : tensor<?x2x5x4xf32>) -> tensor<?x2x5x4xf32>
  return %0 : tensor<?x2x5x4xf32>
}
func.func @short_runs(%x: tensor<2x6x6x64xf32>, %w: tensor<3x3x64x4xf32>, %acc: tensor<2x4x4x4xf32>) -> tensor<2x4x4x4xf32> {
  %0 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<2x6x6x64xf32>, tensor<3x3x64x4xf32>) outs(%acc : tensor<2x4x4x4xf32>) -> tensor<2x4x4x4xf32>
  return %0 : tensor<2x4x4x4xf32>
}

// -----

// With filter-gradients, a filter's gradient as --google-differentiate
// writes it (the batch as the channels, through transposes) becomes a
// matmul of the forward convolution's windows, the same im2col matrix,
// read transposed (A stored K x M), by the cotangent's rows. The forward
// is strided and dilated: the gradient's strides are its dilations.
// FILTER-DAG: #[[K_M:.*]] = affine_map<(d0, d1, d2) -> (d2, d0)>
// FILTER-DAG: #[[K_N:.*]] = affine_map<(d0, d1, d2) -> (d2, d1)>
// FILTER-DAG: #[[M_N:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// FILTER-LABEL: func @filter_gradient
// FILTER: %[[P:.*]] = linalg.generic
// FILTER: %[[L:.*]] = tensor.collapse_shape %[[P]] {{\[\[}}0, 1, 2], [3, 4, 5]] : tensor<2x3x4x2x3x4xf32> into tensor<24x24xf32>
// FILTER: linalg.matmul ins(%[[L]], %{{.*}} : tensor<24x24xf32>, tensor<24x5xf32>)
// FILTER-NOT: linalg.generic
// FILTER: %[[CT:.*]] = tensor.collapse_shape %{{.*}} {{\[\[}}0, 1, 2], [3]] : tensor<2x3x4x5xf32> into tensor<24x5xf32>
// FILTER: %[[ZERO:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<24x5xf32>)
// FILTER: %[[G:.*]] = linalg.matmul indexing_maps = [#[[K_M]], #[[K_N]], #[[M_N]]] ins(%[[L]], %[[CT]] : tensor<24x24xf32>, tensor<24x5xf32>) outs(%[[ZERO]] : tensor<24x5xf32>)
// FILTER: %[[R:.*]] = tensor.expand_shape %[[G]] {{\[\[}}0, 1, 2], [3]] output_shape [2, 3, 4, 5] : tensor<24x5xf32> into tensor<2x3x4x5xf32>
// FILTER-NOT: linalg.transpose
// FILTER-NOT: linalg.conv
// FILTER: return %{{.*}}, %[[R]]
// Without the option the gradient stays a convolution of transposes.
// CHECK-LABEL: func @filter_gradient
// CHECK: linalg.transpose
func.func @filter_gradient(%x: tensor<2x6x8x4xf32>, %w: tensor<2x3x4x5xf32>, %ct: tensor<2x3x4x5xf32>) -> (tensor<2x3x4x5xf32>, tensor<2x3x4x5xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x3x4x5xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<2x3x4x5xf32>) -> tensor<2x3x4x5xf32>
  %y = linalg.conv_2d_nhwc_hwcf {dilations = dense<[1, 2]> : tensor<2xi64>, strides = dense<[2, 1]> : tensor<2xi64>} ins(%x, %w : tensor<2x6x8x4xf32>, tensor<2x3x4x5xf32>) outs(%acc : tensor<2x3x4x5xf32>) -> tensor<2x3x4x5xf32>
  %te = tensor.empty() : tensor<4x6x8x2xf32>
  %t = linalg.transpose ins(%x : tensor<2x6x8x4xf32>) outs(%te : tensor<4x6x8x2xf32>) permutation = [3, 1, 2, 0]
  %ue = tensor.empty() : tensor<3x4x2x5xf32>
  %u = linalg.transpose ins(%ct : tensor<2x3x4x5xf32>) outs(%ue : tensor<3x4x2x5xf32>) permutation = [1, 2, 0, 3]
  %re = tensor.empty() : tensor<4x2x3x5xf32>
  %racc = linalg.fill ins(%zero : f32) outs(%re : tensor<4x2x3x5xf32>) -> tensor<4x2x3x5xf32>
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<[2, 1]> : tensor<2xi64>, strides = dense<[1, 2]> : tensor<2xi64>} ins(%t, %u : tensor<4x6x8x2xf32>, tensor<3x4x2x5xf32>) outs(%racc : tensor<4x2x3x5xf32>) -> tensor<4x2x3x5xf32>
  %ge = tensor.empty() : tensor<2x3x4x5xf32>
  %g = linalg.transpose ins(%r : tensor<4x2x3x5xf32>) outs(%ge : tensor<2x3x4x5xf32>) permutation = [1, 2, 0, 3]
  return %y, %g : tensor<2x3x4x5xf32>, tensor<2x3x4x5xf32>
}

// -----

// Only the whole pattern is a filter's gradient: without the transpose of
// its result the convolution is an ordinary one (of transposed operands).
// FILTER-LABEL: func @not_a_gradient
// FILTER-NOT: indexing_maps = [#
// FILTER: linalg.transpose
// FILTER: linalg.transpose
// FILTER: linalg.matmul ins
func.func @not_a_gradient(%x: tensor<2x6x8x4xf32>, %ct: tensor<2x3x4x5xf32>) -> tensor<4x2x3x5xf32> {
  %zero = arith.constant 0.0 : f32
  %te = tensor.empty() : tensor<4x6x8x2xf32>
  %t = linalg.transpose ins(%x : tensor<2x6x8x4xf32>) outs(%te : tensor<4x6x8x2xf32>) permutation = [3, 1, 2, 0]
  %ue = tensor.empty() : tensor<3x4x2x5xf32>
  %u = linalg.transpose ins(%ct : tensor<2x3x4x5xf32>) outs(%ue : tensor<3x4x2x5xf32>) permutation = [1, 2, 0, 3]
  %re = tensor.empty() : tensor<4x2x3x5xf32>
  %racc = linalg.fill ins(%zero : f32) outs(%re : tensor<4x2x3x5xf32>) -> tensor<4x2x3x5xf32>
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<[2, 1]> : tensor<2xi64>, strides = dense<[1, 2]> : tensor<2xi64>} ins(%t, %u : tensor<4x6x8x2xf32>, tensor<3x4x2x5xf32>) outs(%racc : tensor<4x2x3x5xf32>) -> tensor<4x2x3x5xf32>
  return %r : tensor<4x2x3x5xf32>
}

// -----

// A fill of an empty tensor as the accumulator becomes a fill of a fresh
// matrix (the matmul schedules fuse it), and the elementwise op on the
// result (bias + ReLU) is collapsed to the matrix's dimensions, reading the
// matmul's result directly (the schedules then run it in the matmul's
// blocks); the convolution's shape comes back by one expansion after it.
// CHECK-LABEL: func @fill_and_epilogue
// CHECK-SAME: %[[X:[a-z0-9]+]]: tensor<?x6x6x2xf32>, %[[W:[a-z0-9]+]]: tensor<3x3x2x8xf32>, %[[BIAS:[a-z0-9]+]]: tensor<8xf32>
// CHECK: %[[N:.*]] = tensor.dim %[[X]], %c0
// CHECK: %[[EMPTY4:.*]] = tensor.empty(%[[N]]) : tensor<?x4x4x8xf32>
// CHECK-NOT: linalg.fill
// CHECK: %[[BATCH:.*]] = tensor.dim %[[EMPTY4]], %c0
// CHECK: %[[ROWS:.*]] = arith.muli %[[BATCH]], %c16
// CHECK: %[[EMPTY:.*]] = tensor.empty(%[[ROWS]]) : tensor<?x8xf32>
// CHECK: %[[FILL:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[EMPTY]] : tensor<?x8xf32>)
// CHECK: %[[M:.*]] = linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<?x18xf32>, tensor<18x8xf32>) outs(%[[FILL]] : tensor<?x8xf32>)
// CHECK: %[[OUT:.*]] = tensor.empty(%{{.*}}) : tensor<?x8xf32>
// CHECK: %[[E:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]} ins(%[[M]], %[[BIAS]] : tensor<?x8xf32>, tensor<8xf32>) outs(%[[OUT]] : tensor<?x8xf32>)
// CHECK: %[[Y:.*]] = tensor.expand_shape %[[E]] {{\[\[}}0, 1, 2], [3]] output_shape [%{{.*}}, 4, 4, 8] : tensor<?x8xf32> into tensor<?x4x4x8xf32>
// CHECK-NOT: tensor.expand_shape
// CHECK: return %[[Y]]
func.func @fill_and_epilogue(%x: tensor<?x6x6x2xf32>, %w: tensor<3x3x2x8xf32>, %bias: tensor<8xf32>) -> tensor<?x4x4x8xf32> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %n = tensor.dim %x, %c0 : tensor<?x6x6x2xf32>
  %empty = tensor.empty(%n) : tensor<?x4x4x8xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<?x4x4x8xf32>) -> tensor<?x4x4x8xf32>
  %conv = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<?x6x6x2xf32>, tensor<3x3x2x8xf32>) outs(%acc : tensor<?x4x4x8xf32>) -> tensor<?x4x4x8xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%conv, %bias : tensor<?x4x4x8xf32>, tensor<8xf32>) outs(%empty : tensor<?x4x4x8xf32>) {
  ^bb0(%in: f32, %b: f32, %out: f32):
    %s = arith.addf %in, %b : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  } -> tensor<?x4x4x8xf32>
  return %y : tensor<?x4x4x8xf32>
}

// -----

// An elementwise op that broadcasts an operand along part of the collapsed
// dimensions (here through a constant index, as a static 1 stretches)
// cannot run on the matrix: it stays on the expanded result.
// CHECK-LABEL: func @partial_broadcast
// CHECK: %[[M:.*]] = linalg.matmul
// CHECK: %[[Y:.*]] = tensor.expand_shape %[[M]]
// CHECK: linalg.generic {{.*}} ins(%[[Y]], %{{.*}} : tensor<3x1x3x3xf64>, tensor<1x1x3x3xf64>)
func.func @partial_broadcast(%x: tensor<3x4x6x1xf64>, %w: tensor<3x1x1x3xf64>, %d: tensor<1x1x3x3xf64>) -> tensor<3x1x3x3xf64> {
  %zero = arith.constant 0.0 : f64
  %empty = tensor.empty() : tensor<3x1x3x3xf64>
  %acc = linalg.fill ins(%zero : f64) outs(%empty : tensor<3x1x3x3xf64>) -> tensor<3x1x3x3xf64>
  %conv = linalg.conv_2d_nhwc_hwcf {dilations = dense<[1, 2]> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%x, %w : tensor<3x4x6x1xf64>, tensor<3x1x1x3xf64>) outs(%acc : tensor<3x1x3x3xf64>) -> tensor<3x1x3x3xf64>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%conv, %d : tensor<3x1x3x3xf64>, tensor<1x1x3x3xf64>) outs(%empty : tensor<3x1x3x3xf64>) {
  ^bb0(%in: f64, %in_1: f64, %out: f64):
    %q = arith.divf %in, %in_1 : f64
    linalg.yield %q : f64
  } -> tensor<3x1x3x3xf64>
  return %y : tensor<3x1x3x3xf64>
}

// -----

// An op that reads the result twice is collapsed once; the operand it reads
// through another permutation keeps its own collapse of the expansion.
// CHECK-LABEL: func @read_twice
// CHECK: %[[M:.*]] = linalg.matmul {{.*}} -> tensor<64x4xf32>
// CHECK: %[[Y:.*]] = tensor.expand_shape %[[M]] {{\[\[}}0, 1, 2], [3]] output_shape [4, 4, 4, 4] : tensor<64x4xf32> into tensor<4x4x4x4xf32>
// CHECK: %[[T:.*]] = tensor.collapse_shape %[[Y]] {{\[\[}}0], [1, 2, 3]] : tensor<4x4x4x4xf32> into tensor<4x64xf32>
// CHECK: linalg.generic {{.*}} ins(%[[M]], %[[T]] : tensor<64x4xf32>, tensor<4x64xf32>)
// CHECK-NOT: linalg.generic
func.func @read_twice(%x: tensor<4x6x6x2xf32>, %w: tensor<3x3x2x4xf32>) -> tensor<4x4x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<4x4x4x4xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<4x4x4x4xf32>) -> tensor<4x4x4x4xf32>
  %conv = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<4x6x6x2xf32>, tensor<3x3x2x4xf32>) outs(%acc : tensor<4x4x4x4xf32>) -> tensor<4x4x4x4xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d3, d0, d1, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%conv, %conv : tensor<4x4x4x4xf32>, tensor<4x4x4x4xf32>) outs(%empty : tensor<4x4x4x4xf32>) {
  ^bb0(%in: f32, %t: f32, %out: f32):
    %s = arith.addf %in, %t : f32
    linalg.yield %s : f32
  } -> tensor<4x4x4x4xf32>
  return %y : tensor<4x4x4x4xf32>
}
