// RUN: google-opt %s -split-input-file --google-gpu-tile-to-blocks | FileCheck %s
// RUN: google-opt %s -split-input-file --google-gpu-tile-to-blocks=fused-attention=1 | FileCheck %s --check-prefix=ATTENTION

// Softmax's chain is tiled by rows into a loop over blocks with every op
// fused in: each block reduces, exponentiates and divides its own row,
// and its per-row values are slices of their own.
// CHECK-LABEL: func.func @softmax
// CHECK-SAME: (%[[X:.*]]: tensor<64x1024xf32>)
// CHECK: %[[ROWS:.*]] = tensor.empty() : tensor<64xf32>
// CHECK: %[[EMPTY:.*]] = tensor.empty() : tensor<64x1024xf32>
// CHECK: %[[P:.*]] = scf.forall (%[[I:.*]]) in (64) shared_outs(%[[OUT:.*]] = %[[EMPTY]]) -> (tensor<64x1024xf32>)
// CHECK: %[[ROW:.*]] = tensor.extract_slice %[[X]][%[[I]], 0] [1, 1024] [1, 1]
// CHECK: %[[VALUE:.*]] = tensor.extract_slice %[[ROWS]][%[[I]]] [1] [1]
// CHECK: %[[INIT:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[VALUE]] : tensor<1xf32>)
// CHECK: %[[MAX:.*]] = linalg.reduce { arith.maxnumf } ins(%[[ROW]] : tensor<1x1024xf32>) outs(%[[INIT]] : tensor<1xf32>)
// CHECK: %[[EXP:.*]] = linalg.generic {{.*}} ins(%[[ROW]], %[[MAX]] : tensor<1x1024xf32>, tensor<1xf32>)
// CHECK: linalg.reduce { arith.addf } ins(%[[EXP]] : tensor<1x1024xf32>)
// CHECK: %[[SLICE:.*]] = tensor.extract_slice %[[OUT]][%[[I]], 0] [1, 1024] [1, 1]
// CHECK: %[[DIV:.*]] = linalg.generic {{.*}} outs(%[[SLICE]] : tensor<1x1024xf32>)
// CHECK: scf.forall.in_parallel
// CHECK-NEXT: tensor.parallel_insert_slice %[[DIV]] into %[[OUT]][%[[I]], 0] [1, 1024] [1, 1]
// CHECK: } {mapping = [#gpu.block<linear_dim_0>]}
// CHECK-NOT: linalg.
// CHECK: return %[[P]]
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @softmax(%x: tensor<64x1024xf32>) -> tensor<64x1024xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %rows = tensor.empty() : tensor<64xf32>
  %init = linalg.fill ins(%ninf : f32) outs(%rows : tensor<64xf32>) -> tensor<64xf32>
  %max = linalg.reduce { arith.maxnumf } ins(%x : tensor<64x1024xf32>) outs(%init : tensor<64xf32>) dimensions = [1]
  %empty = tensor.empty() : tensor<64x1024xf32>
  %exp = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %max : tensor<64x1024xf32>, tensor<64xf32>) outs(%empty : tensor<64x1024xf32>) {
  ^bb0(%a: f32, %m: f32, %o: f32):
    %d = arith.subf %a, %m : f32
    %e = math.exp %d : f32
    linalg.yield %e : f32
  } -> tensor<64x1024xf32>
  %zeros = linalg.fill ins(%zero : f32) outs(%rows : tensor<64xf32>) -> tensor<64xf32>
  %sum = linalg.reduce { arith.addf } ins(%exp : tensor<64x1024xf32>) outs(%zeros : tensor<64xf32>) dimensions = [1]
  %p = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%exp, %sum : tensor<64x1024xf32>, tensor<64xf32>) outs(%empty : tensor<64x1024xf32>) {
  ^bb0(%a: f32, %s: f32, %o: f32):
    %q = arith.divf %a, %s : f32
    linalg.yield %q : f32
  } -> tensor<64x1024xf32>
  return %p : tensor<64x1024xf32>
}

// -----

// What the function reads of the chain besides its end (the row sums) is
// yielded by the loop too; rows over two dimensions map to two block
// dimensions, the last varying fastest. The sums are read through a
// tensor.expand_shape (keep_dims), which the divide then reads past.
// CHECK-LABEL: func.func @yielded
// CHECK: %[[LOOP:.*]]:2 = scf.forall (%[[I:.*]], %[[J:.*]]) in (2, 3) shared_outs({{.*}}) -> (tensor<2x3x512xf32>, tensor<2x3xf32>)
// CHECK-NOT: tensor.expand_shape
// CHECK: %[[SUM:.*]] = linalg.reduce
// CHECK: %[[DIV:.*]] = linalg.generic {{.*}} ins(%{{.*}}, %[[SUM]] : tensor<1x1x512xf32>, tensor<1x1xf32>)
// CHECK: tensor.parallel_insert_slice %[[DIV]]
// CHECK-NEXT: tensor.parallel_insert_slice %[[SUM]]
// CHECK: } {mapping = [#gpu.block<linear_dim_1>, #gpu.block<linear_dim_0>]}
// CHECK: return %[[LOOP]]#0, %[[LOOP]]#1
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#row3 = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
func.func @yielded(%x: tensor<2x3x512xf32>) -> (tensor<2x3x512xf32>, tensor<2x3xf32>) {
  %zero = arith.constant 0.0 : f32
  %rows = tensor.empty() : tensor<2x3xf32>
  %zeros = linalg.fill ins(%zero : f32) outs(%rows : tensor<2x3xf32>) -> tensor<2x3xf32>
  %sum = linalg.reduce { arith.addf } ins(%x : tensor<2x3x512xf32>) outs(%zeros : tensor<2x3xf32>) dimensions = [2]
  %kept = tensor.expand_shape %sum [[0], [1, 2]] output_shape [2, 3, 1] : tensor<2x3xf32> into tensor<2x3x1xf32>
  %empty = tensor.empty() : tensor<2x3x512xf32>
  %p = linalg.generic {indexing_maps = [#id3, #row3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x, %kept : tensor<2x3x512xf32>, tensor<2x3x1xf32>) outs(%empty : tensor<2x3x512xf32>) {
  ^bb0(%a: f32, %s: f32, %o: f32):
    %q = arith.divf %a, %s : f32
    linalg.yield %q : f32
  } -> tensor<2x3x512xf32>
  return %p, %sum : tensor<2x3x512xf32>, tensor<2x3xf32>
}

// -----

// Left alone: one row (a block already), dynamic rows (no row chain on
// the GPU), and a lone reduction (not a chain).
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT: scf.forall
// CHECK: return
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @left_alone(%x: tensor<1x1024xf32>, %y: tensor<?x1024xf32>) -> (tensor<1x1024xf32>, tensor<?x1024xf32>, tensor<?xf32>) {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %rows = tensor.empty() : tensor<1xf32>
  %zeros = linalg.fill ins(%zero : f32) outs(%rows : tensor<1xf32>) -> tensor<1xf32>
  %sum = linalg.reduce { arith.addf } ins(%x : tensor<1x1024xf32>) outs(%zeros : tensor<1xf32>) dimensions = [1]
  %empty = tensor.empty() : tensor<1x1024xf32>
  %p = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %sum : tensor<1x1024xf32>, tensor<1xf32>) outs(%empty : tensor<1x1024xf32>) {
  ^bb0(%a: f32, %s: f32, %o: f32):
    %q = arith.divf %a, %s : f32
    linalg.yield %q : f32
  } -> tensor<1x1024xf32>
  %n = tensor.dim %y, %c0 : tensor<?x1024xf32>
  %dynRows = tensor.empty(%n) : tensor<?xf32>
  %dynZeros = linalg.fill ins(%zero : f32) outs(%dynRows : tensor<?xf32>) -> tensor<?xf32>
  %dynSum = linalg.reduce { arith.addf } ins(%y : tensor<?x1024xf32>) outs(%dynZeros : tensor<?xf32>) dimensions = [1]
  %dynEmpty = tensor.empty(%n) : tensor<?x1024xf32>
  %q = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%y, %dynSum : tensor<?x1024xf32>, tensor<?xf32>) outs(%dynEmpty : tensor<?x1024xf32>) {
  ^bb0(%a: f32, %s: f32, %o: f32):
    %d = arith.divf %a, %s : f32
    linalg.yield %d : f32
  } -> tensor<?x1024xf32>
  %lone = linalg.reduce { arith.addf } ins(%y : tensor<?x1024xf32>) outs(%dynZeros : tensor<?xf32>) dimensions = [1]
  return %p, %q, %lone : tensor<1x1024xf32>, tensor<?x1024xf32>, tensor<?xf32>
}

// -----

// Probabilities that feed a contraction (attention) are tiled unless the
// fused attention kernel is to take them; the scores' fill stays with
// their matmul.
// CHECK-LABEL: func.func @attention
// CHECK: linalg.fill
// CHECK-NEXT: linalg.matmul
// CHECK: scf.forall
// CHECK: linalg.matmul
// ATTENTION-LABEL: func.func @attention
// ATTENTION-NOT: scf.forall
// ATTENTION: return
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @attention(%q: tensor<64x64xf32>, %kt: tensor<64x256xf32>, %v: tensor<256x64xf32>) -> tensor<64x64xf32> {
  %zero = arith.constant 0.0 : f32
  %scoresEmpty = tensor.empty() : tensor<64x256xf32>
  %scoresInit = linalg.fill ins(%zero : f32) outs(%scoresEmpty : tensor<64x256xf32>) -> tensor<64x256xf32>
  %s = linalg.matmul ins(%q, %kt : tensor<64x64xf32>, tensor<64x256xf32>) outs(%scoresInit : tensor<64x256xf32>) -> tensor<64x256xf32>
  %rows = tensor.empty() : tensor<64xf32>
  %zeros = linalg.fill ins(%zero : f32) outs(%rows : tensor<64xf32>) -> tensor<64xf32>
  %sum = linalg.reduce { arith.addf } ins(%s : tensor<64x256xf32>) outs(%zeros : tensor<64xf32>) dimensions = [1]
  %empty = tensor.empty() : tensor<64x256xf32>
  %p = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%s, %sum : tensor<64x256xf32>, tensor<64xf32>) outs(%empty : tensor<64x256xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %d = arith.divf %a, %b : f32
    linalg.yield %d : f32
  } -> tensor<64x256xf32>
  %outEmpty = tensor.empty() : tensor<64x64xf32>
  %outInit = linalg.fill ins(%zero : f32) outs(%outEmpty : tensor<64x64xf32>) -> tensor<64x64xf32>
  %o = linalg.matmul ins(%p, %v : tensor<64x256xf32>, tensor<256x64xf32>) outs(%outInit : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %o : tensor<64x64xf32>
}

// -----

// The row sums are read before the chain's end (a minimum over the rows):
// the loop, in the end's place, could not give them to it. Left alone.
// CHECK-LABEL: func.func @read_before_end
// CHECK-NOT: scf.forall
// CHECK: return
#id = affine_map<(d0, d1) -> (d0, d1)>
#row0 = affine_map<(d0, d1) -> (d0, 0)>
func.func @read_before_end(%x: tensor<4x512xf32>) -> (tensor<4x512xf32>, tensor<1xf32>) {
  %zero = arith.constant 0.0 : f32
  %inf = arith.constant 0x7F800000 : f32
  %rows = tensor.empty() : tensor<4xf32>
  %zeros = linalg.fill ins(%zero : f32) outs(%rows : tensor<4xf32>) -> tensor<4xf32>
  %sum = linalg.reduce { arith.addf } ins(%x : tensor<4x512xf32>) outs(%zeros : tensor<4xf32>) dimensions = [1]
  %kept = tensor.expand_shape %sum [[0, 1]] output_shape [4, 1] : tensor<4xf32> into tensor<4x1xf32>
  %one = tensor.empty() : tensor<1xf32>
  %infs = linalg.fill ins(%inf : f32) outs(%one : tensor<1xf32>) -> tensor<1xf32>
  %min = linalg.reduce { arith.minnumf } ins(%kept : tensor<4x1xf32>) outs(%infs : tensor<1xf32>) dimensions = [0]
  %empty = tensor.empty() : tensor<4x512xf32>
  %p = linalg.generic {indexing_maps = [#id, #row0, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %kept : tensor<4x512xf32>, tensor<4x1xf32>) outs(%empty : tensor<4x512xf32>) {
  ^bb0(%a: f32, %s: f32, %o: f32):
    %q = arith.divf %a, %s : f32
    linalg.yield %q : f32
  } -> tensor<4x512xf32>
  return %p, %min : tensor<4x512xf32>, tensor<1xf32>
}
