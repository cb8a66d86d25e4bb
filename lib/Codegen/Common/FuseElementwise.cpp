//===- FuseElementwise.cpp - --google-fuse-elementwise --------------------===//

#include "Codegen/Matchers.h"
#include "Codegen/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "google-fuse-elementwise"

namespace mlir::google {
#define GEN_PASS_DEF_FUSEELEMENTWISEPASS
#include "Codegen/Passes.h.inc"
} // namespace mlir::google

using namespace mlir;

namespace {

/// The most ops a fused elementwise body may hold.
constexpr size_t kMaxFusedBodyOps = 64;

/// The ops in a linalg op's body (0 for other ops).
size_t getBodySize(Operation *op) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp || op->getNumRegions() != 1 || op->getRegion(0).empty())
    return 0;
  return linalgOp.getBlock()->getOperations().size();
}

/// Whether `producer` may fuse into `consumer`: its only user, bodies
/// within kMaxFusedBodyOps, and, into a reduction, only ops that vectorize
/// as instructions (isVectorArithmetic; a reduction's vector body would
/// call exp or log once per lane, and has no vector f64 erf at all).
bool isFusible(Operation *producer, Operation *consumer) {
  if (!producer || !producer->hasOneUse() ||
      getBodySize(producer) + getBodySize(consumer) > kMaxFusedBodyOps)
    return false;
  auto reduction = dyn_cast<linalg::LinalgOp>(consumer);
  auto elementwise = dyn_cast<linalg::LinalgOp>(producer);
  if (!reduction || reduction.getNumReductionLoops() == 0 || !elementwise)
    return true;
  return llvm::all_of(
      elementwise.getBlock()->without_terminator(),
      [](Operation &op) { return google::isVectorArithmetic(&op); });
}

/// A reduction of an elementwise op's only result becomes a generic, which
/// the elementwise fusion then takes the producer into: one loop nest, no
/// tensor in between (a max pooling gradient's positions, 1 MiB of i64).
struct GeneralizeReductionOfElementwise
    : public OpRewritePattern<linalg::ReduceOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::ReduceOp reduce,
                                PatternRewriter &rewriter) const override {
    if (!reduce.hasPureTensorSemantics() ||
        llvm::none_of(reduce.getInputs(), [&](Value input) {
          auto producer = input.getDefiningOp<linalg::GenericOp>();
          return producer &&
                 producer.getNumLoops() == producer.getNumParallelLoops() &&
                 isFusible(producer, reduce);
        }))
      return failure();
    return linalg::generalizeNamedOp(rewriter, reduce);
  }
};

struct FuseElementwisePass
    : public google::impl::FuseElementwisePassBase<FuseElementwisePass> {
  using Base::Base;

  void runOnOperation() override {
    MLIRContext *context = &getContext();
    RewritePatternSet patterns(context);
    // A fusion clones both bodies into a new op: a long chain fused into
    // one op would cost time quadratic in its length (3000 ops: seconds),
    // so bodies stop growing at kMaxFusedBodyOps (the chain then runs as
    // several loops, each as large).
    linalg::ControlFusionFn onlyUser = [](OpOperand *fused) {
      return isFusible(fused->get().getDefiningOp(), fused->getOwner());
    };
    linalg::populateElementwiseOpsFusionPatterns(patterns, onlyUser);
    if (reductions)
      patterns.add<GeneralizeReductionOfElementwise>(context);
    linalg::populateConstantFoldLinalgOperations(patterns, onlyUser);
    affine::AffineApplyOp::getCanonicalizationPatterns(patterns, context);
    linalg::GenericOp::getCanonicalizationPatterns(patterns, context);
    context->getLoadedDialect<linalg::LinalgDialect>()
        ->getCanonicalizationPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      LLVM_DEBUG(llvm::dbgs() << "elementwise fusion did not converge\n");
  }
};

} // namespace
