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

/// Any elementwise op (OpTrait::google::Elementwise) to one linalg.generic whose
/// body is the op's scalar semantics.
struct ElementwiseToGeneric : public ConversionPattern {
  ElementwiseToGeneric(MLIRContext *context)
      : ConversionPattern(MatchAnyOpTypeTag(), /*benefit=*/1, context) {}

  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    if (!op->hasTrait<OpTrait::google::Elementwise>())
      return rewriter.notifyMatchFailure(op, "not elementwise");
    // It computes in its last operand's type (a select's values, a
    // comparison's operands).
    Type elementType =
        cast<RankedTensorType>(op->getOperands().back().getType())
            .getElementType();
    Value result = createBroadcastingGeneric(
        rewriter, op->getLoc(), op->getName().getStringRef(),
        cast<RankedTensorType>(op->getResult(0).getType()), operands,
        [&](OpBuilder &b, Location loc, ValueRange args) {
          ArithAlgebra algebra(b, loc, elementType);
          SmallVector<Value> scalars(args);
          return *semantics::elementwise<ArithAlgebra>(
              op, algebra, ArrayRef<Value>(scalars));
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void google::populateElementwiseToLinalgPatterns(RewritePatternSet &patterns) {
  patterns.add<ConstantToArith, ElementwiseToGeneric>(patterns.getContext());
}
