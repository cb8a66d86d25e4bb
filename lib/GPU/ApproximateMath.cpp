//===- ApproximateMath.cpp - --google-approximate-math --------------------===//

#include "GPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::google {
#define GEN_PASS_DEF_APPROXIMATEMATHPASS
#include "GPU/Passes.h.inc"
} // namespace mlir::google

using namespace mlir;

namespace {

struct ApproximateMathPass
    : public google::impl::ApproximateMathPassBase<ApproximateMathPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    // Every function MLIR approximates; f16/bf16 ones are computed in f32
    // (ScalarSemantics.h) before they get here.
    populateMathPolynomialApproximationPatterns(
        patterns, [](StringRef) { return true; });
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
