//===- Reductions.cpp - reductions and softmax to linalg ------------------===//

#include "ArithAlgebra.h"
#include "Utils.h"

#include "Dialect/Google/IR/GoogleOps.h"
#include "Dialect/Google/IR/ScalarSemantics.h"
#include "Dialect/Google/IR/ShapeRules.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"


using namespace mlir;
using namespace mlir::google;

namespace {

using semantics::Combiner;

/// Reduces `input` over the sorted `axes`, dropping them, into
/// accumulators of semantics::getAccumulatorType (f32 for f16 and bf16).
Value createReduction(OpBuilder &b, Location loc, Value input,
                      ArrayRef<int64_t> axes, Combiner combiner) {
  auto inputType = cast<RankedTensorType>(input.getType());
  Type elementType = inputType.getElementType();
  SmallVector<int64_t> shape;
  SmallVector<OpFoldResult> sizes;
  for (int64_t d = 0; d < inputType.getRank(); ++d) {
    if (llvm::is_contained(axes, d))
      continue;
    shape.push_back(inputType.getDimSize(d));
    sizes.push_back(getDimSize(b, loc, input, d));
  }
  ArithAlgebra algebra(b, loc, elementType);
  ArithAlgebra accumulator = algebra.accumulator();
  auto type = RankedTensorType::get(
      shape, semantics::getAccumulatorType(elementType));
  Value init = createFilledTensor(b, loc, type, sizes,
                                  semantics::identity(accumulator, combiner));
  auto reduce = linalg::ReduceOp::create(
      b, loc, input, init, axes,
      [&](OpBuilder &nested, Location nestedLoc, ValueRange args) {
        ArithAlgebra body(nested, nestedLoc, elementType);
        ArithAlgebra wide = body.accumulator();
        linalg::YieldOp::create(nested, nestedLoc,
                                semantics::accumulate(body, wide, combiner,
                                                      args[1], args[0]));
      });
  return reduce.getResult(0);
}

/// `fn(algebra, accumulatorAlgebra, accumulator)` for each element of the
/// accumulators `reduced`, as a tensor of `elementType`.
template <typename Fn>
Value mapAccumulators(OpBuilder &b, Location loc, Value reduced,
                      Type elementType, Fn fn) {
  auto type = cast<RankedTensorType>(reduced.getType()).clone(elementType);
  return createParallelGeneric(
      b, loc, type, getDimSizes(b, loc, reduced), reduced,
      b.getMultiDimIdentityMap(type.getRank()),
      [&](OpBuilder &nested, Location nestedLoc, ValueRange args) {
        ArithAlgebra algebra(nested, nestedLoc, elementType);
        ArithAlgebra accumulator = algebra.accumulator();
        return fn(algebra, accumulator, args[0]);
      });
}

/// Reinserts the reduced `axes` of `input` as unit dimensions.
Value expandReducedDims(OpBuilder &b, Location loc, Value reduced,
                        Value input, ArrayRef<int64_t> axes) {
  auto inputType = cast<RankedTensorType>(input.getType());
  SmallVector<ReassociationIndices> groups;
  ReassociationIndices leading;
  SmallVector<OpFoldResult> sizes;
  for (int64_t d = 0; d < inputType.getRank(); ++d) {
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
  auto expandedType = RankedTensorType::get(
      reducedShape(inputType.getShape(), axes, /*keepDims=*/true),
      inputType.getElementType());
  return tensor::ExpandShapeOp::create(b, loc, expandedType, reduced, groups,
                                       sizes);
}

/// The number of elements each output of the reduction combines.
Value reducedCount(OpBuilder &b, Location loc, Value input,
                   ArrayRef<int64_t> axes) {
  Value count = arith::ConstantIndexOp::create(b, loc, 1);
  for (int64_t axis : axes)
    count = arith::MulIOp::create(
        b, loc, count,
        getValueOrCreateConstantIndexOp(b, loc,
                                        getDimSize(b, loc, input, axis)));
  return count;
}

template <typename ReduceOp, Combiner combiner, bool isMean = false>
struct ReduceToLinalg : public OpConversionPattern<ReduceOp> {
  using OpConversionPattern<ReduceOp>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ReduceOp op, typename ReduceOp::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    SmallVector<int64_t> axes = op.getNormalizedAxes();
    RankedTensorType resultType = op.getResult().getType();
    SmallVector<int64_t> known =
        knownReduceInput(op.getInput().getType().getShape(),
                         resultType.getShape(), axes, op.getKeepDims());
    Value input = refineShape(rewriter, loc, adaptor.getInput(), known,
                              [&](int64_t d) {
                                return extentMessage(
                                    op->getName().getStringRef(), "the input",
                                    d);
                              });
    Value result = createReduction(rewriter, loc, input, axes, combiner);
    Type elementType = resultType.getElementType();
    if (isMean) {
      Value count = reducedCount(rewriter, loc, input, axes);
      result = mapAccumulators(
          rewriter, loc, result, elementType,
          [&](ArithAlgebra &a, ArithAlgebra &w, Value sum) {
            return semantics::mean(a, w, sum, count);
          });
    } else {
      result = roundAccumulators(rewriter, loc, result, elementType);
    }
    if (op.getKeepDims())
      result = expandReducedDims(rewriter, loc, result, input, axes);
    rewriter.replaceOp(op, relaxToType(rewriter, loc, result, resultType));
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
    Type elementType = type.getElementType();
    int64_t rank = type.getRank();
    int64_t axis = op.getNormalizedAxis();
    AffineMap identity = rewriter.getMultiDimIdentityMap(rank);
    AffineMap dropAxis = identity.dropResult(axis);
    SmallVector<OpFoldResult> sizes = getDimSizes(rewriter, loc, input);

    Value maximum = roundAccumulators(
        rewriter, loc,
        createReduction(rewriter, loc, input, {axis}, Combiner::MaxNum),
        elementType);
    Value numerators = createParallelGeneric(
        rewriter, loc, type, sizes, ValueRange{input, maximum},
        {identity, dropAxis},
        [&](OpBuilder &b, Location nestedLoc, ValueRange args) {
          ArithAlgebra algebra(b, nestedLoc, elementType);
          return semantics::softmaxNumerator(algebra, args[0], args[1]);
        });
    Value sum =
        createReduction(rewriter, loc, numerators, {axis}, Combiner::Sum);
    Value result = createParallelGeneric(
        rewriter, loc, type, sizes, ValueRange{numerators, sum},
        {identity, dropAxis},
        [&](OpBuilder &b, Location nestedLoc, ValueRange args) {
          ArithAlgebra algebra(b, nestedLoc, elementType);
          ArithAlgebra accumulator = algebra.accumulator();
          return semantics::softmaxNormalize(algebra, accumulator, args[0],
                                             args[1]);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void google::populateReductionToLinalgPatterns(RewritePatternSet &patterns) {
  patterns.add<ReduceToLinalg<ReduceSumOp, Combiner::Sum>,
               ReduceToLinalg<ReduceMaxOp, Combiner::Max>,
               ReduceToLinalg<ReduceMinOp, Combiner::Min>,
               ReduceToLinalg<ReduceProdOp, Combiner::Prod>,
               ReduceToLinalg<ReduceMeanOp, Combiner::Sum, /*isMean=*/true>,
               SoftmaxToLinalg>(patterns.getContext());
}
