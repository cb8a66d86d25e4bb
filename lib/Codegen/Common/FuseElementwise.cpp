//===- FuseElementwise.cpp - --google-fuse-elementwise --------------------===//

#include "Codegen/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
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

struct FuseElementwisePass
    : public google::impl::FuseElementwisePassBase<FuseElementwisePass> {
  void runOnOperation() override {
    MLIRContext *context = &getContext();
    RewritePatternSet patterns(context);
    // A fusion clones both bodies into a new op: a long chain fused into
    // one op would cost time quadratic in its length (3000 ops: seconds),
    // so bodies stop growing at kMaxFusedBodyOps (the chain then runs as
    // several loops, each as large).
    linalg::ControlFusionFn onlyUser = [](OpOperand *fused) {
      Operation *producer = fused->get().getDefiningOp();
      return producer && producer->hasOneUse() &&
             getBodySize(producer) + getBodySize(fused->getOwner()) <=
                 kMaxFusedBodyOps;
    };
    linalg::populateElementwiseOpsFusionPatterns(patterns, onlyUser);
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
