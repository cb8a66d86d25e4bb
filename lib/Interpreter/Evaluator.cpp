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

using namespace mlir;
using namespace mlir::google;

namespace {

constexpr int64_t kDynamic = ShapedType::kDynamic;

/// A failed run-time shape rule, with the lowering's message text.
struct ShapeError {
  std::string message;
};

std::string extentMessage(Operation *op, StringRef what, int64_t dim,
                          int64_t actual, int64_t expected) {
  return (op->getName().getStringRef() + ": dimension " + Twine(dim) +
          " of " + what + " is " + Twine(actual) + ", expected " +
          Twine(expected))
      .str();
}

/// Checks that `actual` has the static extents of `known` (as the lowering
/// refines operands).
LogicalResult checkKnown(Operation *op, StringRef what,
                         ArrayRef<int64_t> known, ArrayRef<int64_t> actual,
                         std::string &error, StringRef suffix = "") {
  for (auto [d, k] : llvm::enumerate(known))
    if (k != kDynamic && actual[d] != k) {
      error = extentMessage(op, what, d, actual[d], k) + suffix.str();
      return failure();
    }
  return success();
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

FailureOr<ConcreteTensor> evalElementwise(Operation *op,
                                          ArrayRef<ConcreteTensor> operands,
                                          std::string &error) {
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
          error = extentMessage(op, what, i, actual[i], known[d]) +
                  " (dynamic dimensions are not broadcast)";
          return failure();
        }
        continue;
      }
      if (!sized[d]) {
        shape[d] = actual[i];
        sized[d] = true;
      } else if (actual[i] != shape[d]) {
        error = extentMessage(op, what, i, actual[i], shape[d]) +
                " like the other operand (dynamic dimensions are not "
                "broadcast)";
        return failure();
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

FailureOr<ConcreteTensor> evalMatmul(Operation *op, ConcreteTensor lhs,
                                     ConcreteTensor rhs,
                                     const ConcreteTensor *bias,
                                     std::string &error) {
  RankedTensorType resultType = typeOf(op->getResult(0));
  RankedTensorType lhsType = typeOf(op->getOperand(0));
  RankedTensorType rhsType = typeOf(op->getOperand(1));
  int64_t rank = resultType.getRank();
  MatmulShapes known = knownMatmulShapes(
      lhsType.getShape(), rhsType.getShape(), resultType.getShape(),
      bias ? typeOf(op->getOperand(2)).getDimSize(0) : kDynamic);
  if (failed(checkKnown(op, "lhs", known.lhs, lhs.getShape(), error)) ||
      failed(checkKnown(op, "rhs", known.rhs, rhs.getShape(), error)))
    return failure();
  StringRef name = op->getName().getStringRef();
  ArrayRef<int64_t> ls = lhs.getShape(), rs = rhs.getShape();
  if (rs[rank - 2] != ls[rank - 1]) {
    error = (name + ": the contracting dimension of rhs is " +
             Twine(rs[rank - 2]) + ", expected " + Twine(ls[rank - 1]) +
             " like lhs's")
                .str();
    return failure();
  }
  if (rank == 3 && rs[0] != ls[0]) {
    error = (name + ": the batch dimension of rhs is " + Twine(rs[0]) +
             ", expected " + Twine(ls[0]) + " like lhs's")
                .str();
    return failure();
  }
  int64_t batch = rank == 3 ? ls[0] : 1;
  int64_t rows = ls[rank - 2], cols = rs[rank - 1], inner = ls[rank - 1];
  if (bias && bias->getShape()[0] != cols) {
    error = (name + ": the bias has " + Twine(bias->getShape()[0]) +
             " elements, expected N = " + Twine(cols))
                .str();
    return failure();
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

FailureOr<ConcreteTensor> evalTranspose(TransposeOp op, ConcreteTensor input,
                                        std::string &error) {
  RankedTensorType resultType = op.getResult().getType();
  ArrayRef<int64_t> perm = op.getPerm();
  SmallVector<int64_t> known = knownTransposeInput(
      op.getInput().getType().getShape(), resultType.getShape(), perm);
  if (failed(checkKnown(op, "the input", known, input.getShape(), error)))
    return failure();
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

FailureOr<ConcreteTensor> evalReshape(ReshapeOp op, ConcreteTensor input,
                                      std::string &error) {
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
      error = (name + ": the input has " + Twine(count) +
               " elements, expected " + Twine(known))
                  .str();
      return failure();
    }
  } else {
    if (count % known != 0) {
      error = (name + ": the element count is not a multiple of " +
               Twine(known) + " (the result's static extents): the "
               "remainder is " + Twine(count % known))
                  .str();
      return failure();
    }
    for (int64_t &dim : shape)
      if (dim == kDynamic)
        dim = count / known;
  }
  input.reshape(shape);
  return input;
}

//===----------------------------------------------------------------------===//
// Reductions and softmax
//===----------------------------------------------------------------------===//

FailureOr<ConcreteTensor> evalReduce(Operation *op, ConcreteTensor input,
                                     ArrayRef<int64_t> axes, bool keepDims,
                                     semantics::Combiner combiner, bool isMean,
                                     std::string &error) {
  RankedTensorType resultType = typeOf(op->getResult(0));
  ArrayRef<int64_t> inShape = input.getShape();
  SmallVector<int64_t> known =
      knownReduceInput(typeOf(op->getOperand(0)).getShape(),
                       resultType.getShape(), axes, keepDims);
  if (failed(checkKnown(op, "the input", known, inShape, error)))
    return failure();
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
FailureOr<ConcreteTensor> evalReduceOp(ReduceOp op, ConcreteTensor input,
                                       semantics::Combiner combiner,
                                       bool isMean, std::string &error) {
  return evalReduce(op, std::move(input), op.getNormalizedAxes(),
                    op.getKeepDims(), combiner, isMean, error);
}

} // namespace

FailureOr<ConcreteTensor> google::evaluateOp(Operation *op,
                                             ArrayRef<ConcreteTensor> operands,
                                             std::string &error) {
  using semantics::Combiner;
  if (auto constant = dyn_cast<ConstantOp>(op)) {
    auto dense = dyn_cast<DenseElementsAttr>(constant.getValue());
    if (!dense) {
      error = "google.constant: only dense constants can be evaluated";
      return failure();
    }
    return ConcreteTensor::fromAttr(dense);
  }
  if (!isa<GoogleDialect>(op->getDialect())) {
    error = "'" + op->getName().getStringRef().str() +
            "' is not a google op: the reference interpreter runs "
            "google-dialect functions";
    return failure();
  }
  if (op->hasTrait<OpTrait::google::Elementwise>())
    return evalElementwise(op, operands, error);
  return llvm::TypeSwitch<Operation *, FailureOr<ConcreteTensor>>(op)
      .Case([&](MatmulOp) {
        return evalMatmul(op, operands[0], operands[1], nullptr, error);
      })
      .Case([&](MatmulBiasReluOp) {
        return evalMatmul(op, operands[0], operands[1], &operands[2], error);
      })
      .Case([&](TransposeOp t) { return evalTranspose(t, operands[0], error); })
      .Case([&](ReshapeOp r) { return evalReshape(r, operands[0], error); })
      .Case([&](SliceOp s) -> FailureOr<ConcreteTensor> {
        return evalSlice(s, operands[0]);
      })
      .Case([&](ReduceSumOp r) {
        return evalReduceOp(r, operands[0], Combiner::Sum, false, error);
      })
      .Case([&](ReduceMaxOp r) {
        return evalReduceOp(r, operands[0], Combiner::Max, false, error);
      })
      .Case([&](ReduceMinOp r) {
        return evalReduceOp(r, operands[0], Combiner::Min, false, error);
      })
      .Case([&](ReduceProdOp r) {
        return evalReduceOp(r, operands[0], Combiner::Prod, false, error);
      })
      .Case([&](ReduceMeanOp r) {
        return evalReduceOp(r, operands[0], Combiner::Sum, true, error);
      })
      .Case([&](SoftmaxOp s) -> FailureOr<ConcreteTensor> {
        return evalSoftmax(operands[0], s.getNormalizedAxis());
      })
      .Default([&](Operation *) -> FailureOr<ConcreteTensor> {
        error = "cannot evaluate '" + op->getName().getStringRef().str() + "'";
        return failure();
      });
}
