// RUN: google-opt %s -split-input-file -convert-google-to-linalg | FileCheck %s
// RUN: google-opt %s -split-input-file -convert-google-to-linalg=scatter=loops | FileCheck %s --check-prefix=LOOPS
// RUN: google-opt %s -split-input-file -convert-google-to-linalg=scatter=segments | FileCheck %s --check-prefix=SEGMENTS
// RUN: google-opt %s -split-input-file -convert-google-to-linalg=scatter=reduction | FileCheck %s --check-prefix=REDUCTION

// The inputs agree off the axis (checked where dynamic), then tensor.concat.
// CHECK-LABEL: func @concat
// CHECK: cf.assert %{{.*}}, "google.concat: dimension 0 of input 1 is {0}, expected {1}"
// CHECK: %[[B:.*]] = tensor.cast %{{.*}} : tensor<?x?xf32> to tensor<2x?xf32>
// CHECK: tensor.concat dim(1) %{{.*}}, %[[B]] : (tensor<2x3xf32>, tensor<2x?xf32>) -> tensor<2x?xf32>
func.func @concat(%a: tensor<2x3xf32>, %b: tensor<?x?xf32>) -> tensor<2x?xf32> {
  %0 = google.concat %a, %b {axis = 1 : i64} : tensor<2x3xf32>, tensor<?x?xf32> -> tensor<2x?xf32>
  return %0 : tensor<2x?xf32>
}

// -----

// Inputs known to be empty along the axis are dropped.
// CHECK-LABEL: func @concat_empty
// CHECK: tensor.concat dim(0) %{{[^,]*}} : (tensor<2x3xf32>) -> tensor<2x3xf32>
func.func @concat_empty(%a: tensor<2x3xf32>, %b: tensor<0x3xf32>) -> tensor<2x3xf32> {
  %0 = google.concat %b, %a {axis = 0 : i64} : tensor<0x3xf32>, tensor<2x3xf32> -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// CHECK-LABEL: func @pad
// CHECK: %[[V:.*]] = tensor.extract %{{.*}}[] : tensor<f32>
// CHECK: %[[F:.*]] = linalg.fill ins(%[[V]] : f32) outs(%{{.*}} : tensor<?x6xf32>)
// CHECK: tensor.insert_slice %{{.*}} into %[[F]][1, 2] [%{{.*}}, 3] [1, 1] : tensor<?x3xf32> into tensor<?x6xf32>
func.func @pad(%x: tensor<?x3xf32>, %v: tensor<f32>) -> tensor<?x6xf32> {
  %0 = google.pad %x, %v {low = array<i64: 1, 2>, high = array<i64: 0, 1>} : tensor<?x3xf32>, tensor<f32> -> tensor<?x6xf32>
  return %0 : tensor<?x6xf32>
}

// -----

// CHECK-LABEL: func @iota
// CHECK: linalg.generic
// CHECK: %[[I:.*]] = linalg.index 1 : index
// CHECK: %[[W:.*]] = arith.index_cast %[[I]] : index to i64
// CHECK: arith.uitofp %[[W]] : i64 to f32
func.func @iota() -> tensor<4x2xf32> {
  %0 = google.iota {dimension = 1 : i64} : tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}

// -----

// With `like`, the extents come from it at run time.
// CHECK-LABEL: func @iota_like
// CHECK: %[[N:.*]] = tensor.dim %arg0, %c0 : tensor<?x2xi1>
// CHECK: tensor.empty(%[[N]]) : tensor<?x2xi64>
// CHECK: linalg.index 0 : index
func.func @iota_like(%x: tensor<?x2xi1>) -> tensor<?x2xi64> {
  %0 = google.iota like(%x : tensor<?x2xi1>) {dimension = 0 : i64} : tensor<?x2xi64>
  return %0 : tensor<?x2xi64>
}

// -----

// Out-of-range indices are counted and checked; the gather wraps negative
// indices and clamps, so that it never reads outside the input.
// CHECK-LABEL: func @gather
// CHECK: %[[COUNT:.*]] = linalg.generic {{.*}} iterator_types = ["reduction"]
// CHECK: %[[N:.*]] = tensor.extract %[[COUNT]][] : tensor<i64>
// CHECK: %[[OK:.*]] = arith.cmpi eq, %[[N]], %{{.*}} : i64
// CHECK: cf.assert %[[OK]], "google.gather: {0} indices are outside [-10, 10) for axis 0 (expected {1})"
// CHECK: linalg.generic
// CHECK: arith.select
// CHECK: arith.minsi
// CHECK: %[[CLAMPED:.*]] = arith.maxsi
// CHECK: tensor.extract %{{.*}}[%[[CLAMPED]], %{{.*}}] : tensor<10x4xf32>
func.func @gather(%t: tensor<10x4xf32>, %ids: tensor<5xi32>) -> tensor<5x4xf32> {
  %0 = google.gather %t, %ids {axis = 0 : i64} : tensor<10x4xf32>, tensor<5xi32> -> tensor<5x4xf32>
  return %0 : tensor<5x4xf32>
}

// -----

// An axis that may be empty gathers only when the check passed.
// CHECK-LABEL: func @gather_dynamic
// CHECK: cf.assert %[[OK:[^,]*]], "google.gather: {0} indices are outside its extent for axis 0 (expected {1})"
// CHECK: scf.if %[[OK]] -> (tensor<5x4xf32>)
func.func @gather_dynamic(%t: tensor<?x4xf32>, %ids: tensor<5xi64>) -> tensor<5x4xf32> {
  %0 = google.gather %t, %ids {axis = 0 : i64} : tensor<?x4xf32>, tensor<5xi64> -> tensor<5x4xf32>
  return %0 : tensor<5x4xf32>
}

// -----

// One index (0-d indices, as a scan reads its steps back): the slice at the
// wrapped and clamped index, a view (no element-by-element copy), the
// axis dropped by a collapse (a rank-reducing slice would not say which
// unit dimension goes).
// CHECK-LABEL: func @gather_one
// CHECK: cf.assert %[[OK:[^,]*]], "google.gather: {0} indices are outside [-6, 6) for axis 1 (expected {1})"
// CHECK: %[[ID:.*]] = tensor.extract %{{.*}}[] : tensor<i64>
// CHECK: %[[CLAMPED:.*]] = arith.maxsi
// CHECK: %[[SLICE:.*]] = tensor.extract_slice %{{.*}}[0, %[[CLAMPED]], 0] [3, 1, 4] [1, 1, 1] : tensor<3x6x4xf32> to tensor<3x1x4xf32>
// CHECK-NOT: linalg.generic
// CHECK: %[[ROWS:.*]] = tensor.collapse_shape %[[SLICE]] {{\[}}[0, 1], [2]] : tensor<3x1x4xf32> into tensor<3x4xf32>
// CHECK: return %[[ROWS]]
func.func @gather_one(%t: tensor<3x6x4xf32>, %id: tensor<i64>) -> tensor<3x4xf32> {
  %0 = google.gather %t, %id {axis = 1 : i64} : tensor<3x6x4xf32>, tensor<i64> -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

// scatter_add of one index (a scan stacking its steps), on every target:
// the updates added to base's slice at the index, elementwise, the sum
// written to the slice itself (bufferized in place) and the slice inserted
// back; nothing else of base is read. bf16 adds in f32 and rounds once.
// CHECK-LABEL: func @scatter_add_one
// CHECK: cf.assert %[[OK:[^,]*]], "google.scatter_add: {0} indices are outside [-10, 10) for axis 0 (expected {1})"
// CHECK: scf.if %[[OK]] -> (tensor<10x4xbf16>)
// CHECK: %[[CLAMPED:.*]] = arith.maxsi
// CHECK: %[[SLICE:.*]] = tensor.extract_slice %[[B:.*]][%[[CLAMPED]], 0] [1, 4] [1, 1] : tensor<10x4xbf16> to tensor<1x4xbf16>
// CHECK: %[[SUM:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]} ins(%{{.*}} : tensor<4xbf16>) outs(%[[SLICE]] : tensor<1x4xbf16>)
// CHECK: ^bb0(%[[U:.*]]: bf16, %[[ACC:.*]]: bf16):
// CHECK: %[[WIDE_ACC:.*]] = arith.extf %[[ACC]] : bf16 to f32
// CHECK: %[[WIDE_U:.*]] = arith.extf %[[U]] : bf16 to f32
// CHECK: arith.addf %[[WIDE_ACC]], %[[WIDE_U]] : f32
// CHECK: arith.truncf %{{.*}} : f32 to bf16
// CHECK: tensor.insert_slice %[[SUM]] into %[[B]][%[[CLAMPED]], 0] [1, 4] [1, 1] : tensor<1x4xbf16> into tensor<10x4xbf16>
// CHECK: } else {
// CHECK-NEXT: scf.yield %[[B]]
// LOOPS-LABEL: func @scatter_add_one
// LOOPS: tensor.extract_slice
// LOOPS-NOT: scf.for
// LOOPS: tensor.insert_slice
func.func @scatter_add_one(%b: tensor<10x4xbf16>, %id: tensor<i32>, %u: tensor<4xbf16>) -> tensor<10x4xbf16> {
  %0 = google.scatter_add %b, %id, %u {axis = 0 : i64} : tensor<10x4xbf16>, tensor<i32>, tensor<4xbf16> -> tensor<10x4xbf16>
  return %0 : tensor<10x4xbf16>
}

// -----

// scatter_add: indices checked like a gather's; the updates' dynamic
// extents checked against the base's and the indices'; bf16 accumulates in
// f32 (the base extended, one rounding at the end). Few indices into a
// small result: a reduction over the index dimensions into the result (the
// cheapest parallel form); with scatter=loops a loop nest over the updates
// adding into its row; with scatter=segments, segments (below).
// CHECK-LABEL: func @scatter_add
// CHECK: cf.assert %{{.*}}, "google.scatter_add: dimension 2 of the updates is {0}, expected {1}"
// CHECK: cf.assert %[[OK:[^,]*]], "google.scatter_add: {0} indices are outside [-10, 10) for axis 0 (expected {1})"
// CHECK: arith.extf %{{.*}} : bf16 to f32
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction", "reduction"]
// CHECK: %[[ROW:.*]] = linalg.index 0 : index
// CHECK: %[[HIT:.*]] = arith.cmpi eq, %{{.*}}, %[[ROW]] : index
// CHECK: %[[SUM:.*]] = arith.addf
// CHECK: arith.select %[[HIT]], %[[SUM]]
// CHECK: arith.truncf %{{.*}} : f32 to bf16
// LOOPS-LABEL: func @scatter_add
// LOOPS: cf.assert %[[OK:[^,]*]], "google.scatter_add: {0} indices are outside
// LOOPS: scf.if %[[OK]] -> (tensor<10x4xf32>)
// LOOPS: scf.for
// LOOPS: scf.for
// LOOPS: scf.for
// LOOPS: %[[ID:.*]] = tensor.extract %{{.*}} : tensor<2x3xi32>
// LOOPS: %[[ACC:.*]] = tensor.extract %{{.*}} : tensor<10x4xf32>
// LOOPS: %[[U:.*]] = tensor.extract %{{.*}} : tensor<2x3x4xbf16>
// LOOPS: %[[W:.*]] = arith.extf %[[U]] : bf16 to f32
// LOOPS: %[[NEW:.*]] = arith.addf %[[ACC]], %[[W]] : f32
// LOOPS: tensor.insert %[[NEW]]
// SEGMENTS-LABEL: func @scatter_add
// SEGMENTS: tensor.collapse_shape %{{.*}} {{\[}}[0, 1], [2]] : tensor<2x3x4xbf16> into tensor<6x4xbf16>
// SEGMENTS: scf.while
// SEGMENTS: arith.extf %{{.*}} : bf16 to f32
// SEGMENTS: arith.truncf %{{.*}} : f32 to bf16
func.func @scatter_add(%b: tensor<10x4xbf16>, %ids: tensor<2x3xi32>, %u: tensor<2x3x?xbf16>) -> tensor<10x4xbf16> {
  %0 = google.scatter_add %b, %ids, %u {axis = 0 : i64} : tensor<10x4xbf16>, tensor<2x3xi32>, tensor<2x3x?xbf16> -> tensor<10x4xbf16>
  return %0 : tensor<10x4xbf16>
}

// -----

// A scatter_add where testing every index at every result element is
// costly (1000x64 elements, 128 indices): segments. Each index position
// (collapsed to one dimension) gets its rank in the stable order by
// wrapped row (a loop over all positions, their rows recomputed where
// read: no kernel of rows), the order inverts the ranks, the start of
// each row's run (R + 1 of them) is a binary search, and each result
// element adds its row's run in order.
// CHECK-LABEL: func @scatter_add_segments
// CHECK: %[[IDS:.*]] = tensor.collapse_shape %{{.*}} {{\[}}[0, 1]] : tensor<8x16xi64> into tensor<128xi64>
// CHECK: %[[U:.*]] = tensor.collapse_shape %{{.*}} {{\[}}[0, 1], [2]] : tensor<8x16x64xf32> into tensor<128x64xf32>
// CHECK-NOT: linalg.generic
// CHECK: %[[RANKS:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<128xi64>)
// CHECK: %[[I:.*]] = linalg.index 0 : index
// CHECK: tensor.extract %[[IDS]][%[[I]]]
// CHECK: arith.maxsi
// CHECK: %[[KEY:.*]] = arith.index_cast
// CHECK: scf.for %[[J:.*]] = %{{.*}} to %c128
// CHECK: tensor.extract %[[IDS]][%[[J]]]
// CHECK: arith.maxsi
// CHECK: %[[OTHER:.*]] = arith.index_cast
// CHECK: arith.cmpi slt, %[[OTHER]], %[[KEY]] : i64
// CHECK: arith.cmpi eq, %[[OTHER]], %[[KEY]] : i64
// CHECK: arith.cmpi ult, %[[J]], %[[I]] : index
// CHECK: %[[ORDER:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<128xi64>)
// CHECK: scf.for
// CHECK: tensor.extract %[[RANKS]]
// CHECK: %[[STARTS:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<1001xi64>)
// CHECK: scf.while
// CHECK: arith.shrui
// CHECK: tensor.extract %[[ORDER]]
// CHECK: tensor.extract %[[IDS]]
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]} ins(%{{.*}} : tensor<1000x64xf32>)
// CHECK: %[[ROW:.*]] = linalg.index 0 : index
// CHECK: %[[COLUMN:.*]] = linalg.index 1 : index
// CHECK: %[[FIRST:.*]] = tensor.extract %[[STARTS]][%[[ROW]]]
// CHECK: %[[END:.*]] = tensor.extract %[[STARTS]]
// CHECK: scf.for %[[P:.*]] = %{{.*}} to %{{.*}} step
// CHECK: %[[K:.*]] = tensor.extract %[[ORDER]][%[[P]]]
// CHECK: %[[POSITION:.*]] = arith.index_cast %[[K]] : i64 to index
// CHECK: tensor.extract %[[U]][%[[POSITION]], %[[COLUMN]]]
// CHECK: arith.addf
// CHECK-NOT: "reduction"
// CHECK: return
// SEGMENTS-LABEL: func @scatter_add_segments
// SEGMENTS: scf.while
// REDUCTION-LABEL: func @scatter_add_segments
// REDUCTION-NOT: scf.while
// REDUCTION: iterator_types = ["parallel", "parallel", "reduction", "reduction"]
func.func @scatter_add_segments(%b: tensor<1000x64xf32>, %ids: tensor<8x16xi64>, %u: tensor<8x16x64xf32>) -> tensor<1000x64xf32> {
  %0 = google.scatter_add %b, %ids, %u {axis = 0 : i64} : tensor<1000x64xf32>, tensor<8x16xi64>, tensor<8x16x64xf32> -> tensor<1000x64xf32>
  return %0 : tensor<1000x64xf32>
}

// -----

// Dynamic extents: the cheaper form is picked at run time (both built).
// CHECK-LABEL: func @scatter_add_dynamic
// CHECK: %[[CHEAPER:.*]] = arith.cmpf olt
// CHECK: scf.if %[[CHEAPER]] -> (tensor<?x64xf32>)
// CHECK: scf.while
// CHECK: } else {
// CHECK: iterator_types = ["parallel", "parallel", "reduction"]
// SEGMENTS-LABEL: func @scatter_add_dynamic
// SEGMENTS-NOT: arith.cmpf
// SEGMENTS: scf.while
func.func @scatter_add_dynamic(%b: tensor<?x64xf32>, %ids: tensor<?xi32>, %u: tensor<?x64xf32>) -> tensor<?x64xf32> {
  %0 = google.scatter_add %b, %ids, %u {axis = 0 : i64} : tensor<?x64xf32>, tensor<?xi32>, tensor<?x64xf32> -> tensor<?x64xf32>
  return %0 : tensor<?x64xf32>
}

// -----

// One reduction carries (extreme, index); the order is total, so any
// reduction order gives the first index.
// CHECK-LABEL: func @argmax
// CHECK: %[[R:.*]]:2 = linalg.generic {{.*}} iterator_types = ["reduction", "parallel"]
// CHECK: arith.cmpf uno
// CHECK: arith.cmpf ogt
// CHECK: return %[[R]]#1 : tensor<8xi64>
func.func @argmax(%x: tensor<4x8xf32>) -> tensor<8xi64> {
  %0 = google.argmax %x {axis = 0 : i64, keep_dims = false} : tensor<4x8xf32> -> tensor<8xi64>
  return %0 : tensor<8xi64>
}

// -----

// f32 rows longer than 16: two row reductions (the maximum, then the
// least position holding it or a NaN, counted in f32), which the CPU
// vectorizes. Shorter rows keep the (value, index) pair, on a 2-D view.
// CHECK-LABEL: func @argmax_rows
// CHECK: %[[M:.*]] = linalg.reduce { arith.maximumf } ins(%{{.*}} : tensor<4x32xf32>)
// CHECK: %[[P:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<32xf32>)
// CHECK: linalg.index 0
// CHECK: %[[FIRST:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%{{.*}}, %[[M]], %[[P]] : tensor<4x32xf32>, tensor<4xf32>, tensor<32xf32>)
// CHECK: arith.cmpf oeq
// CHECK: arith.cmpf uno
// CHECK: arith.minimumf
// CHECK: arith.fptosi %{{.*}} : f32 to i64
// CHECK: tensor.expand_shape
func.func @argmax_rows(%x: tensor<4x32xf32>) -> tensor<4x1xi64> {
  %0 = google.argmax %x {axis = 1 : i64, keep_dims = true} : tensor<4x32xf32> -> tensor<4x1xi64>
  return %0 : tensor<4x1xi64>
}

// CHECK-LABEL: func @argmax_short_rows
// CHECK: tensor.collapse_shape %{{.*}} {{\[\[}}0, 1], [2]] : tensor<2x3x8xf32> into tensor<6x8xf32>
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]
// CHECK: tensor.expand_shape %{{.*}} {{\[\[}}0, 1]] output_shape [2, 3] : tensor<6xi64> into tensor<2x3xi64>
func.func @argmax_short_rows(%x: tensor<2x3x8xf32>) -> tensor<2x3xi64> {
  %0 = google.argmax %x {axis = 2 : i64, keep_dims = false} : tensor<2x3x8xf32> -> tensor<2x3xi64>
  return %0 : tensor<2x3xi64>
}

// -----

// CHECK-LABEL: func @argmin_dynamic
// CHECK: cf.assert %{{.*}}, "google.argmin: axis 1 is empty (extent 0)"
// CHECK: arith.cmpi ult
func.func @argmin_dynamic(%p: tensor<3x?xi1>) -> tensor<3x1xi64> {
  %0 = google.argmin %p {axis = 1 : i64, keep_dims = true} : tensor<3x?xi1> -> tensor<3x1xi64>
  return %0 : tensor<3x1xi64>
}
