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

  LogicalResult initialize(MLIRContext *context) override {
    RewritePatternSet set(context);
    // f16/bf16 functions are computed in f32 (ScalarSemantics.h) before
    // they get here.
    populateMathPolynomialApproximationPatterns(set, [&](StringRef name) {
      name.consume_front("math."); // upstream asks by operation name
      return functions.empty() || llvm::is_contained(functions, name);
    });
    patterns = FrozenRewritePatternSet(std::move(set));
    return success();
  }

  void runOnOperation() override {
    // Only the math ops and what their expansions create: the whole
    // module through the greedy driver cost 20 ms of a CNN gradient's
    // compile, to rewrite a handful of ops.
    SmallVector<Operation *> ops;
    getOperation()->walk([&](Operation *op) {
      if (isa<math::MathDialect>(op->getDialect()))
        ops.push_back(op);
    });
    if (ops.empty())
      return;
    GreedyRewriteConfig config;
    config.setStrictness(GreedyRewriteStrictness::ExistingAndNewOps);
    if (failed(applyOpPatternsGreedily(ops, patterns, config)))
      signalPassFailure();
  }

  FrozenRewritePatternSet patterns;
};

} // namespace
