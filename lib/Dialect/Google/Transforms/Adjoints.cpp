//===- Adjoints.cpp - reverse-mode rules of the google ops ----------------===//
//
// One rule per op (the table is buildAdjoint at the end). Conventions: `ct`
// is the result's cotangent, x and y the operands, z the result. relu'(0)
// is 0; maximum/minimum split a tie evenly (as JAX does); the gradient of
// reduce_max/min goes to the first extreme element (row-major over the
// reduced axes, NaN counting as the extreme, like argmax).
//
//===----------------------------------------------------------------------===//

#include "Adjoints.h"

#include "Dialect/Google/IR/GoogleOps.h"
#include "Dialect/Google/IR/ShapeRules.h"

#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "llvm/ADT/TypeSwitch.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::google;

namespace {

constexpr int64_t kDynamic = ShapedType::kDynamic;

RankedTensorType typeOf(Value value) {
  return cast<RankedTensorType>(value.getType());
}

Type elementOf(Value value) { return typeOf(value).getElementType(); }

bool isFloatTensor(Value value) {
  return isa<FloatType>(elementOf(value));
}

} // namespace

//===----------------------------------------------------------------------===//
// AdjointBuilder
//===----------------------------------------------------------------------===//

Value AdjointBuilder::elementwise(StringRef name, Value a, Value b,
                                  Type elementType) {
  std::optional<SmallVector<int64_t>> shape =
      broadcastShapes(typeOf(a).getShape(), typeOf(b).getShape());
  assert(shape && "operands that broadcast");
  OperationState state(loc, ("google." + name).str());
  state.addOperands({a, b});
  state.addTypes(RankedTensorType::get(*shape, elementType));
  return builder.create(state)->getResult(0);
}

Value AdjointBuilder::unary(StringRef name, Value a) {
  OperationState state(loc, ("google." + name).str());
  state.addOperands(a);
  state.addTypes(a.getType());
  return builder.create(state)->getResult(0);
}

Value AdjointBuilder::add(Value a, Value b) {
  return elementwise("add", a, b, elementOf(a));
}
Value AdjointBuilder::sub(Value a, Value b) {
  return elementwise("sub", a, b, elementOf(a));
}
Value AdjointBuilder::mul(Value a, Value b) {
  return elementwise("mul", a, b, elementOf(a));
}
Value AdjointBuilder::div(Value a, Value b) {
  return elementwise("div", a, b, elementOf(a));
}
Value AdjointBuilder::pow(Value a, Value b) {
  return elementwise("pow", a, b, elementOf(a));
}
Value AdjointBuilder::floorDiv(Value a, Value b) {
  return elementwise("floor_div", a, b, elementOf(a));
}
Value AdjointBuilder::eq(Value a, Value b) {
  return elementwise("eq", a, b, builder.getI1Type());
}
Value AdjointBuilder::gt(Value a, Value b) {
  return elementwise("gt", a, b, builder.getI1Type());
}
Value AdjointBuilder::lt(Value a, Value b) {
  return elementwise("lt", a, b, builder.getI1Type());
}
Value AdjointBuilder::ne(Value a, Value b) {
  return elementwise("ne", a, b, builder.getI1Type());
}
Value AdjointBuilder::logicalOr(Value a, Value b) {
  return elementwise("or", a, b, builder.getI1Type());
}
Value AdjointBuilder::neg(Value a) { return unary("neg", a); }
Value AdjointBuilder::exp(Value a) { return unary("exp", a); }
Value AdjointBuilder::log(Value a) { return unary("log", a); }
Value AdjointBuilder::sin(Value a) { return unary("sin", a); }
Value AdjointBuilder::cos(Value a) { return unary("cos", a); }

Value AdjointBuilder::select(Value condition, Value onTrue, Value onFalse) {
  std::optional<SmallVector<int64_t>> shape =
      broadcastShapes(typeOf(condition).getShape(), typeOf(onTrue).getShape());
  assert(shape && "operands that broadcast");
  shape = broadcastShapes(*shape, typeOf(onFalse).getShape());
  assert(shape && "operands that broadcast");
  return SelectOp::create(builder, loc,
                          RankedTensorType::get(*shape, elementOf(onTrue)),
                          condition, onTrue, onFalse);
}

Value AdjointBuilder::cast(Value value, Type elementType) {
  if (elementOf(value) == elementType)
    return value;
  return CastOp::create(builder, loc, typeOf(value).clone(elementType), value);
}

Value AdjointBuilder::indicator(Value condition, Type elementType) {
  return cast(condition, elementType);
}

Value AdjointBuilder::scalar(double value, Type elementType) {
  auto type = RankedTensorType::get({}, elementType);
  Attribute element = isa<FloatType>(elementType)
                          ? Attribute(builder.getFloatAttr(elementType, value))
                          : Attribute(builder.getIntegerAttr(
                                elementType, static_cast<int64_t>(value)));
  return ConstantOp::create(builder, loc, DenseElementsAttr::get(type, element));
}

Value AdjointBuilder::zerosLike(Value like) {
  RankedTensorType type = typeOf(like);
  if (type.hasStaticShape()) {
    Type element = type.getElementType();
    Attribute zero = isa<FloatType>(element)
                         ? Attribute(builder.getFloatAttr(element, 0.0))
                         : Attribute(builder.getIntegerAttr(element, 0));
    return ConstantOp::create(builder, loc, DenseElementsAttr::get(type, zero));
  }
  return broadcastLike(scalar(0, type.getElementType()), like);
}

Value AdjointBuilder::broadcastLike(Value value, Value like) {
  if (typeOf(value).getShape() == typeOf(like).getShape())
    return value;
  // x < x is false for every x (NaN too): a select of `value` shaped like
  // `like`.
  Value never = lt(like, like);
  Value result = select(never, like, cast(value, elementOf(like)));
  return cast(result, elementOf(value));
}

Value AdjointBuilder::reduceSum(Value value, ArrayRef<int64_t> axes,
                                bool keepDims) {
  if (axes.empty())
    return value;
  auto type = RankedTensorType::get(
      reducedShape(typeOf(value).getShape(), axes, keepDims),
      elementOf(value));
  return ReduceSumOp::create(builder, loc, type, value,
                             builder.getDenseI64ArrayAttr(axes),
                             builder.getBoolAttr(keepDims));
}

Value AdjointBuilder::reduceMin(Value value, ArrayRef<int64_t> axes,
                                bool keepDims) {
  if (axes.empty())
    return value;
  auto type = RankedTensorType::get(
      reducedShape(typeOf(value).getShape(), axes, keepDims), elementOf(value));
  return ReduceMinOp::create(builder, loc, type, value,
                             builder.getDenseI64ArrayAttr(axes),
                             builder.getBoolAttr(keepDims));
}

Value AdjointBuilder::transpose(Value value, ArrayRef<int64_t> perm) {
  if (isIdentityPermutation(perm))
    return value;
  auto type = typeOf(value).clone(
      applyPermutation(typeOf(value).getShape(), perm));
  return TransposeOp::create(builder, loc, type, value,
                             builder.getDenseI64ArrayAttr(perm));
}

Value AdjointBuilder::reshape(Value value, RankedTensorType type) {
  if (value.getType() == type)
    return value;
  return ReshapeOp::create(builder, loc, type, value);
}

Value AdjointBuilder::matmul(Value lhs, Value rhs) {
  ArrayRef<int64_t> l = typeOf(lhs).getShape(), r = typeOf(rhs).getShape();
  SmallVector<int64_t> shape;
  if (l.size() == 3)
    shape.push_back(ShapedType::isDynamic(l[0]) ? r[0] : l[0]);
  shape.append({l[l.size() - 2], r.back()});
  return MatmulOp::create(builder, loc,
                          RankedTensorType::get(shape, elementOf(lhs)), lhs,
                          rhs);
}

Value AdjointBuilder::slice(Value value, ArrayRef<int64_t> starts,
                            ArrayRef<int64_t> limits,
                            ArrayRef<int64_t> strides) {
  SmallVector<int64_t> shape;
  // Python's len(range(start, limit, stride)).
  for (auto [start, limit, stride] : llvm::zip_equal(starts, limits, strides)) {
    int64_t span = stride > 0 ? limit - start : start - limit;
    int64_t step = std::abs(stride);
    shape.push_back(std::max<int64_t>(0, (span + step - 1) / step));
  }
  return SliceOp::create(builder, loc, typeOf(value).clone(shape), value,
                         builder.getDenseI64ArrayAttr(starts),
                         builder.getDenseI64ArrayAttr(limits),
                         builder.getDenseI64ArrayAttr(strides));
}

Value AdjointBuilder::window(Value value, ArrayRef<int64_t> starts,
                             ArrayRef<int64_t> givenLimits,
                             ArrayRef<int64_t> strides) {
  RankedTensorType type = typeOf(value);
  // kDynamic limits: the extent.
  SmallVector<int64_t> limits(givenLimits);
  for (auto [d, extent] : llvm::enumerate(type.getShape()))
    if (ShapedType::isDynamic(limits[d]))
      limits[d] = extent;
  if (type.hasStaticShape())
    return slice(value, starts, limits, strides);
  for (auto [d, extent] : llvm::enumerate(type.getShape()))
    if (ShapedType::isDynamic(extent) &&
        (starts[d] != 0 || strides[d] != 1 || limits[d] != extent))
      return Value();
  for (auto [d, extent] : llvm::enumerate(type.getShape())) {
    if (ShapedType::isDynamic(extent) ||
        (starts[d] == 0 && limits[d] == extent && strides[d] == 1))
      continue;
    SmallVector<int64_t> positions;
    for (int64_t i = starts[d]; strides[d] > 0 ? i < limits[d] : i > limits[d];
         i += strides[d])
      positions.push_back(i);
    auto indexType = RankedTensorType::get(
        {static_cast<int64_t>(positions.size())}, builder.getI64Type());
    Value indices = ConstantOp::create(
        builder, loc,
        DenseElementsAttr::get(indexType, ArrayRef<int64_t>(positions)));
    SmallVector<int64_t> shape(typeOf(value).getShape());
    shape[d] = static_cast<int64_t>(positions.size());
    value = GatherOp::create(builder, loc, typeOf(value).clone(shape), value,
                             indices, builder.getI64IntegerAttr(d));
  }
  return value;
}

Value AdjointBuilder::pad(Value value, ArrayRef<int64_t> low,
                          ArrayRef<int64_t> high) {
  return padWith(value, low, high, scalar(0, elementOf(value)));
}

Value AdjointBuilder::padWith(Value value, ArrayRef<int64_t> low,
                              ArrayRef<int64_t> high, Value padValue) {
  SmallVector<int64_t> shape(typeOf(value).getShape());
  for (auto [d, extent] : llvm::enumerate(shape))
    if (!ShapedType::isDynamic(extent))
      extent += low[d] + high[d];
  return PadOp::create(builder, loc, typeOf(value).clone(shape), value,
                       padValue,
                       builder.getDenseI64ArrayAttr(low),
                       builder.getDenseI64ArrayAttr(high));
}

Value AdjointBuilder::scatterAdd(Value base, Value indices, Value updates,
                                 int64_t axis) {
  return ScatterAddOp::create(builder, loc, typeOf(base), base, indices,
                              updates, builder.getI64IntegerAttr(axis));
}

Value AdjointBuilder::iota(RankedTensorType type, int64_t dimension,
                           Value like) {
  return IotaOp::create(builder, loc, type, like,
                        builder.getI64IntegerAttr(dimension));
}

Value AdjointBuilder::positionsAlong(Value value, int64_t dimension) {
  RankedTensorType type = typeOf(value);
  int64_t extent = type.getDimSize(dimension);
  auto indexType = RankedTensorType::get({extent}, builder.getI64Type());
  if (!ShapedType::isDynamic(extent))
    return iota(indexType, 0);
  SmallVector<int64_t> others;
  for (int64_t d = 0; d < type.getRank(); ++d)
    if (d != dimension)
      others.push_back(d);
  return iota(indexType, 0, reduceSum(value, others, /*keepDims=*/false));
}

Value AdjointBuilder::extentAlong(Value value, int64_t dimension) {
  int64_t extent = typeOf(value).getDimSize(dimension);
  Type i64 = builder.getI64Type();
  if (!ShapedType::isDynamic(extent))
    return scalar(static_cast<double>(extent), i64);
  Value positions = positionsAlong(value, dimension);
  return reduceSum(cast(eq(positions, positions), i64), {0},
                   /*keepDims=*/false);
}

Value AdjointBuilder::unbroadcast(Value ct, RankedTensorType type) {
  ArrayRef<int64_t> shape = typeOf(ct).getShape();
  int64_t lead = static_cast<int64_t>(shape.size()) - type.getRank();
  SmallVector<int64_t> leading = llvm::to_vector(llvm::seq<int64_t>(0, lead));
  ct = reduceSum(ct, leading, /*keepDims=*/false);
  SmallVector<int64_t> stretched;
  for (int64_t d = 0; d < type.getRank(); ++d)
    if (type.getDimSize(d) == 1 && typeOf(ct).getDimSize(d) != 1)
      stretched.push_back(d);
  ct = reduceSum(ct, stretched, /*keepDims=*/true);
  if (typeOf(ct).getShape() == type.getShape())
    return ct;
  // 0 + ct typed exactly as the operand: static extents the cotangent does
  // not know (checked at run time like any add), dynamic ones it knows.
  return AddOp::create(builder, loc, typeOf(ct).clone(type.getShape()),
                       scalar(0, elementOf(ct)), ct);
}

Value AdjointBuilder::refine(Value value, ArrayRef<int64_t> shape) {
  SmallVector<int64_t> refined(typeOf(value).getShape());
  for (auto [d, extent] : llvm::enumerate(shape))
    if (!ShapedType::isDynamic(extent))
      refined[d] = extent;
  if (ArrayRef<int64_t>(refined) == typeOf(value).getShape())
    return value;
  // 0 + value, typed with the static extents (checked at run time like
  // any add).
  return AddOp::create(builder, loc, typeOf(value).clone(refined),
                       scalar(0, elementOf(value)), value);
}

//===----------------------------------------------------------------------===//
// Rules
//===----------------------------------------------------------------------===//

namespace {

using Cotangents = SmallVectorImpl<Value>;

/// maximum/minimum: the larger (smaller) operand gets `ct`, a tie half of
/// it each.
void maxMinAdjoint(AdjointBuilder &b, Value x, Value y, Value ct, bool isMax,
                   Cotangents &out) {
  Type element = elementOf(ct);
  Value wins = b.indicator(isMax ? b.gt(x, y) : b.lt(x, y), element);
  Value ties = b.indicator(b.eq(x, y), element);
  Value share = b.add(wins, b.mul(ties, b.scalar(0.5, element)));
  Value other = b.sub(b.scalar(1, element), share);
  out.push_back(b.mul(ct, share));
  out.push_back(b.mul(ct, other));
}

/// d/dx of a unary float op, given x and z = op(x); null for none.
Value unaryDerivative(Operation *op, AdjointBuilder &b, Value x, Value z) {
  Type element = elementOf(x);
  auto one = [&] { return b.scalar(1, element); };
  return llvm::TypeSwitch<Operation *, Value>(op)
      // z > 0 exactly where x > 0 (NaN in neither): reading z leaves x
      // to relu alone, which then fuses with x's producer (a bias add).
      .Case([&](ReluOp) {
        return b.indicator(b.gt(z, b.scalar(0, element)), element);
      })
      .Case([&](AbsOp) {
        Value zero = b.scalar(0, element);
        return b.sub(b.indicator(b.gt(x, zero), element),
                     b.indicator(b.lt(x, zero), element));
      })
      .Case([&](ExpOp) { return z; })
      .Case([&](LogOp) { return b.div(one(), x); })
      .Case([&](TanhOp) { return b.sub(one(), b.mul(z, z)); })
      .Case([&](SigmoidOp) { return b.mul(z, b.sub(one(), z)); })
      .Case([&](SqrtOp) { return b.div(b.scalar(0.5, element), z); })
      .Case(
          [&](RsqrtOp) { return b.mul(b.scalar(-0.5, element), b.div(z, x)); })
      .Case([&](SinOp) { return b.cos(x); })
      .Case([&](CosOp) { return b.neg(b.sin(x)); })
      .Case([&](ErfOp) {
        return b.mul(b.scalar(2 / std::sqrt(M_PI), element),
                     b.exp(b.neg(b.mul(x, x))));
      })
      .Default([](Operation *) { return Value(); });
}


/// The cotangent of a reduction's input: `ct` (the reduction's result
/// shape) broadcast back over the reduced axes.
Value spreadOverAxes(AdjointBuilder &b, Value ct, Value input,
                     ArrayRef<int64_t> axes, bool keepDims) {
  // A reduced axis is 1 even where the result type relaxed it to `?`: it
  // must stretch.
  ct = b.refine(ct, reducedShape(typeOf(input).getShape(), axes, keepDims));
  if (keepDims)
    return b.broadcastLike(ct, input);
  // With the reduced axes first, ct's dimensions align with the trailing
  // ones. Where they are not first, the reduced axes come back as 1s if a
  // reshape can say so (at most one dynamic extent); else the input is
  // transposed around the broadcast.
  int64_t rank = typeOf(input).getRank();
  SmallVector<int64_t> perm(axes);
  for (int64_t d = 0; d < rank; ++d)
    if (!llvm::is_contained(axes, d))
      perm.push_back(d);
  RankedTensorType kept = typeOf(ct).clone(
      reducedShape(typeOf(input).getShape(), axes, /*keepDims=*/true));
  if (!isIdentityPermutation(perm) &&
      checkReshape(typeOf(ct).getShape(), kept.getShape()) ==
          ReshapeError::None)
    return b.broadcastLike(b.reshape(ct, kept), input);
  Value spread = b.broadcastLike(ct, b.transpose(input, perm));
  return b.transpose(spread, invertPermutationVector(perm));
}

/// One-hot along `axis` of the first extreme element of
/// `x` (argmax/argmin: NaN counts as the extreme), keeping dimensions.
/// Along an empty axis there is none (x has no elements); along a dynamic
/// one, which may be empty at run time (where argmax fails the call), the
/// least position holding the extreme (or a NaN).
Value firstExtreme(AdjointBuilder &b, Value x, int64_t axis, bool isMax) {
  RankedTensorType type = typeOf(x);
  OpBuilder &builder = b.getBuilder();
  Type indexType = builder.getI64Type();
  if (type.getDimSize(axis) == 0)
    return b.zerosLike(x);
  if (type.isDynamicDim(axis)) {
    OperationState state(b.getLoc(),
                         isMax ? "google.reduce_max" : "google.reduce_min");
    state.addOperands(x);
    state.addAttribute("axes", builder.getDenseI64ArrayAttr({axis}));
    state.addAttribute("keep_dims", builder.getBoolAttr(true));
    state.addTypes(type.clone(reducedShape(type.getShape(), {axis}, true)));
    Value extreme = builder.create(state)->getResult(0);
    Value hit = b.logicalOr(b.eq(x, extreme), b.ne(x, x));
    Value positions = b.iota(type.clone(indexType), axis, x);
    Value first = b.reduceMin(
        b.select(hit, positions, b.scalar(std::ldexp(1.0, 62), indexType)),
        {axis}, /*keepDims=*/true);
    return b.indicator(b.eq(positions, first), type.getElementType());
  }
  OperationState state(b.getLoc(), isMax ? "google.argmax" : "google.argmin");
  state.addOperands(x);
  state.addAttribute("axis", builder.getI64IntegerAttr(axis));
  state.addAttribute("keep_dims", builder.getBoolAttr(true));
  state.addTypes(RankedTensorType::get(
      reducedShape(type.getShape(), {axis}, true), indexType));
  Value first = builder.create(state)->getResult(0);
  SmallVector<int64_t> line(type.getRank(), 1);
  line[axis] = type.getDimSize(axis);
  Value positions = b.iota(RankedTensorType::get(line, indexType), axis);
  return b.indicator(b.eq(positions, first), type.getElementType());
}

/// reduce_max/min: `ct` to the first extreme element over `axes` (in
/// row-major order over them).
LogicalResult extremeAdjoint(Operation *op, AdjointBuilder &b, Value x,
                             ArrayRef<int64_t> axes, bool keepDims,
                             bool isMax, Value ct, Cotangents &out) {
  RankedTensorType type = typeOf(x);
  SmallVector<int64_t> extents;
  for (int64_t axis : axes)
    extents.push_back(type.getDimSize(axis));
  std::optional<int64_t> count = staticElementCount(extents);
  Value spread = spreadOverAxes(b, ct, x, axes, keepDims);
  if (axes.size() == 1) {
    out.push_back(b.mul(firstExtreme(b, x, axes.front(), isMax), spread));
    return success();
  }
  // Several axes: moved last and merged into one, which a reshape can
  // only do with at most one dynamic extent elsewhere.
  int64_t rank = type.getRank();
  SmallVector<int64_t> perm;
  for (int64_t d = 0; d < rank; ++d)
    if (!llvm::is_contained(axes, d))
      perm.push_back(d);
  llvm::append_range(perm, axes);
  Value moved = b.transpose(x, perm);
  ArrayRef<int64_t> movedShape = typeOf(moved).getShape();
  SmallVector<int64_t> merged(movedShape.drop_back(axes.size()));
  merged.push_back(count ? *count : kDynamic);
  // (And back: the moved shape too.)
  if (llvm::count(merged, kDynamic) > 1 ||
      llvm::count(movedShape, kDynamic) > 1 ||
      (llvm::is_contained(merged, 0) && llvm::is_contained(merged, kDynamic)))
    return op->emitError("google-differentiate: the gradient of ")
           << op->getName()
           << " over several axes needs at most one dynamic extent, got "
           << type;
  Value rows = b.reshape(moved, type.clone(merged));
  Value hit = firstExtreme(b, rows, merged.size() - 1, isMax);
  Value hitX = b.transpose(b.reshape(hit, typeOf(moved)),
                           invertPermutationVector(perm));
  out.push_back(b.mul(hitX, spread));
  return success();
}

/// A conv2d of `input` by `filter` (groups 1), its result type worked out.
Value convolve(AdjointBuilder &b, Value input, Value filter,
               ArrayRef<int64_t> strides, ArrayRef<int64_t> dilations,
               ArrayRef<int64_t> padding, int64_t groups = 1) {
  OpBuilder &builder = b.getBuilder();
  ArrayRef<int64_t> in = typeOf(input).getShape(),
                    f = typeOf(filter).getShape();
  SmallVector<int64_t> shape = {in[0]};
  for (int d = 0; d < 2; ++d)
    shape.push_back((in[1 + d] + padding[2 * d] + padding[2 * d + 1] -
                     (dilations[d] * (f[d] - 1) + 1)) /
                        strides[d] +
                    1);
  shape.push_back(f[3]);
  return Conv2DOp::create(builder, b.getLoc(), typeOf(input).clone(shape),
                          input, filter, builder.getDenseI64ArrayAttr(strides),
                          builder.getDenseI64ArrayAttr(dilations),
                          builder.getDenseI64ArrayAttr(padding),
                          builder.getI64IntegerAttr(groups));
}

/// `value` (N x OH x OW x C) with stride-1 zeros between its rows and
/// columns: N x OH*s0 x OW*s1 x C (its element (y, x) at (y s0, x s1)).
Value dilate(AdjointBuilder &b, Value value, ArrayRef<int64_t> strides) {
  if (strides[0] == 1 && strides[1] == 1)
    return value;
  ArrayRef<int64_t> shape = typeOf(value).getShape();
  Type element = elementOf(value);
  Value spread = b.reshape(
      value, RankedTensorType::get(
                 {shape[0], shape[1], 1, shape[2], 1, shape[3]}, element));
  spread = b.pad(spread, {0, 0, 0, 0, 0, 0},
                 {0, 0, strides[0] - 1, 0, strides[1] - 1, 0});
  return b.reshape(spread, RankedTensorType::get(
                               {shape[0], shape[1] * strides[0],
                                shape[2] * strides[1], shape[3]},
                               element));
}

/// conv2d: the filter's cotangent is a convolution of the (padded) input
/// by the result's cotangent, batch and channels swapped (the forward
/// stride becomes the dilation), or with a dynamic batch one matmul per
/// filter tap; the input's is a "full" convolution of the cotangent,
/// dilated by the stride, by the flipped filter, padded to give just the
/// input's rows (cropped where it cannot). With G groups both are G-group
/// convolutions: the filter's has each group's batch as its channels
/// (G*N of them), the input's the flipped filter with each group's in and
/// out channels swapped.
LogicalResult convolutionAdjoint(Conv2DOp conv, AdjointBuilder &b, Value ct,
                                 Cotangents &out) {
  Value x = conv.getInput(), w = conv.getFilter();
  int64_t groups = conv.getGroups();
  RankedTensorType inputType = typeOf(x);
  bool dynamicBatch = !inputType.hasStaticShape();
  ArrayRef<int64_t> in = inputType.getShape(), f = typeOf(w).getShape();
  ArrayRef<int64_t> s = conv.getStrides(), d = conv.getDilations(),
                    p = conv.getPadding();
  SmallVector<int64_t> outShape = conv.getOutputShape();
  if ((!dynamicBatch && inputType.getNumElements() == 0) ||
      llvm::is_contained(outShape, 0)) {
    out.append({b.zerosLike(x), b.zerosLike(w)}); // nothing flows
    return success();
  }
  ct = b.refine(ct, outShape);
  int64_t n = in[0], h = in[1], wd = in[2], c = in[3];
  int64_t kh = f[0], kw = f[1], oh = outShape[1], ow = outShape[2];

  // The filter: sum over n, y, x of input'[n, y s + i d, x s + j d, c]
  // ct[n, y, x, f], a convolution with n as the channels.
  Value padded = x;
  if (llvm::any_of(p, [](int64_t v) { return v != 0; }))
    padded = b.pad(x, {0, p[0], p[2], 0}, {0, p[1], p[3], 0});
  int64_t usedRows = s[0] * (oh - 1) + d[0] * (kh - 1) + 1;
  int64_t usedColumns = s[1] * (ow - 1) + d[1] * (kw - 1) + 1;
  if (usedRows != typeOf(padded).getDimSize(1) ||
      usedColumns != typeOf(padded).getDimSize(2))
    padded = b.window(padded, {0, 0, 0, 0}, {n, usedRows, usedColumns, c},
                      {1, 1, 1, 1});
  Type element = elementOf(ct);
  int64_t groupChannels = c / groups, groupFilters = f[3] / groups;
  Value filterGrad;
  if (dynamicBatch) {
    // The batch cannot be a convolution's channels (a filter is static):
    // one C x F matmul per filter tap, the batch and positions as its K
    // (with G groups, a batch of G C/G x F/G matmuls).
    Value rows = groups == 1
                     ? b.reshape(ct, RankedTensorType::get({kDynamic, f[3]},
                                                           element))
                     : b.transpose(b.reshape(ct, RankedTensorType::get(
                                                     {kDynamic, groups,
                                                      groupFilters},
                                                     element)),
                                   {1, 0, 2});
    SmallVector<Value> taps;
    for (int64_t i = 0; i < kh; ++i)
      for (int64_t j = 0; j < kw; ++j) {
        Value tap = b.window(
            padded, {0, i * d[0], j * d[1], 0},
            {n, i * d[0] + s[0] * (oh - 1) + 1,
             j * d[1] + s[1] * (ow - 1) + 1, c},
            {1, s[0], s[1], 1});
        Value product;
        if (groups == 1) {
          tap = b.transpose(
              b.reshape(tap, RankedTensorType::get({kDynamic, c}, element)),
              {1, 0});
          product = b.matmul(tap, rows);
        } else {
          // [G, C/G, K] x [G, K, F/G] -> [G, C/G, F/G] -> [C/G, F].
          tap = b.transpose(
              b.reshape(tap, RankedTensorType::get(
                                 {kDynamic, groups, groupChannels}, element)),
              {1, 2, 0});
          product = b.reshape(
              b.transpose(b.matmul(tap, rows), {1, 0, 2}),
              RankedTensorType::get({groupChannels, f[3]}, element));
        }
        taps.push_back(b.reshape(
            product, RankedTensorType::get({1, groupChannels, f[3]},
                                           element)));
      }
    Value stacked =
        taps.size() == 1
            ? taps.front()
            : ConcatOp::create(b.getBuilder(), b.getLoc(),
                               RankedTensorType::get(
                                   {kh * kw, groupChannels, f[3]}, element),
                               taps, b.getBuilder().getI64IntegerAttr(0))
                  .getResult();
    filterGrad = b.reshape(stacked, typeOf(w));
  } else {
    // padded'[c', y, x, g N + n] = padded[n, y, x, g C/G + c'].
    Value channelsLast;
    if (groups == 1) {
      channelsLast = b.transpose(padded, {3, 1, 2, 0});
    } else {
      Value split = b.reshape(
          padded, RankedTensorType::get(
                      {n, usedRows, usedColumns, groups, groupChannels},
                      element));
      channelsLast = b.reshape(
          b.transpose(split, {4, 1, 2, 3, 0}),
          RankedTensorType::get({groupChannels, usedRows, usedColumns,
                                 groups * n},
                                element));
    }
    filterGrad = convolve(b, channelsLast, b.transpose(ct, {1, 2, 0, 3}), d,
                          s, {0, 0, 0, 0}, groups);
    filterGrad = b.transpose(filterGrad, {1, 2, 0, 3});
  }

  // The input: ct dilated by the stride (zeros between), padded to a full
  // convolution by the flipped filter (kh x kw x F x C).
  Value spread = dilate(b, ct, s);
  int64_t rows = oh * s[0], columns = ow * s[1];
  // flipped[i, j, f', g C/G + c'] = w[kh-1-i, kw-1-j, c', g F/G + f'].
  Value flipped = b.slice(w, {kh - 1, kw - 1, 0, 0},
                          {-1, -1, groupChannels, f[3]}, {-1, -1, 1, 1});
  if (groups == 1) {
    flipped = b.transpose(flipped, {0, 1, 3, 2});
  } else {
    Value split = b.reshape(
        flipped, RankedTensorType::get(
                     {kh, kw, groupChannels, groups, groupFilters}, element));
    flipped = b.reshape(
        b.transpose(split, {0, 1, 4, 3, 2}),
        RankedTensorType::get({kh, kw, groupFilters, c}, element));
  }
  // Rows p0 .. p0 + h of the full convolution: where its padding allows,
  // the convolution computes just those (no crop).
  int64_t lowRows = d[0] * (kh - 1) - p[0], highRows = p[0] + h - rows;
  int64_t lowColumns = d[1] * (kw - 1) - p[2],
          highColumns = p[2] + wd - columns;
  Value inputGrad;
  if (lowRows >= 0 && highRows >= 0 && lowColumns >= 0 && highColumns >= 0) {
    inputGrad = convolve(b, spread, flipped, {1, 1}, d,
                         {lowRows, highRows, lowColumns, highColumns}, groups);
  } else {
    Value full = convolve(b, spread, flipped, {1, 1}, d,
                          {d[0] * (kh - 1), std::max<int64_t>(0, highRows),
                           d[1] * (kw - 1), std::max<int64_t>(0, highColumns)},
                          groups);
    inputGrad = b.window(full, {0, p[0], p[2], 0},
                         {n, p[0] + h, p[2] + wd, c}, {1, 1, 1, 1});
  }
  out.append({inputGrad, filterGrad});
  return success();
}

/// Pools whose windows tile the input (strides = window, no padding): a
/// reshape puts each window on two axes of the input, N x OH x k0 x OW x
/// k1 x C, so the max's cotangent is a one-hot of the window's first
/// maximal element (as argmax and reduce_max's rule pick it, found from
/// the pooling's result) and the average's `ct` spread by one broadcast
/// divide. No transposes, channels innermost throughout; reshapes only: a
/// dynamic batch works.
template <typename PoolOp>
FailureOr<Value> tiledPoolAdjoint(PoolOp pool, AdjointBuilder &b, Value ct,
                                  bool isMax) {
  Value x = pool.getInput();
  RankedTensorType type = typeOf(x);
  ArrayRef<int64_t> k = pool.getWindow(), s = pool.getStrides();
  if (k != s || llvm::any_of(pool.getPadding(),
                             [](int64_t v) { return v != 0; }))
    return failure();
  SmallVector<int64_t> outShape = pool.getOutputShape();
  ArrayRef<int64_t> in = type.getShape();
  int64_t n = in[0], c = in[3], oh = outShape[1], ow = outShape[2];
  int64_t rows = oh * k[0], columns = ow * k[1];
  bool ragged = rows != in[1] || columns != in[2];
  Type element = type.getElementType();
  ct = b.refine(ct, outShape);
  // ct over each window: N x OH x k0 x OW x k1 x C.
  Value spread;
  if (!isMax) {
    auto countType = RankedTensorType::get({1, 1, k[0], 1, k[1], 1}, element);
    Value count = ConstantOp::create(
        b.getBuilder(), b.getLoc(),
        DenseElementsAttr::get(countType, b.getBuilder().getFloatAttr(
                                              element, k[0] * k[1])));
    spread = b.div(b.reshape(ct, RankedTensorType::get(
                                     {n, oh, 1, ow, 1, c}, element)),
                   count);
  } else {
    Value covered = x;
    if (ragged)
      covered = b.window(x, {0, 0, 0, 0}, {n, rows, columns, c}, {1, 1, 1, 1});
    // The windows where they are, N x OH x k0 x OW x k1 x C (a reshape;
    // channels stay innermost), and each one's maximum, the pooling's
    // result (NaN where the window has one).
    Value windows = b.reshape(
        covered, RankedTensorType::get({n, oh, k[0], ow, k[1], c}, element));
    Value maximum =
        b.reshape(b.refine(pool.getResult(), outShape),
                  RankedTensorType::get({n, oh, 1, ow, 1, c}, element));
    // The first maximal element in row-major window order, NaNs counting
    // as maximal (as argmax): the least position holding one.
    Value maximal = b.logicalOr(b.eq(windows, maximum), b.ne(windows, windows));
    // Positions in i32 where they fit: as many lanes per vector as f32
    // data has.
    OpBuilder &builder = b.getBuilder();
    Type indexType = k[0] * k[1] < std::numeric_limits<int32_t>::max()
                         ? builder.getI32Type()
                         : builder.getI64Type();
    SmallVector<Attribute> order;
    for (int64_t i = 0; i < k[0] * k[1]; ++i)
      order.push_back(builder.getIntegerAttr(indexType, i));
    Value positions = ConstantOp::create(
        builder, b.getLoc(),
        DenseElementsAttr::get(
            RankedTensorType::get({1, 1, k[0], 1, k[1], 1}, indexType), order));
    Value first = b.reduceMin(
        b.select(maximal, positions, b.scalar(k[0] * k[1], indexType)), {2, 4},
        /*keepDims=*/true);
    spread = b.mul(
        b.indicator(b.eq(positions, first), element),
        b.reshape(ct, RankedTensorType::get({n, oh, 1, ow, 1, c}, element)));
  }
  Value result = b.reshape(
      spread, RankedTensorType::get({n, rows, columns, c}, element));
  if (ragged)
    result = b.pad(result, {0, 0, 0, 0},
                   {0, in[1] - rows, in[2] - columns, 0});
  return result;
}

/// Pools: the input's cotangent from each window's share of `ct`. Average:
/// ct over the window's input elements, spread over the window by a full
/// depthwise convolution with ones. Max: ct to the window's first maximal
/// element (row-major over the window), one window offset at a time.
template <typename PoolOp>
LogicalResult poolAdjoint(PoolOp pool, AdjointBuilder &b, Value ct,
                          bool isMax, Cotangents &out) {
  Value x = pool.getInput();
  RankedTensorType type = typeOf(x);
  SmallVector<int64_t> outShape = pool.getOutputShape();
  if ((type.hasStaticShape() && type.getNumElements() == 0) ||
      llvm::is_contained(outShape, 0)) {
    out.push_back(b.zerosLike(x)); // no elements to differentiate
    return success();
  }
  if (FailureOr<Value> tiled = tiledPoolAdjoint(pool, b, ct, isMax);
      succeeded(tiled)) {
    out.push_back(*tiled);
    return success();
  }
  Type element = type.getElementType();
  ArrayRef<int64_t> in = type.getShape();
  ArrayRef<int64_t> k = pool.getWindow(), s = pool.getStrides(),
                    p = pool.getPadding();
  ct = b.refine(ct, outShape);
  int64_t n = in[0], h = in[1], w = in[2], c = in[3];
  int64_t oh = outShape[1], ow = outShape[2];
  // The canvas the windows cover, from the top-left padding corner.
  int64_t rows = oh * s[0] + k[0] - 1, columns = ow * s[1] + k[1] - 1;
  Value canvas;
  if (!isMax) {
    // Each window's count of input elements (padding never counts).
    std::vector<double> counts;
    for (int64_t y = 0; y < oh; ++y)
      for (int64_t xx = 0; xx < ow; ++xx) {
        auto inside = [](int64_t first, int64_t size, int64_t extent) {
          return std::max<int64_t>(0, std::min(first + size, extent) -
                                          std::max<int64_t>(first, 0));
        };
        counts.push_back(static_cast<double>(
            inside(y * s[0] - p[0], k[0], h) *
            inside(xx * s[1] - p[2], k[1], w)));
      }
    auto countType = RankedTensorType::get({1, oh, ow, 1}, element);
    SmallVector<Attribute> values;
    for (double count : counts)
      values.push_back(b.getBuilder().getFloatAttr(element, count));
    Value count = ConstantOp::create(b.getBuilder(), b.getLoc(),
                                     DenseElementsAttr::get(countType, values));
    Value share = dilate(b, b.div(ct, count), s);
    auto onesType = RankedTensorType::get({k[0], k[1], 1, c}, element);
    Value ones = ConstantOp::create(
        b.getBuilder(), b.getLoc(),
        DenseElementsAttr::get(onesType,
                               b.getBuilder().getFloatAttr(element, 1.0)));
    ArrayRef<int64_t> shareShape = typeOf(share).getShape();
    SmallVector<int64_t> padding = {k[0] - 1, rows - shareShape[1],
                                    k[1] - 1, columns - shareShape[2]};
    OpBuilder &builder = b.getBuilder();
    canvas = Conv2DOp::create(
        builder, b.getLoc(), RankedTensorType::get({n, rows, columns, c},
                                                   element),
        share, ones, builder.getDenseI64ArrayAttr({1, 1}),
        builder.getDenseI64ArrayAttr({1, 1}),
        builder.getDenseI64ArrayAttr(padding),
        builder.getI64IntegerAttr(c));
  } else {
    Value lowest = b.scalar(-INFINITY, element);
    Value padded = b.padWith(x, {0, p[0], p[2], 0}, {0, p[1], p[3], 0},
                             lowest);
    Value z = b.refine(pool.getResult(), outShape);
    Value one = b.scalar(1, element);
    Value taken = b.zerosLike(ct);
    for (int64_t i = 0; i < k[0]; ++i)
      for (int64_t j = 0; j < k[1]; ++j) {
        Value candidates =
            b.window(padded, {0, i, j, 0},
                    {n, i + s[0] * (oh - 1) + 1, j + s[1] * (ow - 1) + 1, c},
                    {1, s[0], s[1], 1});
        Value hit = b.mul(b.indicator(b.eq(candidates, z), element),
                          b.sub(one, taken));
        taken = b.add(taken, hit);
        Value placed = b.pad(dilate(b, b.mul(ct, hit), s), {0, i, j, 0},
                             {0, k[0] - 1 - i, k[1] - 1 - j, 0});
        canvas = canvas ? b.add(canvas, placed) : placed;
      }
  }
  out.push_back(b.window(canvas, {0, p[0], p[2], 0}, {n, p[0] + h, p[2] + w, c},
                        {1, 1, 1, 1}));
  return success();
}

/// A slice's cotangent scattered back into its input: per dimension,
/// reversed for a negative stride, spread `|stride|` apart (zeros between,
/// by a reshape that adds a unit dimension, a pad and a reshape), then
/// padded (or cut) to the input's extent.
Value sliceAdjoint(SliceOp slice, AdjointBuilder &b, Value ct) {
  RankedTensorType input = slice.getInput().getType();
  SmallVector<int64_t> window = slice.getWindowShape();
  ct = b.refine(ct, window);
  int64_t rank = input.getRank();
  SmallVector<int64_t> low, lengths;
  for (int64_t d = 0; d < rank; ++d) {
    int64_t start = slice.getStarts()[d], stride = slice.getStrides()[d];
    int64_t count = window[d];
    SmallVector<int64_t> shape(typeOf(ct).getShape());
    if (stride < 0 && count > 1) {
      // Ascending positions: the window read backwards.
      SmallVector<int64_t> starts(rank, 0), limits(shape), steps(rank, 1);
      starts[d] = count - 1;
      limits[d] = -1;
      steps[d] = -1;
      ct = b.slice(ct, starts, limits, steps);
    }
    int64_t step = std::abs(stride);
    low.push_back(count == 0 ? 0
                  : stride < 0 ? start + (count - 1) * stride
                               : start);
    if (step != 1 && count > 0) {
      SmallVector<int64_t> split(shape);
      split.insert(split.begin() + d + 1, 1);
      Value spread = b.reshape(ct, typeOf(ct).clone(split));
      SmallVector<int64_t> zeros(rank + 1, 0), gaps(rank + 1, 0);
      gaps[d + 1] = step - 1;
      spread = b.pad(spread, zeros, gaps);
      shape[d] = count * step;
      ct = b.reshape(spread, typeOf(ct).clone(shape));
    }
    lengths.push_back(typeOf(ct).getDimSize(d));
  }
  // The trailing gaps may reach past the input: cut them.
  SmallVector<int64_t> limits(lengths), high;
  bool cut = false;
  for (int64_t d = 0; d < rank; ++d) {
    int64_t room = input.getDimSize(d) - low[d];
    if (lengths[d] > room) {
      limits[d] = room;
      cut = true;
    }
    high.push_back(input.getDimSize(d) - low[d] - limits[d]);
  }
  if (cut)
    ct = b.slice(ct, SmallVector<int64_t>(rank, 0), limits,
                 SmallVector<int64_t>(rank, 1));
  return b.pad(ct, low, high);
}

} // namespace

LogicalResult google::buildAdjoint(Operation *op, AdjointBuilder &b,
                                   ArrayRef<Value> resultCotangents,
                                   SmallVectorImpl<Value> &out) {
  out.clear();
  auto noCotangents = [&] {
    out.assign(op->getNumOperands(), Value());
    return success();
  };
  // Integer and boolean results carry no cotangents.
  if (llvm::none_of(resultCotangents, [](Value v) { return bool(v); }))
    return noCotangents();
  Value ct = resultCotangents.front();
  auto notYet = [&](StringRef why) {
    return op->emitError("google-differentiate: ")
           << op->getName() << " is not differentiable yet (" << why << ")";
  };
  auto binary = [&]() -> std::pair<Value, Value> {
    return {op->getOperand(0), op->getOperand(1)};
  };
  return llvm::TypeSwitch<Operation *, LogicalResult>(op)
      .Case([&](AddOp) {
        out.append({ct, ct});
        return success();
      })
      .Case([&](SubOp) {
        out.append({ct, b.neg(ct)});
        return success();
      })
      .Case([&](MulOp) {
        auto [x, y] = binary();
        out.append({b.mul(ct, y), b.mul(ct, x)});
        return success();
      })
      .Case([&](DivOp d) {
        auto [x, y] = binary();
        out.append({b.div(ct, y), b.neg(b.div(b.mul(ct, d.getResult()), y))});
        return success();
      })
      .Case([&](MaxOp) {
        auto [x, y] = binary();
        maxMinAdjoint(b, x, y, ct, /*isMax=*/true, out);
        return success();
      })
      .Case([&](MinOp) {
        auto [x, y] = binary();
        maxMinAdjoint(b, x, y, ct, /*isMax=*/false, out);
        return success();
      })
      .Case([&](PowOp p) {
        // d/dx = y x^(y-1) (0 where y = 0); d/dy = log(x) z (0 where x = 0).
        auto [x, y] = binary();
        Type element = elementOf(ct);
        Value zero = b.scalar(0, element), one = b.scalar(1, element);
        Value dx = b.select(b.eq(y, zero), zero,
                            b.mul(y, b.pow(x, b.sub(y, one))));
        Value safeX = b.select(b.eq(x, zero), one, x);
        Value dy = b.mul(b.log(safeX), p.getResult());
        out.append({b.mul(ct, dx), b.mul(ct, dy)});
        return success();
      })
      .Case([&](RemOp) {
        // x - floor(x / y) * y.
        auto [x, y] = binary();
        out.append({ct, b.neg(b.mul(ct, b.floorDiv(x, y)))});
        return success();
      })
      .Case([&](FloorDivOp) { return noCotangents(); })
      .Case([&](SelectOp s) {
        Value zero = b.scalar(0, elementOf(ct));
        out.append({Value(), b.select(s.getCondition(), ct, zero),
                    b.select(s.getCondition(), zero, ct)});
        return success();
      })
      .Case([&](NegOp) {
        out.push_back(b.neg(ct));
        return success();
      })
      .Case([&](CastOp c) {
        out.push_back(isFloatTensor(c.getInput())
                          ? b.cast(ct, elementOf(c.getInput()))
                          : Value());
        return success();
      })
      .Case([&](MatmulOp) {
        auto [x, y] = binary();
        int64_t rank = typeOf(x).getRank();
        SmallVector<int64_t> swap =
            rank == 3 ? SmallVector<int64_t>{0, 2, 1}
                      : SmallVector<int64_t>{1, 0};
        out.append({b.matmul(ct, b.transpose(y, swap)),
                    b.matmul(b.transpose(x, swap), ct)});
        return success();
      })
      .Case([&](MatmulBiasReluOp m) {
        auto [x, y] = binary();
        Type element = elementOf(ct);
        Value active = b.mul(ct, b.indicator(b.gt(m.getResult(),
                                                  b.scalar(0, element)),
                                             element));
        int64_t rank = typeOf(x).getRank();
        SmallVector<int64_t> swap =
            rank == 3 ? SmallVector<int64_t>{0, 2, 1}
                      : SmallVector<int64_t>{1, 0};
        out.append({b.matmul(active, b.transpose(y, swap)),
                    b.matmul(b.transpose(x, swap), active), active});
        return success();
      })
      .Case([&](TransposeOp t) {
        out.push_back(b.transpose(ct, invertPermutationVector(t.getPerm())));
        return success();
      })
      .Case([&](ReshapeOp r) -> LogicalResult {
        RankedTensorType input = r.getInput().getType();
        if (llvm::is_contained(input.getShape(), 0)) {
          out.push_back(b.zerosLike(r.getInput())); // no elements
          return success();
        }
        if (llvm::count(input.getShape(), kDynamic) > 1)
          return notYet("a reshape back to several dynamic extents");
        out.push_back(b.reshape(ct, input));
        return success();
      })
      .Case([&](SliceOp s) {
        out.push_back(sliceAdjoint(s, b, ct));
        return success();
      })
      .Case([&](PadOp p) -> LogicalResult {
        RankedTensorType input = p.getInput().getType();
        SmallVector<int64_t> starts, limits, padded;
        SmallVector<int64_t> paddedDynamic;
        for (auto [d, low] : llvm::enumerate(p.getLow())) {
          int64_t extent = input.getDimSize(d);
          if (ShapedType::isDynamic(extent)) {
            if (low != 0 || p.getHigh()[d] != 0)
              paddedDynamic.push_back(d);
            starts.push_back(0);
            limits.push_back(kDynamic);
            padded.push_back(kDynamic);
            continue;
          }
          starts.push_back(low);
          limits.push_back(low + extent);
          padded.push_back(limits.back() + p.getHigh()[d]);
        }
        ct = b.refine(ct, padded);
        Value inner = ct;
        // A padded dynamic dimension: its rows low .. low + n by a gather
        // (n known at run time only).
        for (int64_t d : paddedDynamic) {
          Value at = b.add(b.positionsAlong(p.getInput(), d),
                           b.scalar(p.getLow()[d], b.getBuilder().getI64Type()));
          SmallVector<int64_t> shape(typeOf(inner).getShape());
          shape[d] = kDynamic;
          inner = GatherOp::create(b.getBuilder(), b.getLoc(),
                                   typeOf(inner).clone(shape), inner, at,
                                   b.getBuilder().getI64IntegerAttr(d));
        }
        inner = b.window(inner, starts, limits,
                         SmallVector<int64_t>(input.getRank(), 1));
        SmallVector<int64_t> all = llvm::to_vector(
            llvm::seq<int64_t>(0, input.getRank()));
        Value padding = b.sub(b.reduceSum(ct, all, false),
                              b.reduceSum(inner, all, false));
        out.append({inner, padding});
        return success();
      })
      .Case([&](ConcatOp c) -> LogicalResult {
        int64_t axis = c.getNormalizedAxis();
        if (llvm::any_of(c.getInputs(), [&](Value input) {
              return typeOf(input).isDynamicDim(axis);
            })) {
          // Offsets known at run time: each input's rows of ct by a
          // gather at its positions plus the extents before it.
          SmallVector<int64_t> known(typeOf(ct).getRank(), kDynamic);
          for (Value input : c.getInputs())
            for (auto [d, extent] : llvm::enumerate(typeOf(input).getShape()))
              if (d != static_cast<size_t>(axis) &&
                  !ShapedType::isDynamic(extent))
                known[d] = extent;
          ct = b.refine(ct, known);
          Type i64 = b.getBuilder().getI64Type();
          Value offset = b.scalar(0, i64);
          for (Value input : c.getInputs()) {
            Value at = b.add(b.positionsAlong(input, axis), offset);
            SmallVector<int64_t> shape(typeOf(ct).getShape());
            shape[axis] = typeOf(input).getDimSize(axis);
            out.push_back(GatherOp::create(b.getBuilder(), b.getLoc(),
                                           typeOf(ct).clone(shape), ct, at,
                                           b.getBuilder().getI64IntegerAttr(
                                               axis))
                              .getResult());
            offset = b.add(offset, b.extentAlong(input, axis));
          }
          return success();
        }
        // Static axis extents: slices; other dimensions may be dynamic
        // (taken whole).
        SmallVector<int64_t> shape;
        for (Value input : c.getInputs()) {
          RankedTensorType type = typeOf(input);
          if (shape.empty()) {
            shape.assign(type.getShape().begin(), type.getShape().end());
            continue;
          }
          for (auto [d, extent] : llvm::enumerate(type.getShape()))
            if (d == static_cast<size_t>(axis))
              shape[d] += extent;
            else if (ShapedType::isDynamic(shape[d]))
              shape[d] = extent;
        }
        ct = b.refine(ct, shape);
        RankedTensorType result = typeOf(ct);
        int64_t offset = 0;
        for (Value input : c.getInputs()) {
          SmallVector<int64_t> starts(result.getRank(), 0);
          SmallVector<int64_t> limits(result.getShape());
          starts[axis] = offset;
          offset += typeOf(input).getDimSize(axis);
          limits[axis] = offset;
          out.push_back(b.window(ct, starts, limits,
                                 SmallVector<int64_t>(result.getRank(), 1)));
        }
        return success();
      })
      .Case([&](ReduceSumOp r) -> LogicalResult {
        out.push_back(spreadOverAxes(b, ct, r.getInput(),
                                     r.getNormalizedAxes(), r.getKeepDims()));
        return success();
      })
      .Case([&](ReduceMeanOp r) -> LogicalResult {
        Value x = r.getInput();
        SmallVector<int64_t> axes = r.getNormalizedAxes();
        Value spread = spreadOverAxes(b, ct, x, axes, r.getKeepDims());
        // Divided by the count of reduced elements (from the input's
        // extents when they are dynamic).
        Type element = elementOf(ct);
        SmallVector<int64_t> extents;
        for (int64_t axis : axes)
          extents.push_back(typeOf(x).getDimSize(axis));
        Value count;
        if (std::optional<int64_t> n = staticElementCount(extents))
          count = b.scalar(static_cast<double>(*n), element);
        else
          count = b.reduceSum(b.broadcastLike(b.scalar(1, element), x), axes,
                              /*keepDims=*/true);
        out.push_back(b.div(spread, count));
        return success();
      })
      .Case([&](ReduceMaxOp r) {
        return extremeAdjoint(op, b, r.getInput(), r.getNormalizedAxes(),
                              r.getKeepDims(), /*isMax=*/true, ct, out);
      })
      .Case([&](ReduceMinOp r) {
        return extremeAdjoint(op, b, r.getInput(), r.getNormalizedAxes(),
                              r.getKeepDims(), /*isMax=*/false, ct, out);
      })
      .Case([&](SoftmaxOp s) {
        // z * (ct - sum(ct * z)) along the axis.
        Value z = s.getResult();
        int64_t axis = s.getNormalizedAxis();
        Value dot = b.reduceSum(b.mul(ct, z), {axis}, /*keepDims=*/true);
        out.push_back(b.mul(z, b.sub(ct, dot)));
        return success();
      })
      .Case<EqOp, NeOp, LtOp, LeOp, GtOp, GeOp, AndOp, OrOp, XorOp, NotOp,
            ArgmaxOp, ArgminOp, IotaOp, ConstantOp>(
          [&](Operation *) { return noCotangents(); })
      .Case([&](GatherOp g) {
        // Each picked row's cotangent goes back to its row; rows picked
        // more than once add up.
        Value input = g.getInput();
        out.append({b.scatterAdd(b.zerosLike(input), g.getIndices(), ct,
                                 g.getNormalizedAxis()),
                    Value()});
        return success();
      })
      .Case([&](ScatterAddOp sc) {
        Value updates = sc.getUpdates();
        out.append({ct, Value(),
                    GatherOp::create(b.getBuilder(), b.getLoc(),
                                     typeOf(updates), ct, sc.getIndices(),
                                     sc.getAxisAttr())
                        .getResult()});
        return success();
      })
      .Case([&](ReduceProdOp r) {
        // d/dx_i = the product of the others: z / x_i without zeros; with
        // one zero, the product of the nonzeros at the zero and 0
        // elsewhere; with more, 0.
        Value x = r.getInput();
        SmallVector<int64_t> axes = r.getNormalizedAxes();
        Type element = elementOf(x);
        Value zero = b.scalar(0, element), one = b.scalar(1, element);
        Value isZero = b.eq(x, zero);
        Value nonzeros = b.select(isZero, one, x);
        OpBuilder &builder = b.getBuilder();
        auto keptType = typeOf(x).clone(
            reducedShape(typeOf(x).getShape(), axes, /*keepDims=*/true));
        Value product = ReduceProdOp::create(
            builder, b.getLoc(), keptType, nonzeros,
            builder.getDenseI64ArrayAttr(axes), builder.getBoolAttr(true));
        Value zeros = b.reduceSum(b.indicator(isZero, element), axes,
                                  /*keepDims=*/true);
        Value others = b.select(
            b.eq(zeros, zero), b.div(product, nonzeros),
            b.select(b.eq(zeros, one), b.mul(product,
                                             b.indicator(isZero, element)),
                     zero));
        out.push_back(b.mul(others, spreadOverAxes(b, ct, x, axes,
                                                   r.getKeepDims())));
        return success();
      })
      .Case([&](Conv2DOp conv) {
        return convolutionAdjoint(conv, b, ct, out);
      })
      .Case([&](MaxPool2DOp pool) {
        return poolAdjoint(pool, b, ct, /*isMax=*/true, out);
      })
      .Case([&](AvgPool2DOp pool) {
        return poolAdjoint(pool, b, ct, /*isMax=*/false, out);
      })
      .Default([&](Operation *) -> LogicalResult {
        if (op->getNumOperands() == 1 && op->getNumResults() == 1)
          if (Value derivative =
                  unaryDerivative(op, b, op->getOperand(0), op->getResult(0))) {
            out.push_back(b.mul(ct, derivative));
            return success();
          }
        return op->emitError("google-differentiate: no adjoint rule for ")
               << op->getName();
      });
}
