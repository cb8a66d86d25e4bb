//===- ScalarMath.h - scalar functions the ops' bodies call -----*- C++ -*-===//
//
// Building blocks of the ops' scalar semantics (`computeScalar` in
// GoogleOps.td, the rest in ScalarSemantics.h), written once over an
// algebra `A` (see ScalarSemantics.h for what an algebra provides).
//
//===----------------------------------------------------------------------===//

#ifndef GOOGLE_DIALECT_GOOGLE_IR_SCALARMATH_H
#define GOOGLE_DIALECT_GOOGLE_IR_SCALARMATH_H

#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/BuiltinTypes.h"

#include <math.h>

namespace mlir::google::semantics {

/// How `a.compare` compares, as NumPy does: floats are unordered with a NaN
/// (every comparison false but NE).
enum class Comparison { EQ, NE, LT, LE, GT, GE };

/// The type sums of `elementType` accumulate in (SPEC section 2): f32 for
/// f16 and bf16, the element type otherwise.
inline Type getAccumulatorType(Type elementType) {
  if (elementType.isF16() || elementType.isBF16())
    return Float32Type::get(elementType.getContext());
  return elementType;
}

/// A C library function: `MathOp` in compiled code (which calls `f32` or
/// `f64` on CPUs, libdevice or a polynomial on GPUs), `f32`/`f64` on host
/// numbers. f16 and bf16 have no functions of their own on CPUs or GPUs:
/// they are computed in f32 and rounded once.
template <typename MathOp, typename A, typename V = typename A::Value>
V libm(A &a, V x, float (*f32)(float), double (*f64)(double)) {
  return a.inF32IfNarrow(x, [&](auto &w, auto y) {
    return w.template libm<MathOp>(y, f32, f64);
  });
}

template <typename A, typename V = typename A::Value>
V exp(A &a, V x) {
  return libm<math::ExpOp>(a, x, ::expf, ::exp);
}
template <typename A, typename V = typename A::Value>
V log(A &a, V x) {
  return libm<math::LogOp>(a, x, ::logf, ::log);
}
template <typename A, typename V = typename A::Value>
V tanh(A &a, V x) {
  return libm<math::TanhOp>(a, x, ::tanhf, ::tanh);
}
template <typename A, typename V = typename A::Value>
V sqrt(A &a, V x) {
  return libm<math::SqrtOp>(a, x, ::sqrtf, ::sqrt);
}
template <typename A, typename V = typename A::Value>
V erf(A &a, V x) {
  return libm<math::ErfOp>(a, x, ::erff, ::erf);
}
template <typename A, typename V = typename A::Value>
V sin(A &a, V x) {
  return libm<math::SinOp>(a, x, ::sinf, ::sin);
}
template <typename A, typename V = typename A::Value>
V cos(A &a, V x) {
  return libm<math::CosOp>(a, x, ::cosf, ::cos);
}
/// 1 / sqrt(x), rounded twice (after the root and after the division) on
/// every target: no target's reciprocal square root instruction is exact.
template <typename A, typename V = typename A::Value>
V rsqrt(A &a, V x) {
  return a.inF32IfNarrow(
      x, [](auto &w, auto y) { return w.div(w.constant(1), sqrt(w, y)); });
}
/// 1 / (1 + exp(-x)); exp overflows to inf for very negative x, giving 0.
template <typename A, typename V = typename A::Value>
V sigmoid(A &a, V x) {
  return a.inF32IfNarrow(x, [](auto &w, auto y) {
    auto one = w.constant(1);
    return w.div(one, w.add(one, exp(w, w.neg(y))));
  });
}
/// max(x, 0): relu(-0) is +0 and relu(NaN) is NaN.
template <typename A, typename V = typename A::Value>
V relu(A &a, V x) {
  return a.maximum(x, a.constant(0));
}

/// A C library function of two arguments (see libm above).
template <typename MathOp, typename A, typename V = typename A::Value>
V libm2(A &a, V x, V y, float (*f32)(float, float),
        double (*f64)(double, double)) {
  return a.inF32IfNarrow(x, y, [&](auto &w, auto p, auto q) {
    return w.template libm<MathOp>(p, q, f32, f64);
  });
}

/// x ** y as C's pow (NumPy's np.power on floats).
template <typename A, typename V = typename A::Value>
V pow(A &a, V x, V y) {
  return libm2<math::PowFOp>(a, x, y, ::powf, ::pow);
}

/// An integer divisor that cannot trap: 1 where `y` is 0, or -1 with `x`
/// the minimum (whose quotient overflows).
template <typename A, typename V = typename A::Value>
V safeDivisor(A &a, V x, V y) {
  auto zero = a.compare(Comparison::EQ, y, a.constant(0));
  auto overflows =
      a.logicalAnd(a.compare(Comparison::EQ, x, a.lowest()),
                   a.compare(Comparison::EQ, y, a.constant(-1)));
  return a.select(a.logicalOr(zero, overflows), a.constant(1), y);
}

/// Whether the remainder `r` of a truncating division by `y` has the other
/// sign than `y` (the floored quotient is one less, and the floored
/// remainder is r + y).
template <typename A, typename V = typename A::Value>
auto needsFloorStep(A &a, V r, V y) {
  return a.logicalAnd(
      a.compare(Comparison::NE, r, a.constant(0)),
      a.logicalXor(a.compare(Comparison::LT, r, a.constant(0)),
                   a.compare(Comparison::LT, y, a.constant(0))));
}

/// NumPy's floored division and remainder of floats (npy_divmod): the
/// remainder from fmod, moved to the divisor's sign; the quotient
/// (x - mod) / y, rounded to the nearest integer below. Division by 0 gives
/// x / y and fmod's NaN. f16 and bf16 are computed in f32 and rounded once.
template <typename A, typename V = typename A::Value>
V floatDivmod(A &w, V x, V y, bool wantQuotient) {
  V mod = w.rem(x, y);
  V div = w.div(w.sub(x, mod), y);
  auto step = needsFloorStep(w, mod, y);
  V zero = w.constant(0);
  V floorMod = w.select(step, w.add(mod, y),
                        w.select(w.compare(Comparison::NE, mod, zero), mod,
                                 w.copysign(zero, y)));
  auto byZero = w.compare(Comparison::EQ, y, zero);
  if (!wantQuotient)
    return w.select(byZero, mod, floorMod);
  div = w.select(step, w.sub(div, w.constant(1)), div);
  V floored = libm<math::FloorOp>(w, div, ::floorf, ::floor);
  floored = w.select(
      w.compare(Comparison::GT, w.sub(div, floored), w.constant(0.5)),
      w.add(floored, w.constant(1)), floored);
  V quotient = w.div(x, y);
  V result = w.select(w.compare(Comparison::NE, div, zero), floored,
                      w.copysign(zero, quotient));
  return w.select(byZero, quotient, result);
}

/// x // y as NumPy computes it: floats as floatDivmod; integers rounded
/// toward minus infinity, x // 0 == 0, and the minimum // -1 wraps to the
/// minimum.
template <typename A, typename V = typename A::Value>
V floorDivide(A &a, V x, V y) {
  if (a.isFloat())
    return a.inF32IfNarrow(x, y, [](auto &w, auto p, auto q) {
      return floatDivmod(w, p, q, /*wantQuotient=*/true);
    });
  V divisor = safeDivisor(a, x, y);
  V quotient = a.div(x, divisor);
  quotient = a.select(needsFloorStep(a, a.rem(x, divisor), y),
                      a.sub(quotient, a.constant(1)), quotient);
  return a.select(a.compare(Comparison::EQ, y, a.constant(0)),
                  a.constant(0), quotient);
}

/// x % y as NumPy computes it (the sign of y): floats as floatDivmod;
/// integers x % 0 == 0.
template <typename A, typename V = typename A::Value>
V remainder(A &a, V x, V y) {
  if (a.isFloat())
    return a.inF32IfNarrow(x, y, [](auto &w, auto p, auto q) {
      return floatDivmod(w, p, q, /*wantQuotient=*/false);
    });
  V r = a.rem(x, safeDivisor(a, x, y));
  r = a.select(needsFloorStep(a, r, y), a.add(r, y), r);
  return a.select(a.compare(Comparison::EQ, y, a.constant(0)),
                  a.constant(0), r);
}

} // namespace mlir::google::semantics

#endif // GOOGLE_DIALECT_GOOGLE_IR_SCALARMATH_H
