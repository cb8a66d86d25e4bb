//===- Passes.h - google dialect optimization passes ------------*- C++ -*-===//
//
// Passes on google ops; the codegen passes are in Codegen/Passes.h.
//
//===----------------------------------------------------------------------===//

#ifndef GOOGLE_DIALECT_GOOGLE_TRANSFORMS_PASSES_H
#define GOOGLE_DIALECT_GOOGLE_TRANSFORMS_PASSES_H

#include "mlir/Pass/Pass.h"

namespace mlir {
class RewritePatternSet;
namespace func {
class FuncDialect;
} // namespace func

namespace google {

#define GEN_PASS_DECL
#include "Dialect/Google/Transforms/Passes.h.inc"

/// Rewrites google ops whose operands are all constants into constants,
/// skipping tensors of more than `maxElements` elements.
void populateFoldConstantsPatterns(RewritePatternSet &patterns,
                                   int64_t maxElements);

/// Rewrites relu(add(matmul(a, b), bias)) into matmul_bias_relu.
void populateFuseMatmulBiasReluPatterns(RewritePatternSet &patterns);

#define GEN_PASS_REGISTRATION
#include "Dialect/Google/Transforms/Passes.h.inc"

} // namespace google
} // namespace mlir

#endif // GOOGLE_DIALECT_GOOGLE_TRANSFORMS_PASSES_H
