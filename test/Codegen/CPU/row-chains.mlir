// RUN: google-opt %s -split-input-file -google-tile-and-vectorize | FileCheck %s

// A softmax over rows of 256: the divide is tiled by rows with the whole
// chain fused in (max, exp, sum, divide); exp runs once per row, and the
// row loop is marked for threads.
// CHECK-LABEL: func @softmax_rows
// CHECK:       scf.for %[[I:.*]] = %c0 to %c16 step %c1
// CHECK:         vector.multi_reduction <maximumf>, {{.*}} : vector<1x256xf32>
// CHECK:         linalg.generic
// CHECK:           math.exp
// CHECK:         vector.multi_reduction <add>, {{.*}} : vector<1x256xf32>
// CHECK:         linalg.generic
// CHECK:           arith.divf
// CHECK:       } {google.parallel}
// CHECK-NOT:   math.exp
// CHECK:       return
func.func @softmax_rows(%arg0: tensor<16x256xf32>) -> tensor<16x256xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %cst_0 = arith.constant 0xFF800000 : f32
  %0 = tensor.empty() : tensor<16xf32>
  %1 = linalg.fill ins(%cst_0 : f32) outs(%0 : tensor<16xf32>) -> tensor<16xf32>
  %reduced = linalg.reduce { arith.maximumf } ins(%arg0 : tensor<16x256xf32>) outs(%1 : tensor<16xf32>) dimensions = [1] 
  %2 = tensor.empty() : tensor<16x256xf32>
  %3 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%arg0, %reduced : tensor<16x256xf32>, tensor<16xf32>) outs(%2 : tensor<16x256xf32>) {
  ^bb0(%in: f32, %in_2: f32, %out: f32):
    %6 = arith.subf %in, %in_2 : f32
    %7 = math.exp %6 : f32
    linalg.yield %7 : f32
  } -> tensor<16x256xf32>
  %4 = linalg.fill ins(%cst : f32) outs(%0 : tensor<16xf32>) -> tensor<16xf32>
  %reduced_1 = linalg.reduce { arith.addf } ins(%3 : tensor<16x256xf32>) outs(%4 : tensor<16xf32>) dimensions = [1] 
  %5 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%3, %reduced_1 : tensor<16x256xf32>, tensor<16xf32>) outs(%2 : tensor<16x256xf32>) {
  ^bb0(%in: f32, %in_2: f32, %out: f32):
    %6 = arith.divf %in, %in_2 : f32
    linalg.yield %6 : f32
  } -> tensor<16x256xf32>
  return %5 : tensor<16x256xf32>
}

// -----

// keep_dims leaves a tensor.expand_shape of unit dimensions between the
// mean and the subtraction: the subtraction reads the mean directly, and
// the chain is fused.
// CHECK-LABEL: func @mean_centered
// CHECK-NOT:   tensor.expand_shape
// CHECK:       scf.for
// CHECK:         vector.multi_reduction <add>
// CHECK:         linalg.generic {{.*}} ins(%{{.*}} : tensor<1xf32>)
// CHECK:           arith.divf
// CHECK:         linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x256xf32>, tensor<1xf32>)
// CHECK:           arith.subf
// CHECK:       } {google.parallel}
func.func @mean_centered(%arg0: tensor<16x256xf32>) -> tensor<16x256xf32> {
  %cst = arith.constant 2.560000e+02 : f32
  %cst_0 = arith.constant 0.000000e+00 : f32
  %0 = tensor.empty() : tensor<16xf32>
  %1 = linalg.fill ins(%cst_0 : f32) outs(%0 : tensor<16xf32>) -> tensor<16xf32>
  %reduced = linalg.reduce { arith.addf } ins(%arg0 : tensor<16x256xf32>) outs(%1 : tensor<16xf32>) dimensions = [1] 
  %2 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%reduced : tensor<16xf32>) outs(%0 : tensor<16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %5 = arith.divf %in, %cst : f32
    linalg.yield %5 : f32
  } -> tensor<16xf32>
  %expanded = tensor.expand_shape %2 [[0, 1]] output_shape [16, 1] : tensor<16xf32> into tensor<16x1xf32>
  %3 = tensor.empty() : tensor<16x256xf32>
  %4 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%arg0, %expanded : tensor<16x256xf32>, tensor<16x1xf32>) outs(%3 : tensor<16x256xf32>) {
  ^bb0(%in: f32, %in_1: f32, %out: f32):
    %5 = arith.subf %in, %in_1 : f32
    linalg.yield %5 : f32
  } -> tensor<16x256xf32>
  return %4 : tensor<16x256xf32>
}

// -----

// Rows of 64 are too short for a loop of their own: the ops stay whole.
// CHECK-LABEL: func @short_rows
// CHECK-NOT:   google.parallel
func.func @short_rows(%arg0: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %cst_0 = arith.constant 0xFF800000 : f32
  %0 = tensor.empty() : tensor<16xf32>
  %1 = linalg.fill ins(%cst_0 : f32) outs(%0 : tensor<16xf32>) -> tensor<16xf32>
  %reduced = linalg.reduce { arith.maximumf } ins(%arg0 : tensor<16x64xf32>) outs(%1 : tensor<16xf32>) dimensions = [1] 
  %2 = tensor.empty() : tensor<16x64xf32>
  %3 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%arg0, %reduced : tensor<16x64xf32>, tensor<16xf32>) outs(%2 : tensor<16x64xf32>) {
  ^bb0(%in: f32, %in_2: f32, %out: f32):
    %6 = arith.subf %in, %in_2 : f32
    %7 = math.exp %6 : f32
    linalg.yield %7 : f32
  } -> tensor<16x64xf32>
  %4 = linalg.fill ins(%cst : f32) outs(%0 : tensor<16xf32>) -> tensor<16xf32>
  %reduced_1 = linalg.reduce { arith.addf } ins(%3 : tensor<16x64xf32>) outs(%4 : tensor<16xf32>) dimensions = [1] 
  %5 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%3, %reduced_1 : tensor<16x64xf32>, tensor<16xf32>) outs(%2 : tensor<16x64xf32>) {
  ^bb0(%in: f32, %in_2: f32, %out: f32):
    %6 = arith.divf %in, %in_2 : f32
    linalg.yield %6 : f32
  } -> tensor<16x64xf32>
  return %5 : tensor<16x64xf32>
}

// -----

// A column sum read by every row stays out of the row loop (each row would
// compute it again); the row maximum is fused.
// CHECK-LABEL: func @column_sums
// CHECK:       %[[COLUMNS:.*]] = linalg.reduce { arith.addf } {{.*}} dimensions = [0]
// CHECK:       scf.for
// CHECK:         vector.multi_reduction <maximumf>
// CHECK:         linalg.generic {{.*}} ins(%{{.*}}, %{{.*}}, %[[COLUMNS]] :
// CHECK:       } {google.parallel}
func.func @column_sums(%arg0: tensor<16x256xf32>) -> tensor<16x256xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %cst_0 = arith.constant 0xFF800000 : f32
  %0 = tensor.empty() : tensor<16xf32>
  %1 = linalg.fill ins(%cst_0 : f32) outs(%0 : tensor<16xf32>) -> tensor<16xf32>
  %reduced = linalg.reduce { arith.maximumf } ins(%arg0 : tensor<16x256xf32>) outs(%1 : tensor<16xf32>) dimensions = [1] 
  %expanded = tensor.expand_shape %reduced [[0, 1]] output_shape [16, 1] : tensor<16xf32> into tensor<16x1xf32>
  %2 = tensor.empty() : tensor<256xf32>
  %3 = linalg.fill ins(%cst : f32) outs(%2 : tensor<256xf32>) -> tensor<256xf32>
  %reduced_1 = linalg.reduce { arith.addf } ins(%arg0 : tensor<16x256xf32>) outs(%3 : tensor<256xf32>) dimensions = [0] 
  %expanded_2 = tensor.expand_shape %reduced_1 [[0, 1]] output_shape [1, 256] : tensor<256xf32> into tensor<1x256xf32>
  %4 = tensor.empty() : tensor<16x256xf32>
  %5 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%arg0, %expanded, %expanded_2 : tensor<16x256xf32>, tensor<16x1xf32>, tensor<1x256xf32>) outs(%4 : tensor<16x256xf32>) {
  ^bb0(%in: f32, %in_3: f32, %in_4: f32, %out: f32):
    %6 = arith.subf %in, %in_3 : f32
    %7 = arith.divf %6, %in_4 : f32
    linalg.yield %7 : f32
  } -> tensor<16x256xf32>
  return %5 : tensor<16x256xf32>
}
