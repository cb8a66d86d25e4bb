//===- Elementwise.cpp - constant, elementwise and cast to linalg ---------===//

#include "ArithAlgebra.h"
#include "Utils.h"

#include "Dialect/Google/IR/GoogleOps.h"
#include "Dialect/Google/IR/ScalarSemantics.h"

using namespace mlir;
using namespace mlir::google;

namespace {

/// Splat constants with more elements than this are filled at run time
/// instead of stored in the object (a loop gradient's tape of -0.0 for
/// 1024 steps would otherwise be 16 MB of code and as many seconds of
/// codegen).
constexpr int64_t kMaxStoredSplat = 256;

/// google.constant => arith.constant, or a linalg.fill for a large splat.
struct ConstantToArith : public OpConversionPattern<ConstantOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ConstantOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto dense = dyn_cast<DenseElementsAttr>(op.getValue());
    auto type = cast<RankedTensorType>(op.getType());
    if (dense && dense.isSplat() && type.getNumElements() > kMaxStoredSplat) {
      Value element = arith::ConstantOp::create(
          rewriter, op.getLoc(),
          cast<TypedAttr>(dense.getSplatValue<Attribute>()));
      rewriter.replaceOp(op, createFilledTensor(rewriter, op.getLoc(), type,
                                                {}, element));
      return success();
    }
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
