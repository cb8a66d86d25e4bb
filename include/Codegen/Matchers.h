//===- Matchers.h - op shapes the CPU and GPU schedules both take -*- C++
//-*-===//
//
// The structural tests the targets' schedules share; each target adds its
// own conditions (element types, where the ops live, what they alias).
//
//===----------------------------------------------------------------------===//

#ifndef GOOGLE_CODEGEN_MATCHERS_H
#define GOOGLE_CODEGEN_MATCHERS_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace mlir::google {

/// Whether `epilogue` is an elementwise op over all of `product` (a
/// contraction's result, tensor or buffer) that can run on each tile of
/// the product where the contraction computes it: every loop parallel, no
/// index ops, one output written through the identity map, loops of the
/// product's rank, every input read through a projected permutation (a
/// broadcast), and `product` read element by element (identity map).
bool isElementwiseEpilogue(linalg::GenericOp epilogue, Value product);

/// Whether `op` reduces rows: one output, every input read through a
/// projected permutation, and an input whose innermost dimension is a
/// reduction loop (a row along contiguous memory). The CPU adds one
/// reduction loop, innermost in every operand, in vector chunks; the GPU a
/// combiner it knows, parallel loops and rows at least a block long.
bool isRowReduction(linalg::LinalgOp op);

/// Whether `op` (in a linalg body) has a vector form that is instructions
/// or a polynomial: arithmetic, sqrt and the like, f32 tanh and erf. Not
/// gathers (tensor.extract), nor exp or log (a vector of them is a call
/// per lane: LLVM's own loops call libmvec's instead), nor f64 tanh or erf
/// (libm per element, which MathToLibm cannot do for a vector).
bool isVectorArithmetic(Operation *op);

/// Inputs of `generic` that tensor.expand_shape makes by adding unit
/// dimensions, read at 0 (a keep_dims reduction's result): `generic`
/// reads the source instead, so that fusion sees its producer.
void foldUnitExpansions(RewriterBase &rewriter, linalg::GenericOp generic);

/// A constant upper bound of loop `dim` of `op` (closed), from an operand
/// dimension that it indexes directly: a tile's extent bounded by the
/// affine.min of its slice.
std::optional<int64_t> getLoopRangeBound(linalg::LinalgOp op, unsigned dim);

/// linalg.matmul's maps with A read transposed: A is stored K x M.
SmallVector<AffineMap> getTransposedLhsMaps(MLIRContext *context);

/// A linalg.matmul of `lhs` stored K x M (getTransposedLhsMaps) by `rhs`
/// into `init`.
linalg::MatmulOp createTransposedLhsMatmul(OpBuilder &builder, Location loc,
                                           Value lhs, Value rhs, Value init);

} // namespace mlir::google

#endif // GOOGLE_CODEGEN_MATCHERS_H
