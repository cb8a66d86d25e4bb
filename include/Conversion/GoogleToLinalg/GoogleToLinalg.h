//===- GoogleToLinalg.h - google to linalg on tensors -----------*- C++ -*-===//

#ifndef GOOGLE_CONVERSION_GOOGLETOLINALG_GOOGLETOLINALG_H
#define GOOGLE_CONVERSION_GOOGLETOLINALG_GOOGLETOLINALG_H

namespace mlir {
class ConversionTarget;
class RewritePatternSet;

namespace google {

/// Patterns lowering every google op to linalg/tensor/arith/math.
void populateGoogleToLinalgConversionPatterns(RewritePatternSet &patterns);

/// Marks google illegal and the dialects the lowering produces legal.
void configureGoogleToLinalgTarget(ConversionTarget &target);

} // namespace google
} // namespace mlir

#endif // GOOGLE_CONVERSION_GOOGLETOLINALG_GOOGLETOLINALG_H
