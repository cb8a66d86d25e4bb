//===- Utils.cpp - helpers shared by the google-to-linalg patterns --------===//

#include "Utils.h"

#include "ArithAlgebra.h"

#include "Dialect/Google/IR/ShapeRules.h"

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

Value google::createPaddedTensor(OpBuilder &b, Location loc, Value input,
                                 ArrayRef<int64_t> low, ArrayRef<int64_t> high,
                                 Value value) {
  auto inputType = cast<RankedTensorType>(input.getType());
  if (llvm::all_of(low, [](int64_t p) { return p == 0; }) &&
      llvm::all_of(high, [](int64_t p) { return p == 0; }))
    return input;
  SmallVector<int64_t> shape;
  SmallVector<OpFoldResult> sizes, offsets, inputSizes, steps;
  for (int64_t d = 0, e = inputType.getRank(); d < e; ++d) {
    OpFoldResult extent = getDimSize(b, loc, input, d);
    inputSizes.push_back(extent);
    offsets.push_back(b.getIndexAttr(low[d]));
    steps.push_back(b.getIndexAttr(1));
    if (inputType.isDynamicDim(d)) {
      shape.push_back(ShapedType::kDynamic);
      sizes.push_back(
          arith::AddIOp::create(
              b, loc, cast<Value>(extent),
              arith::ConstantIndexOp::create(b, loc, low[d] + high[d]))
              .getResult());
    } else {
      shape.push_back(inputType.getDimSize(d) + low[d] + high[d]);
      sizes.push_back(b.getIndexAttr(shape.back()));
    }
  }
  auto type = RankedTensorType::get(shape, inputType.getElementType());
  Value result = createFilledTensor(b, loc, type, sizes, value);
  // An input known to be empty has nothing to insert (and its offset may
  // lie past the end).
  if (llvm::any_of(inputType.getShape(),
                   [](int64_t extent) { return extent == 0; }))
    return result;
  return tensor::InsertSliceOp::create(b, loc, input, result, offsets,
                                       inputSizes, steps);
}

OpFoldResult google::getDimSize(OpBuilder &b, Location loc, Value value,
                                int64_t dim) {
  auto type = cast<RankedTensorType>(value.getType());
  if (!type.isDynamicDim(dim))
    return b.getIndexAttr(type.getDimSize(dim));
  return tensor::DimOp::create(b, loc, value, dim).getResult();
}

SmallVector<OpFoldResult> google::getDimSizes(OpBuilder &b, Location loc,
                                              Value value) {
  SmallVector<OpFoldResult> sizes;
  for (int64_t d = 0, e = cast<RankedTensorType>(value.getType()).getRank();
       d < e; ++d)
    sizes.push_back(getDimSize(b, loc, value, d));
  return sizes;
}

SmallVector<utils::IteratorType> google::parallelIterators(int64_t rank) {
  return SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel);
}

void google::emitExtentCheck(OpBuilder &b, Location loc, OpFoldResult actual,
                             OpFoldResult expected, const Twine &message) {
  if (isa<Attribute>(actual) && isa<Attribute>(expected))
    return;
  if (actual == expected)
    return;
  Value equal = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::eq,
      getValueOrCreateConstantIndexOp(b, loc, actual),
      getValueOrCreateConstantIndexOp(b, loc, expected));
  cf::AssertOp::create(b, loc, equal, message.str());
}

std::string google::extentMessage(StringRef opName, StringRef what,
                                  int64_t dim) {
  return (opName + ": dimension " + Twine(dim) + " of " + what +
          " is {0}, expected {1}")
      .str();
}

Value google::refineShape(OpBuilder &b, Location loc, Value value,
                          ArrayRef<int64_t> shape,
                          function_ref<std::string(int64_t)> message) {
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<int64_t> refined(type.getShape());
  for (auto [d, dim] : llvm::enumerate(shape)) {
    if (!type.isDynamicDim(d) || ShapedType::isDynamic(dim))
      continue;
    emitExtentCheck(b, loc, getDimSize(b, loc, value, d), b.getIndexAttr(dim),
                    message(d));
    refined[d] = dim;
  }
  auto refinedType = type.clone(refined);
  if (refinedType == type)
    return value;
  return tensor::CastOp::create(b, loc, refinedType, value);
}

Value google::relaxToType(OpBuilder &b, Location loc, Value value, Type type) {
  if (value.getType() == type)
    return value;
  assert(succeeded(verifyCompatibleShape(value.getType(), type)) &&
         "a relaxation keeps the shape compatible");
  return tensor::CastOp::create(b, loc, type, value);
}

Value google::createParallelGeneric(OpBuilder &b, Location loc,
                                    RankedTensorType type,
                                    ArrayRef<OpFoldResult> sizes,
                                    ValueRange inputs,
                                    ArrayRef<AffineMap> inputMaps,
                                    ScalarBuilder body) {
  int64_t rank = type.getRank();
  SmallVector<AffineMap> maps(inputMaps);
  maps.push_back(b.getMultiDimIdentityMap(rank));
  Value init = createEmptyTensor(b, loc, type, sizes);
  auto generic = linalg::GenericOp::create(
      b, loc, type, inputs, init, maps, parallelIterators(rank),
      [&](OpBuilder &nested, Location nestedLoc, ValueRange args) {
        Value result = body(nested, nestedLoc, args.drop_back());
        linalg::YieldOp::create(nested, nestedLoc, result);
      });
  return generic.getResult(0);
}

Value google::createBroadcastingGeneric(OpBuilder &b, Location loc,
                                        StringRef opName,
                                        RankedTensorType resultType,
                                        ValueRange inputs, ScalarBuilder body) {
  int64_t rank = resultType.getRank();
  MLIRContext *context = b.getContext();
  auto typeOf = [](Value v) { return cast<RankedTensorType>(v.getType()); };
  SmallVector<ArrayRef<int64_t>> operandShapes;
  for (Value input : inputs)
    operandShapes.push_back(typeOf(input).getShape());
  SmallVector<int64_t> shape =
      knownBroadcastShape(resultType.getShape(), operandShapes);

  // Operands refined to the known extents; the first operand that does not
  // stretch along a still-dynamic dimension gives its extent, and the
  // others must match it.
  SmallVector<Value> refined;
  SmallVector<AffineMap> maps;
  SmallVector<OpFoldResult> sizes(rank);
  for (int64_t d = 0; d < rank; ++d)
    sizes[d] = b.getIndexAttr(ShapedType::isDynamic(shape[d]) ? 1 : shape[d]);
  SmallVector<bool> sized(rank, false);
  for (auto [index, input] : llvm::enumerate(inputs)) {
    RankedTensorType type = typeOf(input);
    int64_t offset = rank - type.getRank();
    std::string what = "operand #" + std::to_string(index);
    SmallVector<int64_t> target;
    SmallVector<AffineExpr> exprs;
    for (int64_t i = 0; i < type.getRank(); ++i) {
      bool stretch = stretches(type.getDimSize(i),
                               resultType.getDimSize(offset + i));
      target.push_back(stretch ? 1 : shape[offset + i]);
      exprs.push_back(stretch ? getAffineConstantExpr(0, context)
                              : getAffineDimExpr(offset + i, context));
    }
    Value value = refineShape(b, loc, input, target, [&](int64_t i) {
      return extentMessage(opName, what, i) +
             " (dynamic dimensions are not broadcast)";
    });
    for (int64_t i = 0; i < type.getRank(); ++i) {
      int64_t d = offset + i;
      if (isa<AffineConstantExpr>(exprs[i]) || !ShapedType::isDynamic(shape[d]))
        continue;
      OpFoldResult extent = getDimSize(b, loc, value, i);
      if (!sized[d]) {
        sizes[d] = extent;
        sized[d] = true;
        continue;
      }
      emitExtentCheck(b, loc, extent, sizes[d],
                      extentMessage(opName, what, i) +
                          " like the other operand (dynamic dimensions are "
                          "not broadcast)");
    }
    refined.push_back(value);
    maps.push_back(AffineMap::get(rank, 0, exprs, context));
  }
  Value result = createParallelGeneric(
      b, loc, resultType.clone(shape), sizes, refined, maps, body);
  return relaxToType(b, loc, result, resultType);
}

Value google::roundAccumulators(OpBuilder &b, Location loc, Value reduced,
                                Type elementType) {
  auto type = cast<RankedTensorType>(reduced.getType());
  if (type.getElementType() == elementType)
    return reduced;
  return createParallelGeneric(
      b, loc, type.clone(elementType), getDimSizes(b, loc, reduced), reduced,
      b.getMultiDimIdentityMap(type.getRank()),
      [&](OpBuilder &nested, Location nestedLoc, ValueRange args) {
        return ArithAlgebra(nested, nestedLoc, elementType)
            .fromAccumulator(args[0]);
      });
}
