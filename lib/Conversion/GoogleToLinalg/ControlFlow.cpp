//===- ControlFlow.cpp - google.if / google.while to scf ------------------===//

#include "Utils.h"

#include "Dialect/Google/IR/GoogleOps.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::google;

namespace {

/// The i1 a rank-0 boolean tensor holds.
Value extractCondition(OpBuilder &b, Location loc, Value condition) {
  return tensor::ExtractOp::create(b, loc, condition, ValueRange());
}

/// google.if => scf.if on the extracted condition, the regions moved.
struct IfToScf : public OpConversionPattern<IfOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(IfOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value condition =
        extractCondition(rewriter, op.getLoc(), adaptor.getCondition());
    auto ifOp = scf::IfOp::create(rewriter, op.getLoc(), op.getResultTypes(),
                                  condition, /*addThenBlock=*/false,
                                  /*addElseBlock=*/false);
    rewriter.inlineRegionBefore(op.getThenRegion(), ifOp.getThenRegion(),
                                ifOp.getThenRegion().end());
    rewriter.inlineRegionBefore(op.getElseRegion(), ifOp.getElseRegion(),
                                ifOp.getElseRegion().end());
    rewriter.replaceOp(op, ifOp.getResults());
    return success();
  }
};

/// google.while => scf.while: `cond` becomes the before region (its
/// google.condition an scf.condition forwarding the state), `body` the
/// after region.
struct WhileToScf : public OpConversionPattern<WhileOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(WhileOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto whileOp = scf::WhileOp::create(rewriter, op.getLoc(),
                                        op.getResultTypes(), adaptor.getInit());
    rewriter.inlineRegionBefore(op.getCond(), whileOp.getBefore(),
                                whileOp.getBefore().end());
    rewriter.inlineRegionBefore(op.getBody(), whileOp.getAfter(),
                                whileOp.getAfter().end());
    rewriter.replaceOp(op, whileOp.getResults());
    return success();
  }
};

struct YieldToScf : public OpConversionPattern<YieldOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(YieldOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<scf::YieldOp>(op, adaptor.getValues());
    return success();
  }
};

struct ConditionToScf : public OpConversionPattern<ConditionOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ConditionOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value condition =
        extractCondition(rewriter, op.getLoc(), adaptor.getCondition());
    rewriter.replaceOpWithNewOp<scf::ConditionOp>(
        op, condition, op->getBlock()->getArguments());
    return success();
  }
};

} // namespace

void google::populateControlFlowToScfPatterns(RewritePatternSet &patterns) {
  patterns.add<IfToScf, WhileToScf, YieldToScf, ConditionToScf>(
      patterns.getContext());
}
