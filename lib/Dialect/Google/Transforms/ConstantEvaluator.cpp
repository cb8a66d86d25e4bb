//===- ConstantEvaluator.cpp - evaluate google ops on constants -----------===//
//
// Values are held as doubles (floats, exactly representable in their element
// type) or int64 (integers, wrapped to their width). Every arithmetic step
// rounds to the element type, which for f16/bf16/f32 computed in double is
// the correctly rounded IEEE result.
//
//===----------------------------------------------------------------------===//

#include "ConstantEvaluator.h"

#include "Dialect/Google/IR/GoogleOps.h"
#include "Dialect/Google/IR/ShapeRules.h"

#include "llvm/ADT/TypeSwitch.h"
#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::google;

namespace {

/// The elements of one tensor constant.
struct Tensor {
  RankedTensorType type;
  bool isFloat = true;
  /// One element when the tensor is a splat.
  bool splat = false;
  std::vector<double> f;
  std::vector<int64_t> i;

  int64_t size() const { return isFloat ? f.size() : i.size(); }
};

double roundTo(Type elementType, double x) {
  if (elementType.isF64())
    return x;
  if (elementType.isF32())
    return static_cast<double>(static_cast<float>(x));
  llvm::APFloat value(x);
  bool losesInfo;
  value.convert(cast<FloatType>(elementType).getFloatSemantics(),
                llvm::APFloat::rmNearestTiesToEven, &losesInfo);
  value.convert(llvm::APFloat::IEEEdouble(),
                llvm::APFloat::rmNearestTiesToEven, &losesInfo);
  return value.convertToDouble();
}

int64_t wrapTo(Type elementType, uint64_t x) {
  if (elementType.getIntOrFloatBitWidth() == 32)
    return static_cast<int32_t>(static_cast<uint32_t>(x));
  return static_cast<int64_t>(x);
}

double toDouble(llvm::APFloat value) {
  bool losesInfo;
  value.convert(llvm::APFloat::IEEEdouble(),
                llvm::APFloat::rmNearestTiesToEven, &losesInfo);
  return value.convertToDouble();
}

Tensor load(DenseElementsAttr attr) {
  Tensor t;
  t.type = cast<RankedTensorType>(attr.getType());
  Type elementType = t.type.getElementType();
  t.isFloat = isa<FloatType>(elementType);
  t.splat = attr.isSplat();
  if (t.isFloat) {
    if (t.splat)
      t.f.push_back(toDouble(attr.getSplatValue<llvm::APFloat>()));
    else if (elementType.isF32())
      for (float v : attr.getValues<float>())
        t.f.push_back(v);
    else if (elementType.isF64())
      t.f.assign(attr.value_begin<double>(), attr.value_end<double>());
    else
      for (const llvm::APFloat &v : attr.getValues<llvm::APFloat>())
        t.f.push_back(toDouble(v));
  } else {
    if (t.splat)
      t.i.push_back(attr.getSplatValue<llvm::APInt>().getSExtValue());
    else
      for (const llvm::APInt &v : attr.getValues<llvm::APInt>())
        t.i.push_back(v.getSExtValue());
  }
  return t;
}

DenseElementsAttr store(const Tensor &t) {
  Type elementType = t.type.getElementType();
  if (!t.isFloat) {
    if (elementType.getIntOrFloatBitWidth() == 32) {
      std::vector<int32_t> values(t.i.begin(), t.i.end());
      return DenseElementsAttr::get(t.type, ArrayRef<int32_t>(values));
    }
    return DenseElementsAttr::get(t.type, ArrayRef<int64_t>(t.i));
  }
  if (elementType.isF32()) {
    std::vector<float> values(t.f.begin(), t.f.end());
    return DenseElementsAttr::get(t.type, ArrayRef<float>(values));
  }
  if (elementType.isF64())
    return DenseElementsAttr::get(t.type, ArrayRef<double>(t.f));
  SmallVector<llvm::APFloat> values;
  values.reserve(t.f.size());
  for (double v : t.f) {
    llvm::APFloat value(v);
    bool losesInfo;
    value.convert(cast<FloatType>(elementType).getFloatSemantics(),
                  llvm::APFloat::rmNearestTiesToEven, &losesInfo);
    values.push_back(value);
  }
  return DenseElementsAttr::get(t.type, values);
}

Tensor emptyLike(RankedTensorType type, bool splat) {
  Tensor t;
  t.type = type;
  t.isFloat = isa<FloatType>(type.getElementType());
  t.splat = splat;
  int64_t n = splat ? 1 : type.getNumElements();
  (t.isFloat ? (void)t.f.resize(n) : (void)t.i.resize(n));
  return t;
}

/// Expands a splat to all of its elements.
void materialize(Tensor &t) {
  if (!t.splat)
    return;
  int64_t n = t.type.getNumElements();
  if (t.isFloat)
    t.f.assign(n, t.f[0]);
  else
    t.i.assign(n, t.i[0]);
  t.splat = false;
}

SmallVector<int64_t> stridesOf(ArrayRef<int64_t> shape) {
  SmallVector<int64_t> strides(shape.size(), 1);
  for (int64_t d = static_cast<int64_t>(shape.size()) - 2; d >= 0; --d)
    strides[d] = strides[d + 1] * shape[d + 1];
  return strides;
}

/// For each element of `resultShape`, the linear index of the element of
/// `operandShape` that NumPy broadcasting reads.
std::vector<int64_t> broadcastIndices(ArrayRef<int64_t> resultShape,
                                      ArrayRef<int64_t> operandShape) {
  int64_t rank = resultShape.size();
  int64_t offset = rank - operandShape.size();
  SmallVector<int64_t> operandStrides = stridesOf(operandShape);
  // Stride of each result dimension in the operand; 0 where it stretches.
  SmallVector<int64_t> strides(rank, 0);
  for (int64_t d = offset; d < rank; ++d)
    if (operandShape[d - offset] != 1)
      strides[d] = operandStrides[d - offset];
  int64_t count = 1;
  for (int64_t dim : resultShape)
    count *= dim;
  std::vector<int64_t> indices(count);
  SmallVector<int64_t> position(rank, 0);
  int64_t source = 0;
  for (int64_t n = 0; n < count; ++n) {
    indices[n] = source;
    for (int64_t d = rank - 1; d >= 0; --d) {
      source += strides[d];
      if (++position[d] < resultShape[d])
        break;
      source -= strides[d] * resultShape[d];
      position[d] = 0;
    }
  }
  return indices;
}

double nanAwareMax(double a, double b) {
  if (std::isnan(a) || std::isnan(b))
    return std::numeric_limits<double>::quiet_NaN();
  return std::max(a, b);
}
double nanAwareMin(double a, double b) {
  if (std::isnan(a) || std::isnan(b))
    return std::numeric_limits<double>::quiet_NaN();
  return std::min(a, b);
}

using FloatFn = std::function<double(double, double)>;
using IntFn = std::function<uint64_t(uint64_t, uint64_t)>;

Tensor evalBinary(RankedTensorType type, Tensor lhs, Tensor rhs, FloatFn f,
                  IntFn i) {
  Type elementType = type.getElementType();
  bool splat = lhs.splat && rhs.splat;
  Tensor out = emptyLike(type, splat);
  std::vector<int64_t> li, ri;
  if (!splat) {
    materialize(lhs);
    materialize(rhs);
    li = broadcastIndices(type.getShape(), lhs.type.getShape());
    ri = broadcastIndices(type.getShape(), rhs.type.getShape());
  }
  for (int64_t n = 0, e = out.size(); n < e; ++n) {
    int64_t a = splat ? 0 : li[n], b = splat ? 0 : ri[n];
    if (out.isFloat)
      out.f[n] = roundTo(elementType, f(lhs.f[a], rhs.f[b]));
    else
      out.i[n] = wrapTo(elementType, i(lhs.i[a], rhs.i[b]));
  }
  return out;
}

Tensor evalUnary(Tensor in, std::function<double(double)> f,
                 std::function<int64_t(int64_t)> i) {
  Type elementType = in.type.getElementType();
  for (double &v : in.f)
    v = roundTo(elementType, f(v));
  for (int64_t &v : in.i)
    v = wrapTo(elementType, static_cast<uint64_t>(i(v)));
  return in;
}

/// [B]xMxK times [B]xKxN, then `epilogue(value, column)` per element.
Tensor evalMatmul(RankedTensorType type, Tensor lhs, Tensor rhs,
                  std::function<double(double, int64_t)> floatEpilogue,
                  std::function<int64_t(int64_t, int64_t)> intEpilogue) {
  materialize(lhs);
  materialize(rhs);
  Type elementType = type.getElementType();
  ArrayRef<int64_t> shape = type.getShape();
  int64_t rank = shape.size();
  int64_t batch = rank == 3 ? shape[0] : 1;
  int64_t m = shape[rank - 2], n = shape[rank - 1];
  int64_t k = lhs.type.getShape()[rank - 1];
  Tensor out = emptyLike(type, /*splat=*/false);
  for (int64_t b = 0; b < batch; ++b)
    for (int64_t r = 0; r < m; ++r)
      for (int64_t c = 0; c < n; ++c) {
        int64_t outIndex = (b * m + r) * n + c;
        if (out.isFloat) {
          double acc = 0;
          for (int64_t p = 0; p < k; ++p)
            acc = roundTo(elementType,
                          acc + roundTo(elementType,
                                        lhs.f[(b * m + r) * k + p] *
                                            rhs.f[(b * k + p) * n + c]));
          out.f[outIndex] = roundTo(elementType, floatEpilogue(acc, c));
        } else {
          uint64_t acc = 0;
          for (int64_t p = 0; p < k; ++p)
            acc += static_cast<uint64_t>(lhs.i[(b * m + r) * k + p]) *
                   static_cast<uint64_t>(rhs.i[(b * k + p) * n + c]);
          out.i[outIndex] =
              wrapTo(elementType, intEpilogue(wrapTo(elementType, acc), c));
        }
      }
  return out;
}

Tensor evalTranspose(RankedTensorType type, Tensor in, ArrayRef<int64_t> perm) {
  if (in.splat) {
    in.type = type;
    return in;
  }
  Tensor out = emptyLike(type, /*splat=*/false);
  SmallVector<int64_t> inStrides = stridesOf(in.type.getShape());
  // Walking the result in order, input dimension perm[d] advances.
  SmallVector<int64_t> permutedStrides;
  for (int64_t p : perm)
    permutedStrides.push_back(inStrides[p]);
  int64_t rank = type.getRank();
  SmallVector<int64_t> position(rank, 0);
  int64_t source = 0;
  for (int64_t n = 0, e = out.size(); n < e; ++n) {
    if (out.isFloat)
      out.f[n] = in.f[source];
    else
      out.i[n] = in.i[source];
    for (int64_t d = rank - 1; d >= 0; --d) {
      source += permutedStrides[d];
      if (++position[d] < type.getDimSize(d))
        break;
      source -= permutedStrides[d] * type.getDimSize(d);
      position[d] = 0;
    }
  }
  return out;
}

enum class ReduceKind { Sum, Max, Mean };

Tensor evalReduce(RankedTensorType type, Tensor in, ArrayRef<int64_t> axes,
                  ReduceKind kind) {
  materialize(in);
  Type elementType = type.getElementType();
  ArrayRef<int64_t> inShape = in.type.getShape();
  // Index into the result for each input element: reduced dims stretch.
  SmallVector<int64_t> keptShape = reducedShape(inShape, axes, true);
  Tensor out = emptyLike(type, /*splat=*/false);
  std::vector<int64_t> targetOf(in.size());
  {
    SmallVector<int64_t> keptStrides = stridesOf(keptShape);
    int64_t rank = inShape.size();
    SmallVector<int64_t> position(rank, 0);
    for (int64_t n = 0, e = in.size(); n < e; ++n) {
      int64_t target = 0;
      for (int64_t d = 0; d < rank; ++d)
        if (!llvm::is_contained(axes, d))
          target += position[d] * keptStrides[d];
      targetOf[n] = target;
      for (int64_t d = rank - 1; d >= 0; --d) {
        if (++position[d] < inShape[d])
          break;
        position[d] = 0;
      }
    }
  }
  int64_t count = 1;
  for (int64_t axis : axes)
    count *= inShape[axis];
  bool isMax = kind == ReduceKind::Max;
  if (out.isFloat) {
    std::fill(out.f.begin(), out.f.end(),
              isMax ? -std::numeric_limits<double>::infinity() : 0.0);
    for (int64_t n = 0, e = in.size(); n < e; ++n) {
      double &acc = out.f[targetOf[n]];
      acc = isMax ? nanAwareMax(acc, in.f[n])
                  : roundTo(elementType, acc + in.f[n]);
    }
    if (kind == ReduceKind::Mean)
      for (double &v : out.f)
        v = roundTo(elementType, v / roundTo(elementType, count));
  } else {
    std::fill(out.i.begin(), out.i.end(),
              isMax ? std::numeric_limits<int64_t>::min() : 0);
    for (int64_t n = 0, e = in.size(); n < e; ++n) {
      int64_t &acc = out.i[targetOf[n]];
      acc = isMax ? std::max(acc, in.i[n])
                  : wrapTo(elementType, static_cast<uint64_t>(acc) +
                                            static_cast<uint64_t>(in.i[n]));
    }
    if (isMax && elementType.getIntOrFloatBitWidth() == 32)
      for (int64_t &v : out.i)
        v = std::max<int64_t>(v, std::numeric_limits<int32_t>::min());
  }
  return out;
}

Tensor evalSoftmax(Tensor in, int64_t axis) {
  materialize(in);
  Type elementType = in.type.getElementType();
  ArrayRef<int64_t> shape = in.type.getShape();
  int64_t inner = 1;
  for (int64_t d = axis + 1, e = shape.size(); d < e; ++d)
    inner *= shape[d];
  int64_t extent = shape[axis];
  int64_t outer = extent == 0 || inner == 0 ? 0 : in.size() / (extent * inner);
  std::vector<double> exps(extent);
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t i = 0; i < inner; ++i) {
      auto at = [&](int64_t a) -> double & {
        return in.f[(o * extent + a) * inner + i];
      };
      double maximum = -std::numeric_limits<double>::infinity();
      for (int64_t a = 0; a < extent; ++a)
        maximum = nanAwareMax(maximum, at(a));
      double sum = 0;
      for (int64_t a = 0; a < extent; ++a)
        sum += exps[a] = std::exp(at(a) - maximum);
      for (int64_t a = 0; a < extent; ++a)
        at(a) = roundTo(elementType, exps[a] / sum);
    }
  return in;
}

/// Converts `in` to `type`'s element type; fails on a float-to-int
/// conversion of NaN or of a value out of the integer's range.
FailureOr<Tensor> evalCast(RankedTensorType type, const Tensor &in) {
  Type to = type.getElementType();
  Tensor out = emptyLike(type, in.splat);
  for (int64_t n = 0, e = out.size(); n < e; ++n) {
    if (in.isFloat && out.isFloat) {
      out.f[n] = roundTo(to, in.f[n]);
    } else if (in.isFloat) {
      double truncated = std::trunc(in.f[n]);
      double limit = std::ldexp(1.0, to.getIntOrFloatBitWidth() - 1);
      if (std::isnan(truncated) || truncated < -limit || truncated >= limit)
        return failure();
      out.i[n] = static_cast<int64_t>(truncated);
    } else if (out.isFloat) {
      llvm::APFloat value(cast<FloatType>(to).getFloatSemantics());
      value.convertFromAPInt(llvm::APInt(64, in.i[n], /*isSigned=*/true),
                             /*IsSigned=*/true,
                             llvm::APFloat::rmNearestTiesToEven);
      out.f[n] = toDouble(value);
    } else {
      out.i[n] = wrapTo(to, static_cast<uint64_t>(in.i[n]));
    }
  }
  return out;
}

int64_t effectiveSize(DenseElementsAttr attr) {
  return attr.isSplat() ? 1 : attr.getNumElements();
}

} // namespace

EvaluationResult google::evaluateConstantOp(Operation *op,
                                            ArrayRef<DenseElementsAttr> operands,
                                            int64_t maxElements) {
  auto unsupported = EvaluationResult{EvaluationStatus::Unsupported, {}};
  if (op->getNumResults() != 1)
    return unsupported;
  auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (!type || !type.hasStaticShape())
    return unsupported;

  bool allSplat = llvm::all_of(
      operands, [](DenseElementsAttr a) { return a.isSplat(); });
  bool elementwise = isa<AddOp, SubOp, MulOp, DivOp, MaxOp, MinOp, ReluOp,
                         NegOp, AbsOp, ExpOp, LogOp, TanhOp, SigmoidOp, SqrtOp,
                         CastOp, ReshapeOp, TransposeOp>(op);
  int64_t resultSize = elementwise && allSplat ? 1 : type.getNumElements();
  if (resultSize > maxElements ||
      llvm::any_of(operands, [&](DenseElementsAttr a) {
        return effectiveSize(a) > maxElements;
      }))
    return {EvaluationStatus::TooLarge, {}};
  // Matrix products cost K multiply-adds per result element.
  if (isa<MatmulOp, MatmulBiasReluOp>(op)) {
    int64_t k = cast<RankedTensorType>(op->getOperand(0).getType())
                    .getShape()
                    .back();
    if (type.getNumElements() * k > 16 * maxElements)
      return {EvaluationStatus::TooLarge, {}};
  }

  SmallVector<Tensor> in;
  for (DenseElementsAttr attr : operands)
    in.push_back(load(attr));
  auto binary = [&](FloatFn f, IntFn i) {
    return evalBinary(type, in[0], in[1], f, i);
  };
  auto unary = [&](std::function<double(double)> f,
                   std::function<int64_t(int64_t)> i = [](int64_t v) {
                     return v;
                   }) { return evalUnary(in[0], f, i); };

  std::optional<Tensor> out =
      llvm::TypeSwitch<Operation *, std::optional<Tensor>>(op)
          .Case([&](AddOp) {
            return binary(std::plus<double>(), std::plus<uint64_t>());
          })
          .Case([&](SubOp) {
            return binary(std::minus<double>(), std::minus<uint64_t>());
          })
          .Case([&](MulOp) {
            return binary(std::multiplies<double>(),
                          std::multiplies<uint64_t>());
          })
          .Case([&](DivOp) {
            return binary(std::divides<double>(), nullptr);
          })
          .Case([&](MaxOp) {
            return binary(nanAwareMax, [](uint64_t a, uint64_t b) {
              return static_cast<uint64_t>(std::max<int64_t>(a, b));
            });
          })
          .Case([&](MinOp) {
            return binary(nanAwareMin, [](uint64_t a, uint64_t b) {
              return static_cast<uint64_t>(std::min<int64_t>(a, b));
            });
          })
          .Case([&](ReluOp) {
            return unary([](double v) { return nanAwareMax(v, 0.0); },
                         [](int64_t v) { return std::max<int64_t>(v, 0); });
          })
          .Case([&](NegOp) {
            return unary([](double v) { return -v; },
                         [](int64_t v) {
                           return static_cast<int64_t>(
                               0 - static_cast<uint64_t>(v));
                         });
          })
          .Case([&](AbsOp) {
            return unary([](double v) { return std::fabs(v); },
                         [](int64_t v) {
                           return v < 0 ? static_cast<int64_t>(
                                              0 - static_cast<uint64_t>(v))
                                        : v;
                         });
          })
          .Case([&](ExpOp) { return unary([](double v) { return std::exp(v); }); })
          .Case([&](LogOp) { return unary([](double v) { return std::log(v); }); })
          .Case([&](TanhOp) {
            return unary([](double v) { return std::tanh(v); });
          })
          .Case([&](SigmoidOp) {
            return unary([](double v) { return 1.0 / (1.0 + std::exp(-v)); });
          })
          .Case([&](SqrtOp) {
            return unary([](double v) { return std::sqrt(v); });
          })
          .Case([&](MatmulOp) {
            return evalMatmul(
                type, in[0], in[1], [](double v, int64_t) { return v; },
                [](int64_t v, int64_t) { return v; });
          })
          .Case([&](MatmulBiasReluOp) {
            Tensor bias = in[2];
            materialize(bias);
            Type elementType = type.getElementType();
            return evalMatmul(
                type, in[0], in[1],
                [&](double v, int64_t c) {
                  return nanAwareMax(roundTo(elementType, v + bias.f[c]), 0.0);
                },
                [&](int64_t v, int64_t c) {
                  return std::max<int64_t>(
                      wrapTo(elementType, static_cast<uint64_t>(v) +
                                              static_cast<uint64_t>(bias.i[c])),
                      0);
                });
          })
          .Case([&](TransposeOp t) {
            return evalTranspose(type, in[0], t.getPerm());
          })
          .Case([&](ReshapeOp) {
            Tensor t = in[0];
            t.type = type;
            return t;
          })
          .Case([&](ReduceSumOp r) {
            return evalReduce(type, in[0], r.getNormalizedAxes(),
                              ReduceKind::Sum);
          })
          .Case([&](ReduceMaxOp r) {
            return evalReduce(type, in[0], r.getNormalizedAxes(),
                              ReduceKind::Max);
          })
          .Case([&](ReduceMeanOp r) {
            return evalReduce(type, in[0], r.getNormalizedAxes(),
                              ReduceKind::Mean);
          })
          .Case([&](SoftmaxOp s) {
            return evalSoftmax(in[0], s.getNormalizedAxis());
          })
          .Case([&](CastOp) -> std::optional<Tensor> {
            FailureOr<Tensor> t = evalCast(type, in[0]);
            if (failed(t))
              return std::nullopt;
            return *t;
          })
          .Default([](Operation *) { return std::nullopt; });
  if (!out)
    return unsupported;
  return {EvaluationStatus::Evaluated, store(*out)};
}
