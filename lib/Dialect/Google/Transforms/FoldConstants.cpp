//===- FoldConstants.cpp - --google-fold-constants ------------------------===//

#include "Dialect/Google/IR/GoogleOps.h"
#include "Dialect/Google/Transforms/Passes.h"
#include "Interpreter/Interpreter.h"

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

/// Ops that map a splat operand to a splat result.
bool isElementwise(Operation *op) {
  return op->hasTrait<OpTrait::google::Elementwise>() ||
         isa<ReshapeOp, TransposeOp>(op);
}

/// True when a constant's size is what evaluating `op` costs: elementwise
/// ops, reshapes and transposes read a splat as its one element; matrix
/// products, reductions and softmax expand it.
int64_t evaluationSize(Operation *op, DenseElementsAttr attr) {
  return attr.isSplat() && isElementwise(op) ? 1 : attr.getNumElements();
}

/// True when evaluating `op` on `operands` costs more than `maxElements`
/// allows: an operand (as evaluated) or the result is larger (elementwise
/// ops of splats give splats), or a matrix product needs more than 16x that
/// many multiply-adds.
bool isTooLarge(Operation *op, ArrayRef<DenseElementsAttr> operands,
                RankedTensorType type, int64_t maxElements) {
  bool allSplat = llvm::all_of(
      operands, [](DenseElementsAttr a) { return a.isSplat(); });
  int64_t resultSize =
      isElementwise(op) && allSplat ? 1 : type.getNumElements();
  if (resultSize > maxElements ||
      llvm::any_of(operands, [&](DenseElementsAttr a) {
        return evaluationSize(op, a) > maxElements;
      }))
    return true;
  if (!isa<MatmulOp, MatmulBiasReluOp>(op))
    return false;
  int64_t k =
      cast<RankedTensorType>(op->getOperand(0).getType()).getShape().back();
  return type.getNumElements() * k > 16 * maxElements;
}

/// Replaces a google op whose operands are all constants by its value,
/// computed by the reference interpreter.
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
    if (!isa<GoogleDialect>(op->getDialect()) || isa<ConstantOp>(op) ||
        op->getNumResults() != 1 || op->getNumRegions() != 0)
      return rewriter.notifyMatchFailure(op, "not a computing google op");
    auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
    if (!type || !type.hasStaticShape())
      return rewriter.notifyMatchFailure(op, "the result type is dynamic");
    SmallVector<DenseElementsAttr> attrs;
    for (Value operand : op->getOperands()) {
      DenseElementsAttr value;
      if (!matchPattern(operand, m_Constant(&value)))
        return rewriter.notifyMatchFailure(op, "an operand is not constant");
      attrs.push_back(value);
    }
    if (isTooLarge(op, attrs, type, maxElements)) {
      if (numTooLarge)
        ++*numTooLarge;
      return rewriter.notifyMatchFailure(op, "exceeds max-elements");
    }
    SmallVector<ConcreteTensor> operands;
    for (DenseElementsAttr attr : attrs)
      operands.push_back(ConcreteTensor::fromAttr(attr));
    llvm::Expected<ConcreteTensor> value = evaluateOp(op, operands);
    // An op that fails at run time (a reshape of the wrong size) is left
    // for the run-time check to report.
    if (!value)
      return rewriter.notifyMatchFailure(op, llvm::toString(value.takeError()));
    if (numEvaluated)
      ++*numEvaluated;
    rewriter.replaceOpWithNewOp<ConstantOp>(op, value->toAttr());
    return success();
  }

private:
  int64_t maxElements;
  Pass::Statistic *numEvaluated;
  Pass::Statistic *numTooLarge;
};

/// google.if on a constant condition: the ops of the branch it takes.
struct InlineConstantIf : public OpRewritePattern<IfOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(IfOp op,
                                PatternRewriter &rewriter) const override {
    DenseElementsAttr condition;
    if (!matchPattern(op.getCondition(), m_Constant(&condition)))
      return rewriter.notifyMatchFailure(op, "the condition is not constant");
    Region &taken = condition.getSplatValue<bool>() ? op.getThenRegion()
                                                    : op.getElseRegion();
    Block &block = taken.front();
    auto yield = cast<YieldOp>(block.getTerminator());
    SmallVector<Value> results(yield.getValues());
    rewriter.eraseOp(yield);
    rewriter.inlineBlockBefore(&block, op);
    rewriter.replaceOp(op, results);
    return success();
  }
};

struct FoldConstantsPass
    : public google::impl::FoldConstantsPassBase<FoldConstantsPass> {
  using Base::Base;

  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<EvaluateConstantOp>(&getContext(), maxElements,
                                     &numEvaluated, &numSkippedTooLarge);
    patterns.add<InlineConstantIf>(&getContext());
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
