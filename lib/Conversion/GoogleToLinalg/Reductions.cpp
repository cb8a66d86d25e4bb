//===- Reductions.cpp - reductions and softmax to linalg ------------------===//

#include "ArithAlgebra.h"
#include "Utils.h"

#include "Dialect/Google/IR/GoogleOps.h"
#include "Dialect/Google/IR/ScalarSemantics.h"
#include "Dialect/Google/IR/ShapeRules.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <cmath>


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
      cast<RankedTensorType>(reduced.getType()).getElementType());
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

/// True when (x, k) comes before (best, bestIndex) in the order whose
/// first element argmax (isMax) or argmin picks: NaN first, then the
/// extreme value, ties to the lower index. Total, so the reduction may run
/// in any order.
Value isBetter(OpBuilder &b, Location loc, Value x, Value k, Value best,
               Value bestIndex, bool isMax) {
  Value earlier =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, k, bestIndex);
  if (isa<FloatType>(x.getType())) {
    using P = arith::CmpFPredicate;
    Value xNaN = arith::CmpFOp::create(b, loc, P::UNO, x, x);
    Value bestNaN = arith::CmpFOp::create(b, loc, P::UNO, best, best);
    Value beyond =
        arith::CmpFOp::create(b, loc, isMax ? P::OGT : P::OLT, x, best);
    Value tie = arith::CmpFOp::create(b, loc, P::OEQ, x, best);
    // Both NaN: the earlier; one NaN: that one; else compare.
    Value bothNaN = arith::AndIOp::create(b, loc, xNaN, bestNaN);
    Value ordered = arith::OrIOp::create(
        b, loc, beyond, arith::AndIOp::create(b, loc, tie, earlier));
    Value onlyX = arith::AndIOp::create(
        b, loc, xNaN,
        arith::XOrIOp::create(b, loc, bestNaN,
                              arith::ConstantIntOp::create(b, loc, 1, 1)));
    Value neitherNaN = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::eq,
        arith::OrIOp::create(b, loc, xNaN, bestNaN),
        arith::ConstantIntOp::create(b, loc, 0, 1));
    return arith::OrIOp::create(
        b, loc,
        arith::OrIOp::create(b, loc, onlyX,
                             arith::AndIOp::create(b, loc, bothNaN, earlier)),
        arith::AndIOp::create(b, loc, neitherNaN, ordered));
  }
  // Booleans compare unsigned (true > false), other integers signed.
  bool isBool = x.getType().isInteger(1);
  using P = arith::CmpIPredicate;
  P beyondPredicate =
      isMax ? (isBool ? P::ugt : P::sgt) : (isBool ? P::ult : P::slt);
  Value beyond = arith::CmpIOp::create(b, loc, beyondPredicate, x, best);
  Value tie = arith::CmpIOp::create(b, loc, P::eq, x, best);
  return arith::OrIOp::create(b, loc, beyond,
                              arith::AndIOp::create(b, loc, tie, earlier));
}

/// argmax/argmin of f32/f64 rows (the last axis) in two vectorizable row
/// reductions: the extreme m (NaN if the row has one), then the least
/// position p, counted in floats (exact: f64 past 2^24 elements), where
/// x == m or x is NaN. The single (value, index) reduction carries its
/// pair through memory, a store-to-load chain per element (~8 ns).
Value createRowArgReduction(OpBuilder &b, Location loc, Value input,
                            bool isMax) {
  auto inputType = cast<RankedTensorType>(input.getType());
  int64_t rank = inputType.getRank(), axis = rank - 1;
  int64_t length = inputType.getDimSize(axis);
  Type positionType = !ShapedType::isDynamic(length) && length <= (1 << 24)
                          ? Type(b.getF32Type())
                          : Type(b.getF64Type());
  Value extreme = createReduction(b, loc, input, {axis},
                                  isMax ? Combiner::Max : Combiner::Min);
  // positions[k] = k.
  auto positionsType = RankedTensorType::get({length}, positionType);
  Value positions = createParallelGeneric(
      b, loc, positionsType, {getDimSize(b, loc, input, axis)}, ValueRange{},
      {}, [&](OpBuilder &nested, Location nestedLoc, ValueRange) {
        Value k = arith::IndexCastOp::create(
            nested, nestedLoc, nested.getI64Type(),
            linalg::IndexOp::create(nested, nestedLoc, 0));
        return arith::SIToFPOp::create(nested, nestedLoc, positionType, k)
            .getResult();
      });
  auto rowsType = cast<RankedTensorType>(extreme.getType());
  SmallVector<OpFoldResult> rowSizes = getDimSizes(b, loc, extreme);
  Value none = arith::ConstantOp::create(
      b, loc, b.getFloatAttr(positionType, INFINITY));
  Value init =
      createFilledTensor(b, loc, rowsType.clone(positionType), rowSizes, none);
  AffineMap identity = b.getMultiDimIdentityMap(rank);
  SmallVector<utils::IteratorType> iterators = parallelIterators(rank);
  iterators[axis] = utils::IteratorType::reduction;
  auto first = linalg::GenericOp::create(
      b, loc, init.getType(), ValueRange{input, extreme, positions}, init,
      ArrayRef<AffineMap>{identity, identity.dropResult(axis),
                          AffineMap::get(rank, 0, b.getAffineDimExpr(axis)),
                          identity.dropResult(axis)},
      iterators,
      [&](OpBuilder &nested, Location nestedLoc, ValueRange args) {
        using P = arith::CmpFPredicate;
        Value hit = arith::OrIOp::create(
            nested, nestedLoc,
            arith::CmpFOp::create(nested, nestedLoc, P::OEQ, args[0],
                                  args[1]),
            arith::CmpFOp::create(nested, nestedLoc, P::UNO, args[0],
                                  args[0]));
        Value candidate = arith::SelectOp::create(nested, nestedLoc, hit,
                                                  args[2], none);
        linalg::YieldOp::create(
            nested, nestedLoc,
            arith::MinimumFOp::create(nested, nestedLoc, args[3], candidate)
                .getResult());
      });
  return createParallelGeneric(
      b, loc, rowsType.clone(b.getI64Type()), rowSizes, first.getResult(0),
      b.getMultiDimIdentityMap(rank - 1),
      [&](OpBuilder &nested, Location nestedLoc, ValueRange args) {
        return arith::FPToSIOp::create(nested, nestedLoc, nested.getI64Type(),
                                       args[0])
            .getResult();
      });
}

/// A linalg.generic reducing `axis` of `input` into (extreme value, its
/// index), the indices returned; the index starts at 0 with the value the
/// identity of the comparison, which every element ties or beats.
Value createPairArgReduction(OpBuilder &b, Location loc, Value input,
                             int64_t axis, bool isMax) {
  auto inputType = cast<RankedTensorType>(input.getType());
  Type elementType = inputType.getElementType();
  Type i64 = b.getI64Type();
  int64_t rank = inputType.getRank();
  SmallVector<int64_t> shape;
  SmallVector<OpFoldResult> sizes;
  SmallVector<AffineExpr> kept;
  for (int64_t d = 0; d < rank; ++d) {
    if (d == axis)
      continue;
    shape.push_back(inputType.getDimSize(d));
    sizes.push_back(getDimSize(b, loc, input, d));
    kept.push_back(b.getAffineDimExpr(d));
  }
  ArithAlgebra algebra(b, loc, elementType);
  // (Booleans order unsigned: false, then true.)
  Value identity =
      elementType.isInteger(1)
          ? arith::ConstantIntOp::create(b, loc, isMax ? 0 : 1, 1).getResult()
          : (isMax ? algebra.lowest() : algebra.highest());
  Value values = createFilledTensor(
      b, loc, RankedTensorType::get(shape, elementType), sizes, identity);
  Value indices =
      createFilledTensor(b, loc, RankedTensorType::get(shape, i64), sizes,
                         arith::ConstantIntOp::create(b, loc, i64, 0));
  AffineMap keptMap = AffineMap::get(rank, 0, kept, b.getContext());
  SmallVector<utils::IteratorType> iterators = parallelIterators(rank);
  iterators[axis] = utils::IteratorType::reduction;
  auto reduce = linalg::GenericOp::create(
      b, loc, TypeRange{values.getType(), indices.getType()}, input,
      ValueRange{values, indices},
      ArrayRef<AffineMap>{b.getMultiDimIdentityMap(rank), keptMap, keptMap},
      iterators, [&](OpBuilder &nested, Location nestedLoc, ValueRange args) {
        Value k = arith::IndexCastOp::create(
            nested, nestedLoc, i64,
            linalg::IndexOp::create(nested, nestedLoc, axis));
        Value better =
            isBetter(nested, nestedLoc, args[0], k, args[1], args[2], isMax);
        linalg::YieldOp::create(
            nested, nestedLoc,
            ValueRange{arith::SelectOp::create(nested, nestedLoc, better,
                                               args[0], args[1]),
                       arith::SelectOp::create(nested, nestedLoc, better, k,
                                               args[2])});
      });
  return reduce.getResult(1);
}

/// Rows at most this long keep the single (value, index) reduction, which
/// LLVM unrolls into registers; longer f32/f64 rows take the two passes.
constexpr int64_t kMaxUnrolledArgRow = 16;

/// argmax/argmin over `axis`. The last axis is reduced on a 2-D view (the
/// other dimensions collapsed: one loop over rows), where at most one of
/// those is dynamic (expanding one dynamic extent back into several
/// crashed memref lowering).
Value createArgReduction(OpBuilder &b, Location loc, Value input,
                         int64_t axis, bool isMax) {
  auto inputType = cast<RankedTensorType>(input.getType());
  int64_t rank = inputType.getRank();
  if (axis != rank - 1 || rank < 2 ||
      llvm::count(inputType.getShape().drop_back(), ShapedType::kDynamic) > 1)
    return createPairArgReduction(b, loc, input, axis, isMax);
  Value rows = input;
  if (rank > 2) {
    SmallVector<ReassociationIndices> groups = {
        llvm::to_vector(llvm::seq<int64_t>(0, rank - 1)), {rank - 1}};
    rows = tensor::CollapseShapeOp::create(b, loc, input, groups);
  }
  Type elementType = inputType.getElementType();
  int64_t length = inputType.getDimSize(axis);
  bool shortRows = !ShapedType::isDynamic(length) &&
                   length <= kMaxUnrolledArgRow;
  Value result = (elementType.isF32() || elementType.isF64()) && !shortRows
                     ? createRowArgReduction(b, loc, rows, isMax)
                     : createPairArgReduction(b, loc, rows, 1, isMax);
  if (rank == 2)
    return result;
  SmallVector<int64_t> shape(inputType.getShape().drop_back());
  SmallVector<OpFoldResult> sizes;
  for (int64_t d = 0; d + 1 < rank; ++d)
    sizes.push_back(getDimSize(b, loc, input, d));
  return tensor::ExpandShapeOp::create(
      b, loc, RankedTensorType::get(shape, b.getI64Type()), result,
      {llvm::to_vector(llvm::seq<int64_t>(0, rank - 1))}, sizes);
}

template <typename ArgReduceOp, bool isMax>
struct ArgReduceToLinalg : public OpConversionPattern<ArgReduceOp> {
  using OpConversionPattern<ArgReduceOp>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ArgReduceOp op, typename ArgReduceOp::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    StringRef name = op->getName().getStringRef();
    int64_t axis = op.getNormalizedAxis();
    RankedTensorType resultType = op.getResult().getType();
    SmallVector<int64_t> known =
        knownReduceInput(op.getInput().getType().getShape(),
                         resultType.getShape(), {axis}, op.getKeepDims());
    Value input = refineShape(rewriter, loc, adaptor.getInput(), known,
                              [&](int64_t d) {
                                return extentMessage(name, "the input", d);
                              });
    auto inputType = cast<RankedTensorType>(input.getType());
    if (inputType.isDynamicDim(axis)) {
      Value extent = getValueOrCreateConstantIndexOp(
          rewriter, loc, getDimSize(rewriter, loc, input, axis));
      Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
      Value nonEmpty = arith::CmpIOp::create(
          rewriter, loc, arith::CmpIPredicate::ne, extent, zero);
      cf::AssertOp::create(rewriter, loc, nonEmpty,
                           (name + ": axis " + Twine(axis) +
                            " is empty (extent 0)")
                               .str());
    }
    Value result = createArgReduction(rewriter, loc, input, axis, isMax);
    if (op.getKeepDims())
      result = expandReducedDims(rewriter, loc, result, input, {axis});
    rewriter.replaceOp(op, relaxToType(rewriter, loc, result, resultType));
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
               SoftmaxToLinalg, ArgReduceToLinalg<ArgmaxOp, true>,
               ArgReduceToLinalg<ArgminOp, false>>(patterns.getContext());
}
