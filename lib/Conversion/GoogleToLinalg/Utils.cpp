//===- Utils.cpp - helpers shared by the google-to-linalg patterns --------===//

#include "Utils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::google;

Value google::createEmptyTensor(OpBuilder &b, Location loc,
                                RankedTensorType type,
                                ArrayRef<OpFoldResult> sizes) {
  SmallVector<Value> dynamicSizes;
  for (auto [i, dim] : llvm::enumerate(type.getShape()))
    if (ShapedType::isDynamic(dim))
      dynamicSizes.push_back(getValueOrCreateConstantIndexOp(b, loc, sizes[i]));
  return tensor::EmptyOp::create(b, loc, type, dynamicSizes);
}

Value google::createFilledTensor(OpBuilder &b, Location loc,
                                 RankedTensorType type,
                                 ArrayRef<OpFoldResult> sizes, Value value) {
  Value empty = createEmptyTensor(b, loc, type, sizes);
  return linalg::FillOp::create(b, loc, value, empty).getResult(0);
}

Value google::createScalarConstant(OpBuilder &b, Location loc, Type type,
                                   double value) {
  if (auto floatType = dyn_cast<FloatType>(type))
    return arith::ConstantOp::create(b, loc, b.getFloatAttr(floatType, value));
  return arith::ConstantOp::create(
      b, loc, b.getIntegerAttr(type, static_cast<int64_t>(value)));
}

Value google::computeInF32IfNarrow(
    OpBuilder &b, Location loc, Value x,
    function_ref<Value(OpBuilder &, Location, Value)> fn) {
  Type type = x.getType();
  if (!type.isF16() && !type.isBF16())
    return fn(b, loc, x);
  Value wide = arith::ExtFOp::create(b, loc, b.getF32Type(), x);
  return arith::TruncFOp::create(b, loc, type, fn(b, loc, wide));
}

OpFoldResult google::getDimSize(OpBuilder &b, Location loc, Value value,
                                int64_t dim) {
  auto type = cast<RankedTensorType>(value.getType());
  if (!type.isDynamicDim(dim))
    return b.getIndexAttr(type.getDimSize(dim));
  return tensor::DimOp::create(b, loc, value, dim).getResult();
}

SmallVector<utils::IteratorType> google::parallelIterators(int64_t rank) {
  return SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel);
}

void google::assertEqualExtents(OpBuilder &b, Location loc, OpFoldResult lhs,
                                OpFoldResult rhs, const Twine &message) {
  if (isa<Attribute>(lhs) && isa<Attribute>(rhs))
    return;
  if (lhs == rhs)
    return;
  Value equal = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::eq,
      getValueOrCreateConstantIndexOp(b, loc, lhs),
      getValueOrCreateConstantIndexOp(b, loc, rhs));
  cf::AssertOp::create(b, loc, equal, message.str());
}

Value google::createBroadcastingGeneric(OpBuilder &b, Location loc,
                                        StringRef opName,
                                        RankedTensorType resultType,
                                        ValueRange inputs, ScalarBuilder body) {
  int64_t rank = resultType.getRank();
  MLIRContext *context = b.getContext();
  SmallVector<AffineMap> maps;
  // A dynamic result extent comes from the first operand that does not
  // stretch along that dimension; it is 1 when all of them stretch.
  SmallVector<OpFoldResult> sizes(rank);
  for (int64_t d = 0; d < rank; ++d)
    sizes[d] = b.getIndexAttr(
        resultType.isDynamicDim(d) ? 1 : resultType.getDimSize(d));
  // Which input provides each dynamic result extent.
  SmallVector<int64_t> source(rank, -1);
  for (auto [index, input] : llvm::enumerate(inputs)) {
    auto type = cast<RankedTensorType>(input.getType());
    int64_t offset = rank - type.getRank();
    SmallVector<AffineExpr> exprs;
    for (int64_t i = 0; i < type.getRank(); ++i) {
      int64_t d = offset + i;
      bool stretches = type.getDimSize(i) == 1 && resultType.getDimSize(d) != 1;
      exprs.push_back(stretches ? getAffineConstantExpr(0, context)
                                : getAffineDimExpr(d, context));
      if (!stretches && resultType.isDynamicDim(d) && source[d] < 0) {
        sizes[d] = getDimSize(b, loc, input, i);
        source[d] = index;
      }
    }
    maps.push_back(AffineMap::get(rank, 0, exprs, context));
  }
  maps.push_back(b.getMultiDimIdentityMap(rank));
  // A dynamic dimension is not stretched: it must match the result extent.
  for (auto [index, input] : llvm::enumerate(inputs)) {
    auto type = cast<RankedTensorType>(input.getType());
    int64_t offset = rank - type.getRank();
    for (int64_t i = 0; i < type.getRank(); ++i) {
      int64_t d = offset + i;
      if (maps[index].getResult(i).getKind() == AffineExprKind::Constant ||
          source[d] == static_cast<int64_t>(index))
        continue;
      assertEqualExtents(b, loc, getDimSize(b, loc, input, i), sizes[d],
                         opName + ": dimension " + Twine(i) + " of operand #" +
                             Twine(index) +
                             " does not match the result (dynamic "
                             "dimensions are not broadcast)");
    }
  }
  Value init = createEmptyTensor(b, loc, resultType, sizes);
  auto generic = linalg::GenericOp::create(
      b, loc, resultType, inputs, init, maps, parallelIterators(rank),
      [&](OpBuilder &nested, Location nestedLoc, ValueRange args) {
        Value result = body(nested, nestedLoc, args.drop_back());
        linalg::YieldOp::create(nested, nestedLoc, result);
      });
  return generic.getResult(0);
}
