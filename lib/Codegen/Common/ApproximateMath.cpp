//===- ApproximateMath.cpp - --google-approximate-math --------------------===//

#include "Codegen/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::google {
#define GEN_PASS_DEF_APPROXIMATEMATHPASS
#include "Codegen/Passes.h.inc"
} // namespace mlir::google

using namespace mlir;

namespace {

struct ApproximateMathPass
    : public google::impl::ApproximateMathPassBase<ApproximateMathPass> {
  using Base::Base;

  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    // f16/bf16 functions are computed in f32 (ScalarSemantics.h) before
    // they get here.
    populateMathPolynomialApproximationPatterns(patterns, [&](StringRef name) {
      name.consume_front("math."); // upstream asks by operation name
      return functions.empty() || llvm::is_contained(functions, name);
    });
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
