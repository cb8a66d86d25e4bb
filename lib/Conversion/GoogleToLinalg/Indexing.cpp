//===- Indexing.cpp - concat, pad, iota and gather to linalg/tensor -------===//

#include "Utils.h"

#include "Dialect/Google/IR/GoogleOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::google;

namespace {

/// tensor.concat of the inputs, each refined to the extents the others (or
/// the result type) fix; dynamic extents that must agree are checked.
struct ConcatToTensor : public OpConversionPattern<ConcatOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ConcatOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    StringRef name = op->getName().getStringRef();
    int64_t axis = op.getNormalizedAxis();
    RankedTensorType resultType = op.getResult().getType();
    int64_t rank = resultType.getRank();
    // The extent every input has off the axis, where any type states it.
    SmallVector<int64_t> known(resultType.getShape());
    for (Value input : adaptor.getInputs())
      for (auto [d, extent] :
           llvm::enumerate(cast<RankedTensorType>(input.getType()).getShape()))
        if (ShapedType::isDynamic(known[d]))
          known[d] = extent;
    known[axis] = ShapedType::kDynamic;
    SmallVector<Value> refined, inputs;
    for (auto [i, input] : llvm::enumerate(adaptor.getInputs())) {
      std::string what = ("input " + Twine(i)).str();
      Value value = refineShape(rewriter, loc, input, known, [&](int64_t d) {
        return extentMessage(name, what, d);
      });
      // Extents no type states must equal input 0's.
      for (int64_t d = 0; d < rank; ++d)
        if (d != axis && ShapedType::isDynamic(known[d]) && i > 0)
          emitExtentCheck(rewriter, loc, getDimSize(rewriter, loc, value, d),
                          getDimSize(rewriter, loc, refined.front(), d),
                          extentMessage(name, what, d));
      refined.push_back(value);
      // An input known to be empty along the axis adds nothing (and
      // tensor.concat would place it past the end).
      if (cast<RankedTensorType>(value.getType()).getDimSize(axis) != 0)
        inputs.push_back(value);
    }
    if (inputs.empty())
      inputs.push_back(refined.front());
    auto firstType = cast<RankedTensorType>(refined.front().getType());
    Value result;
    if (llvm::any_of(llvm::seq<int64_t>(0, rank), [&](int64_t d) {
          return d != axis && firstType.getDimSize(d) == 0;
        })) {
      // Nothing to copy (an empty dimension has no valid offset).
      SmallVector<OpFoldResult> sizes =
          getDimSizes(rewriter, loc, refined.front());
      SmallVector<int64_t> shape(firstType.getShape());
      shape[axis] = ShapedType::kDynamic;
      Value total = arith::ConstantIndexOp::create(rewriter, loc, 0);
      for (Value input : refined)
        total = arith::AddIOp::create(
            rewriter, loc, total,
            getValueOrCreateConstantIndexOp(
                rewriter, loc, getDimSize(rewriter, loc, input, axis)));
      sizes[axis] = total;
      result = createEmptyTensor(
          rewriter, loc,
          RankedTensorType::get(shape, firstType.getElementType()), sizes);
    } else {
      result = tensor::ConcatOp::create(rewriter, loc, axis, inputs);
    }
    result = refineShape(
        rewriter, loc, result, resultType.getShape(),
        [&](int64_t d) { return extentMessage(name, "the result", d); });
    rewriter.replaceOp(op, relaxToType(rewriter, loc, result, resultType));
    return success();
  }
};

/// A tensor filled with the padding value, the input inserted at `low`.
struct PadToTensor : public OpConversionPattern<PadOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(PadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value value = tensor::ExtractOp::create(rewriter, loc, adaptor.getValue(),
                                            ValueRange());
    Value result = createPaddedTensor(rewriter, loc, adaptor.getInput(),
                                      op.getLow(), op.getHigh(), value);
    RankedTensorType resultType = op.getResult().getType();
    result = refineShape(
        rewriter, loc, result, resultType.getShape(), [&](int64_t d) {
          return extentMessage(op->getName().getStringRef(), "the result", d);
        });
    rewriter.replaceOp(op, relaxToType(rewriter, loc, result, resultType));
    return success();
  }
};

/// `value` (an index) as `type`: integers wrap, floats round once.
Value indexToElement(OpBuilder &b, Location loc, Value value, Type type) {
  if (isa<IntegerType>(type))
    return arith::IndexCastOp::create(b, loc, type, value);
  Value wide = arith::IndexCastOp::create(b, loc, b.getI64Type(), value);
  return arith::UIToFPOp::create(b, loc, type, wide);
}

struct IotaToLinalg : public OpConversionPattern<IotaOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(IotaOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType type = op.getResult().getType();
    SmallVector<OpFoldResult> sizes;
    for (int64_t extent : type.getShape())
      sizes.push_back(rewriter.getIndexAttr(extent));
    int64_t dimension = op.getDimension();
    Value result = createParallelGeneric(
        rewriter, op.getLoc(), type, sizes, ValueRange(), {},
        [&](OpBuilder &b, Location loc, ValueRange) {
          Value index = linalg::IndexOp::create(b, loc, dimension);
          return indexToElement(b, loc, index, type.getElementType());
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// The number of `indices` outside [-extent, extent), as a rank-0 i64
/// tensor (a reduction over every dimension).
Value countOutOfRange(OpBuilder &b, Location loc, Value indices, Value extent) {
  auto type = cast<RankedTensorType>(indices.getType());
  int64_t rank = type.getRank();
  Type i64 = b.getI64Type();
  auto countType = RankedTensorType::get({}, i64);
  Value zero = arith::ConstantIntOp::create(b, loc, i64, 0);
  Value init = createFilledTensor(b, loc, countType, {}, zero);
  Value high = arith::IndexCastOp::create(b, loc, i64, extent);
  Value low = arith::SubIOp::create(b, loc, zero, high);
  SmallVector<AffineMap> maps = {b.getMultiDimIdentityMap(rank),
                                 AffineMap::get(rank, 0, {}, b.getContext())};
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::reduction);
  auto count = linalg::GenericOp::create(
      b, loc, countType, indices, init, maps, iterators,
      [&](OpBuilder &nested, Location nestedLoc, ValueRange args) {
        Value index = args[0];
        if (index.getType() != i64)
          index = arith::ExtSIOp::create(nested, nestedLoc, i64, index);
        Value below = arith::CmpIOp::create(
            nested, nestedLoc, arith::CmpIPredicate::slt, index, low);
        Value above = arith::CmpIOp::create(
            nested, nestedLoc, arith::CmpIPredicate::sge, index, high);
        Value outside = arith::OrIOp::create(nested, nestedLoc, below, above);
        Value one = arith::ExtUIOp::create(nested, nestedLoc, i64, outside);
        linalg::YieldOp::create(
            nested, nestedLoc,
            arith::AddIOp::create(nested, nestedLoc, args[1], one).getResult());
      });
  return count.getResult(0);
}

/// A linalg.generic over the result reading each element with
/// tensor.extract at its index, wrapped to [0, extent) and clamped there,
/// so that no index can read outside the input; a check in front reports
/// out-of-range indices as the call's error.
struct GatherToLinalg : public OpConversionPattern<GatherOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(GatherOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    StringRef name = op->getName().getStringRef();
    int64_t axis = op.getNormalizedAxis();
    RankedTensorType resultType = op.getResult().getType();
    auto inputType = cast<RankedTensorType>(adaptor.getInput().getType());
    auto indicesType = cast<RankedTensorType>(adaptor.getIndices().getType());
    int64_t rank = inputType.getRank(), indexRank = indicesType.getRank();
    ArrayRef<int64_t> resultShape = resultType.getShape();
    // What the result type says of the operands' extents.
    SmallVector<int64_t> knownInput(resultShape.take_front(axis));
    knownInput.push_back(ShapedType::kDynamic);
    llvm::append_range(knownInput, resultShape.drop_front(axis + indexRank));
    SmallVector<int64_t> knownIndices(resultShape.slice(axis, indexRank));
    Value input = refineShape(
        rewriter, loc, adaptor.getInput(), knownInput,
        [&](int64_t d) { return extentMessage(name, "the input", d); });
    Value indices = refineShape(
        rewriter, loc, adaptor.getIndices(), knownIndices,
        [&](int64_t d) { return extentMessage(name, "the indices", d); });
    OpFoldResult extentSize = getDimSize(rewriter, loc, input, axis);
    Value extent = getValueOrCreateConstantIndexOp(rewriter, loc, extentSize);

    Value count = countOutOfRange(rewriter, loc, indices, extent);
    Value outside =
        tensor::ExtractOp::create(rewriter, loc, count, ValueRange());
    Value zero64 =
        arith::ConstantIntOp::create(rewriter, loc, rewriter.getI64Type(), 0);
    Value inRange = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::eq, outside, zero64);
    std::string range = inputType.isDynamicDim(axis)
                            ? std::string("its extent")
                            : ("[-" + Twine(inputType.getDimSize(axis)) + ", " +
                               Twine(inputType.getDimSize(axis)) + ")")
                                  .str();
    cf::AssertOp::create(rewriter, loc, inRange,
                         (name + ": {0} indices are outside " + range +
                          " for axis " + Twine(axis) + " (expected {1})")
                             .str());

    SmallVector<int64_t> shape;
    SmallVector<OpFoldResult> sizes;
    for (int64_t d = 0; d < axis; ++d) {
      shape.push_back(cast<RankedTensorType>(input.getType()).getDimSize(d));
      sizes.push_back(getDimSize(rewriter, loc, input, d));
    }
    for (int64_t d = 0; d < indexRank; ++d) {
      shape.push_back(cast<RankedTensorType>(indices.getType()).getDimSize(d));
      sizes.push_back(getDimSize(rewriter, loc, indices, d));
    }
    for (int64_t d = axis + 1; d < rank; ++d) {
      shape.push_back(cast<RankedTensorType>(input.getType()).getDimSize(d));
      sizes.push_back(getDimSize(rewriter, loc, input, d));
    }
    auto type = RankedTensorType::get(shape, resultType.getElementType());
    int64_t loops = type.getRank();
    SmallVector<AffineExpr> indexDims;
    for (int64_t d = 0; d < indexRank; ++d)
      indexDims.push_back(rewriter.getAffineDimExpr(axis + d));
    AffineMap indexMap =
        AffineMap::get(loops, 0, indexDims, rewriter.getContext());
    auto buildGather = [&](OpBuilder &b, Location bodyLoc) {
      return createParallelGeneric(
          b, bodyLoc, type, sizes, indices, {indexMap},
          [&](OpBuilder &nb, Location nloc, ValueRange args) {
            Value index = arith::IndexCastOp::create(
                nb, nloc, nb.getIndexType(), args[0]);
            Value zero = arith::ConstantIndexOp::create(nb, nloc, 0);
            Value negative = arith::CmpIOp::create(
                nb, nloc, arith::CmpIPredicate::slt, index, zero);
            Value wrapped = arith::SelectOp::create(
                nb, nloc, negative,
                arith::AddIOp::create(nb, nloc, index, extent), index);
            Value last = arith::SubIOp::create(
                nb, nloc, extent, arith::ConstantIndexOp::create(nb, nloc, 1));
            Value clamped = arith::MaxSIOp::create(
                nb, nloc, arith::MinSIOp::create(nb, nloc, wrapped, last),
                zero);
            SmallVector<Value> position;
            for (int64_t d = 0; d < rank; ++d) {
              if (d == axis)
                position.push_back(clamped);
              else
                position.push_back(linalg::IndexOp::create(
                    nb, nloc, d < axis ? d : d - 1 + indexRank));
            }
            return tensor::ExtractOp::create(nb, nloc, input, position)
                .getResult();
          });
    };
    Value result;
    if (!inputType.isDynamicDim(axis) && inputType.getDimSize(axis) > 0) {
      result = buildGather(rewriter, loc);
    } else {
      // An axis that may be empty has nothing to clamp to: gather only
      // when the check passed.
      auto branch = scf::IfOp::create(
          rewriter, loc, inRange,
          [&](OpBuilder &b, Location l) {
            scf::YieldOp::create(b, l, buildGather(b, l));
          },
          [&](OpBuilder &b, Location l) {
            scf::YieldOp::create(b, l, createEmptyTensor(b, l, type, sizes));
          });
      result = branch.getResult(0);
    }
    rewriter.replaceOp(op, relaxToType(rewriter, loc, result, resultType));
    return success();
  }
};

} // namespace

void google::populateIndexingToLinalgPatterns(RewritePatternSet &patterns) {
  patterns.add<ConcatToTensor, PadToTensor, IotaToLinalg, GatherToLinalg>(
      patterns.getContext());
}
