// RUN: google-opt %s -split-input-file --google-map-to-gpu | FileCheck %s

// Attention's split into heads: the matmul's kernel stores each element of
// C where the transpose (0, 2, 1, 3) of its reshape puts it; neither the
// transpose's kernel nor C's buffer is left.
// CHECK-LABEL: func.func @split_heads
// CHECK-SAME: %[[T:[a-z0-9]+]]: memref<2x3x8x16xf32>)
// CHECK-NOT: gpu.alloc
// CHECK: gpu.launch
// CHECK: memref.store %{{.*}}, %[[T]][%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] : memref<2x3x8x16xf32>
// CHECK: gpu.terminator
// CHECK-NOT: gpu.launch
// CHECK-NOT: linalg.transpose
// CHECK: return
func.func @split_heads(%x: memref<16x32xf32>, %w: memref<32x48xf32>, %t: memref<2x3x8x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %c = gpu.alloc () : memref<16x48xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<16x48xf32>)
  linalg.matmul ins(%x, %w : memref<16x32xf32>, memref<32x48xf32>) outs(%c : memref<16x48xf32>)
  %r = memref.expand_shape %c [[0, 1], [2, 3]] output_shape [2, 8, 3, 16] : memref<16x48xf32> into memref<2x8x3x16xf32>
  linalg.transpose ins(%r : memref<2x8x3x16xf32>) outs(%t : memref<2x3x8x16xf32>) permutation = [0, 2, 1, 3]
  gpu.dealloc %c : memref<16x48xf32>
  return
}

// -----

// Heads back: a generic copying through a permutation, then a collapse
// copied on: both copies fold, one after the other, so that the
// elementwise kernel stores straight into the last copy's output.
// CHECK-LABEL: func.func @merge_heads
// CHECK-SAME: %[[Y:[a-z0-9]+]]: memref<16x48xf32>)
// CHECK-NOT: gpu.alloc
// CHECK: gpu.launch
// CHECK: memref.store %{{.*}}, %[[Y]][%{{.*}}, %{{.*}}] : memref<16x48xf32>
// CHECK-NOT: gpu.launch
// CHECK-NOT: linalg.
// CHECK: return
func.func @merge_heads(%o: memref<6x8x16xf32>, %y: memref<16x48xf32>) {
  %e = gpu.alloc () : memref<6x8x16xf32>
  linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%o : memref<6x8x16xf32>) outs(%e : memref<6x8x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %z = math.exp %in : f32
    linalg.yield %z : f32
  }
  %r = memref.expand_shape %e [[0, 1], [2], [3]] output_shape [2, 3, 8, 16] : memref<6x8x16xf32> into memref<2x3x8x16xf32>
  %m = gpu.alloc () : memref<2x8x3x16xf32>
  linalg.generic {indexing_maps = [affine_map<(a, b, c, d) -> (a, c, b, d)>, affine_map<(a, b, c, d) -> (a, b, c, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%r : memref<2x3x8x16xf32>) outs(%m : memref<2x8x3x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  %flat = memref.collapse_shape %m [[0, 1], [2, 3]] : memref<2x8x3x16xf32> into memref<16x48xf32>
  linalg.copy ins(%flat : memref<16x48xf32>) outs(%y : memref<16x48xf32>)
  gpu.dealloc %e : memref<6x8x16xf32>
  gpu.dealloc %m : memref<2x8x3x16xf32>
  return
}

// -----

// The transpose's output is read between the matmul and the transpose:
// the matmul's kernel moves down to the transpose (the copy between
// neither writes what it reads nor touches C) and stores into T there.
// CHECK-LABEL: func.func @output_read_between
// CHECK-SAME: %[[T:[a-z0-9]+]]: memref<2x3x8x16xf32>, %[[D:[a-z0-9]+]]: memref<2x3x8x16xf32>)
// CHECK: gpu.launch
// CHECK: memref.load %[[T]]
// CHECK: memref.store %{{.*}}, %[[D]]
// CHECK: gpu.launch
// CHECK: memref.store %{{.*}}, %[[T]][%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] : memref<2x3x8x16xf32>
// CHECK-NOT: gpu.launch
// CHECK: return
func.func @output_read_between(%x: memref<16x32xf32>, %w: memref<32x48xf32>, %t: memref<2x3x8x16xf32>, %d: memref<2x3x8x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %c = gpu.alloc () : memref<16x48xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<16x48xf32>)
  linalg.matmul ins(%x, %w : memref<16x32xf32>, memref<32x48xf32>) outs(%c : memref<16x48xf32>)
  linalg.copy ins(%t : memref<2x3x8x16xf32>) outs(%d : memref<2x3x8x16xf32>)
  %r = memref.expand_shape %c [[0, 1], [2, 3]] output_shape [2, 8, 3, 16] : memref<16x48xf32> into memref<2x8x3x16xf32>
  linalg.transpose ins(%r : memref<2x8x3x16xf32>) outs(%t : memref<2x3x8x16xf32>) permutation = [0, 2, 1, 3]
  gpu.dealloc %c : memref<16x48xf32>
  return
}

// -----

// As above, but the op between also overwrites what the matmul reads: the
// matmul can neither store into T where it is nor move, and the transpose
// stays a kernel.
// CHECK-LABEL: func.func @output_read_between_overwrites_input
// CHECK-COUNT-3: gpu.launch
// CHECK-NOT: gpu.launch
// CHECK: return
func.func @output_read_between_overwrites_input(%x: memref<16x32xf32>, %w: memref<32x48xf32>, %t: memref<2x3x8x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %c = gpu.alloc () : memref<16x48xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<16x48xf32>)
  linalg.matmul ins(%x, %w : memref<16x32xf32>, memref<32x48xf32>) outs(%c : memref<16x48xf32>)
  %flat = memref.collapse_shape %t [[0, 1, 2], [3]] : memref<2x3x8x16xf32> into memref<48x16xf32>
  %head = memref.subview %flat[0, 0] [16, 16] [1, 1] : memref<48x16xf32> to memref<16x16xf32, strided<[16, 1]>>
  %front = memref.subview %x[0, 0] [16, 16] [1, 1] : memref<16x32xf32> to memref<16x16xf32, strided<[32, 1]>>
  linalg.copy ins(%head : memref<16x16xf32, strided<[16, 1]>>) outs(%front : memref<16x16xf32, strided<[32, 1]>>)
  %r = memref.expand_shape %c [[0, 1], [2, 3]] output_shape [2, 8, 3, 16] : memref<16x48xf32> into memref<2x8x3x16xf32>
  linalg.transpose ins(%r : memref<2x8x3x16xf32>) outs(%t : memref<2x3x8x16xf32>) permutation = [0, 2, 1, 3]
  gpu.dealloc %c : memref<16x48xf32>
  return
}

// -----

// C is read by another kernel too (here it is updated in place, which
// loads it): the transpose stays.
// CHECK-LABEL: func.func @buffer_read_elsewhere
// CHECK-COUNT-3: gpu.launch
// CHECK-NOT: gpu.launch
// CHECK: return
func.func @buffer_read_elsewhere(%x: memref<16x32xf32>, %w: memref<32x48xf32>, %t: memref<2x3x8x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %c = gpu.alloc () : memref<16x48xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<16x48xf32>)
  linalg.matmul ins(%x, %w : memref<16x32xf32>, memref<32x48xf32>) outs(%c : memref<16x48xf32>)
  call @use(%c) : (memref<16x48xf32>) -> ()
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} outs(%c : memref<16x48xf32>) {
  ^bb0(%out: f32):
    %e = math.exp %out : f32
    linalg.yield %e : f32
  }
  %r = memref.expand_shape %c [[0, 1], [2, 3]] output_shape [2, 8, 3, 16] : memref<16x48xf32> into memref<2x8x3x16xf32>
  linalg.transpose ins(%r : memref<2x8x3x16xf32>) outs(%t : memref<2x3x8x16xf32>) permutation = [0, 2, 1, 3]
  gpu.dealloc %c : memref<16x48xf32>
  return
}
func.func private @use(memref<16x48xf32>)

// -----

// A transpose that moves the innermost dimension would make the writer's
// stores strided: it stays a kernel (of tiles through shared memory).
// CHECK-LABEL: func.func @innermost_moves
// CHECK: gpu.launch
// CHECK: gpu.launch
// CHECK-SAME: workgroup
// CHECK: return
func.func @innermost_moves(%a: memref<64x96xf32>, %t: memref<96x64xf32>) {
  %c = gpu.alloc () : memref<64x96xf32>
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%a : memref<64x96xf32>) outs(%c : memref<64x96xf32>) {
  ^bb0(%in: f32, %out: f32):
    %e = math.exp %in : f32
    linalg.yield %e : f32
  }
  linalg.transpose ins(%c : memref<64x96xf32>) outs(%t : memref<96x64xf32>) permutation = [1, 0]
  gpu.dealloc %c : memref<64x96xf32>
  return
}

// -----

// A full reduction's 0-d result, expanded to one element and copied into a
// view of a padded buffer: the reduction stores at the view's element 0 (a
// 0-d source expands to unit dimensions at 0; the store had no indices and
// failed to verify).
// CHECK-LABEL: func.func @scalar_into_padding
// CHECK: %[[VIEW:.*]] = memref.subview
// CHECK: gpu.launch
// CHECK: memref.store %{{.*}}, %[[VIEW]][%{{.*}}] : memref<1xf32, strided<[1], offset: 1>>
// CHECK-NOT: linalg.copy
func.func @scalar_into_padding(%x: memref<3xf32>, %out: memref<3xf32>) {
  %cst = arith.constant 0xFF800000 : f32
  %r = gpu.alloc () : memref<f32>
  linalg.fill ins(%cst : f32) outs(%r : memref<f32>)
  linalg.reduce { arith.maximumf } ins(%x : memref<3xf32>) outs(%r : memref<f32>) dimensions = [0]
  %e = memref.expand_shape %r [] output_shape [1] : memref<f32> into memref<1xf32>
  %v = memref.subview %out[1] [1] [1] : memref<3xf32> to memref<1xf32, strided<[1], offset: 1>>
  linalg.copy ins(%e : memref<1xf32>) outs(%v : memref<1xf32, strided<[1], offset: 1>>)
  return
}
