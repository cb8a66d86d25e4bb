//===- Elementwise.cpp - constant, elementwise and cast to linalg ---------===//

#include "ArithAlgebra.h"
#include "Utils.h"

#include "Dialect/Google/IR/GoogleOps.h"
#include "Dialect/Google/IR/ScalarSemantics.h"

using namespace mlir;
using namespace mlir::google;

namespace {

struct ConstantToArith : public OpConversionPattern<ConstantOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ConstantOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(
        op, cast<TypedAttr>(op.getValue()));
    return success();
  }
};

/// Any elementwise op (unary, broadcasting binary or cast) to one
/// linalg.generic whose body is the op's scalar semantics.
template <typename SourceOp>
struct ElementwiseToGeneric : public OpConversionPattern<SourceOp> {
  using OpConversionPattern<SourceOp>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(SourceOp op, typename SourceOp::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type elementType =
        cast<RankedTensorType>(op->getOperand(0).getType()).getElementType();
    Value result = createBroadcastingGeneric(
        rewriter, op.getLoc(), op->getName().getStringRef(),
        op.getResult().getType(), adaptor.getOperands(),
        [&](OpBuilder &b, Location loc, ValueRange args) {
          ArithAlgebra algebra(b, loc, elementType);
          SmallVector<Value> scalars(args);
          return *semantics::elementwise<ArithAlgebra>(op.getOperation(),
                                                      algebra, scalars);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

template <typename... Ops>
void addElementwisePatterns(RewritePatternSet &patterns) {
  patterns.add<ElementwiseToGeneric<Ops>...>(patterns.getContext());
}

} // namespace

void google::populateElementwiseToLinalgPatterns(RewritePatternSet &patterns) {
  patterns.add<ConstantToArith>(patterns.getContext());
  addElementwisePatterns<AddOp, SubOp, MulOp, DivOp, MaxOp, MinOp, ReluOp,
                         NegOp, AbsOp, ExpOp, LogOp, TanhOp, SqrtOp, SigmoidOp,
                         CastOp>(patterns);
}
