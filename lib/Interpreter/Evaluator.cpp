//===- Evaluator.cpp - google ops evaluated on concrete tensors -----------===//
//
// One function per op family: the run-time shape rules (which extents must
// agree, with the lowering's messages), then the loops, with every scalar
// step taken from ScalarSemantics.h.
//
//===----------------------------------------------------------------------===//

#include "EvalAlgebra.h"
#include "Interpreter/Interpreter.h"

#include "Dialect/Google/IR/GoogleOps.h"
#include "Dialect/Google/IR/ScalarSemantics.h"
#include "Dialect/Google/IR/ShapeRules.h"

#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "llvm/ADT/TypeSwitch.h"

#include <cmath>

using namespace mlir;
using namespace mlir::google;
using llvm::createStringError;
using llvm::Error;
using llvm::Expected;

namespace {

constexpr int64_t kDynamic = ShapedType::kDynamic;

std::string extentMessage(Operation *op, StringRef what, int64_t dim,
                          int64_t actual, int64_t expected) {
  return (op->getName().getStringRef() + ": dimension " + Twine(dim) +
          " of " + what + " is " + Twine(actual) + ", expected " +
          Twine(expected))
      .str();
}

/// Checks that `actual` has the static extents of `known` (as the lowering
/// refines operands).
Error checkKnown(Operation *op, StringRef what, ArrayRef<int64_t> known,
                 ArrayRef<int64_t> actual, StringRef suffix = "") {
  for (auto [d, k] : llvm::enumerate(known))
    if (k != kDynamic && actual[d] != k) {
      return createStringError(extentMessage(op, what, d, actual[d], k) +
                               suffix);
    }
  return Error::success();
}

RankedTensorType typeOf(Value value) {
  return cast<RankedTensorType>(value.getType());
}

SmallVector<int64_t> stridesOf(ArrayRef<int64_t> shape) {
  SmallVector<int64_t> strides(shape.size(), 1);
  for (int64_t d = static_cast<int64_t>(shape.size()) - 2; d >= 0; --d)
    strides[d] = strides[d + 1] * shape[d + 1];
  return strides;
}

/// Calls `fn(n, offsets)` for each element n of `shape` in row-major order,
/// where offsets[k] advances by strides[k][d] along dimension d.
void forEachIndex(ArrayRef<int64_t> shape,
                  ArrayRef<SmallVector<int64_t>> strides,
                  function_ref<void(int64_t, ArrayRef<int64_t>)> fn) {
  int64_t count = 1;
  for (int64_t dim : shape)
    count *= dim;
  int64_t rank = shape.size();
  SmallVector<int64_t> position(rank, 0);
  SmallVector<int64_t> offsets(strides.size(), 0);
  for (int64_t n = 0; n < count; ++n) {
    fn(n, offsets);
    for (int64_t d = rank - 1; d >= 0; --d) {
      for (auto [k, s] : llvm::enumerate(strides))
        offsets[k] += s[d];
      if (++position[d] < shape[d])
        break;
      for (auto [k, s] : llvm::enumerate(strides))
        offsets[k] -= s[d] * shape[d];
      position[d] = 0;
    }
  }
}

//===----------------------------------------------------------------------===//
// Elementwise (unary, broadcasting binary, cast)
//===----------------------------------------------------------------------===//

Expected<ConcreteTensor> evalElementwise(Operation *op,
                                         ArrayRef<ConcreteTensor> operands) {
  RankedTensorType resultType = typeOf(op->getResult(0));
  int64_t rank = resultType.getRank();
  SmallVector<ArrayRef<int64_t>> declared;
  for (Value operand : op->getOperands())
    declared.push_back(typeOf(operand).getShape());
  SmallVector<int64_t> known =
      knownBroadcastShape(resultType.getShape(), declared);
  SmallVector<int64_t> shape(known);
  SmallVector<bool> sized(rank, false);
  SmallVector<SmallVector<int64_t>> strides;
  for (auto [index, operand] : llvm::enumerate(op->getOperands())) {
    RankedTensorType type = typeOf(operand);
    ArrayRef<int64_t> actual = operands[index].getShape();
    int64_t offset = rank - type.getRank();
    std::string what = "operand #" + std::to_string(index);
    SmallVector<int64_t> operandStrides(rank, 0);
    SmallVector<int64_t> dense = stridesOf(actual);
    for (int64_t i = 0; i < type.getRank(); ++i) {
      int64_t d = offset + i;
      if (stretches(type.getDimSize(i), resultType.getDimSize(d)))
        continue;
      operandStrides[d] = operands[index].isSplat() ? 0 : dense[i];
      if (known[d] != kDynamic) {
        if (actual[i] != known[d]) {
          return createStringError(
              extentMessage(op, what, i, actual[i], known[d]) +
              " (dynamic dimensions are not broadcast)");
        }
        continue;
      }
      if (!sized[d]) {
        shape[d] = actual[i];
        sized[d] = true;
      } else if (actual[i] != shape[d]) {
        return createStringError(
            extentMessage(op, what, i, actual[i], shape[d]) +
            " like the other operand (dynamic dimensions are not "
            "broadcast)");
      }
    }
    strides.push_back(operandStrides);
  }
  for (int64_t &dim : shape)
    if (dim == kDynamic)
      dim = 1; // every operand stretches

  // An elementwise op computes in its last operand's type (a select's
  // values, a comparison's operands).
  Type elementType = operands.back().getElementType();
  EvalAlgebra algebra(elementType);
  bool splat = llvm::all_of(operands,
                            [](const ConcreteTensor &t) { return t.isSplat(); });
  ConcreteTensor result(resultType.getElementType(), shape, splat);
  SmallVector<Scalar, 2> args(operands.size());
  auto compute = [&](int64_t n, ArrayRef<int64_t> offsets) {
    for (auto [k, operand] : llvm::enumerate(operands))
      args[k] = operand.at(offsets[k]);
    result.at(n) =
        *semantics::elementwise(op, algebra, ArrayRef<Scalar>(args));
  };
  if (splat)
    compute(0, SmallVector<int64_t>(operands.size(), 0));
  else
    forEachIndex(shape, strides, compute);
  return result;
}

//===----------------------------------------------------------------------===//
// Matrix products
//===----------------------------------------------------------------------===//

Expected<ConcreteTensor> evalMatmul(Operation *op, ConcreteTensor lhs,
                                    ConcreteTensor rhs,
                                    const ConcreteTensor *bias) {
  RankedTensorType resultType = typeOf(op->getResult(0));
  RankedTensorType lhsType = typeOf(op->getOperand(0));
  RankedTensorType rhsType = typeOf(op->getOperand(1));
  int64_t rank = resultType.getRank();
  MatmulShapes known = knownMatmulShapes(
      lhsType.getShape(), rhsType.getShape(), resultType.getShape(),
      bias ? typeOf(op->getOperand(2)).getDimSize(0) : kDynamic);
  if (Error e = checkKnown(op, "lhs", known.lhs, lhs.getShape()))
    return std::move(e);
  if (Error e = checkKnown(op, "rhs", known.rhs, rhs.getShape()))
    return std::move(e);
  StringRef name = op->getName().getStringRef();
  ArrayRef<int64_t> ls = lhs.getShape(), rs = rhs.getShape();
  if (rs[rank - 2] != ls[rank - 1]) {
    return createStringError(name + ": the contracting dimension of rhs is " +
                             Twine(rs[rank - 2]) + ", expected " +
                             Twine(ls[rank - 1]) + " like lhs's");
  }
  if (rank == 3 && rs[0] != ls[0]) {
    return createStringError(name + ": the batch dimension of rhs is " +
                             Twine(rs[0]) + ", expected " + Twine(ls[0]) +
                             " like lhs's");
  }
  int64_t batch = rank == 3 ? ls[0] : 1;
  int64_t rows = ls[rank - 2], cols = rs[rank - 1], inner = ls[rank - 1];
  if (bias && bias->getShape()[0] != cols) {
    return createStringError(name + ": the bias has " +
                             Twine(bias->getShape()[0]) +
                             " elements, expected N = " + Twine(cols));
  }
  SmallVector<int64_t> shape;
  if (rank == 3)
    shape.push_back(batch);
  shape.append({rows, cols});
  lhs.materialize();
  rhs.materialize();
  EvalAlgebra a(resultType.getElementType());
  EvalAlgebra w = a.accumulator();
  ConcreteTensor result(resultType.getElementType(), shape);
  for (int64_t b = 0; b < batch; ++b)
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t j = 0; j < cols; ++j) {
        Scalar acc = w.constant(0);
        for (int64_t p = 0; p < inner; ++p)
          acc = semantics::multiplyAccumulate(
              a, w, acc, lhs.at((b * rows + i) * inner + p),
              rhs.at((b * inner + p) * cols + j));
        acc = a.fromAccumulator(acc);
        if (bias)
          acc = semantics::biasRelu(a, acc, bias->at(j));
        result.at((b * rows + i) * cols + j) = acc;
      }
  return result;
}

//===----------------------------------------------------------------------===//
// Layout
//===----------------------------------------------------------------------===//

Expected<ConcreteTensor> evalTranspose(TransposeOp op, ConcreteTensor input) {
  RankedTensorType resultType = op.getResult().getType();
  ArrayRef<int64_t> perm = op.getPerm();
  SmallVector<int64_t> known = knownTransposeInput(
      op.getInput().getType().getShape(), resultType.getShape(), perm);
  if (Error e = checkKnown(op, "the input", known, input.getShape()))
    return std::move(e);
  SmallVector<int64_t> shape = applyPermutation(input.getShape(), perm);
  if (input.isSplat()) {
    input.reshape(shape);
    return input;
  }
  SmallVector<int64_t> inputStrides = stridesOf(input.getShape());
  SmallVector<int64_t> strides;
  for (int64_t p : perm)
    strides.push_back(inputStrides[p]);
  ConcreteTensor result(input.getElementType(), shape);
  forEachIndex(shape, {strides}, [&](int64_t n, ArrayRef<int64_t> offsets) {
    result.at(n) = input.at(offsets[0]);
  });
  return result;
}

ConcreteTensor evalSlice(SliceOp op, ConcreteTensor input) {
  SmallVector<int64_t> shape = op.getWindowShape();
  SmallVector<int64_t> inputStrides = stridesOf(input.getShape());
  SmallVector<int64_t> strides;
  int64_t base = 0;
  for (auto [d, step] : llvm::enumerate(op.getStrides())) {
    strides.push_back(inputStrides[d] * step);
    base += op.getStarts()[d] * inputStrides[d];
  }
  ConcreteTensor result(input.getElementType(), shape, input.isSplat());
  if (input.isSplat()) {
    result.at(0) = input.at(0);
    return result;
  }
  forEachIndex(shape, {strides}, [&](int64_t n, ArrayRef<int64_t> offsets) {
    result.at(n) = input.at(base + offsets[0]);
  });
  return result;
}

/// The result shape of a windowed op: its static output shape with the
/// input's batch extent, checked against the declared result.
Expected<SmallVector<int64_t>> windowedShape(Operation *op,
                                             SmallVector<int64_t> shape,
                                             ArrayRef<int64_t> inShape) {
  if (Error e = checkKnown(op, "the input",
                           typeOf(op->getOperand(0)).getShape(), inShape))
    return std::move(e);
  shape[0] = inShape[0];
  if (Error e = checkKnown(op, "the result",
                           typeOf(op->getResult(0)).getShape(), shape))
    return std::move(e);
  return shape;
}

Expected<ConcreteTensor> evalConv2d(Conv2DOp op, ConcreteTensor input,
                                    ConcreteTensor filter) {
  Expected<SmallVector<int64_t>> shape =
      windowedShape(op, op.getOutputShape(), input.getShape());
  if (!shape)
    return shape.takeError();
  input.materialize();
  filter.materialize();
  ArrayRef<int64_t> in = input.getShape(), f = filter.getShape();
  ArrayRef<int64_t> strides = op.getStrides(), dilations = op.getDilations(),
                    padding = op.getPadding();
  int64_t groupChannels = f[2], groupOutputs = f[3] / op.getGroups();
  RankedTensorType resultType = op.getResult().getType();
  EvalAlgebra a(resultType.getElementType());
  EvalAlgebra w = a.accumulator();
  ConcreteTensor result(resultType.getElementType(), *shape);
  int64_t n = 0;
  for (int64_t b = 0; b < (*shape)[0]; ++b)
    for (int64_t oy = 0; oy < (*shape)[1]; ++oy)
      for (int64_t ox = 0; ox < (*shape)[2]; ++ox)
        for (int64_t o = 0; o < (*shape)[3]; ++o, ++n) {
          int64_t group = o / groupOutputs;
          Scalar acc = w.constant(0);
          for (int64_t i = 0; i < f[0]; ++i) {
            int64_t y = oy * strides[0] + i * dilations[0] - padding[0];
            if (y < 0 || y >= in[1])
              continue;
            for (int64_t j = 0; j < f[1]; ++j) {
              int64_t x = ox * strides[1] + j * dilations[1] - padding[2];
              if (x < 0 || x >= in[2])
                continue;
              for (int64_t c = 0; c < groupChannels; ++c)
                acc = semantics::multiplyAccumulate(
                    a, w, acc,
                    input.at(((b * in[1] + y) * in[2] + x) * in[3] +
                             group * groupChannels + c),
                    filter.at(((i * f[1] + j) * f[2] + c) * f[3] + o));
            }
          }
          result.at(n) = a.fromAccumulator(acc);
        }
  return result;
}

/// Max or average pooling: the input elements of each window, combined
/// as the reductions combine them.
template <typename PoolOp>
Expected<ConcreteTensor> evalPool(PoolOp op, ConcreteTensor input, bool isMax) {
  Expected<SmallVector<int64_t>> shape =
      windowedShape(op, op.getOutputShape(), input.getShape());
  if (!shape)
    return shape.takeError();
  input.materialize();
  ArrayRef<int64_t> in = input.getShape();
  ArrayRef<int64_t> window = op.getWindow(), strides = op.getStrides(),
                    padding = op.getPadding();
  using semantics::Combiner;
  Combiner combiner = isMax ? Combiner::Max : Combiner::Sum;
  EvalAlgebra a(input.getElementType());
  EvalAlgebra w = a.accumulator();
  ConcreteTensor result(input.getElementType(), *shape);
  int64_t n = 0;
  for (int64_t b = 0; b < (*shape)[0]; ++b)
    for (int64_t oy = 0; oy < (*shape)[1]; ++oy)
      for (int64_t ox = 0; ox < (*shape)[2]; ++ox)
        for (int64_t c = 0; c < (*shape)[3]; ++c, ++n) {
          Scalar acc = semantics::identity(w, combiner);
          int64_t count = 0;
          for (int64_t i = 0; i < window[0]; ++i) {
            int64_t y = oy * strides[0] + i - padding[0];
            if (y < 0 || y >= in[1])
              continue;
            for (int64_t j = 0; j < window[1]; ++j) {
              int64_t x = ox * strides[1] + j - padding[2];
              if (x < 0 || x >= in[2])
                continue;
              acc = semantics::accumulate(
                  a, w, combiner, acc,
                  input.at(((b * in[1] + y) * in[2] + x) * in[3] + c));
              ++count;
            }
          }
          result.at(n) = isMax ? a.fromAccumulator(acc)
                               : semantics::mean(a, w, acc, count);
        }
  return result;
}

Expected<ConcreteTensor> evalConcat(ConcatOp op,
                                    ArrayRef<ConcreteTensor> inputs) {
  int64_t axis = op.getNormalizedAxis();
  SmallVector<int64_t> shape(inputs.front().getShape());
  shape[axis] = 0;
  for (auto [i, input] : llvm::enumerate(inputs)) {
    for (auto [d, extent] : llvm::enumerate(input.getShape())) {
      if (static_cast<int64_t>(d) == axis)
        continue;
      if (extent != shape[d]) {
        return createStringError(extentMessage(op, ("input " + Twine(i)).str(),
                                               d, extent, shape[d]));
      }
    }
    shape[axis] += input.getShape()[axis];
  }
  if (Error e = checkKnown(op, "the result", typeOf(op.getResult()).getShape(),
                           shape))
    return std::move(e);
  ConcreteTensor result(inputs.front().getElementType(), shape);
  SmallVector<int64_t> resultStrides = stridesOf(shape);
  int64_t offset = 0;
  for (const ConcreteTensor &input : inputs) {
    // Each input lands at `offset` along the axis.
    forEachIndex(input.getShape(), {resultStrides},
                 [&](int64_t n, ArrayRef<int64_t> offsets) {
                   result.at(offsets[0] + offset * resultStrides[axis]) =
                       input.at(n);
                 });
    offset += input.getShape()[axis];
  }
  return result;
}

ConcreteTensor evalPad(PadOp op, ConcreteTensor input, const Scalar &value) {
  SmallVector<int64_t> shape;
  int64_t base = 0;
  for (auto [d, extent] : llvm::enumerate(input.getShape()))
    shape.push_back(extent + op.getLow()[d] + op.getHigh()[d]);
  SmallVector<int64_t> resultStrides = stridesOf(shape);
  for (auto [d, low] : llvm::enumerate(op.getLow()))
    base += low * resultStrides[d];
  ConcreteTensor result(input.getElementType(), shape);
  for (int64_t n = 0, e = result.getNumElements(); n < e; ++n)
    result.at(n) = value;
  forEachIndex(input.getShape(), {resultStrides},
               [&](int64_t n, ArrayRef<int64_t> offsets) {
                 result.at(base + offsets[0]) = input.at(n);
               });
  return result;
}

/// `like`: the operand giving the shape at run time (null: the static
/// result shape).
ConcreteTensor evalIota(IotaOp op, const ConcreteTensor *like) {
  RankedTensorType type = op.getResult().getType();
  EvalAlgebra a(type.getElementType());
  ArrayRef<int64_t> shape = like ? like->getShape() : type.getShape();
  ConcreteTensor result(type.getElementType(), shape);
  SmallVector<int64_t> strides(type.getRank(), 0);
  strides[op.getDimension()] = 1;
  forEachIndex(shape, {strides},
               [&](int64_t n, ArrayRef<int64_t> offsets) {
                 result.at(n) = a.convertIndex(offsets[0]);
               });
  return result;
}

/// An error naming the first of `indices` outside [-extent, extent).
Error checkIndices(Operation *op, const ConcreteTensor &indices,
                   int64_t extent, int64_t axis) {
  for (int64_t n = 0, e = indices.getNumElements(); n < e; ++n) {
    int64_t index = indices.at(n).i;
    if (index < -extent || index >= extent) {
      return createStringError(op->getName().getStringRef() + ": index " +
                               Twine(index) + " is out of range for axis " +
                               Twine(axis) + " of extent " + Twine(extent));
    }
  }
  return Error::success();
}

Expected<ConcreteTensor> evalGather(GatherOp op, ConcreteTensor input,
                                    const ConcreteTensor &indices) {
  int64_t axis = op.getNormalizedAxis();
  ArrayRef<int64_t> inShape = input.getShape();
  int64_t extent = inShape[axis];
  SmallVector<int64_t> shape(inShape.take_front(axis));
  llvm::append_range(shape, indices.getShape());
  llvm::append_range(shape, inShape.drop_front(axis + 1));
  if (Error e = checkKnown(op, "the result", typeOf(op.getResult()).getShape(),
                           shape))
    return std::move(e);
  if (Error e = checkIndices(op, indices, extent, axis))
    return std::move(e);
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < axis; ++d)
    outer *= inShape[d];
  for (int64_t d = axis + 1, e = inShape.size(); d < e; ++d)
    inner *= inShape[d];
  int64_t count = indices.getNumElements();
  ConcreteTensor result(input.getElementType(), shape);
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t k = 0; k < count; ++k) {
      int64_t index = indices.at(k).i;
      if (index < 0)
        index += extent;
      for (int64_t i = 0; i < inner; ++i)
        result.at((o * count + k) * inner + i) =
            input.at((o * extent + index) * inner + i);
    }
  return result;
}

/// The first index of the maximum (or minimum) along `axis`; NaN is the
/// extreme of both, as in NumPy.
template <typename ArgReduceOp>
Expected<ConcreteTensor> evalArgReduce(ArgReduceOp op, ConcreteTensor input,
                                       bool isMax) {
  int64_t axis = op.getNormalizedAxis();
  ArrayRef<int64_t> inShape = input.getShape();
  int64_t extent = inShape[axis];
  if (extent == 0) {
    return createStringError(op->getName().getStringRef() + ": axis " +
                             Twine(axis) + " is empty (extent 0)");
  }
  SmallVector<int64_t> shape = reducedShape(inShape, {axis}, op.getKeepDims());
  if (Error e = checkKnown(op, "the result", typeOf(op.getResult()).getShape(),
                           shape))
    return std::move(e);
  bool isFloat = input.isFloat();
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < axis; ++d)
    outer *= inShape[d];
  for (int64_t d = axis + 1, e = inShape.size(); d < e; ++d)
    inner *= inShape[d];
  ConcreteTensor result(op.getResult().getType().getElementType(), shape);
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t i = 0; i < inner; ++i) {
      auto at = [&](int64_t k) -> const Scalar & {
        return input.at((o * extent + k) * inner + i);
      };
      int64_t best = 0;
      for (int64_t k = 1; k < extent; ++k) {
        const Scalar &x = at(k), &y = at(best);
        bool better;
        if (isFloat)
          better = !std::isnan(y.f) &&
                   (std::isnan(x.f) || (isMax ? x.f > y.f : x.f < y.f));
        else
          better = isMax ? x.i > y.i : x.i < y.i;
        if (better)
          best = k;
      }
      result.at(o * inner + i) = Scalar{0, best};
    }
  return result;
}

Expected<ConcreteTensor> evalReshape(ReshapeOp op, ConcreteTensor input) {
  RankedTensorType resultType = op.getResult().getType();
  int64_t count = input.getNumElements();
  int64_t known = 1;
  for (int64_t dim : resultType.getShape())
    if (dim != kDynamic)
      known *= dim;
  SmallVector<int64_t> shape(resultType.getShape());
  StringRef name = op->getName().getStringRef();
  if (resultType.hasStaticShape()) {
    if (count != known) {
      return createStringError(name + ": the input has " + Twine(count) +
                               " elements, expected " + Twine(known));
    }
  } else {
    if (count % known != 0) {
      return createStringError(
          name + ": the element count is not a multiple of " + Twine(known) +
          " (the result's static extents): the "
          "remainder is " +
          Twine(count % known));
    }
    for (int64_t &dim : shape)
      if (dim == kDynamic)
        dim = count / known;
  }
  input.reshape(shape);
  return input;
}

Expected<ConcreteTensor> evalScatterAdd(ScatterAddOp op, ConcreteTensor base,
                                        const ConcreteTensor &indices,
                                        ConcreteTensor updates) {
  int64_t axis = op.getNormalizedAxis();
  ArrayRef<int64_t> baseShape = base.getShape();
  int64_t extent = baseShape[axis];
  SmallVector<int64_t> shape(baseShape.take_front(axis));
  llvm::append_range(shape, indices.getShape());
  llvm::append_range(shape, baseShape.drop_front(axis + 1));
  if (Error e = checkKnown(op, "the result",
                           typeOf(op.getResult()).getShape(), baseShape))
    return std::move(e);
  if (Error e = checkKnown(op, "the updates", shape, updates.getShape()))
    return std::move(e);
  if (Error e = checkIndices(op, indices, extent, axis))
    return std::move(e);
  base.materialize();
  updates.materialize();
  EvalAlgebra a(base.getElementType());
  EvalAlgebra w = a.accumulator();
  for (int64_t n = 0, e = base.getNumElements(); n < e; ++n)
    base.at(n) = a.toAccumulator(base.at(n));
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < axis; ++d)
    outer *= baseShape[d];
  for (int64_t d = axis + 1, e = baseShape.size(); d < e; ++d)
    inner *= baseShape[d];
  int64_t count = indices.getNumElements();
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t k = 0; k < count; ++k) {
      int64_t index = indices.at(k).i;
      if (index < 0)
        index += extent;
      for (int64_t i = 0; i < inner; ++i) {
        Scalar &acc = base.at((o * extent + index) * inner + i);
        acc = semantics::accumulate(a, w, semantics::Combiner::Sum, acc,
                                    updates.at((o * count + k) * inner + i));
      }
    }
  for (int64_t n = 0, e = base.getNumElements(); n < e; ++n)
    base.at(n) = a.fromAccumulator(base.at(n));
  return base;
}

//===----------------------------------------------------------------------===//
// Reductions and softmax
//===----------------------------------------------------------------------===//

Expected<ConcreteTensor> evalReduce(Operation *op, ConcreteTensor input,
                                    ArrayRef<int64_t> axes, bool keepDims,
                                    semantics::Combiner combiner, bool isMean) {
  RankedTensorType resultType = typeOf(op->getResult(0));
  ArrayRef<int64_t> inShape = input.getShape();
  SmallVector<int64_t> known =
      knownReduceInput(typeOf(op->getOperand(0)).getShape(),
                       resultType.getShape(), axes, keepDims);
  if (Error e = checkKnown(op, "the input", known, inShape))
    return std::move(e);
  input.materialize();
  Type elementType = input.getElementType();
  EvalAlgebra a(elementType);
  EvalAlgebra w = a.accumulator();
  SmallVector<int64_t> keptShape = reducedShape(inShape, axes, true);
  // Accumulators, in the element type's storage (held exactly as doubles).
  ConcreteTensor result(elementType, reducedShape(inShape, axes, keepDims));
  for (int64_t n = 0, e = result.getNumElements(); n < e; ++n)
    result.at(n) = semantics::identity(w, combiner);
  // Reduced dimensions do not advance the result.
  SmallVector<int64_t> strides = stridesOf(keptShape);
  for (int64_t axis : axes)
    strides[axis] = 0;
  forEachIndex(inShape, {strides}, [&](int64_t n, ArrayRef<int64_t> offsets) {
    Scalar &acc = result.at(offsets[0]);
    acc = semantics::accumulate(a, w, combiner, acc, input.at(n));
  });
  int64_t count = 1;
  for (int64_t axis : axes)
    count *= inShape[axis];
  for (int64_t n = 0, e = result.getNumElements(); n < e; ++n)
    result.at(n) = isMean ? semantics::mean(a, w, result.at(n), count)
                          : a.fromAccumulator(result.at(n));
  return result;
}

ConcreteTensor evalSoftmax(ConcreteTensor input, int64_t axis) {
  input.materialize();
  EvalAlgebra a(input.getElementType());
  EvalAlgebra w = a.accumulator();
  ArrayRef<int64_t> shape = input.getShape();
  int64_t inner = 1;
  for (int64_t d = axis + 1, e = shape.size(); d < e; ++d)
    inner *= shape[d];
  int64_t extent = shape[axis];
  int64_t outer = extent * inner == 0
                      ? 0
                      : input.getNumElements() / (extent * inner);
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t i = 0; i < inner; ++i) {
      auto at = [&](int64_t k) -> Scalar & {
        return input.at((o * extent + k) * inner + i);
      };
      Scalar maximum = semantics::identity(w, semantics::Combiner::Max);
      for (int64_t k = 0; k < extent; ++k)
        maximum = semantics::accumulate(a, w, semantics::Combiner::Max,
                                        maximum, at(k));
      maximum = a.fromAccumulator(maximum);
      Scalar sum = semantics::identity(w, semantics::Combiner::Sum);
      for (int64_t k = 0; k < extent; ++k) {
        at(k) = semantics::softmaxNumerator(a, at(k), maximum);
        sum = semantics::accumulate(a, w, semantics::Combiner::Sum, sum,
                                    at(k));
      }
      for (int64_t k = 0; k < extent; ++k)
        at(k) = semantics::softmaxNormalize(a, w, at(k), sum);
    }
  return input;
}

template <typename ReduceOp>
Expected<ConcreteTensor> evalReduceOp(ReduceOp op, ConcreteTensor input,
                                      semantics::Combiner combiner,
                                      bool isMean) {
  return evalReduce(op, std::move(input), op.getNormalizedAxes(),
                    op.getKeepDims(), combiner, isMean);
}

} // namespace

namespace {

Expected<ConcreteTensor> evaluate(Operation *op,
                                  ArrayRef<ConcreteTensor> operands) {
  using semantics::Combiner;
  if (auto constant = dyn_cast<ConstantOp>(op)) {
    auto dense = dyn_cast<DenseElementsAttr>(constant.getValue());
    if (!dense) {
      return createStringError(
          "google.constant: only dense constants can be evaluated");
    }
    return ConcreteTensor::fromAttr(dense);
  }
  if (!isa<GoogleDialect>(op->getDialect())) {
    return createStringError(
        "'" + op->getName().getStringRef().str() +
        "' is not a google op: the reference interpreter runs "
        "google-dialect functions");
  }
  if (op->hasTrait<OpTrait::google::Elementwise>())
    return evalElementwise(op, operands);
  return llvm::TypeSwitch<Operation *, Expected<ConcreteTensor>>(op)
      .Case([&](MatmulOp) {
        return evalMatmul(op, operands[0], operands[1], nullptr);
      })
      .Case([&](MatmulBiasReluOp) {
        return evalMatmul(op, operands[0], operands[1], &operands[2]);
      })
      .Case([&](TransposeOp t) { return evalTranspose(t, operands[0]); })
      .Case([&](ReshapeOp r) { return evalReshape(r, operands[0]); })
      .Case([&](SliceOp s) -> Expected<ConcreteTensor> {
        return evalSlice(s, operands[0]);
      })
      .Case([&](Conv2DOp c) { return evalConv2d(c, operands[0], operands[1]); })
      .Case([&](MaxPool2DOp p) {
        return evalPool(p, operands[0], /*isMax=*/true);
      })
      .Case([&](AvgPool2DOp p) {
        return evalPool(p, operands[0], /*isMax=*/false);
      })
      .Case([&](ConcatOp c) { return evalConcat(c, operands); })
      .Case([&](PadOp p) -> Expected<ConcreteTensor> {
        return evalPad(p, operands[0], operands[1].at(0));
      })
      .Case([&](IotaOp i) -> Expected<ConcreteTensor> {
        return evalIota(i, i.getLike() ? &operands[0] : nullptr);
      })
      .Case([&](GatherOp g) { return evalGather(g, operands[0], operands[1]); })
      .Case([&](ScatterAddOp s) {
        return evalScatterAdd(s, operands[0], operands[1], operands[2]);
      })
      .Case([&](ArgmaxOp r) {
        return evalArgReduce(r, operands[0], /*isMax=*/true);
      })
      .Case([&](ArgminOp r) {
        return evalArgReduce(r, operands[0], /*isMax=*/false);
      })
      .Case([&](ReduceSumOp r) {
        return evalReduceOp(r, operands[0], Combiner::Sum, false);
      })
      .Case([&](ReduceMaxOp r) {
        return evalReduceOp(r, operands[0], Combiner::Max, false);
      })
      .Case([&](ReduceMinOp r) {
        return evalReduceOp(r, operands[0], Combiner::Min, false);
      })
      .Case([&](ReduceProdOp r) {
        return evalReduceOp(r, operands[0], Combiner::Prod, false);
      })
      .Case([&](ReduceMeanOp r) {
        return evalReduceOp(r, operands[0], Combiner::Sum, true);
      })
      .Case([&](SoftmaxOp s) -> Expected<ConcreteTensor> {
        return evalSoftmax(operands[0], s.getNormalizedAxis());
      })
      .Default([&](Operation *) -> Expected<ConcreteTensor> {
        return createStringError("cannot evaluate '" +
                                 op->getName().getStringRef().str() + "'");
      });
}

} // namespace

Expected<ConcreteTensor> google::evaluateOp(Operation *op,
                                            ArrayRef<ConcreteTensor> operands) {
  Expected<ConcreteTensor> result = evaluate(op, operands);
  if (!result)
    return result;
  // A static extent of the result type is a promise the program makes
  // (pad of a dynamic input to a static result): compiled code checks it
  // at run time, and so does the interpreter.
  if (Error error = checkKnown(op, "the result",
                               typeOf(op->getResult(0)).getShape(),
                               result->getShape()))
    return std::move(error);
  return result;
}
