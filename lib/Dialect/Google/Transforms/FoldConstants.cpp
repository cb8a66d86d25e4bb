//===- FoldConstants.cpp - --google-fold-constants ------------------------===//

#include "ConstantEvaluator.h"
#include "Dialect/Google/IR/GoogleOps.h"
#include "Dialect/Google/Transforms/Passes.h"

#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "google-fold-constants"

namespace mlir::google {
#define GEN_PASS_DEF_FOLDCONSTANTSPASS
#include "Dialect/Google/Transforms/Passes.h.inc"
} // namespace mlir::google

using namespace mlir;
using namespace mlir::google;

namespace {

/// Replaces a google op whose operands are all constants by its value.
class EvaluateConstantOp : public RewritePattern {
public:
  EvaluateConstantOp(MLIRContext *context, int64_t maxElements,
                     Pass::Statistic *numEvaluated = nullptr,
                     Pass::Statistic *numTooLarge = nullptr)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, context),
        maxElements(maxElements), numEvaluated(numEvaluated),
        numTooLarge(numTooLarge) {}

  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    if (!isa<GoogleDialect>(op->getDialect()) || isa<ConstantOp>(op))
      return rewriter.notifyMatchFailure(op, "not a computing google op");
    SmallVector<DenseElementsAttr> operands;
    for (Value operand : op->getOperands()) {
      DenseElementsAttr value;
      if (!matchPattern(operand, m_Constant(&value)))
        return rewriter.notifyMatchFailure(op, "an operand is not constant");
      operands.push_back(value);
    }
    EvaluationResult result = evaluateConstantOp(op, operands, maxElements);
    switch (result.status) {
    case EvaluationStatus::TooLarge:
      if (numTooLarge)
        ++*numTooLarge;
      return rewriter.notifyMatchFailure(op, "exceeds max-elements");
    case EvaluationStatus::Unsupported:
      return rewriter.notifyMatchFailure(op, "value cannot be evaluated");
    case EvaluationStatus::Evaluated:
      break;
    }
    if (numEvaluated)
      ++*numEvaluated;
    rewriter.replaceOpWithNewOp<ConstantOp>(op, result.value);
    return success();
  }

private:
  int64_t maxElements;
  Pass::Statistic *numEvaluated;
  Pass::Statistic *numTooLarge;
};

struct FoldConstantsPass
    : public google::impl::FoldConstantsPassBase<FoldConstantsPass> {
  using Base::Base;

  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<EvaluateConstantOp>(&getContext(), maxElements,
                                     &numEvaluated, &numSkippedTooLarge);
    // The greedy driver also applies every op's fold (the identities).
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      LLVM_DEBUG(llvm::dbgs() << "fold-constants did not converge\n");
  }
};

} // namespace

void google::populateFoldConstantsPatterns(RewritePatternSet &patterns,
                                           int64_t maxElements) {
  patterns.add<EvaluateConstantOp>(patterns.getContext(), maxElements);
}
