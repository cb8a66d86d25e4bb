//===- ArithAlgebra.h - scalar semantics emitted as arith/math ops -*- C++ -*-===//
//
// The algebra of Dialect/Google/IR/ScalarSemantics.h that builds IR: each
// primitive becomes arith or math ops on scalars of one element type.
//
//===----------------------------------------------------------------------===//

#ifndef GOOGLE_LIB_CONVERSION_GOOGLETOLINALG_ARITHALGEBRA_H
#define GOOGLE_LIB_CONVERSION_GOOGLETOLINALG_ARITHALGEBRA_H

#include "Dialect/Google/IR/ScalarMath.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"

namespace mlir::google {

class ArithAlgebra {
public:
  using Value = ::mlir::Value;

  ArithAlgebra(OpBuilder &b, Location loc, Type elementType)
      : b(b), loc(loc), elementType(elementType) {}

  bool isFloat() const { return isa<FloatType>(elementType); }
  bool isDouble() const { return elementType.isF64(); }
  /// f16 and bf16: arithmetic runs in f32 and rounds after each op.
  bool isNarrow() const {
    return elementType.isF16() || elementType.isBF16();
  }
  Value constant(double value);
  Value lowest();
  Value highest();

  Value add(Value x, Value y);
  Value sub(Value x, Value y);
  Value mul(Value x, Value y);
  Value div(Value x, Value y);
  Value maximum(Value x, Value y);
  Value minimum(Value x, Value y);
  Value maxnum(Value x, Value y);
  Value neg(Value x);
  Value abs(Value x);
  /// Floats: fmod (exact); integers: the remainder of the truncating
  /// division, for a `y` that is not 0 (nor -1 with `x` the minimum).
  Value rem(Value x, Value y);
  Value copysign(Value x, Value y);
  template <typename MathOp>
  Value libm(Value x, float (*)(float), double (*)(double)) {
    return MathOp::create(b, loc, x);
  }
  template <typename MathOp>
  Value libm(Value x, Value y, float (*)(float, float),
             double (*)(double, double)) {
    return MathOp::create(b, loc, x, y);
  }

  /// An i1: `x` compared with `y` as NumPy does.
  Value compare(semantics::Comparison comparison, Value x, Value y);
  /// `x` where the i1 `condition` holds, else `y`.
  Value select(Value condition, Value x, Value y);
  Value logicalAnd(Value p, Value q);
  Value logicalOr(Value p, Value q);
  Value logicalXor(Value p, Value q);
  Value logicalNot(Value p);

  template <typename Fn>
  Value inF32IfNarrow(Value x, Fn fn) {
    if (!isNarrow())
      return fn(*this, x);
    ArithAlgebra wide(b, loc, b.getF32Type());
    Value result =
        fn(wide, arith::ExtFOp::create(b, loc, b.getF32Type(), x).getResult());
    return arith::TruncFOp::create(b, loc, elementType, result);
  }
  template <typename Fn>
  Value inF32IfNarrow(Value x, Value y, Fn fn) {
    if (!isNarrow())
      return fn(*this, x, y);
    ArithAlgebra wide(b, loc, b.getF32Type());
    Type f32 = b.getF32Type();
    Value result = fn(wide, arith::ExtFOp::create(b, loc, f32, x).getResult(),
                      arith::ExtFOp::create(b, loc, f32, y).getResult());
    return arith::TruncFOp::create(b, loc, elementType, result);
  }

  /// `google.cast` of `x` (of this algebra's element type) to `to`.
  Value convert(Value x, Type to);
  /// An index value as the element type, rounded once.
  Value convertIndex(Value index);

  ArithAlgebra accumulator() const;
  Value toAccumulator(Value x);
  Value fromAccumulator(Value x);

private:
  /// fn(wide, x', y') on x and y extended to f32, rounded back once: every
  /// f16/bf16 op rounds on its own, also where LLVM would otherwise carry
  /// f32 through a chain of fused ops.
  template <typename Fn>
  Value inF32(Value x, Value y, Fn fn) {
    Type f32 = b.getF32Type();
    Value wide = fn(arith::ExtFOp::create(b, loc, f32, x).getResult(),
                    arith::ExtFOp::create(b, loc, f32, y).getResult());
    return arith::TruncFOp::create(b, loc, elementType, wide);
  }

  OpBuilder &b;
  Location loc;
  Type elementType;
};

} // namespace mlir::google

#endif // GOOGLE_LIB_CONVERSION_GOOGLETOLINALG_ARITHALGEBRA_H
