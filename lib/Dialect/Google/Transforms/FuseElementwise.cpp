//===- FuseElementwise.cpp - --google-fuse-elementwise --------------------===//

#include "Dialect/Google/Transforms/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "google-fuse-elementwise"

namespace mlir::google {
#define GEN_PASS_DEF_FUSEELEMENTWISEPASS
#include "Dialect/Google/Transforms/Passes.h.inc"
} // namespace mlir::google

using namespace mlir;

namespace {

struct FuseElementwisePass
    : public google::impl::FuseElementwisePassBase<FuseElementwisePass> {
  void runOnOperation() override {
    MLIRContext *context = &getContext();
    RewritePatternSet patterns(context);
    linalg::ControlFusionFn onlyUser = [](OpOperand *fused) {
      Operation *producer = fused->get().getDefiningOp();
      return producer && producer->hasOneUse();
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
