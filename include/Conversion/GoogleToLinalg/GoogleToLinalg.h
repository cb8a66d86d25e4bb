//===- GoogleToLinalg.h - google to linalg on tensors -----------*- C++ -*-===//

#ifndef GOOGLE_CONVERSION_GOOGLETOLINALG_GOOGLETOLINALG_H
#define GOOGLE_CONVERSION_GOOGLETOLINALG_GOOGLETOLINALG_H

namespace mlir {
class ConversionTarget;
class Operation;
class RewritePatternSet;

namespace google {

/// How google.scatter_add lowers (the pass option `scatter`).
enum class ScatterLowering {
  /// A loop nest over the updates, each added into its element: linear
  /// work, sequential (the CPU's).
  Loops,
  /// One linalg.generic over the result reducing the index dimensions:
  /// each element tests every index (result size x index count).
  Reduction,
  /// The index positions stably sorted by row (quadratic in the index
  /// count, over the indices only), each result element adding its row's
  /// run of updates.
  Segments,
  /// Reduction or Segments, whichever takes fewer steps (at compile time
  /// where extents are static, else at run time).
  Cheapest,
};

/// Patterns lowering every google op to linalg/tensor/arith/math.
void populateGoogleToLinalgConversionPatterns(
    RewritePatternSet &patterns,
    ScatterLowering scatter = ScatterLowering::Cheapest);

/// Marks google illegal and the dialects the lowering produces legal.
void configureGoogleToLinalgTarget(ConversionTarget &target);

/// After the conversion: rewrites `tensor.dim` of op results in terms of
/// the values the extents come from, then moves every `cf.assert` and the
/// pure ops computing its condition up to the first point where they can
/// run (the function entry for checks on argument extents).
void resolveAndHoistChecks(Operation *root);

} // namespace google
} // namespace mlir

#endif // GOOGLE_CONVERSION_GOOGLETOLINALG_GOOGLETOLINALG_H
