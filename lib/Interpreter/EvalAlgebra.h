//===- EvalAlgebra.h - scalar semantics computed on host numbers -*- C++ -*-===//
//
// The algebra of Dialect/Google/IR/ScalarSemantics.h that computes: every
// primitive gives the value IEEE-754 (floats, rounded to nearest even to
// the element type once) or two's complement wrapping (integers) defines.
// Transcendental functions call the same C library functions as compiled
// CPU code (expf for f32, exp for f64).
//
//===----------------------------------------------------------------------===//

#ifndef GOOGLE_LIB_INTERPRETER_EVALALGEBRA_H
#define GOOGLE_LIB_INTERPRETER_EVALALGEBRA_H

#include "Dialect/Google/IR/ScalarMath.h"
#include "Interpreter/ConcreteTensor.h"

#include <cmath>

namespace mlir::google {

enum class ElementKind { F16, BF16, F32, F64, I32, I64, I1 };

/// The kind of a google element type.
ElementKind getElementKind(Type type);

class EvalAlgebra {
public:
  using Value = Scalar;

  explicit EvalAlgebra(Type elementType)
      : kind(getElementKind(elementType)) {}
  explicit EvalAlgebra(ElementKind kind) : kind(kind) {}

  bool isFloat() const { return kind <= ElementKind::F64; }
  bool isDouble() const { return kind == ElementKind::F64; }
  Scalar constant(double value) const;
  Scalar lowest() const;
  Scalar highest() const;

  Scalar add(Scalar x, Scalar y) const;
  Scalar sub(Scalar x, Scalar y) const;
  Scalar mul(Scalar x, Scalar y) const;
  Scalar div(Scalar x, Scalar y) const;
  Scalar maximum(Scalar x, Scalar y) const;
  Scalar minimum(Scalar x, Scalar y) const;
  Scalar maxnum(Scalar x, Scalar y) const;
  Scalar neg(Scalar x) const;
  Scalar abs(Scalar x) const;
  /// Floats: fmod (exact); integers: the remainder of the truncating
  /// division, for a `y` that is not 0 (nor -1 with `x` the minimum).
  Scalar rem(Scalar x, Scalar y) const;
  Scalar copysign(Scalar x, Scalar y) const {
    return Scalar{std::copysign(x.f, y.f), 0};
  }
  /// A boolean (0 or 1 in `i`): `x` compared with `y` as NumPy does.
  Scalar compare(semantics::Comparison comparison, Scalar x, Scalar y) const;
  Scalar select(Scalar condition, Scalar x, Scalar y) const {
    return condition.i ? x : y;
  }
  Scalar logicalAnd(Scalar p, Scalar q) const {
    return Scalar{0, p.i && q.i};
  }
  Scalar logicalOr(Scalar p, Scalar q) const { return Scalar{0, p.i || q.i}; }
  Scalar logicalXor(Scalar p, Scalar q) const {
    return Scalar{0, (p.i != 0) != (q.i != 0)};
  }
  Scalar logicalNot(Scalar p) const { return Scalar{0, !p.i}; }
  /// f32 calls the float function, as compiled code does; f64 the double
  /// one. (f16/bf16 reach it only through inF32IfNarrow.)
  template <typename MathOp>
  Scalar libm(Scalar x, float (*f32)(float), double (*f64)(double)) const {
    if (kind == ElementKind::F64)
      return Scalar{f64(x.f), 0};
    return fromDouble(f32(static_cast<float>(x.f)));
  }

  template <typename MathOp>
  Scalar libm(Scalar x, Scalar y, float (*f32)(float, float),
              double (*f64)(double, double)) const {
    if (kind == ElementKind::F64)
      return Scalar{f64(x.f, y.f), 0};
    return fromDouble(
        f32(static_cast<float>(x.f), static_cast<float>(y.f)));
  }
  template <typename Fn>
  Scalar inF32IfNarrow(Scalar x, Scalar y, Fn fn) const {
    if (!isNarrow())
      return fn(*this, x, y);
    EvalAlgebra wide(ElementKind::F32);
    return Scalar{round(fn(wide, x, y).f), 0};
  }
  template <typename Fn>
  Scalar inF32IfNarrow(Scalar x, Fn fn) const {
    if (!isNarrow())
      return fn(*this, x);
    EvalAlgebra wide(ElementKind::F32);
    return Scalar{round(fn(wide, x).f), 0};
  }

  /// `google.cast` of `x` (of this algebra's element type) to `to`.
  Scalar convert(Scalar x, Type to) const;
  Scalar convertTo(Scalar x, ElementKind to) const;
  /// A count as the element type, rounded once.
  Scalar convertIndex(int64_t count) const;

  /// Sums of f16 and bf16 accumulate in f32 (SPEC section 2). Values are
  /// held exactly, so moving one into the accumulator changes nothing.
  bool isNarrow() const {
    return kind == ElementKind::F16 || kind == ElementKind::BF16;
  }
  EvalAlgebra accumulator() const {
    return isNarrow() ? EvalAlgebra(ElementKind::F32) : *this;
  }
  Scalar toAccumulator(Scalar x) const { return x; }
  Scalar fromAccumulator(Scalar x) const {
    return isNarrow() ? fromDouble(x.f) : x;
  }

  /// `x` rounded to the element type (floats) or wrapped (integers).
  double round(double x) const;
  int64_t wrap(uint64_t x) const;

private:
  Scalar fromDouble(double x) const { return Scalar{round(x), 0}; }
  Scalar fromInt(uint64_t x) const { return Scalar{0, wrap(x)}; }

  ElementKind kind;
};

} // namespace mlir::google

#endif // GOOGLE_LIB_INTERPRETER_EVALALGEBRA_H
