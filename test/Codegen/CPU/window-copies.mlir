// RUN: google-opt %s -split-input-file -google-tile-and-vectorize | FileCheck %s

// An im2col copy of a dynamic batch: each window row is a run of 3x8 input
// elements, one vector read and one vector write, in loops that LLVM may
// not unroll (unrolled, the nest cost as much to compile as the scalar
// copy it replaces).
// CHECK-DAG: #[[DISABLE:.*]] = #llvm.loop_unroll<disable = true>
// CHECK-DAG: #[[NO_UNROLL:.*]] = #llvm.loop_annotation<unroll = #[[DISABLE]]>
// CHECK-DAG: #[[ROW:.*]] = affine_map<(d0, d1) -> (d0 + d1)>
// CHECK-DAG: #[[COLUMN:.*]] = affine_map<(d0) -> (d0 * 8)>
// CHECK-LABEL: func @im2col
// CHECK-NOT: linalg.generic
// CHECK: scf.for %[[N:.*]] = %c0{{.*}} to %{{.*}} step %c1
// CHECK: %[[IMAGE:.*]] = tensor.extract_slice %{{.*}}[%[[N]], 0, 0] [1, 10, 80] [1, 1, 1]
// CHECK: scf.for %[[Y:.*]] = %{{.*}} to %c8
// CHECK: scf.for %[[XX:.*]] = %{{.*}} to %c8
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %c3 step %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}})
// CHECK: %[[R:.*]] = affine.apply #[[ROW]](%[[Y]], %[[I]])
// CHECK: %[[C:.*]] = affine.apply #[[COLUMN]](%[[XX]])
// CHECK: %[[WINDOW:.*]] = vector.transfer_read %[[IMAGE]][%{{.*}}, %[[R]], %[[C]]], %{{.*}} {in_bounds = [true]} : tensor<1x10x80xf32>, vector<24xf32>
// CHECK: vector.transfer_write %[[WINDOW]], %[[ACC]][%{{.*}}, %[[Y]], %[[XX]], %[[I]], %{{.*}}] {in_bounds = [true]} : vector<24xf32>, tensor<1x8x8x3x24xf32>
// CHECK: } {loop_annotation = #[[NO_UNROLL]]}
// CHECK: } {loop_annotation = #[[NO_UNROLL]]}
// CHECK: } {loop_annotation = #[[NO_UNROLL]]}
// CHECK: } {google.parallel}
func.func @im2col(%x: tensor<?x10x80xf32>, %e: tensor<?x8x8x3x24xf32>) -> tensor<?x8x8x3x24xf32> {
  %0 = linalg.generic {indexing_maps = [affine_map<(n, y, x, i, t) -> (n, y + i, x * 8 + t)>, affine_map<(n, y, x, i, t) -> (n, y, x, i, t)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%x : tensor<?x10x80xf32>) outs(%e : tensor<?x8x8x3x24xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<?x8x8x3x24xf32>
  return %0 : tensor<?x8x8x3x24xf32>
}

// -----

// A filter reversed in its window (a convolution's input gradient): runs
// of its 16 output channels, integers too.
// CHECK-DAG: #[[FLIP:.*]] = affine_map<(d0) -> (-d0 + 2)>
// CHECK-LABEL: func @reversed
// CHECK-SAME: (%[[W:.*]]: tensor<3x3x8x16xi32>
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %c3
// CHECK: scf.for %[[J:.*]] = %{{.*}} to %c3
// CHECK: scf.for %[[C:.*]] = %{{.*}} to %c8
// CHECK: %[[RI:.*]] = affine.apply #[[FLIP]](%[[I]])
// CHECK: %[[RJ:.*]] = affine.apply #[[FLIP]](%[[J]])
// CHECK: vector.transfer_read %[[W]][%[[RI]], %[[RJ]], %[[C]], %{{.*}}], %{{.*}} {in_bounds = [true]} : tensor<3x3x8x16xi32>, vector<16xi32>
func.func @reversed(%w: tensor<3x3x8x16xi32>) -> tensor<3x3x8x16xi32> {
  %e = tensor.empty() : tensor<3x3x8x16xi32>
  %0 = linalg.generic {indexing_maps = [affine_map<(i, j, c, f) -> (2 - i, 2 - j, c, f)>, affine_map<(i, j, c, f) -> (i, j, c, f)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%w : tensor<3x3x8x16xi32>) outs(%e : tensor<3x3x8x16xi32>) {
  ^bb0(%in: i32, %out: i32):
    linalg.yield %in : i32
  } -> tensor<3x3x8x16xi32>
  return %0 : tensor<3x3x8x16xi32>
}

// -----

// Not window copies: a run that is not contiguous (stride 2), a row
// reversed (the innermost index decreasing), a run longer than 1 KiB, a
// copy that computes, booleans (vectors of i1 are bit-packed, their
// memrefs a byte per element) and bf16 (some of its vectors crash LLVM
// 22's x86 backend).
// CHECK-LABEL: func @not_runs
// CHECK-COUNT-6: linalg.generic
// CHECK-NOT: vector.transfer_read
func.func @not_runs(%x: tensor<4x64xf32>, %y: tensor<4x600xf32>, %b: tensor<3x3x8x16xi1>, %h: tensor<3x3x8x16xbf16>) -> (tensor<4x32xf32>, tensor<4x64xf32>, tensor<2x300xf32>, tensor<4x32xf32>, tensor<3x3x8x16xi1>, tensor<3x3x8x16xbf16>) {
  %e = tensor.empty() : tensor<4x32xf32>
  %strided = linalg.generic {indexing_maps = [affine_map<(i, t) -> (i, t * 2)>, affine_map<(i, t) -> (i, t)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x64xf32>) outs(%e : tensor<4x32xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<4x32xf32>
  %e64 = tensor.empty() : tensor<4x64xf32>
  %flipped = linalg.generic {indexing_maps = [affine_map<(i, t) -> (3 - i, 63 - t)>, affine_map<(i, t) -> (i, t)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x64xf32>) outs(%e64 : tensor<4x64xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<4x64xf32>
  %e300 = tensor.empty() : tensor<2x300xf32>
  %long = linalg.generic {indexing_maps = [affine_map<(i, t) -> (i * 2, t + 300)>, affine_map<(i, t) -> (i, t)>], iterator_types = ["parallel", "parallel"]} ins(%y : tensor<4x600xf32>) outs(%e300 : tensor<2x300xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<2x300xf32>
  %negated = linalg.generic {indexing_maps = [affine_map<(i, t) -> (i, t + 32)>, affine_map<(i, t) -> (i, t)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x64xf32>) outs(%e : tensor<4x32xf32>) {
  ^bb0(%in: f32, %out: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  } -> tensor<4x32xf32>
  %eb = tensor.empty() : tensor<3x3x8x16xi1>
  %bools = linalg.generic {indexing_maps = [affine_map<(i, j, c, f) -> (2 - i, 2 - j, c, f)>, affine_map<(i, j, c, f) -> (i, j, c, f)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%b : tensor<3x3x8x16xi1>) outs(%eb : tensor<3x3x8x16xi1>) {
  ^bb0(%in: i1, %out: i1):
    linalg.yield %in : i1
  } -> tensor<3x3x8x16xi1>
  %eh = tensor.empty() : tensor<3x3x8x16xbf16>
  %halves = linalg.generic {indexing_maps = [affine_map<(i, j, c, f) -> (2 - i, 2 - j, c, f)>, affine_map<(i, j, c, f) -> (i, j, c, f)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%h : tensor<3x3x8x16xbf16>) outs(%eh : tensor<3x3x8x16xbf16>) {
  ^bb0(%in: bf16, %out: bf16):
    linalg.yield %in : bf16
  } -> tensor<3x3x8x16xbf16>
  return %strided, %flipped, %long, %negated, %bools, %halves : tensor<4x32xf32>, tensor<4x64xf32>, tensor<2x300xf32>, tensor<4x32xf32>, tensor<3x3x8x16xi1>, tensor<3x3x8x16xbf16>
}
