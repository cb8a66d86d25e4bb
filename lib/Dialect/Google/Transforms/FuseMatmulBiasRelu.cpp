//===- FuseMatmulBiasRelu.cpp - --google-fuse-matmul-bias-relu ------------===//

#include "Dialect/Google/IR/GoogleOps.h"
#include "Dialect/Google/IR/ShapeRules.h"
#include "Dialect/Google/Transforms/Passes.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "google-fuse-matmul-bias-relu"

namespace mlir::google {
#define GEN_PASS_DEF_FUSEMATMULBIASRELUPASS
#include "Dialect/Google/Transforms/Passes.h.inc"
} // namespace mlir::google

using namespace mlir;
using namespace mlir::google;

namespace {

/// True when `bias` has shape [N] or [1, N] for the matmul's N, so that
/// the fused op computes what the add did: the fused op never stretches
/// its bias, so a static 1 that the add stretches over N does not qualify.
static bool isRowBias(RankedTensorType bias, int64_t n) {
  ArrayRef<int64_t> shape = bias.getShape();
  if (shape.size() == 2 && shape[0] != 1)
    return false;
  if (shape.size() != 1 && shape.size() != 2)
    return false;
  int64_t length = shape.back();
  if (length == 1 && n != 1)
    return false;
  return areCompatibleDims(length, n);
}

struct FuseMatmulBiasRelu : public OpRewritePattern<ReluOp> {
  FuseMatmulBiasRelu(MLIRContext *context, Pass::Statistic *numFused = nullptr)
      : OpRewritePattern(context), numFused(numFused) {}

  LogicalResult matchAndRewrite(ReluOp relu,
                                PatternRewriter &rewriter) const override {
    auto add = relu.getInput().getDefiningOp<AddOp>();
    if (!add)
      return rewriter.notifyMatchFailure(relu, "input is not a google.add");
    if (!add->hasOneUse())
      return rewriter.notifyMatchFailure(relu, "the add has another user");
    for (auto [product, addend] : {std::pair(add.getLhs(), add.getRhs()),
                                   std::pair(add.getRhs(), add.getLhs())}) {
      auto matmul = product.getDefiningOp<MatmulOp>();
      if (!matmul || matmul.getResult().getType().getRank() != 2)
        continue;
      if (!matmul->hasOneUse())
        return rewriter.notifyMatchFailure(relu, "the matmul has another user");
      // The add must not broadcast the product to a bigger shape.
      if (add.getResult().getType() != matmul.getResult().getType())
        continue;
      auto biasType = cast<RankedTensorType>(addend.getType());
      int64_t n = matmul.getResult().getType().getDimSize(1);
      if (!isRowBias(biasType, n))
        continue;
      Value bias = addend;
      if (biasType.getRank() == 2)
        bias = ReshapeOp::create(
            rewriter, add.getLoc(),
            RankedTensorType::get({biasType.getDimSize(1)},
                                  biasType.getElementType()),
            bias);
      rewriter.replaceOpWithNewOp<MatmulBiasReluOp>(
          relu, relu.getType(), matmul.getLhs(), matmul.getRhs(), bias);
      if (numFused)
        ++*numFused;
      return success();
    }
    return rewriter.notifyMatchFailure(
        relu, "no rank-2 matmul plus a [N] or [1, N] bias feeds the relu");
  }

  Pass::Statistic *numFused;
};

struct FuseMatmulBiasReluPass
    : public google::impl::FuseMatmulBiasReluPassBase<FuseMatmulBiasReluPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<FuseMatmulBiasRelu>(&getContext(), &numFused);
    GreedyRewriteConfig config;
    // Only the matched ops change; leave other folds to their own passes.
    config.enableFolding(false).enableConstantCSE(false);
    config.setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns),
                                     config)))
      LLVM_DEBUG(llvm::dbgs() << "fusion did not converge\n");
  }
};

} // namespace

void google::populateFuseMatmulBiasReluPatterns(RewritePatternSet &patterns) {
  patterns.add<FuseMatmulBiasRelu>(patterns.getContext());
}
