//===- Elementwise.cpp - constant, elementwise and cast to linalg ---------===//

#include "Utils.h"

#include "Dialect/Google/IR/GoogleOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

using namespace mlir;
using namespace mlir::google;

namespace {

bool isFloat(Type type) { return isa<FloatType>(type); }

//===----------------------------------------------------------------------===//
// Scalar bodies, one per op
//===----------------------------------------------------------------------===//

template <typename FloatOp, typename IntOp>
Value floatOrInt(OpBuilder &b, Location loc, ValueRange args) {
  if (isFloat(args[0].getType()))
    return FloatOp::create(b, loc, args[0], args[1]);
  return IntOp::create(b, loc, args[0], args[1]);
}

Value scalarFor(AddOp, OpBuilder &b, Location loc, ValueRange args) {
  return floatOrInt<arith::AddFOp, arith::AddIOp>(b, loc, args);
}
Value scalarFor(SubOp, OpBuilder &b, Location loc, ValueRange args) {
  return floatOrInt<arith::SubFOp, arith::SubIOp>(b, loc, args);
}
Value scalarFor(MulOp, OpBuilder &b, Location loc, ValueRange args) {
  return floatOrInt<arith::MulFOp, arith::MulIOp>(b, loc, args);
}
Value scalarFor(DivOp, OpBuilder &b, Location loc, ValueRange args) {
  return arith::DivFOp::create(b, loc, args[0], args[1]);
}
// NaN-propagating, like numpy.maximum/minimum.
Value scalarFor(MaxOp, OpBuilder &b, Location loc, ValueRange args) {
  return floatOrInt<arith::MaximumFOp, arith::MaxSIOp>(b, loc, args);
}
Value scalarFor(MinOp, OpBuilder &b, Location loc, ValueRange args) {
  return floatOrInt<arith::MinimumFOp, arith::MinSIOp>(b, loc, args);
}
Value scalarFor(ReluOp, OpBuilder &b, Location loc, ValueRange args) {
  Value zero = createScalarConstant(b, loc, args[0].getType(), 0);
  return floatOrInt<arith::MaximumFOp, arith::MaxSIOp>(b, loc,
                                                       {args[0], zero});
}
Value scalarFor(NegOp, OpBuilder &b, Location loc, ValueRange args) {
  if (isFloat(args[0].getType()))
    return arith::NegFOp::create(b, loc, args[0]);
  Value zero = createScalarConstant(b, loc, args[0].getType(), 0);
  return arith::SubIOp::create(b, loc, zero, args[0]);
}
Value scalarFor(AbsOp, OpBuilder &b, Location loc, ValueRange args) {
  if (isFloat(args[0].getType()))
    return math::AbsFOp::create(b, loc, args[0]);
  return math::AbsIOp::create(b, loc, args[0]);
}
template <typename MathOp>
Value narrowSafe(OpBuilder &b, Location loc, Value x) {
  return computeInF32IfNarrow(b, loc, x,
                              [](OpBuilder &b, Location loc, Value v) {
                                return MathOp::create(b, loc, v).getResult();
                              });
}

Value scalarFor(ExpOp, OpBuilder &b, Location loc, ValueRange args) {
  return narrowSafe<math::ExpOp>(b, loc, args[0]);
}
Value scalarFor(LogOp, OpBuilder &b, Location loc, ValueRange args) {
  return narrowSafe<math::LogOp>(b, loc, args[0]);
}
Value scalarFor(TanhOp, OpBuilder &b, Location loc, ValueRange args) {
  return narrowSafe<math::TanhOp>(b, loc, args[0]);
}
Value scalarFor(SqrtOp, OpBuilder &b, Location loc, ValueRange args) {
  return narrowSafe<math::SqrtOp>(b, loc, args[0]);
}
Value scalarFor(SigmoidOp, OpBuilder &b, Location loc, ValueRange args) {
  // 1 / (1 + exp(-x)): exp overflows to inf for very negative x, giving 0.
  return computeInF32IfNarrow(
      b, loc, args[0], [](OpBuilder &b, Location loc, Value x) -> Value {
        Value one = createScalarConstant(b, loc, x.getType(), 1);
        Value negated = arith::NegFOp::create(b, loc, x);
        Value exp = math::ExpOp::create(b, loc, negated);
        Value denominator = arith::AddFOp::create(b, loc, one, exp);
        return arith::DivFOp::create(b, loc, one, denominator);
      });
}

/// Converts a scalar between any two supported element types.
Value convertScalar(OpBuilder &b, Location loc, Value value, Type to) {
  Type from = value.getType();
  if (from == to)
    return value;
  // bf16 from anything but f32 goes through f32: the C runtime libraries
  // here have no direct f64/integer -> bf16 conversion routines.
  if (to.isBF16() && !from.isF32() && !from.isBF16()) {
    Value wide = convertScalar(b, loc, value, b.getF32Type());
    return arith::TruncFOp::create(b, loc, to, wide);
  }
  unsigned fromWidth = from.getIntOrFloatBitWidth();
  unsigned toWidth = to.getIntOrFloatBitWidth();
  if (isFloat(from) && isFloat(to)) {
    if (fromWidth == toWidth) {
      // f16 <-> bf16 goes through f32, which holds both exactly.
      value = arith::ExtFOp::create(b, loc, b.getF32Type(), value);
      return arith::TruncFOp::create(b, loc, to, value);
    }
    if (fromWidth < toWidth)
      return arith::ExtFOp::create(b, loc, to, value);
    return arith::TruncFOp::create(b, loc, to, value);
  }
  if (isFloat(from))
    return arith::FPToSIOp::create(b, loc, to, value);
  if (isFloat(to))
    return arith::SIToFPOp::create(b, loc, to, value);
  if (fromWidth < toWidth)
    return arith::ExtSIOp::create(b, loc, to, value);
  return arith::TruncIOp::create(b, loc, to, value);
}

//===----------------------------------------------------------------------===//
// Patterns
//===----------------------------------------------------------------------===//

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

/// Any elementwise op (unary or broadcasting binary) to one linalg.generic.
template <typename SourceOp>
struct ElementwiseToGeneric : public OpConversionPattern<SourceOp> {
  using OpConversionPattern<SourceOp>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(SourceOp op, typename SourceOp::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value result = createBroadcastingGeneric(
        rewriter, op.getLoc(), op->getName().getStringRef(),
        op.getResult().getType(), adaptor.getOperands(),
        [&](OpBuilder &b, Location loc, ValueRange args) {
          return scalarFor(op, b, loc, args);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct CastToGeneric : public OpConversionPattern<CastOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(CastOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType resultType = op.getResult().getType();
    Value result = createBroadcastingGeneric(
        rewriter, op.getLoc(), op->getName().getStringRef(), resultType,
        adaptor.getInput(),
        [&](OpBuilder &b, Location loc, ValueRange args) {
          return convertScalar(b, loc, args[0], resultType.getElementType());
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void google::populateElementwiseToLinalgPatterns(RewritePatternSet &patterns) {
  patterns.add<ConstantToArith, CastToGeneric, ElementwiseToGeneric<AddOp>,
               ElementwiseToGeneric<SubOp>, ElementwiseToGeneric<MulOp>,
               ElementwiseToGeneric<DivOp>, ElementwiseToGeneric<MaxOp>,
               ElementwiseToGeneric<MinOp>, ElementwiseToGeneric<ReluOp>,
               ElementwiseToGeneric<NegOp>, ElementwiseToGeneric<AbsOp>,
               ElementwiseToGeneric<ExpOp>, ElementwiseToGeneric<LogOp>,
               ElementwiseToGeneric<TanhOp>, ElementwiseToGeneric<SqrtOp>,
               ElementwiseToGeneric<SigmoidOp>>(patterns.getContext());
}
