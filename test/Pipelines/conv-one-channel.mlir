// Wide convolutions of one input channel with a column stride compile and
// run (they take the window copy, not the direct per-row matmuls, whose
// rank-reduced row slice crashed --expand-strided-metadata); --check
// compares every result with the reference interpreter.
// RUN: google-run %s --function=one_filter --input=2x3x28x1xf32=0.5 --input="1x2x1x1xf32=-0.75 2" --check | FileCheck %s --check-prefix=ONE
// RUN: google-run %s --function=one_filter --input=2x3x28x1xf32=0.5 --input="1x2x1x1xf32=-0.75 2" --pipeline-options=opt-level=1 --check | FileCheck %s --check-prefix=ONE
// RUN: google-run %s --function=two_filters --input=3x3x28x1xf32=1 --input="1x2x1x2xf32=1 2 3 4" --check | FileCheck %s --check-prefix=TWO
// RUN: google-opt %s --google-extreme-pipeline | FileCheck %s --check-prefix=IR

// ONE: result[0]: 2x2x16x1xf32=
// ONE-SAME: [0.625][0.625]
// ONE: check: @one_filter: 1 result matches the reference interpreter
// TWO: result[0]: 3x2x16x2xf32=
// TWO-SAME: [4 6]
// TWO: check: @two_filters: 1 result matches the reference interpreter
// IR-LABEL: llvm.func @one_filter
// IR-LABEL: llvm.func @two_filters

func.func @one_filter(%x: tensor<?x3x28x1xf32>, %w: tensor<1x2x1x1xf32>) -> tensor<?x2x16x1xf32> {
  %y = google.conv2d %x, %w {strides = array<i64: 2, 2>, dilations = array<i64: 1, 1>, padding = array<i64: 0, 1, 2, 2>, groups = 1 : i64} : tensor<?x3x28x1xf32>, tensor<1x2x1x1xf32> -> tensor<?x2x16x1xf32>
  return %y : tensor<?x2x16x1xf32>
}

func.func @two_filters(%x: tensor<?x3x28x1xf32>, %w: tensor<1x2x1x2xf32>) -> tensor<?x2x16x2xf32> {
  %y = google.conv2d %x, %w {strides = array<i64: 2, 2>, dilations = array<i64: 1, 1>, padding = array<i64: 0, 1, 2, 2>, groups = 1 : i64} : tensor<?x3x28x1xf32>, tensor<1x2x1x2xf32> -> tensor<?x2x16x2xf32>
  return %y : tensor<?x2x16x2xf32>
}
