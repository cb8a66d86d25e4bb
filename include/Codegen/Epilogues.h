//===- Epilogues.h - ops moved next to their contraction ---*- C++ -*-===//
//
// Shared by --google-convolution-to-matmul and --google-fuse-elementwise.
//
//===----------------------------------------------------------------------===//

#ifndef GOOGLE_CODEGEN_EPILOGUES_H
#define GOOGLE_CODEGEN_EPILOGUES_H

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::google {

/// Collapses the elementwise ops that read `expanded` (a contraction's
/// result, expanded) element by element to the result's own dimensions,
/// so that they read the contraction directly and expand after it: a bias
/// and a ReLU then run in the matmul's register blocks (its epilogue)
/// instead of in a pass of their own. Ops that broadcast along part of a
/// collapsed group, or read through constant indices, stay. The collapsed
/// ops' new outputs take their extents from `matrixInit`, the
/// contraction's accumulator (not from its result: another user would keep
/// the epilogue apart). `expanded` goes when nothing else reads it.
/// Returns how many ops were collapsed.
int64_t collapseEpilogues(RewriterBase &rewriter,
                          tensor::ExpandShapeOp expanded, Value matrixInit);

} // namespace mlir::google

#endif // GOOGLE_CODEGEN_EPILOGUES_H
