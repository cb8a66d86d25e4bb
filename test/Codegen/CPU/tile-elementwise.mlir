// RUN: google-opt %s -split-input-file -google-tile-and-vectorize | FileCheck %s

// A static elementwise op of 2^16 elements or more runs in a loop over
// chunks of its outermost non-unit dimension, each of at least 4096
// elements and all equal (the chunk divides the dimension), marked for
// threads. 256 rows of 300: chunks of 16 rows.
// CHECK-LABEL: func @rows
// CHECK:       scf.for %[[I:.*]] = %c0 to %c256 step %c16
// CHECK:         tensor.extract_slice %arg0[%[[I]], 0] [16, 300] [1, 1]
// CHECK:         linalg.generic {{.*}} ins({{.*}} : tensor<16x300xf32>, tensor<300xf32>)
// CHECK:           arith.addf
// CHECK:         tensor.insert_slice {{.*}}[%[[I]], 0] [16, 300] [1, 1]
// CHECK:       } {google.parallel}
#rows = affine_map<(d0, d1) -> (d0, d1)>
#bias = affine_map<(d0, d1) -> (d1)>
func.func @rows(%x: tensor<256x300xf32>, %b: tensor<300xf32>) -> tensor<256x300xf32> {
  %e = tensor.empty() : tensor<256x300xf32>
  %r = linalg.generic {indexing_maps = [#rows, #bias, #rows], iterator_types = ["parallel", "parallel"]} ins(%x, %b : tensor<256x300xf32>, tensor<300xf32>) outs(%e : tensor<256x300xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %s = arith.addf %in, %in_0 : f32
    linalg.yield %s : f32
  } -> tensor<256x300xf32>
  return %r : tensor<256x300xf32>
}

// -----

// Leading unit dimensions are skipped: 70000 elements in 16 chunks of 4375.
// CHECK-LABEL: func @unit_dims
// CHECK:       scf.for %[[I:.*]] = %c0 to %c70000 step %c4375
// CHECK:         linalg.transpose ins(%{{.*}} : tensor<1x4375x1xf16>)
// CHECK:       } {google.parallel}
func.func @unit_dims(%x: tensor<1x70000x1xf16>) -> tensor<1x1x70000xf16> {
  %e = tensor.empty() : tensor<1x1x70000xf16>
  %t = linalg.transpose ins(%x : tensor<1x70000x1xf16>) outs(%e : tensor<1x1x70000xf16>) permutation = [0, 2, 1]
  return %t : tensor<1x1x70000xf16>
}

// -----

// A dynamic number of rows of 128 elements or more: full chunks of at
// least 4096 elements and a last, shorter one (threads decide at run time).
// CHECK-LABEL: func @dynamic_rows
// CHECK:       scf.for %[[I:.*]] = %c0{{.*}} to %[[M:.*]] step %c4
// CHECK:         affine.min #{{.*}}(%[[I]])[%[[M]]]
// CHECK:         linalg.abs ins(%{{.*}} : tensor<?x1024xf32>)
// CHECK:       } {google.parallel}
func.func @dynamic_rows(%x: tensor<?x1024xf32>) -> tensor<?x1024xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x1024xf32>
  %e = tensor.empty(%n) : tensor<?x1024xf32>
  %0 = linalg.abs ins(%x : tensor<?x1024xf32>) outs(%e : tensor<?x1024xf32>) -> tensor<?x1024xf32>
  return %0 : tensor<?x1024xf32>
}

// -----

// Not threaded: fewer than 2^16 elements, dynamic rows shorter than 128, a
// dynamic row length, a reduction, a fill, and a length with no divisor
// between 4096 and itself.
// CHECK-LABEL: func @left_whole
// CHECK-NOT:   scf.for
// CHECK:       return
func.func @left_whole(%small: tensor<255x256xf32>, %short: tensor<?x100xf32>, %dyn: tensor<1024x?xf32>, %prime: tensor<65537xf32>) -> (tensor<255x256xf32>, tensor<?x100xf32>, tensor<1024x?xf32>, tensor<1024xf32>, tensor<65537xf32>, tensor<65537xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %0 = linalg.abs ins(%small : tensor<255x256xf32>) outs(%small : tensor<255x256xf32>) -> tensor<255x256xf32>
  %m = tensor.dim %short, %c0 : tensor<?x100xf32>
  %es = tensor.empty(%m) : tensor<?x100xf32>
  %s = linalg.abs ins(%short : tensor<?x100xf32>) outs(%es : tensor<?x100xf32>) -> tensor<?x100xf32>
  %n = tensor.dim %dyn, %c1 : tensor<1024x?xf32>
  %e = tensor.empty(%n) : tensor<1024x?xf32>
  %1 = linalg.abs ins(%dyn : tensor<1024x?xf32>) outs(%e : tensor<1024x?xf32>) -> tensor<1024x?xf32>
  %e1 = tensor.empty() : tensor<1024xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e1 : tensor<1024xf32>) -> tensor<1024xf32>
  %2 = linalg.reduce { arith.addf } ins(%1 : tensor<1024x?xf32>) outs(%f : tensor<1024xf32>) dimensions = [1]
  %e2 = tensor.empty() : tensor<65537xf32>
  %3 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<65537xf32>) -> tensor<65537xf32>
  %4 = linalg.abs ins(%prime : tensor<65537xf32>) outs(%e2 : tensor<65537xf32>) -> tensor<65537xf32>
  return %0, %s, %1, %2, %3, %4 : tensor<255x256xf32>, tensor<?x100xf32>, tensor<1024x?xf32>, tensor<1024xf32>, tensor<65537xf32>, tensor<65537xf32>
}
