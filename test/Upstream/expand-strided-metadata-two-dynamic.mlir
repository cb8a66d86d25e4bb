// RUN: not --crash google-opt %s --expand-strided-metadata 2>&1 | FileCheck %s
// The sanitizer runtime turns the crash into a report and an exit status.
// UNSUPPORTED: asan
//
// Upstream behaviour we must not rely on (MLIR 22): an expand_shape group
// with two dynamic output extents crashes --expand-strided-metadata (a null
// size reaches memref.reinterpret_cast). --linalg-fuse-elementwise-ops
// produces such groups when it propagates a collapse through a generic
// (abs(reshape(x : ?x?x3 -> ?)) at opt-level 1 crashed google-run), so the
// pipeline fuses with --google-fuse-elementwise, which does not propagate
// reshapes. When this test starts failing, upstream has been fixed.

// CHECK: Stack dump
func.func @two_dynamic_extents(%buffer: memref<?xf32>, %d0: index, %d1: index) -> index {
  %c0 = arith.constant 0 : index
  %e = memref.expand_shape %buffer [[0, 1, 2]] output_shape [%d0, %d1, 3] : memref<?xf32> into memref<?x?x3xf32>
  %dim = memref.dim %e, %c0 : memref<?x?x3xf32>
  return %dim : index
}
