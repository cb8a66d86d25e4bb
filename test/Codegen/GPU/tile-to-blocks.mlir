// RUN: google-opt %s -split-input-file --google-gpu-tile-to-blocks | FileCheck %s
// RUN: google-opt %s -split-input-file --google-gpu-tile-to-blocks=fused-attention=1 | FileCheck %s --check-prefix=ATTENTION
// RUN: google-opt %s -split-input-file --google-gpu-tile-to-blocks=mma-sync=1 | FileCheck %s --check-prefix=MMA

// Softmax's chain is tiled by rows into a loop over blocks with every op
// fused in: each block reduces, exponentiates and divides its own row,
// and its per-row values are slices of their own. The exponentials go to
// the block's slice of the output, which the divide overwrites in place
// (bufferization then allocates nothing for them).
// CHECK-LABEL: func.func @softmax
// CHECK-SAME: (%[[X:.*]]: tensor<64x1024xf32>)
// CHECK: %[[ROWS:.*]] = tensor.empty() : tensor<64xf32>
// CHECK: %[[EMPTY:.*]] = tensor.empty() : tensor<64x1024xf32>
// CHECK: %[[P:.*]] = scf.forall (%[[I:.*]]) in (64) shared_outs(%[[OUT:.*]] = %[[EMPTY]]) -> (tensor<64x1024xf32>)
// CHECK: %[[ROW:.*]] = tensor.extract_slice %[[X]][%[[I]], 0] [1, 1024] [1, 1]
// CHECK: %[[VALUE:.*]] = tensor.extract_slice %[[ROWS]][%[[I]]] [1] [1]
// CHECK: %[[INIT:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[VALUE]] : tensor<1xf32>)
// CHECK: %[[MAX:.*]] = linalg.reduce { arith.maxnumf } ins(%[[ROW]] : tensor<1x1024xf32>) outs(%[[INIT]] : tensor<1xf32>)
// CHECK: %[[SLICE:.*]] = tensor.extract_slice %[[OUT]][%[[I]], 0] [1, 1024] [1, 1]
// CHECK: %[[EXP:.*]] = linalg.generic {{.*}} ins(%[[ROW]], %[[MAX]] : tensor<1x1024xf32>, tensor<1xf32>) outs(%[[SLICE]] : tensor<1x1024xf32>)
// CHECK: linalg.reduce { arith.addf } ins(%[[EXP]] : tensor<1x1024xf32>)
// CHECK-NOT: tensor.extract_slice
// CHECK: %[[DIV:.*]] = linalg.generic {{.*}} ins(%[[EXP]], %{{.*}}) outs(%[[EXP]] : tensor<1x1024xf32>)
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
// the GPU; its reduction is tiled alone, see @row_reductions), short rows
// (a thread per row reduces them) and no rows at all.
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT: scf.forall
// CHECK: return
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @left_alone(%x: tensor<1x1024xf32>, %y: tensor<?x1024xf32>, %t: tensor<4x8xf32>, %e: tensor<0x1024xf32>) -> (tensor<1x1024xf32>, tensor<?x1024xf32>, tensor<4xf32>, tensor<0xf32>) {
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
  %dynEmpty = tensor.empty(%n) : tensor<?x1024xf32>
  %q = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%y, %dynZeros : tensor<?x1024xf32>, tensor<?xf32>) outs(%dynEmpty : tensor<?x1024xf32>) {
  ^bb0(%a: f32, %s: f32, %o: f32):
    %d = arith.addf %a, %s : f32
    linalg.yield %d : f32
  } -> tensor<?x1024xf32>
  %four = tensor.empty() : tensor<4xf32>
  %fourZeros = linalg.fill ins(%zero : f32) outs(%four : tensor<4xf32>) -> tensor<4xf32>
  %short = linalg.reduce { arith.addf } ins(%t : tensor<4x8xf32>) outs(%fourZeros : tensor<4xf32>) dimensions = [1]
  %none = tensor.empty() : tensor<0xf32>
  %noZeros = linalg.fill ins(%zero : f32) outs(%none : tensor<0xf32>) -> tensor<0xf32>
  %nothing = linalg.reduce { arith.addf } ins(%e : tensor<0x1024xf32>) outs(%noZeros : tensor<0xf32>) dimensions = [1]
  return %p, %q, %short, %nothing : tensor<1x1024xf32>, tensor<?x1024xf32>, tensor<4xf32>, tensor<0xf32>
}

// -----

// A row reduction outside a chain is tiled by one output element, the
// fill of its output fused in: a block reduces one row, static or dynamic,
// over any parallel loops (the last fastest across blocks) and any
// reduction loops, widening f16 as it goes.
// CHECK-LABEL: func.func @row_reductions
// CHECK-SAME: (%[[X:.*]]: tensor<8x1000xf32>, %[[Y:.*]]: tensor<?x?xf32>, %[[H:.*]]: tensor<2x3x16x32xf16>)
// CHECK: scf.forall (%[[I:.*]]) in (8) shared_outs(%[[OUT:.*]] = %{{.*}}) -> (tensor<8xf32>)
// CHECK: %[[ROW:.*]] = tensor.extract_slice %[[X]][%[[I]], 0] [1, 1000] [1, 1]
// CHECK: %[[SLICE:.*]] = tensor.extract_slice %[[OUT]][%[[I]]] [1] [1]
// CHECK: %[[FILL:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[SLICE]] : tensor<1xf32>)
// CHECK: linalg.reduce { arith.maxnumf } ins(%[[ROW]] : tensor<1x1000xf32>) outs(%[[FILL]] : tensor<1xf32>)
// CHECK: } {mapping = [#gpu.block<linear_dim_0>]}
// CHECK: scf.forall (%[[J:.*]]) in (%{{.*}})
// CHECK: tensor.extract_slice %[[Y]][%[[J]], 0] [1, %{{.*}}] [1, 1] : tensor<?x?xf32> to tensor<1x?xf32>
// CHECK: linalg.fill
// CHECK: linalg.reduce { arith.addf }
// CHECK: scf.forall (%[[A:.*]], %[[B:.*]]) in (2, 3)
// CHECK: tensor.extract_slice %[[H]][%[[A]], %[[B]], 0, 0] [1, 1, 16, 32] [1, 1, 1, 1] : tensor<2x3x16x32xf16> to tensor<1x1x16x32xf16>
// CHECK: linalg.fill
// CHECK: arith.extf
// CHECK: } {mapping = [#gpu.block<linear_dim_1>, #gpu.block<linear_dim_0>]}
// CHECK-NOT: linalg.
// CHECK: return
func.func @row_reductions(%x: tensor<8x1000xf32>, %y: tensor<?x?xf32>, %h: tensor<2x3x16x32xf16>) -> (tensor<8xf32>, tensor<?xf32>, tensor<2x3xf32>) {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %c0 = arith.constant 0 : index
  %rows = tensor.empty() : tensor<8xf32>
  %init = linalg.fill ins(%ninf : f32) outs(%rows : tensor<8xf32>) -> tensor<8xf32>
  %max = linalg.reduce { arith.maxnumf } ins(%x : tensor<8x1000xf32>) outs(%init : tensor<8xf32>) dimensions = [1]
  %n = tensor.dim %y, %c0 : tensor<?x?xf32>
  %dynRows = tensor.empty(%n) : tensor<?xf32>
  %dynZeros = linalg.fill ins(%zero : f32) outs(%dynRows : tensor<?xf32>) -> tensor<?xf32>
  %sum = linalg.reduce { arith.addf } ins(%y : tensor<?x?xf32>) outs(%dynZeros : tensor<?xf32>) dimensions = [1]
  %blocks = tensor.empty() : tensor<2x3xf32>
  %blockZeros = linalg.fill ins(%zero : f32) outs(%blocks : tensor<2x3xf32>) -> tensor<2x3xf32>
  %wide = linalg.reduce ins(%h : tensor<2x3x16x32xf16>) outs(%blockZeros : tensor<2x3xf32>) dimensions = [2, 3]
    (%in: f16, %acc: f32) {
      %w = arith.extf %in : f16 to f32
      %s = arith.addf %w, %acc : f32
      linalg.yield %s : f32
    }
  return %max, %sum, %wide : tensor<8xf32>, tensor<?xf32>, tensor<2x3xf32>
}

// -----

// Elementwise ops that go on with the reduced rows' values alone (as
// reduce_mean's divide and truncation) join the reduction's blocks; the
// last of them is tiled, the rest fused in.
// CHECK-LABEL: func.func @mean
// CHECK-SAME: (%[[X:.*]]: tensor<4x512xf16>, %[[SCALE:.*]]: tensor<4xf32>)
// CHECK: scf.forall (%[[I:.*]]) in (4) shared_outs(%[[OUT:.*]] = %{{.*}}) -> (tensor<4xf16>)
// CHECK: linalg.fill
// CHECK: %[[SUM:.*]] = linalg.reduce
// CHECK: %[[ROWSCALE:.*]] = tensor.extract_slice %[[SCALE]][%[[I]]] [1] [1]
// CHECK: %[[MEAN:.*]] = linalg.generic {{.*}} ins(%[[SUM]], %[[ROWSCALE]] : tensor<1xf32>, tensor<1xf32>)
// CHECK: %[[SLICE:.*]] = tensor.extract_slice %[[OUT]][%[[I]]] [1] [1]
// CHECK: %[[HALF:.*]] = linalg.generic {{.*}} ins(%[[MEAN]] : tensor<1xf32>) outs(%[[SLICE]] : tensor<1xf16>)
// CHECK: tensor.parallel_insert_slice %[[HALF]] into %[[OUT]][%[[I]]] [1] [1]
// CHECK: } {mapping = [#gpu.block<linear_dim_0>]}
// CHECK-NOT: linalg.
// CHECK: return
#id1 = affine_map<(d0) -> (d0)>
func.func @mean(%x: tensor<4x512xf16>, %scale: tensor<4xf32>) -> tensor<4xf16> {
  %zero = arith.constant 0.0 : f32
  %rows = tensor.empty() : tensor<4xf32>
  %zeros = linalg.fill ins(%zero : f32) outs(%rows : tensor<4xf32>) -> tensor<4xf32>
  %sum = linalg.reduce ins(%x : tensor<4x512xf16>) outs(%zeros : tensor<4xf32>) dimensions = [1]
    (%in: f16, %acc: f32) {
      %w = arith.extf %in : f16 to f32
      %s = arith.addf %w, %acc : f32
      linalg.yield %s : f32
    }
  %mean = linalg.generic {indexing_maps = [#id1, #id1, #id1], iterator_types = ["parallel"]} ins(%sum, %scale : tensor<4xf32>, tensor<4xf32>) outs(%rows : tensor<4xf32>) {
  ^bb0(%s: f32, %c: f32, %o: f32):
    %m = arith.divf %s, %c : f32
    linalg.yield %m : f32
  } -> tensor<4xf32>
  %halves = tensor.empty() : tensor<4xf16>
  %half = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]} ins(%mean : tensor<4xf32>) outs(%halves : tensor<4xf16>) {
  ^bb0(%m: f32, %o: f16):
    %t = arith.truncf %m : f32 to f16
    linalg.yield %t : f16
  } -> tensor<4xf16>
  return %half : tensor<4xf16>
}

// -----

// Row values that something else reads too end the consumers: the loop
// yields the reduction, and the consumer that shares it stays outside.
// CHECK-LABEL: func.func @shared_sum
// CHECK: %[[SUM:.*]] = scf.forall
// CHECK: linalg.reduce
// CHECK: } {mapping = [#gpu.block<linear_dim_0>]}
// CHECK: linalg.generic {{.*}} ins(%[[SUM]] : tensor<4xf32>)
// CHECK: return
func.func @shared_sum(%x: tensor<4x512xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %zero = arith.constant 0.0 : f32
  %two = arith.constant 2.0 : f32
  %rows = tensor.empty() : tensor<4xf32>
  %zeros = linalg.fill ins(%zero : f32) outs(%rows : tensor<4xf32>) -> tensor<4xf32>
  %sum = linalg.reduce { arith.addf } ins(%x : tensor<4x512xf32>) outs(%zeros : tensor<4xf32>) dimensions = [1]
  %doubled = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%sum : tensor<4xf32>) outs(%rows : tensor<4xf32>) {
  ^bb0(%s: f32, %o: f32):
    %d = arith.mulf %s, %two : f32
    linalg.yield %d : f32
  } -> tensor<4xf32>
  return %sum, %doubled : tensor<4xf32>, tensor<4xf32>
}

// -----

// A fill that another op reads too stays whole (its own kernel); the
// reduction starts from its slice.
// CHECK-LABEL: func.func @shared_fill
// CHECK: %[[FILL:.*]] = linalg.fill
// CHECK: scf.forall (%[[I:.*]]) in (4) shared_outs(%[[OUT:.*]] = %[[FILL]])
// CHECK-NOT: linalg.fill
// CHECK: linalg.reduce
// CHECK: return
func.func @shared_fill(%x: tensor<4x512xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %zero = arith.constant 0.0 : f32
  %rows = tensor.empty() : tensor<4xf32>
  %zeros = linalg.fill ins(%zero : f32) outs(%rows : tensor<4xf32>) -> tensor<4xf32>
  %sum = linalg.reduce { arith.addf } ins(%x : tensor<4x512xf32>) outs(%zeros : tensor<4xf32>) dimensions = [1]
  return %sum, %zeros : tensor<4xf32>, tensor<4xf32>
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

// The row sums are read before the chain's end (a tensor.extract between
// its ops): the loop, in the end's place, could not give them to it. Left
// alone, its reduction too (--google-map-to-gpu runs the chain).
// CHECK-LABEL: func.func @read_before_end
// CHECK-NOT: scf.forall
// CHECK: return
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @read_before_end(%x: tensor<4x512xf32>) -> (tensor<4x512xf32>, f32) {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %rows = tensor.empty() : tensor<4xf32>
  %zeros = linalg.fill ins(%zero : f32) outs(%rows : tensor<4xf32>) -> tensor<4xf32>
  %sum = linalg.reduce { arith.addf } ins(%x : tensor<4x512xf32>) outs(%zeros : tensor<4xf32>) dimensions = [1]
  %first = tensor.extract %sum[%c0] : tensor<4xf32>
  %empty = tensor.empty() : tensor<4x512xf32>
  %p = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %sum : tensor<4x512xf32>, tensor<4xf32>) outs(%empty : tensor<4x512xf32>) {
  ^bb0(%a: f32, %s: f32, %o: f32):
    %q = arith.divf %a, %s : f32
    linalg.yield %q : f32
  } -> tensor<4x512xf32>
  return %p, %first : tensor<4x512xf32>, f32
}

// -----

// A contraction that only the shared-memory kernel can take (a dynamic M)
// is tiled by its block's 64 x 64 tile of C (tile-size 4), its
// accumulator's fill and its epilogue fused in; partial tiles at the
// edges have extents of their own. The kernel is recorded on the tile's
// contraction for --google-map-to-gpu.
// CHECK-LABEL: func.func @matmul_bias_relu
// CHECK-SAME: (%[[A:.*]]: tensor<?x300xf32>, %[[B:.*]]: tensor<300x200xf32>, %[[BIAS:.*]]: tensor<200xf32>)
// CHECK: scf.forall (%[[I:.*]], %[[J:.*]]) = (0, 0) to (%{{.*}}, 200) step (64, 64) shared_outs(%[[OUT:.*]] = %{{.*}})
// CHECK: %[[ROWS:.*]] = affine.min
// CHECK: %[[COLUMNS:.*]] = affine.min
// CHECK: %[[ASLICE:.*]] = tensor.extract_slice %[[A]][%[[I]], 0] [%[[ROWS]], 300] [1, 1]
// CHECK: %[[BSLICE:.*]] = tensor.extract_slice %[[B]][0, %[[J]]] [300, %[[COLUMNS]]] [1, 1]
// CHECK: %[[FILL:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<?x?xf32>)
// CHECK: %[[PRODUCT:.*]] = linalg.matmul {google.gpu_kernel = {kernel = "shared_tiles", size = 4 : i64}} ins(%[[ASLICE]], %[[BSLICE]] : tensor<?x300xf32>, tensor<300x?xf32>) outs(%[[FILL]] : tensor<?x?xf32>)
// CHECK: %[[BIASSLICE:.*]] = tensor.extract_slice %[[BIAS]][%[[J]]] [%[[COLUMNS]]] [1]
// CHECK: linalg.generic {{.*}} ins(%[[PRODUCT]], %[[BIASSLICE]] : tensor<?x?xf32>, tensor<?xf32>)
// CHECK: } {mapping = [#gpu.block<linear_dim_1>, #gpu.block<linear_dim_0>]}
// CHECK-NOT: linalg.
// CHECK: return
func.func @matmul_bias_relu(%a: tensor<?x300xf32>, %b: tensor<300x200xf32>, %bias: tensor<200xf32>) -> tensor<?x200xf32> {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %m = tensor.dim %a, %c0 : tensor<?x300xf32>
  %empty = tensor.empty(%m) : tensor<?x200xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<?x200xf32>) -> tensor<?x200xf32>
  %product = linalg.matmul ins(%a, %b : tensor<?x300xf32>, tensor<300x200xf32>) outs(%init : tensor<?x200xf32>) -> tensor<?x200xf32>
  %out = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%product, %bias : tensor<?x200xf32>, tensor<200xf32>) outs(%empty : tensor<?x200xf32>) {
  ^bb0(%p: f32, %c: f32, %o: f32):
    %s = arith.addf %p, %c : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  } -> tensor<?x200xf32>
  return %out : tensor<?x200xf32>
}

// -----

// A batched contraction gets a block per batch and tile; without an
// epilogue, the contraction itself is tiled.
// CHECK-LABEL: func.func @batched
// CHECK: scf.forall (%{{.*}}, %{{.*}}, %{{.*}}) = (0, 0, 0) to (3, 100, 100) step (1, 64, 64)
// CHECK: linalg.fill
// CHECK: linalg.batch_matmul
// CHECK: } {mapping = [#gpu.block<linear_dim_2>, #gpu.block<linear_dim_1>, #gpu.block<linear_dim_0>]}
func.func @batched(%a: tensor<3x100x50xf32>, %b: tensor<3x50x100xf32>) -> tensor<3x100x100xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<3x100x100xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<3x100x100xf32>) -> tensor<3x100x100xf32>
  %c = linalg.batch_matmul ins(%a, %b : tensor<3x100x50xf32>, tensor<3x50x100xf32>) outs(%init : tensor<3x100x100xf32>) -> tensor<3x100x100xf32>
  return %c : tensor<3x100x100xf32>
}

// -----

// Left to --google-map-to-gpu: a matmul with a small output and a long K
// (split-K), and one smaller than a block's tile (register tiles).
// CHECK-LABEL: func.func @left_to_buffers
// CHECK-NOT: scf.forall
// CHECK: return
func.func @left_to_buffers(%x: tensor<8x1024xf32>, %w: tensor<1024x8xf32>, %s: tensor<20x20xf32>) -> (tensor<8x8xf32>, tensor<20x20xf32>) {
  %zero = arith.constant 0.0 : f32
  %e2 = tensor.empty() : tensor<8x8xf32>
  %i2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %c2 = linalg.matmul ins(%x, %w : tensor<8x1024xf32>, tensor<1024x8xf32>) outs(%i2 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %e3 = tensor.empty() : tensor<20x20xf32>
  %i3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<20x20xf32>) -> tensor<20x20xf32>
  %c3 = linalg.matmul ins(%s, %s : tensor<20x20xf32>, tensor<20x20xf32>) outs(%i3 : tensor<20x20xf32>) -> tensor<20x20xf32>
  return %c2, %c3 : tensor<8x8xf32>, tensor<20x20xf32>
}

// -----

// Their elementwise epilogues write the product in place (bufferization
// then gives them the contraction's buffer, which its kernel takes in),
// unless a loop yields the result (computed in its iteration argument).
// CHECK-LABEL: func.func @epilogues_in_place
// CHECK: %[[P:.*]] = linalg.matmul
// CHECK: linalg.generic {{.*}} ins(%{{.*}}, %[[P]] : tensor<8x8xf32>, tensor<8x8xf32>) outs(%[[P]] : tensor<8x8xf32>)
// CHECK: scf.for
// CHECK: %[[Q:.*]] = linalg.matmul
// CHECK-NEXT: %[[E:.*]] = tensor.empty() : tensor<8x8xf32>
// CHECK-NEXT: %[[R:.*]] = linalg.generic {{.*}} ins(%[[Q]] : tensor<8x8xf32>) outs(%[[E]] : tensor<8x8xf32>)
// CHECK: scf.yield %[[R]]
func.func @epilogues_in_place(%x: tensor<8x1024xf32>, %w: tensor<1024x8xf32>, %d: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x8xf32>
  %i = linalg.fill ins(%zero : f32) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  %p = linalg.matmul ins(%x, %w : tensor<8x1024xf32>, tensor<1024x8xf32>) outs(%i : tensor<8x8xf32>) -> tensor<8x8xf32>
  %o = tensor.empty() : tensor<8x8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%d, %p : tensor<8x8xf32>, tensor<8x8xf32>) outs(%o : tensor<8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<8x8xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %l = scf.for %k = %c0 to %c4 step %c1 iter_args(%acc = %d) -> (tensor<8x8xf32>) {
    %e2 = tensor.empty() : tensor<8x8xf32>
    %i2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<8x8xf32>) -> tensor<8x8xf32>
    %q = linalg.matmul ins(%x, %w : tensor<8x1024xf32>, tensor<1024x8xf32>) outs(%i2 : tensor<8x8xf32>) -> tensor<8x8xf32>
    %o2 = tensor.empty() : tensor<8x8xf32>
    %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%q : tensor<8x8xf32>) outs(%o2 : tensor<8x8xf32>) {
    ^bb0(%b: f32, %out: f32):
      %s = math.tanh %b : f32
      linalg.yield %s : f32
    } -> tensor<8x8xf32>
    scf.yield %t : tensor<8x8xf32>
  }
  return %r, %l : tensor<8x8xf32>, tensor<8x8xf32>
}

// -----

// A static f32 matmul that fits the vector-tile kernel is tiled by its
// block's tile: 16 x 4 (too few 128 x 128 tiles for 8 per thread).
// --google-map-to-gpu checks that the buffers it reads as vectors are
// aligned.
// CHECK-LABEL: func.func @vector_tiles
// CHECK: scf.forall (%{{.*}}, %{{.*}}) = (0, 0) to (512, 512) step (64, 64)
// CHECK: linalg.fill
// CHECK: linalg.matmul {google.gpu_kernel = {kernel = "vector_tiles", size = 4 : i64}} ins(%{{.*}}, %{{.*}} : tensor<64x256xf32>, tensor<256x64xf32>)
func.func @vector_tiles(%a: tensor<512x256xf32>, %b: tensor<256x512xf32>) -> tensor<512x512xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<512x512xf32>
  %i = linalg.fill ins(%zero : f32) outs(%e : tensor<512x512xf32>) -> tensor<512x512xf32>
  %c = linalg.matmul ins(%a, %b : tensor<512x256xf32>, tensor<256x512xf32>) outs(%i : tensor<512x512xf32>) -> tensor<512x512xf32>
  return %c : tensor<512x512xf32>
}

// -----

// With mma-sync, f16 products accumulated in f32 go to tensor cores:
// blocks of 128 x 128 tiles of C, the epilogue fused in. Without it, the
// shared-tile kernel takes them.
// CHECK-LABEL: func.func @half_products
// CHECK: scf.forall (%{{.*}}, %{{.*}}, %{{.*}}) = (0, 0, 0) to (2, 256, 128) step (1, 64, 64)
// CHECK: linalg.batch_matmul {google.gpu_kernel = {kernel = "shared_tiles", size = 4 : i64}}
// MMA-LABEL: func.func @half_products
// MMA: scf.forall (%{{.*}}, %{{.*}}, %{{.*}}) = (0, 0, 0) to (2, 256, 128) step (1, 128, 128)
// MMA: linalg.fill
// MMA: linalg.batch_matmul {google.gpu_kernel = {kernel = "mma_sync", size = 128 : i64}} ins(%{{.*}}, %{{.*}} : tensor<1x128x64xf16>, tensor<1x64x128xf16>) outs(%{{.*}} : tensor<1x128x128xf32>)
// MMA: linalg.generic
// MMA: arith.truncf
// MMA: } {mapping = [#gpu.block<linear_dim_2>, #gpu.block<linear_dim_1>, #gpu.block<linear_dim_0>]}
func.func @half_products(%a: tensor<2x256x64xf16>, %b: tensor<2x64x128xf16>) -> tensor<2x256x128xf16> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x256x128xf32>
  %i = linalg.fill ins(%zero : f32) outs(%e : tensor<2x256x128xf32>) -> tensor<2x256x128xf32>
  %c = linalg.batch_matmul ins(%a, %b : tensor<2x256x64xf16>, tensor<2x64x128xf16>) outs(%i : tensor<2x256x128xf32>) -> tensor<2x256x128xf32>
  %h = tensor.empty() : tensor<2x256x128xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%c : tensor<2x256x128xf32>) outs(%h : tensor<2x256x128xf16>) {
  ^bb0(%x: f32, %o: f16):
    %t = arith.truncf %x : f32 to f16
    linalg.yield %t : f16
  } -> tensor<2x256x128xf16>
  return %r : tensor<2x256x128xf16>
}

// -----

// With fused-attention, an attention (here: K transposed, the scores
// scaled, softmax as google.softmax lowers it) is tiled by one batch, all
// its ops fused in, for --google-map-to-gpu's fused-attention kernel,
// which splits the rows itself.
// ATTENTION-LABEL: func.func @batched_attention
// ATTENTION: scf.forall (%[[B:.*]]) in (2)
// ATTENTION: linalg.transpose
// ATTENTION: linalg.fill
// ATTENTION: linalg.batch_matmul ins(%{{.*}}, %{{.*}} : tensor<1x128x64xf32>, tensor<1x64x128xf32>)
// ATTENTION-NOT: google.gpu_kernel
// ATTENTION: linalg.reduce { arith.maxnumf }
// ATTENTION: math.exp
// ATTENTION: linalg.reduce { arith.addf }
// ATTENTION: arith.divf
// ATTENTION: linalg.fill
// ATTENTION: linalg.batch_matmul ins(%{{.*}}, %{{.*}} : tensor<1x128x128xf32>, tensor<1x128x64xf32>)
// ATTENTION: tensor.parallel_insert_slice
// ATTENTION: } {mapping = [#gpu.block<linear_dim_0>]}
// ATTENTION-NOT: linalg.
// ATTENTION: return
func.func @batched_attention(%arg0: tensor<2x128x64xf32>, %arg1: tensor<2x128x64xf32>, %arg2: tensor<2x128x64xf32>) -> tensor<2x128x64xf32> {
  %cst = arith.constant 1.250000e-01 : f32
  %cst_0 = arith.constant -8.700000e+01 : f32
  %cst_1 = arith.constant 0xFF800000 : f32
  %cst_2 = arith.constant 0.000000e+00 : f32
  %0 = tensor.empty() : tensor<2x64x128xf32>
  %transposed = linalg.transpose ins(%arg1 : tensor<2x128x64xf32>) outs(%0 : tensor<2x64x128xf32>) permutation = [0, 2, 1] 
  %1 = tensor.empty() : tensor<2x128x128xf32>
  %2 = linalg.fill ins(%cst_2 : f32) outs(%1 : tensor<2x128x128xf32>) -> tensor<2x128x128xf32>
  %3 = linalg.batch_matmul ins(%arg0, %transposed : tensor<2x128x64xf32>, tensor<2x64x128xf32>) outs(%2 : tensor<2x128x128xf32>) -> tensor<2x128x128xf32>
  %4 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%3 : tensor<2x128x128xf32>) outs(%1 : tensor<2x128x128xf32>) {
  ^bb0(%in: f32, %out: f32):
    %13 = arith.mulf %in, %cst : f32
    linalg.yield %13 : f32
  } -> tensor<2x128x128xf32>
  %5 = tensor.empty() : tensor<2x128xf32>
  %6 = linalg.fill ins(%cst_1 : f32) outs(%5 : tensor<2x128xf32>) -> tensor<2x128xf32>
  %reduced = linalg.reduce { arith.maxnumf } ins(%4 : tensor<2x128x128xf32>) outs(%6 : tensor<2x128xf32>) dimensions = [2] 
  %7 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%4, %reduced : tensor<2x128x128xf32>, tensor<2x128xf32>) outs(%1 : tensor<2x128x128xf32>) {
  ^bb0(%in: f32, %in_4: f32, %out: f32):
    %13 = arith.subf %in, %in_4 : f32
    %14 = arith.cmpf olt, %13, %cst_0 : f32
    %15 = arith.maximumf %13, %cst_0 : f32
    %16 = math.exp %15 : f32
    %17 = arith.select %14, %cst_2, %16 : f32
    linalg.yield %17 : f32
  } -> tensor<2x128x128xf32>
  %8 = linalg.fill ins(%cst_2 : f32) outs(%5 : tensor<2x128xf32>) -> tensor<2x128xf32>
  %reduced_3 = linalg.reduce { arith.addf } ins(%7 : tensor<2x128x128xf32>) outs(%8 : tensor<2x128xf32>) dimensions = [2] 
  %9 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%7, %reduced_3 : tensor<2x128x128xf32>, tensor<2x128xf32>) outs(%1 : tensor<2x128x128xf32>) {
  ^bb0(%in: f32, %in_4: f32, %out: f32):
    %13 = arith.divf %in, %in_4 : f32
    linalg.yield %13 : f32
  } -> tensor<2x128x128xf32>
  %10 = tensor.empty() : tensor<2x128x64xf32>
  %11 = linalg.fill ins(%cst_2 : f32) outs(%10 : tensor<2x128x64xf32>) -> tensor<2x128x64xf32>
  %12 = linalg.batch_matmul ins(%9, %arg2 : tensor<2x128x128xf32>, tensor<2x128x64xf32>) outs(%11 : tensor<2x128x64xf32>) -> tensor<2x128x64xf32>
  return %12 : tensor<2x128x64xf32>
}

// -----

// Per-row ops kept over N x 1 (a layer norm's variance + eps and its
// reciprocal square root, which its gradient saves) drop the unit loop
// and join the chain: one loop over rows, the saved value yielded from it
// and given its unit dimension back after it.
// CHECK-LABEL: func.func @saved_row_values
// CHECK: %[[LOOP:.*]]:2 = scf.forall (%{{.*}}) in (64)
// CHECK: linalg.reduce
// CHECK: %[[SAVED:.*]] = linalg.generic {{.*}} ins(%{{.*}} : tensor<1xf32>)
// CHECK: arith.addf
// CHECK: math.rsqrt
// CHECK: tensor.parallel_insert_slice %[[SAVED]]
// CHECK: } {mapping = [#gpu.block<linear_dim_0>]}
// CHECK-NEXT: %[[EXPANDED:.*]] = tensor.expand_shape %[[LOOP]]#1 {{\[\[}}0, 1]] output_shape [64, 1]
// CHECK-NOT: linalg.
// CHECK: return %[[LOOP]]#0, %[[EXPANDED]]
func.func @saved_row_values(%x: tensor<64x256xf32>) -> (tensor<64x256xf32>, tensor<64x1xf32>) {
  %zero = arith.constant 0.0 : f32
  %eps = arith.constant 1.0e-5 : f32
  %e = tensor.empty() : tensor<64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<64xf32>) -> tensor<64xf32>
  %ex = tensor.empty() : tensor<64x256xf32>
  %sq = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<64x256xf32>) outs(%ex : tensor<64x256xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.mulf %in, %in : f32
    linalg.yield %m : f32
  } -> tensor<64x256xf32>
  %s = linalg.reduce { arith.addf } ins(%sq : tensor<64x256xf32>) outs(%f : tensor<64xf32>) dimensions = [1]
  %s1 = tensor.expand_shape %s [[0, 1]] output_shape [64, 1] : tensor<64xf32> into tensor<64x1xf32>
  %e1 = tensor.empty() : tensor<64x1xf32>
  %v = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%s1 : tensor<64x1xf32>) outs(%e1 : tensor<64x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %a = arith.addf %in, %eps : f32
    linalg.yield %a : f32
  } -> tensor<64x1xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%v : tensor<64x1xf32>) outs(%e1 : tensor<64x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %q = math.rsqrt %in : f32
    linalg.yield %q : f32
  } -> tensor<64x1xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %r : tensor<64x256xf32>, tensor<64x1xf32>) outs(%ex : tensor<64x256xf32>) {
  ^bb0(%in: f32, %in2: f32, %out: f32):
    %m = arith.mulf %in, %in2 : f32
    linalg.yield %m : f32
  } -> tensor<64x256xf32>
  return %y, %v : tensor<64x256xf32>, tensor<64x1xf32>
}
