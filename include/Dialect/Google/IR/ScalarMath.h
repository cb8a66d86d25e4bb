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

} // namespace mlir::google::semantics

#endif // GOOGLE_DIALECT_GOOGLE_IR_SCALARMATH_H
