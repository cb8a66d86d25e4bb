//===- Reductions.cpp - reductions and softmax to linalg ------------------===//

#include "Utils.h"

#include "Dialect/Google/IR/GoogleOps.h"
#include "Dialect/Google/IR/ShapeRules.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <cmath>

using namespace mlir;
using namespace mlir::google;

namespace {

enum class Combiner { Sum, Max };

Value combine(OpBuilder &b, Location loc, Combiner combiner, Value lhs,
              Value rhs) {
  bool isFloat = isa<FloatType>(lhs.getType());
  if (combiner == Combiner::Sum)
    return isFloat ? arith::AddFOp::create(b, loc, lhs, rhs).getResult()
                   : arith::AddIOp::create(b, loc, lhs, rhs).getResult();
  // NaN-propagating, like numpy.max.
  return isFloat ? arith::MaximumFOp::create(b, loc, lhs, rhs).getResult()
                 : arith::MaxSIOp::create(b, loc, lhs, rhs).getResult();
}

Value identityOf(OpBuilder &b, Location loc, Combiner combiner, Type type) {
  if (combiner == Combiner::Sum)
    return createScalarConstant(b, loc, type, 0);
  if (isa<FloatType>(type))
    return createScalarConstant(b, loc, type, -INFINITY);
  return arith::ConstantOp::create(
      b, loc,
      b.getIntegerAttr(type, APInt::getSignedMinValue(
                                 type.getIntOrFloatBitWidth())));
}

/// Reduces `input` over the sorted `axes`, dropping them.
Value createReduction(OpBuilder &b, Location loc, Value input,
                      ArrayRef<int64_t> axes, Combiner combiner) {
  auto inputType = cast<RankedTensorType>(input.getType());
  SmallVector<int64_t> shape;
  SmallVector<OpFoldResult> sizes;
  for (int64_t d = 0; d < inputType.getRank(); ++d) {
    if (llvm::is_contained(axes, d))
      continue;
    shape.push_back(inputType.getDimSize(d));
    sizes.push_back(getDimSize(b, loc, input, d));
  }
  auto type = RankedTensorType::get(shape, inputType.getElementType());
  Value init = createFilledTensor(
      b, loc, type, sizes,
      identityOf(b, loc, combiner, inputType.getElementType()));
  auto reduce = linalg::ReduceOp::create(
      b, loc, input, init, axes,
      [&](OpBuilder &nested, Location nestedLoc, ValueRange args) {
        linalg::YieldOp::create(
            nested, nestedLoc,
            combine(nested, nestedLoc, combiner, args[0], args[1]));
      });
  return reduce.getResult(0);
}

/// Reinserts the reduced `axes` of `input` as unit dimensions.
Value expandReducedDims(OpBuilder &b, Location loc, Value reduced,
                        Value input, ArrayRef<int64_t> axes,
                        RankedTensorType resultType) {
  SmallVector<ReassociationIndices> groups;
  ReassociationIndices leading;
  SmallVector<OpFoldResult> sizes;
  for (int64_t d = 0; d < resultType.getRank(); ++d) {
    bool isReduced = llvm::is_contained(axes, d);
    sizes.push_back(isReduced ? b.getIndexAttr(1)
                              : getDimSize(b, loc, input, d));
    if (!isReduced)
      groups.push_back({d});
    else if (groups.empty())
      leading.push_back(d);
    else
      groups.back().push_back(d);
  }
  if (!groups.empty())
    groups.front().insert(groups.front().begin(), leading.begin(),
                          leading.end());
  auto inputType = cast<RankedTensorType>(input.getType());
  auto expandedType = RankedTensorType::get(
      reducedShape(inputType.getShape(), axes, /*keepDims=*/true),
      resultType.getElementType());
  Value expanded = tensor::ExpandShapeOp::create(b, loc, expandedType, reduced,
                                                 groups, sizes);
  if (expandedType == resultType)
    return expanded;
  return tensor::CastOp::create(b, loc, resultType, expanded);
}

/// The number of elements each output of the reduction combines, as a
/// scalar of `type`.
Value reducedCount(OpBuilder &b, Location loc, Value input,
                   ArrayRef<int64_t> axes, Type type) {
  Value count = arith::ConstantIndexOp::create(b, loc, 1);
  for (int64_t axis : axes)
    count = arith::MulIOp::create(
        b, loc, count,
        getValueOrCreateConstantIndexOp(b, loc,
                                        getDimSize(b, loc, input, axis)));
  Value asInt = arith::IndexCastOp::create(b, loc, b.getI64Type(), count);
  return arith::UIToFPOp::create(b, loc, type, asInt);
}

template <typename ReduceOp, Combiner combiner, bool isMean = false>
struct ReduceToLinalg : public OpConversionPattern<ReduceOp> {
  using OpConversionPattern<ReduceOp>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ReduceOp op, typename ReduceOp::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    SmallVector<int64_t> axes = op.getNormalizedAxes();
    Value result = createReduction(rewriter, loc, input, axes, combiner);
    if (isMean) {
      auto type = cast<RankedTensorType>(result.getType());
      Value count =
          reducedCount(rewriter, loc, input, axes, type.getElementType());
      result = linalg::GenericOp::create(
                   rewriter, loc, type, ValueRange{}, result,
                   ArrayRef<AffineMap>{
                       rewriter.getMultiDimIdentityMap(type.getRank())},
                   parallelIterators(type.getRank()),
                   [&](OpBuilder &b, Location nestedLoc, ValueRange args) {
                     linalg::YieldOp::create(
                         b, nestedLoc,
                         arith::DivFOp::create(b, nestedLoc, args[0], count)
                             .getResult());
                   })
                   .getResult(0);
    }
    RankedTensorType resultType = op.getResult().getType();
    if (op.getKeepDims())
      result = expandReducedDims(rewriter, loc, result, input, axes, resultType);
    else if (result.getType() != resultType)
      result = tensor::CastOp::create(rewriter, loc, resultType, result);
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// exp(x - max) / sum(exp(x - max)) along the axis.
struct SoftmaxToLinalg : public OpConversionPattern<SoftmaxOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(SoftmaxOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    RankedTensorType type = op.getResult().getType();
    int64_t rank = type.getRank();
    int64_t axis = op.getNormalizedAxis();
    AffineMap identity = rewriter.getMultiDimIdentityMap(rank);
    AffineMap dropAxis = identity.dropResult(axis);

    Value maximum = createReduction(rewriter, loc, input, {axis}, Combiner::Max);
    SmallVector<OpFoldResult> sizes;
    for (int64_t d = 0; d < rank; ++d)
      sizes.push_back(getDimSize(rewriter, loc, input, d));
    Value empty = createEmptyTensor(rewriter, loc, type, sizes);
    Value exps =
        linalg::GenericOp::create(
            rewriter, loc, type, ValueRange{input, maximum}, empty,
            ArrayRef<AffineMap>{identity, dropAxis, identity},
            parallelIterators(rank),
            [&](OpBuilder &b, Location nestedLoc, ValueRange args) {
              Value shifted =
                  arith::SubFOp::create(b, nestedLoc, args[0], args[1]);
              Value exp = computeInF32IfNarrow(
                  b, nestedLoc, shifted,
                  [](OpBuilder &b, Location loc, Value v) {
                    return math::ExpOp::create(b, loc, v).getResult();
                  });
              linalg::YieldOp::create(b, nestedLoc, exp);
            })
            .getResult(0);
    Value sum = createReduction(rewriter, loc, exps, {axis}, Combiner::Sum);
    Value result =
        linalg::GenericOp::create(
            rewriter, loc, type, ValueRange{sum}, exps,
            ArrayRef<AffineMap>{dropAxis, identity}, parallelIterators(rank),
            [&](OpBuilder &b, Location nestedLoc, ValueRange args) {
              linalg::YieldOp::create(
                  b, nestedLoc,
                  arith::DivFOp::create(b, nestedLoc, args[1], args[0])
                      .getResult());
            })
            .getResult(0);
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void google::populateReductionToLinalgPatterns(RewritePatternSet &patterns) {
  patterns.add<ReduceToLinalg<ReduceSumOp, Combiner::Sum>,
               ReduceToLinalg<ReduceMaxOp, Combiner::Max>,
               ReduceToLinalg<ReduceMeanOp, Combiner::Sum, /*isMean=*/true>,
               SoftmaxToLinalg>(patterns.getContext());
}
