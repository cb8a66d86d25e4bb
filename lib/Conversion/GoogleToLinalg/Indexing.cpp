//===- Indexing.cpp - concat, pad, iota, gather, scatter to linalg/tensor -===//

#include "ArithAlgebra.h"
#include "Utils.h"

#include "Dialect/Google/IR/GoogleOps.h"
#include "Dialect/Google/IR/ScalarSemantics.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
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
    if (Value like = adaptor.getLike()) {
      // The result's shape is like's: its static extents where the
      // result's are dynamic.
      sizes = getDimSizes(rewriter, op.getLoc(), like);
      type = type.clone(cast<RankedTensorType>(like.getType()).getShape());
    } else {
      for (int64_t extent : type.getShape())
        sizes.push_back(rewriter.getIndexAttr(extent));
    }
    int64_t dimension = op.getDimension();
    Value result = createParallelGeneric(
        rewriter, op.getLoc(), type, sizes, ValueRange(), {},
        [&](OpBuilder &b, Location loc, ValueRange) {
          Value index = linalg::IndexOp::create(b, loc, dimension);
          return indexToElement(b, loc, index, type.getElementType());
        });
    rewriter.replaceOp(
        op, relaxToType(rewriter, op.getLoc(), result, op.getResult().getType()));
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

/// Emits the run-time check that every element of `indices` lies in
/// [-extent, extent) (`staticExtent` when known, for the message) and
/// returns whether it does.
Value emitIndexRangeCheck(OpBuilder &b, Location loc, StringRef name,
                          Value indices, Value extent, int64_t staticExtent,
                          int64_t axis) {
  Value count = countOutOfRange(b, loc, indices, extent);
  Value outside = tensor::ExtractOp::create(b, loc, count, ValueRange());
  Value zero64 = arith::ConstantIntOp::create(b, loc, b.getI64Type(), 0);
  Value inRange = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                        outside, zero64);
  std::string range = ShapedType::isDynamic(staticExtent)
                          ? std::string("its extent")
                          : ("[-" + Twine(staticExtent) + ", " +
                             Twine(staticExtent) + ")")
                                .str();
  auto check =
      cf::AssertOp::create(b, loc, inRange,
                           (name + ": {0} indices are outside " + range +
                            " for axis " + Twine(axis) + " (expected {1})")
                               .str());
  // What reads the indices clamps them (or skips its work on this value).
  check->setAttr(GoogleDialect::kDeferrableCheckAttrName, b.getUnitAttr());
  return inRange;
}

/// `index` (of an integer type) as an index in [0, extent): negative ones
/// count from the end; out-of-range ones (already reported) are clamped.
Value wrapIndex(OpBuilder &b, Location loc, Value index, Value extent) {
  index = arith::IndexCastOp::create(b, loc, b.getIndexType(), index);
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value negative =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, index, zero);
  Value wrapped = arith::SelectOp::create(
      b, loc, negative, arith::AddIOp::create(b, loc, index, extent), index);
  Value last = arith::SubIOp::create(
      b, loc, extent, arith::ConstantIndexOp::create(b, loc, 1));
  return arith::MaxSIOp::create(
      b, loc, arith::MinSIOp::create(b, loc, wrapped, last), zero);
}

/// `value` with each group of dimensions collapsed into one, dynamic where
/// any of the group is (a static 0 beside a dynamic extent too: the memref
/// form of the collapse requires it).
static Value collapseGroups(OpBuilder &b, Location loc, Value value,
                            ArrayRef<ReassociationIndices> groups) {
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<int64_t> shape;
  for (const ReassociationIndices &group : groups) {
    int64_t size = 1;
    for (int64_t d : group)
      size = type.isDynamicDim(d) || ShapedType::isDynamic(size)
                 ? ShapedType::kDynamic
                 : size * type.getDimSize(d);
    shape.push_back(size);
  }
  return tensor::CollapseShapeOp::create(b, loc, type.clone(shape), value,
                                         groups);
}

/// The number of elements of `value` (constant when static).
static OpFoldResult getElementCount(OpBuilder &b, Location loc, Value value) {
  auto type = cast<RankedTensorType>(value.getType());
  if (type.hasStaticShape())
    return b.getIndexAttr(type.getNumElements());
  Value count = arith::ConstantIndexOp::create(b, loc, 1);
  for (OpFoldResult size : getDimSizes(b, loc, value))
    count = arith::MulIOp::create(
        b, loc, count, getValueOrCreateConstantIndexOp(b, loc, size));
  return count;
}

/// `source`'s slice at `index` along `axis`: every other dimension whole,
/// the axis kept with extent 1.
static tensor::ExtractSliceOp extractAxisSlice(OpBuilder &b, Location loc,
                                               Value source, int64_t axis,
                                               Value index) {
  int64_t rank = cast<RankedTensorType>(source.getType()).getRank();
  SmallVector<OpFoldResult> offsets(rank, b.getIndexAttr(0));
  SmallVector<OpFoldResult> sizes = getDimSizes(b, loc, source);
  offsets[axis] = index;
  sizes[axis] = b.getIndexAttr(1);
  return tensor::ExtractSliceOp::create(
      b, loc, source, offsets, sizes,
      SmallVector<OpFoldResult>(rank, b.getIndexAttr(1)));
}

/// Whether `type`, a ranked tensor, has a dimension of static extent 0.
static bool hasEmptyDimension(Type type) {
  return llvm::is_contained(cast<RankedTensorType>(type).getShape(), 0);
}

/// The reassociation that drops dimension `axis` (of extent 1) of a
/// rank-`rank` shape, merging it into a neighbour's group.
static SmallVector<ReassociationIndices> getAxisDropGroups(int64_t rank,
                                                           int64_t axis) {
  SmallVector<ReassociationIndices> groups;
  for (int64_t d = 0; d < rank; ++d)
    if (d != axis)
      groups.push_back({d});
  if (groups.empty())
    return groups;
  if (axis == 0)
    groups.front().insert(groups.front().begin(), 0);
  else
    groups[axis - 1].push_back(axis);
  return groups;
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

    Value inRange = emitIndexRangeCheck(rewriter, loc, name, indices, extent,
                                        inputType.getDimSize(axis), axis);

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
    auto buildGather = [&](OpBuilder &b, Location bodyLoc) -> Value {
      // One index (0-d indices, as a scan reads its steps back): the
      // input's slice at it, a view instead of an element-by-element copy.
      // The slice keeps the axis (extent 1), which a collapse then drops:
      // a rank-reducing slice would leave unsaid which unit dimension goes.
      // (Not with an empty dimension: a slice's verifier wants its offsets
      // inside every dimension.)
      if (indexRank == 0 && !hasEmptyDimension(input.getType())) {
        Value index = wrapIndex(
            b, bodyLoc,
            tensor::ExtractOp::create(b, bodyLoc, indices, ValueRange()),
            extent);
        Value slice = extractAxisSlice(b, bodyLoc, input, axis, index);
        return tensor::CollapseShapeOp::create(b, bodyLoc, type, slice,
                                               getAxisDropGroups(rank, axis));
      }
      return createParallelGeneric(
          b, bodyLoc, type, sizes, indices, {indexMap},
          [&](OpBuilder &nb, Location nloc, ValueRange args) {
            Value clamped = wrapIndex(nb, nloc, args[0], extent);
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

/// google.scatter_add: `base` in accumulators, then either a loop nest over
/// the updates adding each into its row (ScatterLowering::Loops: linear
/// work, for the CPU), or, without loops (any target: parallel and race-free), the
/// cheaper of two forms: segments (the index positions stably sorted by
/// row, each result element summing its row's run of them) or one
/// reduction over the result (each element testing every index). All add
/// in index order.
struct ScatterAddToLinalg : public OpConversionPattern<ScatterAddOp> {
  ScatterAddToLinalg(MLIRContext *context, ScatterLowering lowering)
      : OpConversionPattern(context), lowering(lowering) {}

  LogicalResult
  matchAndRewrite(ScatterAddOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    StringRef name = op->getName().getStringRef();
    int64_t axis = op.getNormalizedAxis();
    Value base = adaptor.getBase();
    Value indices = adaptor.getIndices();
    auto baseType = cast<RankedTensorType>(base.getType());
    auto indicesType = cast<RankedTensorType>(indices.getType());
    int64_t rank = baseType.getRank(), indexRank = indicesType.getRank();
    Type elementType = baseType.getElementType();

    // The updates' extents: base's off the axis, the indices' on it.
    SmallVector<int64_t> known;
    SmallVector<OpFoldResult> expected;
    for (int64_t d = 0; d < axis; ++d) {
      known.push_back(baseType.getDimSize(d));
      expected.push_back(getDimSize(rewriter, loc, base, d));
    }
    for (int64_t d = 0; d < indexRank; ++d) {
      known.push_back(indicesType.getDimSize(d));
      expected.push_back(getDimSize(rewriter, loc, indices, d));
    }
    for (int64_t d = axis + 1; d < rank; ++d) {
      known.push_back(baseType.getDimSize(d));
      expected.push_back(getDimSize(rewriter, loc, base, d));
    }
    for (auto [d, size] : llvm::enumerate(known))
      if (ShapedType::isDynamic(size))
        emitExtentCheck(rewriter, loc,
                        getDimSize(rewriter, loc, adaptor.getUpdates(), d),
                        expected[d], extentMessage(name, "the updates", d));
    Value updates = refineShape(
        rewriter, loc, adaptor.getUpdates(), known,
        [&](int64_t d) { return extentMessage(name, "the updates", d); });

    Value extent = getValueOrCreateConstantIndexOp(
        rewriter, loc, getDimSize(rewriter, loc, base, axis));
    Value inRange = emitIndexRangeCheck(rewriter, loc, name, indices, extent,
                                        baseType.getDimSize(axis), axis);
    if (indexRank == 0 && !hasEmptyDimension(base.getType())) {
      rewriter.replaceOp(op, addAtIndex(rewriter, loc, base, indices, updates,
                                        inRange, extent, axis));
      return success();
    }

    Type accumulatorType = semantics::getAccumulatorType(elementType);
    SmallVector<OpFoldResult> baseSizes = getDimSizes(rewriter, loc, base);
    Value accumulators = base;
    if (accumulatorType != elementType)
      accumulators = createParallelGeneric(
          rewriter, loc, baseType.clone(accumulatorType), baseSizes, base,
          rewriter.getMultiDimIdentityMap(rank),
          [&](OpBuilder &b, Location l, ValueRange args) {
            return ArithAlgebra(b, l, elementType).toAccumulator(args[0]);
          });
    Value sum;
    switch (lowering) {
    case ScatterLowering::Loops:
      sum = addByLoops(rewriter, loc, accumulators, indices, updates, inRange,
                       extent, axis);
      break;
    case ScatterLowering::Reduction:
      sum = addByReduction(rewriter, loc, accumulators, indices, updates,
                           extent, axis);
      break;
    case ScatterLowering::Segments:
    case ScatterLowering::Cheapest:
      sum = addInParallel(rewriter, loc, accumulators, indices, updates, extent,
                          axis, lowering == ScatterLowering::Segments);
      break;
    }
    rewriter.replaceOp(op, roundAccumulators(rewriter, loc, sum, elementType));
    return success();
  }

private:
  static Value addUpdate(OpBuilder &b, Location loc, Type elementType,
                         Value accumulator, Value update) {
    ArithAlgebra algebra(b, loc, elementType);
    return algebra.accumulator().add(accumulator,
                                     algebra.toAccumulator(update));
  }

  /// One index (0-d indices, as a scan stacks its steps): the updates
  /// added to base's slice at it, written back in place of the slice
  /// (work: the updates' size, elementwise; one update per element, so
  /// f16 and bf16 round once as the accumulation would). Base unchanged
  /// when the index is out of range (the check reports it).
  static Value addAtIndex(OpBuilder &b, Location loc, Value base, Value indices,
                          Value updates, Value inRange, Value extent,
                          int64_t axis) {
    auto updatesType = cast<RankedTensorType>(updates.getType());
    Type elementType = updatesType.getElementType();
    int64_t rank = cast<RankedTensorType>(base.getType()).getRank();
    auto branch = scf::IfOp::create(
        b, loc, inRange,
        [&](OpBuilder &tb, Location l) {
          Value index = wrapIndex(
              tb, l, tensor::ExtractOp::create(tb, l, indices, ValueRange()),
              extent);
          tensor::ExtractSliceOp slice =
              extractAxisSlice(tb, l, base, axis, index);
          // The sum goes to the slice itself (it reads its output), so
          // that bufferization updates base in place; the updates are
          // read without the slice's axis (extent 1).
          SmallVector<AffineExpr> updateDims;
          for (int64_t d = 0; d < rank; ++d)
            if (d != axis)
              updateDims.push_back(tb.getAffineDimExpr(d));
          auto sum = linalg::GenericOp::create(
              tb, l, slice.getType(), ValueRange{updates},
              ValueRange{slice.getResult()},
              ArrayRef<AffineMap>{
                  AffineMap::get(rank, 0, updateDims, tb.getContext()),
                  tb.getMultiDimIdentityMap(rank)},
              parallelIterators(rank),
              [&](OpBuilder &nb, Location nl, ValueRange args) {
                linalg::YieldOp::create(
                    nb, nl,
                    ArithAlgebra(nb, nl, elementType).add(args[1], args[0]));
              });
          scf::YieldOp::create(
              tb, l,
              tensor::InsertSliceOp::create(
                  tb, l, sum.getResult(0), base, slice.getMixedOffsets(),
                  slice.getMixedSizes(), slice.getMixedStrides())
                  .getResult());
        },
        [&](OpBuilder &eb, Location l) { scf::YieldOp::create(eb, l, base); });
    return branch.getResult(0);
  }

  /// A loop nest over the updates in row-major order, each added into
  /// its element of the accumulators; skipped when an index is out of
  /// range (the check reports it).
  static Value addByLoops(OpBuilder &b, Location loc, Value accumulators,
                          Value indices, Value updates, Value inRange,
                          Value extent, int64_t axis) {
    auto updatesType = cast<RankedTensorType>(updates.getType());
    int64_t indexRank = cast<RankedTensorType>(indices.getType()).getRank();
    Type elementType = updatesType.getElementType();
    auto branch = scf::IfOp::create(
        b, loc, inRange,
        [&](OpBuilder &tb, Location l) {
          Value zero = arith::ConstantIndexOp::create(tb, l, 0);
          Value one = arith::ConstantIndexOp::create(tb, l, 1);
          SmallVector<Value> lbs(updatesType.getRank(), zero);
          SmallVector<Value> steps(updatesType.getRank(), one);
          SmallVector<Value> ubs;
          for (OpFoldResult size : getDimSizes(tb, l, updates))
            ubs.push_back(getValueOrCreateConstantIndexOp(tb, l, size));
          scf::LoopNest nest = scf::buildLoopNest(
              tb, l, lbs, ubs, steps, accumulators,
              [&](OpBuilder &nb, Location nl, ValueRange ivs,
                  ValueRange iterArgs) -> scf::ValueVector {
                Value index = tensor::ExtractOp::create(
                    nb, nl, indices, ivs.slice(axis, indexRank));
                SmallVector<Value> position(ivs.take_front(axis));
                position.push_back(wrapIndex(nb, nl, index, extent));
                llvm::append_range(position, ivs.drop_front(axis + indexRank));
                Value current =
                    tensor::ExtractOp::create(nb, nl, iterArgs[0], position);
                Value update = tensor::ExtractOp::create(nb, nl, updates, ivs);
                Value sum = addUpdate(nb, nl, elementType, current, update);
                return {tensor::InsertOp::create(nb, nl, sum, iterArgs[0],
                                                 position)
                            .getResult()};
              });
          scf::YieldOp::create(tb, l, nest.results);
        },
        [&](OpBuilder &eb, Location l) {
          scf::YieldOp::create(eb, l, accumulators);
        });
    return branch.getResult(0);
  }

  /// Segments where they take fewer steps than the reduction: for N
  /// indices, R rows, S result elements and U updates, 2 N^2 + 2 (R + 1)
  /// bits(N) + S + U + kSegmentLaunchSteps against S N (bits(N): a binary
  /// search's steps). Chosen here when every extent is static (the
  /// comparison folds), else at run time.
  static Value addInParallel(OpBuilder &b, Location loc, Value accumulators,
                             Value indices, Value updates, Value extent,
                             int64_t axis, bool segments) {
    // No updates: base itself (a collapse of a static 0 beside a dynamic
    // extent folds to a static 0, which its memref form rejects).
    if (hasEmptyDimension(indices.getType()) ||
        hasEmptyDimension(updates.getType()))
      return accumulators;
    // 0-d indices here: an empty base (nothing to sort).
    if (cast<RankedTensorType>(indices.getType()).getRank() == 0)
      return addByReduction(b, loc, accumulators, indices, updates, extent,
                            axis);
    if (segments)
      return addBySegments(b, loc, accumulators, indices, updates, extent,
                           axis);
    // In f64 (no overflow); folded to a constant where the extents are.
    Type i64 = b.getI64Type(), f64 = b.getF64Type();
    SmallVector<Value> counts = llvm::map_to_vector(
        ArrayRef<OpFoldResult>{getElementCount(b, loc, indices),
                               getDimSize(b, loc, accumulators, axis),
                               getElementCount(b, loc, accumulators),
                               getElementCount(b, loc, updates)},
        [&](OpFoldResult e) {
          return b.createOrFold<arith::IndexCastUIOp>(
              loc, i64, getValueOrCreateConstantIndexOp(b, loc, e));
        });
    auto toF64 = [&](Value count) {
      return b.createOrFold<arith::UIToFPOp>(loc, f64, count);
    };
    auto constant = [&](double value) {
      return arith::ConstantFloatOp::create(b, loc, cast<FloatType>(f64),
                                            APFloat(value))
          .getResult();
    };
    auto mul = [&](Value x, Value y) {
      return b.createOrFold<arith::MulFOp>(loc, x, y);
    };
    auto add = [&](Value x, Value y) {
      return b.createOrFold<arith::AddFOp>(loc, x, y);
    };
    Value n = toF64(counts[0]), rows = toF64(counts[1]),
          size = toF64(counts[2]), updateSize = toF64(counts[3]);
    Value bits = toF64(b.createOrFold<arith::SubIOp>(
        loc, arith::ConstantIntOp::create(b, loc, i64, 64),
        b.createOrFold<math::CountLeadingZerosOp>(loc, counts[0])));
    Value segmentSteps =
        add(add(add(mul(constant(2),
                        add(mul(n, n), mul(add(rows, constant(1)), bits))),
                    size),
                updateSize),
            constant(kSegmentLaunchSteps));
    Value cheaper = b.createOrFold<arith::CmpFOp>(
        loc, arith::CmpFPredicate::OLT, segmentSteps, mul(size, n));
    if (matchPattern(cheaper, m_One()))
      return addBySegments(b, loc, accumulators, indices, updates, extent,
                           axis);
    if (matchPattern(cheaper, m_Zero()))
      return addByReduction(b, loc, accumulators, indices, updates, extent,
                            axis);
    auto branch = scf::IfOp::create(
        b, loc, cheaper,
        [&](OpBuilder &tb, Location l) {
          scf::YieldOp::create(tb, l,
                               addBySegments(tb, l, accumulators, indices,
                                             updates, extent, axis));
        },
        [&](OpBuilder &eb, Location l) {
          scf::YieldOp::create(eb, l,
                               addByReduction(eb, l, accumulators, indices,
                                              updates, extent, axis));
        });
    return branch.getResult(0);
  }

  /// A vector of `count` i64 (a linalg.generic over i < count, each
  /// element computed by `body(i)`).
  static Value
  createIndexVector(OpBuilder &b, Location loc, OpFoldResult count,
                    function_ref<Value(OpBuilder &, Location, Value)> body) {
    std::optional<int64_t> staticCount = getConstantIntValue(count);
    auto type = RankedTensorType::get(
        {staticCount ? *staticCount : ShapedType::kDynamic}, b.getI64Type());
    return createParallelGeneric(
        b, loc, type, {count}, ValueRange(), {},
        [&](OpBuilder &nb, Location nl, ValueRange) {
          return body(nb, nl, linalg::IndexOp::create(nb, nl, 0));
        });
  }

  /// `fold(j, value)` over j < `count`, from `init`.
  static Value
  foldRange(OpBuilder &b, Location loc, Value count, Value init,
            function_ref<Value(OpBuilder &, Location, Value, Value)> fold) {
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    Value one = arith::ConstantIndexOp::create(b, loc, 1);
    return scf::ForOp::create(
               b, loc, zero, count, one, init,
               [&](OpBuilder &lb, Location ll, Value j, ValueRange value) {
                 scf::YieldOp::create(lb, ll, fold(lb, ll, j, value[0]));
               })
        .getResult(0);
  }

  /// The index positions stably sorted by their (wrapped) row, as a
  /// permutation: each position's rank counts those before it (a smaller
  /// row, or the same row earlier), and the order inverts the ranks (both
  /// N^2 steps over the indices only). Row r's run of the order starts at
  /// the first position whose row is not below r (a binary search, for
  /// r <= R). Each result element then adds its row's run, in order.
  static Value addBySegments(OpBuilder &b, Location loc, Value accumulators,
                             Value indices, Value updates, Value extent,
                             int64_t axis) {
    auto accType = cast<RankedTensorType>(accumulators.getType());
    int64_t rank = accType.getRank();
    int64_t indexRank = cast<RankedTensorType>(indices.getType()).getRank();
    Type elementType =
        cast<RankedTensorType>(updates.getType()).getElementType();
    Type i64 = b.getI64Type();
    if (indexRank != 1) {
      // The index positions in one dimension, row-major.
      SmallVector<ReassociationIndices> all = {
          llvm::to_vector(llvm::seq<int64_t>(0, indexRank))};
      indices = collapseGroups(b, loc, indices, all);
      SmallVector<ReassociationIndices> groups;
      for (int64_t d = 0; d < axis; ++d)
        groups.push_back({d});
      groups.push_back(
          llvm::to_vector(llvm::seq<int64_t>(axis, axis + indexRank)));
      for (int64_t d = axis + indexRank,
                   e = cast<RankedTensorType>(updates.getType()).getRank();
           d < e; ++d)
        groups.push_back({d});
      updates = collapseGroups(b, loc, updates, groups);
    }
    OpFoldResult count = getDimSize(b, loc, indices, 0);
    Value countValue = getValueOrCreateConstantIndexOp(b, loc, count);
    auto toI64 = [&](OpBuilder &nb, Location nl, Value index) {
      return arith::IndexCastOp::create(nb, nl, i64, index).getResult();
    };
    auto toIndex = [&](OpBuilder &nb, Location nl, Value value) {
      return arith::IndexCastOp::create(nb, nl, nb.getIndexType(), value)
          .getResult();
    };
    auto at = [&](OpBuilder &nb, Location nl, Value vector, Value i) {
      return tensor::ExtractOp::create(nb, nl, vector, i).getResult();
    };
    // A position's row, recomputed where it is read (a vector of them
    // would take a kernel of its own on GPUs).
    auto key = [&](OpBuilder &nb, Location nl, Value i) {
      return toI64(nb, nl, wrapIndex(nb, nl, at(nb, nl, indices, i), extent));
    };
    Value zero = arith::ConstantIntOp::create(b, loc, i64, 0);
    Value ranks = createIndexVector(
        b, loc, count, [&](OpBuilder &nb, Location nl, Value i) {
          Value own = key(nb, nl, i);
          return foldRange(
              nb, nl, countValue, zero,
              [&](OpBuilder &lb, Location ll, Value j, Value before) {
                Value other = key(lb, ll, j);
                Value smaller = arith::CmpIOp::create(
                    lb, ll, arith::CmpIPredicate::slt, other, own);
                Value same = arith::CmpIOp::create(
                    lb, ll, arith::CmpIPredicate::eq, other, own);
                Value earlier = arith::CmpIOp::create(
                    lb, ll, arith::CmpIPredicate::ult, j, i);
                Value isBefore = arith::OrIOp::create(
                    lb, ll, smaller,
                    arith::AndIOp::create(lb, ll, same, earlier));
                return arith::AddIOp::create(
                           lb, ll, before,
                           arith::ExtUIOp::create(lb, ll, i64, isBefore))
                    .getResult();
              });
        });
    Value order = createIndexVector(
        b, loc, count, [&](OpBuilder &nb, Location nl, Value p) {
          Value position = toI64(nb, nl, p);
          return foldRange(
              nb, nl, countValue, zero,
              [&](OpBuilder &lb, Location ll, Value k, Value found) {
                Value hit =
                    arith::CmpIOp::create(lb, ll, arith::CmpIPredicate::eq,
                                          at(lb, ll, ranks, k), position);
                return arith::SelectOp::create(lb, ll, hit, toI64(lb, ll, k),
                                               found)
                    .getResult();
              });
        });
    OpFoldResult rows = getDimSize(b, loc, accumulators, axis);
    std::optional<int64_t> staticRows = getConstantIntValue(rows);
    OpFoldResult bounds =
        staticRows ? OpFoldResult(b.getIndexAttr(*staticRows + 1))
                   : OpFoldResult(arith::AddIOp::create(
                         b, loc, getValueOrCreateConstantIndexOp(b, loc, rows),
                         arith::ConstantIndexOp::create(b, loc, 1)));
    Value starts = createIndexVector(
        b, loc, bounds, [&](OpBuilder &nb, Location nl, Value r) {
          Value row = toI64(nb, nl, r);
          Value low = arith::ConstantIndexOp::create(nb, nl, 0);
          auto search = scf::WhileOp::create(
              nb, nl, TypeRange{nb.getIndexType(), nb.getIndexType()},
              ValueRange{low, countValue},
              [&](OpBuilder &cb, Location cl, ValueRange range) {
                Value open = arith::CmpIOp::create(
                    cb, cl, arith::CmpIPredicate::ult, range[0], range[1]);
                scf::ConditionOp::create(cb, cl, open, range);
              },
              [&](OpBuilder &wb, Location wl, ValueRange range) {
                Value one = arith::ConstantIndexOp::create(wb, wl, 1);
                Value middle = arith::ShRUIOp::create(
                    wb, wl, arith::AddIOp::create(wb, wl, range[0], range[1]),
                    one);
                Value middleKey =
                    key(wb, wl, toIndex(wb, wl, at(wb, wl, order, middle)));
                Value below = arith::CmpIOp::create(
                    wb, wl, arith::CmpIPredicate::slt, middleKey, row);
                Value next = arith::AddIOp::create(wb, wl, middle, one);
                scf::YieldOp::create(
                    wb, wl,
                    ValueRange{
                        arith::SelectOp::create(wb, wl, below, next, range[0]),
                        arith::SelectOp::create(wb, wl, below, range[1],
                                                middle)});
              });
          return toI64(nb, nl, search.getResult(0));
        });
    return createParallelGeneric(
        b, loc, accType, getDimSizes(b, loc, accumulators), accumulators,
        {b.getMultiDimIdentityMap(rank)},
        [&](OpBuilder &nb, Location nl, ValueRange args) {
          SmallVector<Value> position;
          for (int64_t d = 0; d < rank; ++d)
            position.push_back(linalg::IndexOp::create(nb, nl, d));
          Value row = position[axis];
          Value one = arith::ConstantIndexOp::create(nb, nl, 1);
          Value first = toIndex(nb, nl, at(nb, nl, starts, row));
          Value end = toIndex(
              nb, nl,
              at(nb, nl, starts, arith::AddIOp::create(nb, nl, row, one)));
          auto loop = scf::ForOp::create(
              nb, nl, first, end, one, args[0],
              [&](OpBuilder &lb, Location ll, Value p, ValueRange sum) {
                position[axis] = toIndex(lb, ll, at(lb, ll, order, p));
                Value update =
                    tensor::ExtractOp::create(lb, ll, updates, position);
                scf::YieldOp::create(
                    lb, ll, addUpdate(lb, ll, elementType, sum[0], update));
              });
          return loop.getResult(0);
        });
  }

  /// result[..., j, ...] = acc[..., j, ...] + the sum, over index
  /// positions k in order, of updates[..., k, ...] where indices[k] is j.
  static Value addByReduction(OpBuilder &b, Location loc, Value accumulators,
                              Value indices, Value updates, Value extent,
                              int64_t axis) {
    auto accType = cast<RankedTensorType>(accumulators.getType());
    int64_t rank = accType.getRank();
    int64_t indexRank = cast<RankedTensorType>(indices.getType()).getRank();
    Type elementType =
        cast<RankedTensorType>(updates.getType()).getElementType();
    int64_t loops = rank + indexRank;
    MLIRContext *context = b.getContext();
    SmallVector<AffineExpr> indexDims, updateDims, resultDims;
    for (int64_t d = 0; d < indexRank; ++d)
      indexDims.push_back(b.getAffineDimExpr(rank + d));
    for (int64_t d = 0; d < rank; ++d) {
      resultDims.push_back(b.getAffineDimExpr(d));
      if (d == axis)
        llvm::append_range(updateDims, indexDims);
      else
        updateDims.push_back(b.getAffineDimExpr(d));
    }
    SmallVector<AffineMap> maps = {
        AffineMap::get(loops, 0, indexDims, context),
        AffineMap::get(loops, 0, updateDims, context),
        AffineMap::get(loops, 0, resultDims, context)};
    SmallVector<utils::IteratorType> iterators = parallelIterators(rank);
    iterators.append(indexRank, utils::IteratorType::reduction);
    auto generic = linalg::GenericOp::create(
        b, loc, accType, ValueRange{indices, updates}, accumulators, maps,
        iterators, [&](OpBuilder &nb, Location nl, ValueRange args) {
          Value row = linalg::IndexOp::create(nb, nl, axis);
          Value target = wrapIndex(nb, nl, args[0], extent);
          Value hit = arith::CmpIOp::create(nb, nl, arith::CmpIPredicate::eq,
                                            target, row);
          Value sum = addUpdate(nb, nl, elementType, args[2], args[1]);
          linalg::YieldOp::create(
              nb, nl,
              arith::SelectOp::create(nb, nl, hit, sum, args[2]).getResult());
        });
    return generic.getResult(0);
  }

  /// The segments' three more kernels, in steps: a GPU launch (a few
  /// microseconds) is worth about a million steps of one parallel kernel.
  static constexpr double kSegmentLaunchSteps = 1 << 20;

  ScatterLowering lowering;
};
} // namespace

void google::populateIndexingToLinalgPatterns(RewritePatternSet &patterns,
                                              ScatterLowering scatter) {
  patterns.add<ConcatToTensor, PadToTensor, IotaToLinalg, GatherToLinalg>(
      patterns.getContext());
  patterns.add<ScatterAddToLinalg>(patterns.getContext(), scatter);
}
