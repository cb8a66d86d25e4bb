//===- GoogleToLinalg.h - google to linalg on tensors -----------*- C++ -*-===//

#ifndef GOOGLE_CONVERSION_GOOGLETOLINALG_GOOGLETOLINALG_H
#define GOOGLE_CONVERSION_GOOGLETOLINALG_GOOGLETOLINALG_H

namespace mlir {
class ConversionTarget;
class Operation;
class RewritePatternSet;

namespace google {

/// Patterns lowering every google op to linalg/tensor/arith/math;
/// `scatterAsLoops` as the pass option `scatter-loops`.
void populateGoogleToLinalgConversionPatterns(RewritePatternSet &patterns,
                                              bool scatterAsLoops = false);

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
