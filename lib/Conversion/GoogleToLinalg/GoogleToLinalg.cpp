//===- GoogleToLinalg.cpp - --convert-google-to-linalg --------------------===//

#include "Conversion/GoogleToLinalg/GoogleToLinalg.h"
#include "Conversion/Passes.h"
#include "Dialect/Google/IR/GoogleDialect.h"
#include "Utils.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/DialectConversion.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/RegionUtils.h"

namespace mlir::google {
#define GEN_PASS_DEF_CONVERTGOOGLETOLINALGPASS
#include "Conversion/Passes.h.inc"
} // namespace mlir::google

using namespace mlir;
using namespace mlir::google;

void google::populateGoogleToLinalgConversionPatterns(
    RewritePatternSet &patterns, ScatterLowering scatter) {
  populateElementwiseToLinalgPatterns(patterns);
  populateMatmulToLinalgPatterns(patterns);
  populateLayoutToLinalgPatterns(patterns);
  populateReductionToLinalgPatterns(patterns);
  populateIndexingToLinalgPatterns(patterns, scatter);
  populateConvolutionToLinalgPatterns(patterns);
  populateControlFlowToScfPatterns(patterns);
}

void google::configureGoogleToLinalgTarget(ConversionTarget &target) {
  target.addIllegalDialect<GoogleDialect>();
  target.addLegalDialect<arith::ArithDialect, cf::ControlFlowDialect,
                         linalg::LinalgDialect, math::MathDialect,
                         scf::SCFDialect, tensor::TensorDialect>();
}

/// Moves `check` and the pure ops computing its condition to just after the
/// last value they need (and after the checks hoisted before it, which
/// keep their order), so that checks on the arguments' extents come first
/// in the function.
static void hoistCheck(cf::AssertOp check, Operation *&previous) {
  Block *block = check->getBlock();
  BackwardSliceOptions options;
  // Ops with regions (an scf.if) stay: their regions' uses of values
  // above are not operands the slice would order them after.
  options.filter = [&](Operation *op) {
    return op->getBlock() == block && op->getNumRegions() == 0 &&
           (isPure(op) || isa<tensor::DimOp>(op));
  };
  options.omitBlockArguments = true;
  options.inclusive = true;
  SetVector<Operation *> slice;
  Operation *condition = check.getArg().getDefiningOp();
  if (condition && options.filter(condition) &&
      failed(getBackwardSlice(condition, &slice, options)))
    return;
  slice.insert(check);
  Operation *after = nullptr;
  for (Operation *op : slice) {
    // Values the op's regions capture count as its operands.
    SetVector<Value> used(op->getOperands().begin(), op->getOperands().end());
    for (Region &region : op->getRegions())
      getUsedValuesDefinedAbove(region, used);
    for (Value operand : used) {
      Operation *def = operand.getDefiningOp();
      if (def && def->getBlock() == block && !slice.contains(def) &&
          (!after || after->isBeforeInBlock(def)))
        after = def;
    }
  }
  if (previous && previous->getBlock() == block &&
      (!after || after->isBeforeInBlock(previous)))
    after = previous;
  for (Operation *op : slice) {
    if (after && op->isBeforeInBlock(after))
      continue;
    if (after)
      op->moveAfter(after);
    else
      op->moveBefore(&block->front());
    after = op;
  }
  previous = check;
}

void google::resolveAndHoistChecks(Operation *root) {
  // Extents in terms of the values they come from (function arguments,
  // mostly), which no later rewrite can make static: a check on them
  // survives fusion and canonicalization.
  RewritePatternSet patterns(root->getContext());
  memref::populateResolveRankedShapedTypeResultDimsPatterns(patterns);
  tensor::DimOp::getCanonicalizationPatterns(patterns, root->getContext());
  GreedyRewriteConfig config;
  config.setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled)
      .enableFolding(false)
      .enableConstantCSE(false);
  (void)applyPatternsGreedily(root, std::move(patterns), config);
  SmallVector<cf::AssertOp> checks;
  root->walk([&](cf::AssertOp check) { checks.push_back(check); });
  Operation *previous = nullptr;
  for (cf::AssertOp check : checks)
    hoistCheck(check, previous);
}

namespace {

struct ConvertGoogleToLinalgPass
    : public google::impl::ConvertGoogleToLinalgPassBase<ConvertGoogleToLinalgPass> {
  using Base::Base;
  void runOnOperation() override {
    // Everything an op lowers to carries its name: checks added later (on
    // memrefs, say) can still say which google op they guard.
    getOperation()->walk([](Operation *op) {
      if (isa<GoogleDialect>(op->getDialect()) && !isa<NameLoc>(op->getLoc()))
        op->setLoc(NameLoc::get(op->getName().getIdentifier(), op->getLoc()));
    });
    ConversionTarget target(getContext());
    configureGoogleToLinalgTarget(target);
    RewritePatternSet patterns(&getContext());
    populateGoogleToLinalgConversionPatterns(patterns, scatter);
    // Fails, naming the op, if any google op is left.
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns)))) {
      signalPassFailure();
      return;
    }
    // Counted loops' counters: rank-0 integer ops on scalars known on the
    // host become scalar ops (nothing else is folded here).
    RewritePatternSet scalars(&getContext());
    populateKnownScalarPatterns(scalars);
    GreedyRewriteConfig config;
    config.setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled)
        .enableFolding(false)
        .enableConstantCSE(false);
    (void)applyPatternsGreedily(getOperation(), std::move(scalars), config);
    resolveAndHoistChecks(getOperation());
  }
};

} // namespace
