//===- Layout.cpp - transpose and reshape to linalg/tensor ----------------===//

#include "Utils.h"

#include "Dialect/Google/IR/GoogleOps.h"

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
    SmallVector<OpFoldResult> sizes;
    for (int64_t p : op.getPerm())
      sizes.push_back(getDimSize(rewriter, loc, adaptor.getInput(), p));
    Value init =
        createEmptyTensor(rewriter, loc, op.getResult().getType(), sizes);
    rewriter.replaceOp(op, linalg::TransposeOp::create(rewriter, loc,
                                                       adaptor.getInput(),
                                                       init, op.getPerm())
                               .getResult());
    return success();
  }
};

Value castIfNeeded(OpBuilder &b, Location loc, Value value, Type type) {
  if (value.getType() == type)
    return value;
  return tensor::CastOp::create(b, loc, type, value);
}

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

/// Reshapes the 1-D `flat` to `resultType` (at most one dynamic dim).
Value unflatten(OpBuilder &b, Location loc, Value flat,
                RankedTensorType resultType) {
  Type elementType = resultType.getElementType();
  int64_t rank = resultType.getRank();
  if (rank == 0) {
    flat = castIfNeeded(b, loc, flat, RankedTensorType::get({1}, elementType));
    return tensor::CollapseShapeOp::create(b, loc, resultType, flat,
                                           ArrayRef<ReassociationIndices>{});
  }
  if (rank == 1)
    return castIfNeeded(b, loc, flat, resultType);
  int64_t known = 1;
  for (int64_t dim : resultType.getShape())
    if (!ShapedType::isDynamic(dim))
      known *= dim;
  auto flatType = cast<RankedTensorType>(flat.getType());
  ReassociationIndices all = llvm::to_vector(llvm::seq<int64_t>(0, rank));
  SmallVector<int64_t> shape(resultType.getShape());
  if (flatType.hasStaticShape() || resultType.hasStaticShape()) {
    // Every extent is known statically: expand to it, then relax.
    int64_t count = flatType.hasStaticShape() ? flatType.getDimSize(0) : known;
    for (int64_t &dim : shape)
      if (ShapedType::isDynamic(dim))
        dim = count / known;
    auto staticType = RankedTensorType::get(shape, elementType);
    assertEqualExtents(b, loc, getDimSize(b, loc, flat, 0),
                       b.getIndexAttr(count),
                       "google.reshape: element count differs from the result's");
    flat = castIfNeeded(b, loc, flat, RankedTensorType::get({count}, elementType));
    Value expanded = tensor::ExpandShapeOp::create(
        b, loc, staticType, flat, ArrayRef<ReassociationIndices>{all});
    return castIfNeeded(b, loc, expanded, resultType);
  }
  Value total = tensor::DimOp::create(b, loc, flat, 0);
  Value knownValue = arith::ConstantIndexOp::create(b, loc, known);
  Value inferred = arith::DivUIOp::create(b, loc, total, knownValue);
  Value remainder = arith::RemUIOp::create(b, loc, total, knownValue);
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  cf::AssertOp::create(
      b, loc,
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, remainder, zero),
      "google.reshape: element count is not a multiple of the static result "
      "dimensions");
  SmallVector<OpFoldResult> sizes;
  for (int64_t dim : shape)
    sizes.push_back(ShapedType::isDynamic(dim) ? OpFoldResult(inferred)
                                               : b.getIndexAttr(dim));
  return tensor::ExpandShapeOp::create(b, loc, resultType, flat,
                                       ArrayRef<ReassociationIndices>{all},
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
    rewriter.replaceOp(
        op, unflatten(rewriter, loc, flatten(rewriter, loc, input), resultType));
    return success();
  }
};

} // namespace

void google::populateLayoutToLinalgPatterns(RewritePatternSet &patterns) {
  patterns.add<TransposeToLinalg, ReshapeToTensor>(patterns.getContext());
}
