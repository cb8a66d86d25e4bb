//===- Layout.cpp - transpose and reshape to linalg/tensor ----------------===//

#include "Utils.h"

#include "Dialect/Google/IR/GoogleOps.h"
#include "Dialect/Google/IR/ShapeRules.h"

#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/ReshapeOpsUtils.h"

using namespace mlir;
using namespace mlir::google;

namespace {

struct TransposeToLinalg : public OpConversionPattern<TransposeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(TransposeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType resultType = op.getResult().getType();
    ArrayRef<int64_t> perm = op.getPerm();
    SmallVector<int64_t> known = knownTransposeInput(
        op.getInput().getType().getShape(), resultType.getShape(), perm);
    Value input = refineShape(rewriter, loc, adaptor.getInput(), known,
                              [&](int64_t d) {
                                return extentMessage(
                                    op->getName().getStringRef(), "the input",
                                    d);
                              });
    auto inputType = cast<RankedTensorType>(input.getType());
    SmallVector<OpFoldResult> sizes;
    for (int64_t p : perm)
      sizes.push_back(getDimSize(rewriter, loc, input, p));
    Value init = createEmptyTensor(
        rewriter, loc,
        resultType.clone(applyPermutation(inputType.getShape(), perm)), sizes);
    Value result =
        linalg::TransposeOp::create(rewriter, loc, input, init, perm)
            .getResult()
            .front();
    rewriter.replaceOp(op, relaxToType(rewriter, loc, result, resultType));
    return success();
  }
};

/// The elements of `value` as a 1-D tensor, row-major.
Value flatten(OpBuilder &b, Location loc, Value value) {
  auto type = cast<RankedTensorType>(value.getType());
  if (type.getRank() == 1)
    return value;
  if (type.getRank() == 0)
    return tensor::ExpandShapeOp::create(
        b, loc, RankedTensorType::get({1}, type.getElementType()), value,
        ArrayRef<ReassociationIndices>{}, ArrayRef<OpFoldResult>{b.getIndexAttr(1)});
  ReassociationIndices all =
      llvm::to_vector(llvm::seq<int64_t>(0, type.getRank()));
  return tensor::CollapseShapeOp::create(b, loc, value,
                                         ArrayRef<ReassociationIndices>{all});
}

/// The product of `shape`'s static extents.
int64_t getStaticElementCount(ArrayRef<int64_t> shape) {
  int64_t count = 1;
  for (int64_t dim : shape)
    if (!ShapedType::isDynamic(dim))
      count *= dim;
  return count;
}

/// Checks at run time that `count` elements fill the result's static
/// extents (`known` elements, `knownValue` as an index) a whole number of
/// times.
void emitElementCountCheck(OpBuilder &b, Location loc, StringRef opName,
                           Value count, Value knownValue, int64_t known) {
  Value remainder = arith::RemUIOp::create(b, loc, count, knownValue);
  emitExtentCheck(
      b, loc, remainder, b.getIndexAttr(0),
      opName + ": the element count is not a multiple of " + Twine(known) +
          " (the result's static extents): " + "the remainder is {0}");
}

/// Reshapes the 1-D `flat` to `resultType` (at most one dynamic dim),
/// checking the element count at run time where it is not static.
Value unflatten(OpBuilder &b, Location loc, StringRef opName, Value flat,
                RankedTensorType resultType) {
  Type elementType = resultType.getElementType();
  int64_t rank = resultType.getRank();
  int64_t known = getStaticElementCount(resultType.getShape());
  auto flatType = cast<RankedTensorType>(flat.getType());
  std::string countMessage =
      (opName + ": the input has {0} elements, expected {1}").str();
  if (resultType.hasStaticShape() || flatType.hasStaticShape()) {
    // Every extent is known statically: refine, expand, then relax.
    int64_t count = flatType.hasStaticShape() ? flatType.getDimSize(0) : known;
    SmallVector<int64_t> shape(resultType.getShape());
    for (int64_t &dim : shape)
      if (ShapedType::isDynamic(dim))
        dim = count / known;
    flat = refineShape(b, loc, flat, {count},
                       [&](int64_t) { return countMessage; });
    auto staticType = RankedTensorType::get(shape, elementType);
    Value reshaped;
    if (rank == 0)
      reshaped = tensor::CollapseShapeOp::create(
          b, loc, staticType, flat, ArrayRef<ReassociationIndices>{});
    else if (rank == 1)
      reshaped = flat;
    else
      reshaped = tensor::ExpandShapeOp::create(
          b, loc, staticType, flat,
          ArrayRef<ReassociationIndices>{
              llvm::to_vector(llvm::seq<int64_t>(0, rank))});
    return relaxToType(b, loc, reshaped, resultType);
  }
  if (rank == 1)
    return flat;
  // The dynamic result extent is the element count over the static ones.
  Value total = tensor::DimOp::create(b, loc, flat, 0);
  Value knownValue = arith::ConstantIndexOp::create(b, loc, known);
  Value inferred = arith::DivUIOp::create(b, loc, total, knownValue);
  emitElementCountCheck(b, loc, opName, total, knownValue, known);
  SmallVector<OpFoldResult> sizes;
  for (int64_t dim : resultType.getShape())
    sizes.push_back(ShapedType::isDynamic(dim) ? OpFoldResult(inferred)
                                               : b.getIndexAttr(dim));
  return tensor::ExpandShapeOp::create(
      b, loc, resultType, flat,
      ArrayRef<ReassociationIndices>{
          llvm::to_vector(llvm::seq<int64_t>(0, rank))},
      sizes);
}

struct ReshapeToTensor : public OpConversionPattern<ReshapeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ReshapeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    RankedTensorType sourceType = op.getInput().getType();
    RankedTensorType resultType = op.getResult().getType();
    if (sourceType == resultType) {
      rewriter.replaceOp(op, input);
      return success();
    }
    // An empty input (a static extent of 0) has no elements to move, and
    // flattening it would collapse a dynamic extent into a static 0, which
    // memref.collapse_shape rejects once bufferized. The verifier leaves
    // no dynamic result extent next to a 0, so a dynamic one is 0 here.
    if (llvm::is_contained(sourceType.getShape(), 0)) {
      SmallVector<int64_t> shape(resultType.getShape());
      for (int64_t &dim : shape)
        if (ShapedType::isDynamic(dim))
          dim = 0;
      Value empty = tensor::EmptyOp::create(rewriter, loc, shape,
                                            resultType.getElementType());
      rewriter.replaceOp(op, relaxToType(rewriter, loc, empty, resultType));
      return success();
    }
    // A plain collapse or expansion of static shapes needs one op.
    if (sourceType.hasStaticShape() && resultType.hasStaticShape() &&
        sourceType.getRank() != resultType.getRank()) {
      if (std::optional<SmallVector<ReassociationIndices>> reassociation =
              getReassociationIndicesForReshape(sourceType, resultType)) {
        if (sourceType.getRank() > resultType.getRank())
          rewriter.replaceOpWithNewOp<tensor::CollapseShapeOp>(
              op, resultType, input, *reassociation);
        else
          rewriter.replaceOpWithNewOp<tensor::ExpandShapeOp>(
              op, resultType, input, *reassociation);
        return success();
      }
    }
    if (Value reshaped = reshapeDynamicGroup(rewriter, loc, op, input)) {
      rewriter.replaceOp(op, reshaped);
      return success();
    }
    rewriter.replaceOp(
        op, unflatten(rewriter, loc, op->getName().getStringRef(),
                      flatten(rewriter, loc, input), resultType));
    return success();
  }

  /// One collapse or expansion when each side has one dynamic extent and
  /// the reshape keeps it in one group (a batch around a matmul: ?x8x32
  /// -> ?x32, ?x64 -> ?x8x64), so that the ops after a matmul see its
  /// result; null otherwise. An expansion that splits the dynamic extent
  /// checks, as the flat form does, that the element count is a multiple
  /// of the result's static extents.
  static Value reshapeDynamicGroup(OpBuilder &b, Location loc, ReshapeOp op,
                                   Value input) {
    RankedTensorType sourceType = op.getInput().getType();
    RankedTensorType resultType = op.getResult().getType();
    if (sourceType.getNumDynamicDims() != 1 ||
        resultType.getNumDynamicDims() != 1 ||
        sourceType.getRank() == resultType.getRank())
      return nullptr;
    std::optional<SmallVector<ReassociationIndices>> reassociation =
        getReassociationIndicesForReshape(sourceType, resultType);
    if (!reassociation)
      return nullptr;
    if (sourceType.getRank() > resultType.getRank()) {
      if (tensor::CollapseShapeOp::inferCollapsedType(
              sourceType, *reassociation) != resultType)
        return nullptr;
      return tensor::CollapseShapeOp::create(b, loc, resultType, input,
                                             *reassociation);
    }
    if (tensor::CollapseShapeOp::inferCollapsedType(
            resultType, *reassociation) != sourceType)
      return nullptr;
    int64_t sourceDim = 0;
    while (!sourceType.isDynamicDim(sourceDim))
      ++sourceDim;
    int64_t resultKnown = getStaticElementCount(resultType.getShape());
    int64_t sourceKnown = getStaticElementCount(sourceType.getShape());
    // The dynamic result extent: the dynamic source extent over the static
    // extents of its group (the other groups' products are equal).
    Value extent = tensor::DimOp::create(b, loc, input, sourceDim);
    Value split;
    if (resultKnown != sourceKnown) {
      split = arith::ConstantIndexOp::create(b, loc, resultKnown / sourceKnown);
      Value count = arith::MulIOp::create(
          b, loc, extent, arith::ConstantIndexOp::create(b, loc, sourceKnown));
      emitElementCountCheck(b, loc, op->getName().getStringRef(), count,
                            arith::ConstantIndexOp::create(b, loc, resultKnown),
                            resultKnown);
    }
    Value inferred =
        resultKnown == sourceKnown
            ? extent
            : arith::DivUIOp::create(b, loc, extent, split).getResult();
    SmallVector<OpFoldResult> sizes;
    for (int64_t dim : resultType.getShape())
      sizes.push_back(ShapedType::isDynamic(dim) ? OpFoldResult(inferred)
                                                 : b.getIndexAttr(dim));
    return tensor::ExpandShapeOp::create(b, loc, resultType, input,
                                         *reassociation, sizes);
  }
};

/// A tensor.extract_slice of the window (a view once bufferized); where a
/// stride is negative, the window is taken forward and a linalg.generic
/// reverses those dimensions.
struct SliceToTensor : public OpConversionPattern<SliceOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(SliceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    // The window's static type; the declared one may relax it.
    RankedTensorType resultType =
        op.getResult().getType().clone(op.getWindowShape());
    ArrayRef<int64_t> starts = op.getStarts(), strides = op.getStrides();
    int64_t rank = resultType.getRank();
    if (resultType.getNumElements() == 0) {
      // Nothing to read (an empty dimension has no valid offset).
      Value empty = tensor::EmptyOp::create(rewriter, loc,
                                            resultType.getShape(),
                                            resultType.getElementType());
      rewriter.replaceOp(op, relaxToType(rewriter, loc, empty,
                                         op.getResult().getType()));
      return success();
    }
    SmallVector<OpFoldResult> offsets, sizes, steps;
    SmallVector<AffineExpr> reads;
    bool reverses = false;
    for (int64_t d = 0; d < rank; ++d) {
      int64_t extent = resultType.getDimSize(d);
      int64_t first = starts[d], step = strides[d];
      AffineExpr dim = rewriter.getAffineDimExpr(d);
      if (step < 0) {
        // The same elements, last one first.
        first = starts[d] + (extent - 1) * step;
        step = -step;
        reads.push_back(rewriter.getAffineConstantExpr(extent - 1) - dim);
        reverses |= extent > 1;
      } else {
        reads.push_back(dim);
      }
      // An empty window may start at the end of its dimension.
      offsets.push_back(rewriter.getIndexAttr(extent ? first : 0));
      sizes.push_back(rewriter.getIndexAttr(extent));
      steps.push_back(rewriter.getIndexAttr(step));
    }
    Value window = tensor::ExtractSliceOp::create(
        rewriter, loc, resultType, adaptor.getInput(), offsets, sizes, steps);
    if (!reverses) {
      rewriter.replaceOp(
          op, relaxToType(rewriter, loc, window, op.getResult().getType()));
      return success();
    }
    AffineMap read = AffineMap::get(rank, 0, reads, rewriter.getContext());
    Value init = tensor::EmptyOp::create(rewriter, loc, resultType.getShape(),
                                         resultType.getElementType());
    SmallVector<utils::IteratorType> iterators(rank,
                                               utils::IteratorType::parallel);
    auto generic = linalg::GenericOp::create(
        rewriter, loc, resultType, window, init,
        ArrayRef<AffineMap>{read, rewriter.getMultiDimIdentityMap(rank)},
        iterators, [](OpBuilder &b, Location nestedLoc, ValueRange args) {
          linalg::YieldOp::create(b, nestedLoc, args[0]);
        });
    rewriter.replaceOp(op, relaxToType(rewriter, loc, generic.getResult(0),
                                       op.getResult().getType()));
    return success();
  }
};

} // namespace

void google::populateLayoutToLinalgPatterns(RewritePatternSet &patterns) {
  patterns.add<TransposeToLinalg, ReshapeToTensor, SliceToTensor>(
      patterns.getContext());
}
