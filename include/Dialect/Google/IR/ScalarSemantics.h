//===- ScalarSemantics.h - what every google op computes per element -*- C++ -*-===//
//
// The scalar meaning of each google op, written once over an "algebra" that
// supplies the primitive operations (elementwise ops: `computeScalar`, next
// to each op's definition in GoogleOps.td; the other ops: below). The linalg lowering instantiates it
// with an algebra that emits arith/math ops; the evaluator (constant folding
// and the reference interpreter) with one that computes on host numbers.
// Folded, interpreted and compiled code therefore cannot drift apart in what
// they compute, only in how each primitive rounds, and every primitive is
// defined by IEEE-754 or by SPEC section 1.
//
// An algebra `A` has a scalar type `A::Value` and works in one element type:
//   a.isFloat()                           float or integer element type
//   a.constant(double)                    a scalar of the element type
//   a.lowest(), a.highest()               -inf and +inf for floats, the
//                                         minimum and maximum for integers
//   a.add/sub/mul/div(x, y)               rounded to the element type (div:
//                                         floats only); integers wrap
//   a.maximum/minimum(x, y)               NaN-propagating, -0 < +0 (IEEE
//                                         754-2019 maximum); signed for ints
//   a.neg/abs(x)                          integers wrap (abs(MIN) == MIN)
//   a.libm<MathOp>(x, f32, f64)           a C library function (floats
//                                         only): `MathOp` when building IR,
//                                         f32/f64 on host numbers
//   a.inF32IfNarrow(x, fn)                fn(wide, y) on x extended to f32
//                                         when the type is f16/bf16, with
//                                         `wide` an f32 algebra; the result
//                                         is rounded back once
//   a.convert(x, to)                      `google.cast` to element type `to`
//   a.convertIndex(n)                     an index/count as the element type
//   a.accumulator()                       the algebra sums accumulate in: f32
//                                         for f16/bf16, else `a` itself
//   a.toAccumulator(x)                    x in the accumulator's type (exact)
//   a.fromAccumulator(x)                  an accumulator value rounded once
//                                         to the element type
//
//===----------------------------------------------------------------------===//

#ifndef GOOGLE_DIALECT_GOOGLE_IR_SCALARSEMANTICS_H
#define GOOGLE_DIALECT_GOOGLE_IR_SCALARSEMANTICS_H

#include "Dialect/Google/IR/GoogleOps.h"

#include "llvm/Support/ErrorHandling.h"

#include <optional>

namespace mlir::google::semantics {

namespace detail {
template <typename A, typename V, typename... Ops>
std::optional<V> dispatchElementwise(Operation *op, A &a, ArrayRef<V> args) {
  std::optional<V> result;
  (void)((
       [&] {
         if constexpr (Ops::template hasTrait<OpTrait::google::Elementwise>()) {
           if (auto concrete = dyn_cast<Ops>(op)) {
             result = concrete.computeScalar(a, args);
             return true;
           }
         }
         return false;
       }() ||
       ...));
  return result;
}
} // namespace detail

/// The scalar body of an elementwise op (OpTrait::google::Elementwise: unary,
/// broadcasting binary or cast), or std::nullopt when `op` is not
/// elementwise. Each op's body is its `computeScalar` in GoogleOps.td.
template <typename A, typename V = typename A::Value>
std::optional<V> elementwise(Operation *op, A &a, ArrayRef<V> args) {
  return detail::dispatchElementwise<A, V,
#define GET_OP_LIST
#include "Dialect/Google/IR/GoogleOps.cpp.inc"
                                     >(op, a, args);
}

/// Reductions combine elements in the accumulator type (SPEC section 2:
/// f16 and bf16 sums accumulate in f32 and round once at the end; maxima
/// are exact either way). MaxNum skips NaNs (IEEE maxNum): cheaper than Max
/// where a NaN decides the result anyway.
enum class Combiner { Sum, Max, MaxNum, Min, Prod };

/// The value a reduction starts from, in the accumulator algebra `w`.
template <typename W, typename V = typename W::Value>
V identity(W &w, Combiner combiner) {
  switch (combiner) {
  case Combiner::Sum:
    return w.constant(0);
  case Combiner::Prod:
    return w.constant(1);
  case Combiner::Min:
    return w.highest();
  case Combiner::Max:
  case Combiner::MaxNum:
    return w.lowest();
  }
  llvm_unreachable("unknown combiner");
}

/// `acc` (an accumulator of `w`) combined with `x`, both accumulator
/// values.
template <typename W, typename V = typename W::Value>
V combine(W &w, Combiner combiner, V acc, V x) {
  switch (combiner) {
  case Combiner::Sum:
    return w.add(acc, x);
  case Combiner::Max:
    return w.maximum(acc, x);
  case Combiner::MaxNum:
    return w.maxnum(acc, x);
  case Combiner::Min:
    return w.minimum(acc, x);
  case Combiner::Prod:
    return w.mul(acc, x);
  }
  llvm_unreachable("unknown combiner");
}

/// One step of a reduction of elements of `a`: `acc` (of the accumulator
/// type) combined with the element `x`.
template <typename A, typename W, typename V = typename A::Value>
typename W::Value accumulate(A &a, W &w, Combiner combiner,
                             typename W::Value acc, V x) {
  return combine(w, combiner, acc, a.toAccumulator(x));
}

/// The mean divides the accumulated sum by the element count, both in the
/// accumulator type (an f16 count would be inf past 65504), and rounds
/// once.
template <typename A, typename W, typename N>
typename A::Value mean(A &a, W &w, typename W::Value sum, N count) {
  return a.fromAccumulator(w.div(sum, w.convertIndex(count)));
}

/// One step of a matrix product in the accumulator type: acc + l * r
/// (the product of two f16 or bf16 values is exact in f32).
template <typename A, typename W, typename V = typename A::Value>
typename W::Value multiplyAccumulate(A &a, W &w, typename W::Value acc, V l,
                                     V r) {
  return w.add(acc, w.mul(a.toAccumulator(l), a.toAccumulator(r)));
}

/// The epilogue of matmul_bias_relu: relu(product + bias).
template <typename A, typename V = typename A::Value>
V biasRelu(A &a, V product, V bias) {
  return relu(a, a.add(product, bias));
}

/// Softmax: exp(x - max) per element, then each divided by their sum. The
/// maximum may skip NaNs (Combiner::MaxNum): a row holding a NaN is NaN
/// throughout, through its own exp(NaN - max), whatever the maximum. The
/// sum stays in the accumulator type and the quotient is rounded once.
///
/// Where x - max < -87 (-708 for f64; f32 for f16 and bf16, where such a
/// numerator rounds to 0 anyway), the numerator is 0 instead of exp's value
/// below 1.7e-38 (3.4e-308): exp's argument is clamped there, so that no
/// vector exp sees an underflowing lane (glibc's vector expf computes each
/// such lane on a slow scalar path, and a causal mask's -1e9 entries are
/// all such lanes).
template <typename A, typename V = typename A::Value>
V softmaxNumerator(A &a, V x, V maximum) {
  return a.inF32IfNarrow(a.sub(x, maximum), [](auto &w, auto d) {
    auto lowest = w.constant(w.isDouble() ? -708.0 : -87.0);
    return w.select(w.compare(Comparison::LT, d, lowest), w.constant(0),
                    exp(w, w.maximum(d, lowest)));
  });
}
template <typename A, typename W, typename V = typename A::Value>
V softmaxNormalize(A &a, W &w, V numerator, typename W::Value sum) {
  return a.fromAccumulator(w.div(a.toAccumulator(numerator), sum));
}

} // namespace mlir::google::semantics

#endif // GOOGLE_DIALECT_GOOGLE_IR_SCALARSEMANTICS_H
