//===- ErrorBounds.cpp - what rounding may do to a google function --------===//
//
// For each value v of the checked function, the bound function computes X,
// v computed in f64, and E, a bound on |v as computed in its own type - X|,
// with the differential tester's rules (test/fuzz/difftest.py): u is the
// unit roundoff of the op's type, u' of its accumulator's (f32 for f16 and
// bf16 sums), n the number of summed terms.
//
//   a + b, a - b   Ea + Eb + u|X|
//   a * b          Ea|Xb| + |Xa|Eb + EaEb + u|X|
//   a / b          (Ea + |X|Eb) / (|Xb| - Eb) + u|X|
//   sum, mean      sum(E) + (n + 1)u' sum(|Xa|) (/ n) + u|X|
//   scatter_add    as a sum of each element's base and updates
//   a @ b          |A|@Eb + Ea@|B| + Ea@Eb + (K + 1)u'(|A|@|B|) + u|X|
//   exp            X(exp(Ea) - 1) + 4u X;  log: Ea / (Xa - Ea) + 4u(|X| + 1)
//   tanh           Ea + 6u|X|;  sigmoid: Ea/4 + 8u;  sqrt: Ea/(X + sqrt(Xa - Ea))
//   max, relu, ... the operands' bound
//
// Bounds that cannot be computed (a divisor that may be 0) become inf:
// anything is accepted there.
//
//===----------------------------------------------------------------------===//

#include "ErrorBounds.h"

#include "Dialect/Google/IR/GoogleOps.h"
#include "Dialect/Google/IR/ScalarSemantics.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/TypeSwitch.h"

#include <limits>

using namespace mlir;
using namespace mlir::google;

double google::getUnitRoundoff(Type type) {
  if (type.isF16())
    return 0x1p-11;
  if (type.isBF16())
    return 0x1p-8;
  if (type.isF64())
    return 0x1p-53;
  return 0x1p-24;
}

namespace {

class BoundBuilder {
public:
  explicit BoundBuilder(OpBuilder &b, Location loc)
      : b(b), loc(loc), f64(b.getF64Type()) {}

  /// X and E of `op`'s result from its operands'.
  LogicalResult visit(Operation *op) {
    Value result = op->getResult(0);
    auto type = cast<RankedTensorType>(result.getType());
    bool isFloat = isa<FloatType>(type.getElementType());
    // A comparison of values with rounding errors (or their cast to
    // booleans) may flip: only exact operands are covered.
    bool decides = isa<EqOp, NeOp, LtOp, LeOp, GtOp, GeOp, ArgmaxOp,
                       ArgminOp>(op) ||
                   (isa<CastOp>(op) && type.getElementType().isInteger(1));
    if (decides && !llvm::all_of(op->getOperands(), [&](Value operand) {
          return isExact(operand);
        }))
      return failure();
    // What moves or picks exact values, or no values at all, is exact.
    if (isa<ConstantOp>(op) ||
        (isa<ReshapeOp, TransposeOp, SliceOp, ConcatOp, PadOp, GatherOp,
             MaxPool2DOp, NegOp, AbsOp, ReluOp, MaxOp, MinOp, SelectOp>(op) &&
         llvm::all_of(op->getOperands(),
                      [&](Value operand) { return isExact(operand); })))
      exactValues.insert(result);
    // X: the op itself, on the operands' X, in f64 where it is a float.
    Operation *clone = b.clone(*op, exact);
    if (isa<ConstantOp>(op) && isFloat)
      clone = CastOp::create(b, loc, toF64(type), clone->getResult(0));
    else if (isFloat)
      clone->getResult(0).setType(toF64(type));
    Value x = clone->getResult(0);
    exact.map(result, x);
    if (!isFloat)
      return success();
    double u = getUnitRoundoff(type.getElementType());
    double uAcc =
        getUnitRoundoff(semantics::getAccumulatorType(type.getElementType()));
    Type resultType = x.getType();
    auto operandX = [&](unsigned i) { return exact.lookup(op->getOperand(i)); };
    auto operandE = [&](unsigned i) -> Value {
      Value operand = op->getOperand(i);
      if (Value e = bounds.lookup(operand))
        return e;
      return zerosLike(exact.lookup(operand)); // an exact integer
    };
    Value e = llvm::TypeSwitch<Operation *, Value>(op)
                  .Case<ConstantOp>([&](auto) { return zerosLike(x); })
                  .Case<AddOp, SubOp>([&](auto) {
                    return add(add(operandE(0), operandE(1), resultType),
                               rounding(x, u));
                  })
                  .Case<MulOp>([&](auto) {
                    Value ea = operandE(0), eb = operandE(1);
                    Value xa = abs(operandX(0)), xb = abs(operandX(1));
                    return add(add(add(mul(ea, xb, resultType),
                                       mul(xa, eb, resultType)),
                                   mul(ea, eb, resultType)),
                               rounding(x, u));
                  })
                  .Case<DivOp>([&](auto) {
                    Value margin = positive(sub(abs(operandX(1)), operandE(1)));
                    Value numerator =
                        add(operandE(0), mul(abs(x), operandE(1), resultType));
                    return add(div(numerator, margin, resultType),
                               rounding(x, u));
                  })
                  .Case<PowOp>([&](auto) {
                    // x' ** y' = x ** y * exp(y' ln|x'| - y ln|x|), with
                    // |y' ln|x'| - y ln|x|| <= |y| ea / m + eb (|ln|x|| +
                    // ea / m), m = |x| - ea; pow is within 6 ulp.
                    Value xa = operandX(0), ea = operandE(0);
                    Value eb = operandE(1);
                    Value m = positive(sub(abs(xa), ea));
                    Value relative = div(ea, m);
                    Value t = add(mul(abs(operandX(1)), relative, resultType),
                                  mul(eb, add(abs(unary<LogOp>(abs(xa))),
                                              relative),
                                      resultType),
                                  resultType);
                    Value grown = sub(unary<ExpOp>(t), scalar(1));
                    return add(mul(abs(x), grown), rounding(x, 6 * u));
                  })
                  .Case<ReduceProdOp>([&](auto) {
                    // Each factor inflated by its error and by one rounding
                    // of the accumulator, less the exact product; and the
                    // last rounding to the element type.
                    Value inflated = mul(add(abs(operandX(0)), operandE(0)),
                                         scalar(1 + uAcc));
                    return add(sub(cloneOn(op, inflated, resultType), abs(x)),
                               rounding(x, u));
                  })
                  .Case<MaxOp, MinOp>([&](auto) {
                    return MaxOp::create(b, loc, resultType, operandE(0),
                                         operandE(1))
                        .getResult();
                  })
                  .Case<SelectOp>([&](auto) {
                    // The condition is exact (see `decides`).
                    return SelectOp::create(b, loc, resultType, operandX(0),
                                            operandE(1), operandE(2))
                        .getResult();
                  })
                  .Case<ReluOp, NegOp, AbsOp>(
                      [&](Operation *) { return operandE(0); })
                  .Case<TransposeOp, ReshapeOp, SliceOp, ReduceMaxOp,
                        ReduceMinOp>(
                      [&](Operation *) {
                        return cloneOn(op, operandE(0), resultType);
                      })
                  .Case<ConcatOp, PadOp>([&](Operation *) {
                    // The operands' errors, moved as their values are.
                    IRMapping mapping;
                    for (auto [i, operand] :
                         llvm::enumerate(op->getOperands()))
                      mapping.map(operand, operandE(i));
                    Operation *clone = b.clone(*op, mapping);
                    clone->getResult(0).setType(resultType);
                    return clone->getResult(0);
                  })
                  .Case<GatherOp>([&](Operation *) {
                    return cloneOn(op, operandE(0), resultType);
                  })
                  .Case<ScatterAddOp>([&](ScatterAddOp scatter) {
                    // As a sum of the base and the updates at each
                    // element: their errors, and n + 1 roundings of the
                    // accumulated magnitudes for n terms.
                    auto scatterOn = [&](Value base, Value updates) {
                      return ScatterAddOp::create(
                                 b, loc, resultType, base,
                                 exact.lookup(scatter.getIndices()), updates,
                                 scatter.getAxisAttr())
                          .getResult();
                    };
                    Value count = scatterOn(onesLike(operandX(0)),
                                            onesLike(operandX(2)));
                    Value magnitude =
                        scatterOn(abs(operandX(0)), abs(operandX(2)));
                    Value accumulated =
                        mul(mul(add(count, scalar(1)), scalar(uAcc)),
                            magnitude);
                    return add(add(scatterOn(operandE(0), operandE(2)),
                                   accumulated),
                               rounding(x, u));
                  })
                  .Case<IotaOp>([&](auto) { return rounding(x, u); })
                  .Case<ExpOp>([&](auto) {
                    Value grown = sub(unary<ExpOp>(operandE(0)), scalar(1));
                    return add(mul(x, grown), mul(x, scalar(4 * u)));
                  })
                  .Case<LogOp>([&](auto) {
                    Value margin = positive(sub(operandX(0), operandE(0)));
                    return add(div(operandE(0), margin),
                               mul(add(abs(x), scalar(1)), scalar(4 * u)));
                  })
                  .Case<TanhOp>([&](auto) {
                    return add(operandE(0), rounding(x, 6 * u));
                  })
                  .Case<ErfOp>([&](auto) {
                    // |erf'| <= 2 / sqrt(pi) < 1.13; the f32 polynomial
                    // of CPUs and of GPUs without libdevice is within 4.4
                    // ulp.
                    return add(mul(operandE(0), scalar(1.13)),
                               rounding(x, 6 * u));
                  })
                  .Case<SinOp, CosOp>([&](Operation *) {
                    // |sin'|, |cos'| <= 1; vector libm (libmvec) is within
                    // 4 ulp.
                    return add(operandE(0), rounding(x, 4 * u));
                  })
                  .Case<RsqrtOp>([&](auto) {
                    // |d/dx x^-1/2| = x^-1/2 / (2x); two roundings.
                    Value margin = positive(sub(operandX(0), operandE(0)));
                    return add(div(mul(operandE(0), x),
                                   mul(margin, scalar(2))),
                               rounding(x, 3 * u));
                  })
                  .Case<SigmoidOp>([&](auto) {
                    return add(mul(operandE(0), scalar(0.25)),
                               add(zerosLike(x), scalar(8 * u)));
                  })
                  .Case<SqrtOp>([&](auto) {
                    Value low = unary<SqrtOp>(
                        MaxOp::create(b, loc, resultType,
                                      sub(operandX(0), operandE(0)),
                                      zerosLike(x)));
                    return add(div(operandE(0), positive(add(x, low))),
                               rounding(x, u));
                  })
                  .Case<CastOp>([&](CastOp cast) {
                    Value ea = operandE(0);
                    if (isa<IntegerType>(
                            cast.getInput().getType().getElementType()))
                      return rounding(x, u);
                    return add(ea, rounding(add(abs(x), ea), u));
                  })
                  .Case<ReduceSumOp, ReduceMeanOp>([&](Operation *) {
                    Value xa = operandX(0);
                    Value count = cloneOn(op, onesLike(xa), resultType);
                    Value terms = cloneOn(op, abs(xa), resultType);
                    if (isa<ReduceMeanOp>(op))
                      terms = add(terms, abs(x)); // the division's rounding
                    Value accumulated =
                        mul(mul(add(count, scalar(1)), scalar(uAcc)), terms);
                    return add(add(cloneOn(op, operandE(0), resultType),
                                   accumulated),
                               rounding(x, u));
                  })
                  .Case<MatmulOp, MatmulBiasReluOp>([&](Operation *) {
                    return matmulBound(op, x, u, uAcc);
                  })
                  .Case<Conv2DOp>([&](Operation *) {
                    return convolutionBound(op, x, u, uAcc);
                  })
                  .Case<MaxPool2DOp>([&](Operation *) {
                    // The maximum moves by at most its window's largest
                    // error.
                    return cloneOn(op, operandE(0), resultType);
                  })
                  .Case<AvgPool2DOp>([&](AvgPool2DOp pool) {
                    // The window's mean error, the sum's accumulation
                    // (at most window + 1 roundings of the magnitudes'
                    // mean times the count) and the division's and the
                    // last rounding.
                    ArrayRef<int64_t> window = pool.getWindow();
                    double terms = window[0] * window[1] + 2;
                    Value magnitudes = cloneOn(op, abs(operandX(0)),
                                               resultType);
                    return add(add(cloneOn(op, operandE(0), resultType),
                                   mul(magnitudes,
                                       scalar(terms * uAcc))),
                               rounding(x, u));
                  })
                  .Case<SoftmaxOp>([&](SoftmaxOp softmax) {
                    return softmaxBound(softmax, x, u, uAcc);
                  })
                  .Default([](Operation *) { return Value(); });
    if (!e)
      return failure();
    bounds[result] = e;
    return success();
  }

  Value getExact(Value v) const { return exact.lookup(v); }
  Value getBound(Value v) const { return bounds.lookup(v); }
  void mapArgument(Value original, Value x) {
    exact.map(original, x);
    exactValues.insert(original);
    if (isa<FloatType>(getElementTypeOrSelf(original.getType())))
      bounds[original] = zerosLike(x);
  }

  Value toF64Value(Value v) {
    auto type = cast<RankedTensorType>(v.getType());
    if (!isa<FloatType>(type.getElementType()) || type.getElementType() == f64)
      return v;
    return CastOp::create(b, loc, toF64(type), v);
  }

private:
  RankedTensorType toF64(RankedTensorType type) { return type.clone(f64); }

  Value scalar(double value) {
    auto type = RankedTensorType::get({}, f64);
    return ConstantOp::create(b, loc, type,
                              DenseElementsAttr::get(type, value));
  }
  /// The type of a broadcasting op on `l` and `r` where one of them has
  /// the result's shape or is a scalar.
  static Type wider(Value l, Value r) {
    auto lt = cast<RankedTensorType>(l.getType());
    auto rt = cast<RankedTensorType>(r.getType());
    return lt.getRank() >= rt.getRank() ? lt : rt;
  }
  template <typename Op> Value unary(Value x) {
    return Op::create(b, loc, x.getType(), x);
  }
  template <typename Op> Value binary(Value l, Value r, Type type) {
    return Op::create(b, loc, type ? type : wider(l, r), l, r);
  }
  Value add(Value l, Value r, Type type = {}) {
    return binary<AddOp>(l, r, type);
  }
  Value sub(Value l, Value r, Type type = {}) {
    return binary<SubOp>(l, r, type);
  }
  Value mul(Value l, Value r, Type type = {}) {
    return binary<MulOp>(l, r, type);
  }
  Value div(Value l, Value r, Type type = {}) {
    return binary<DivOp>(l, r, type);
  }
  Value abs(Value x) { return unary<AbsOp>(x); }
  /// 0 where x is finite or infinite (NaN stays NaN): relu(-|x|).
  Value zerosLike(Value x) {
    return unary<ReluOp>(unary<NegOp>(abs(toF64Value(x))));
  }
  Value onesLike(Value x) { return add(zerosLike(x), scalar(1)); }
  /// max(x, the smallest positive f64): a divisor that may be 0 makes a
  /// huge bound, not a negative one.
  Value positive(Value x) {
    return MaxOp::create(b, loc, x.getType(), x,
                         scalar(std::numeric_limits<double>::denorm_min()));
  }
  /// The error of rounding X to a type of unit roundoff u.
  Value rounding(Value x, double u) { return mul(abs(x), scalar(u)); }
  /// `op` on `operand` instead of its first operand, of type `type`.
  /// `op` on `operand` in place of its first operand (the others: their
  /// exact values).
  Value cloneOn(Operation *op, Value operand, Type type) {
    IRMapping mapping;
    for (Value other : op->getOperands().drop_front())
      mapping.map(other, exact.lookup(other));
    mapping.map(op->getOperand(0), operand);
    Operation *clone = b.clone(*op, mapping);
    clone->getResult(0).setType(type);
    return clone->getResult(0);
  }

  /// The bound of a sum of products, `product(l, r)` the op on other
  /// operands and `count` the number of products per element: each
  /// operand's error against the other's magnitude, their product, the
  /// accumulation's count + 1 roundings and the last rounding. `exactProduct`
  /// (if given) receives the product of the exact operands.
  Value productBound(Operation *op, Value x, double u, double uAcc,
                     function_ref<Value(Value, Value)> product, Value count,
                     Value *exactProduct = nullptr) {
    Value xa = exact.lookup(op->getOperand(0));
    Value xb = exact.lookup(op->getOperand(1));
    Value ea = bounds.lookup(op->getOperand(0));
    Value eb = bounds.lookup(op->getOperand(1));
    if (!ea)
      ea = zerosLike(xa);
    if (!eb)
      eb = zerosLike(xb);
    Value magnitude = product(abs(xa), abs(xb));
    Value e = add(add(product(abs(xa), eb), product(ea, abs(xb))),
                  product(ea, eb));
    e = add(e, mul(mul(add(count, scalar(1)), scalar(uAcc)), magnitude));
    Value p = product(xa, xb);
    if (exactProduct)
      *exactProduct = p;
    return add(e, rounding(p, u));
  }

  Value matmulBound(Operation *op, Value x, double u, double uAcc) {
    Type type = x.getType();
    auto product = [&](Value l, Value r) {
      return MatmulOp::create(b, loc, type, l, r).getResult();
    };
    Value xa = exact.lookup(op->getOperand(0));
    Value xb = exact.lookup(op->getOperand(1));
    Value count = product(onesLike(xa), onesLike(xb)); // K per element
    Value p;
    Value e = productBound(op, x, u, uAcc, product, count, &p);
    if (auto fused = dyn_cast<MatmulBiasReluOp>(op)) {
      // + bias, rounded; relu adds nothing.
      Value bias = fused.getBias();
      Value eBias = bounds.lookup(bias);
      if (eBias)
        e = add(e, eBias, type);
      e = add(e, rounding(add(p, exact.lookup(bias), type), u));
    }
    return e;
  }

  /// As matmulBound, with the convolution as the product: each output
  /// sums K = kh * kw * C/groups products.
  Value convolutionBound(Operation *op, Value x, double u, double uAcc) {
    auto product = [&](Value l, Value r) {
      IRMapping mapping;
      mapping.map(op->getOperand(0), l);
      mapping.map(op->getOperand(1), r);
      Operation *clone = b.clone(*op, mapping);
      clone->getResult(0).setType(x.getType());
      return clone->getResult(0);
    };
    auto filter = cast<RankedTensorType>(op->getOperand(1).getType());
    double count = filter.getDimSize(0) * filter.getDimSize(1) *
                   filter.getDimSize(2);
    return productBound(op, x, u, uAcc, product, scalar(count));
  }

  Value softmaxBound(SoftmaxOp op, Value x, double u, double uAcc) {
    Value xa = exact.lookup(op.getInput());
    Value ea = bounds.lookup(op.getInput());
    auto type = cast<RankedTensorType>(x.getType());
    SmallVector<int64_t> keptShape(type.getShape());
    int64_t axis = op.getNormalizedAxis();
    keptShape[axis] = 1;
    auto kept = RankedTensorType::get(keptShape, f64);
    auto reduce = [&](auto opTag, Value v) {
      using Op = decltype(opTag);
      return Op::create(b, loc, kept, v, ArrayRef<int64_t>{axis},
                        /*keep_dims=*/true)
          .getResult();
    };
    // Each numerator exp(x - max) errs relatively by d = exp(2 Emax) - 1
    // + 4u; their f32 sum by d + n u'; the quotient by twice that + u.
    Value spread = reduce(ReduceMaxOp(), ea);
    Value d = add(sub(unary<ExpOp>(mul(spread, scalar(2))), scalar(1)),
                  scalar(4 * u));
    Value n = reduce(ReduceSumOp(), onesLike(xa));
    Value relative =
        add(mul(d, scalar(2)), add(mul(n, scalar(uAcc)), scalar(2 * u)));
    // Numerators below exp(-87) (exp(-708) for f64) are flushed to 0.
    double flushed =
        op.getType().getElementType().isF64() ? 3.4e-308 : 1.7e-38;
    return add(mul(x, relative, type), scalar(flushed));
  }

  OpBuilder &b;
  Location loc;
  Type f64;
  IRMapping exact;
  DenseMap<Value, Value> bounds;
  /// Values (of the checked function) without rounding errors.
  DenseSet<Value> exactValues;

  bool isExact(Value v) const {
    return !isa<FloatType>(getElementTypeOrSelf(v.getType())) ||
           exactValues.contains(v);
  }
};

} // namespace

llvm::Expected<func::FuncOp>
google::buildErrorBoundFunction(func::FuncOp function) {
  auto module = function->getParentOfType<ModuleOp>();
  Block &body = function.getBody().front();
  for (Operation &op : body.without_terminator())
    if (!isa<GoogleDialect>(op.getDialect()) || op.getNumRegions() != 0)
      return llvm::createStringError(
          "the error bounds of --check cover google ops without regions, "
          "not '" +
          op.getName().getStringRef() + "'");
  auto returnOp = cast<func::ReturnOp>(body.getTerminator());
  SmallVector<Type> resultTypes;
  for (Value result : returnOp.getOperands()) {
    auto type = cast<RankedTensorType>(result.getType());
    if (isa<FloatType>(type.getElementType()))
      resultTypes.append(2, type.clone(Float64Type::get(type.getContext())));
  }
  OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
  Location loc = function.getLoc();
  auto bound = func::FuncOp::create(
      b, loc, (function.getSymName() + "__error_bound").str(),
      FunctionType::get(function.getContext(), function.getArgumentTypes(),
                        resultTypes));
  bound.setPrivate();
  Block *entry = bound.addEntryBlock();
  b.setInsertionPointToStart(entry);
  BoundBuilder builder(b, loc);
  for (auto [original, argument] :
       llvm::zip_equal(body.getArguments(), entry->getArguments()))
    builder.mapArgument(original, builder.toF64Value(argument));
  for (Operation &op : body.without_terminator())
    if (failed(builder.visit(&op))) {
      bound.erase();
      return llvm::createStringError(
          "the error bounds of --check do not cover '" +
          op.getName().getStringRef() + "'");
    }
  SmallVector<Value> results;
  for (Value result : returnOp.getOperands())
    if (isa<FloatType>(getElementTypeOrSelf(result.getType()))) {
      results.push_back(builder.getExact(result));
      results.push_back(builder.getBound(result));
    }
  func::ReturnOp::create(b, loc, results);
  SymbolTable(module).insert(bound);
  return bound;
}
