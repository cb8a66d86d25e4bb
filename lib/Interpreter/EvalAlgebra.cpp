//===- EvalAlgebra.cpp - scalar semantics computed on host numbers --------===//

#include "EvalAlgebra.h"

#include "llvm/ADT/APFloat.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::google;

ElementKind google::getElementKind(Type type) {
  if (type.isF16())
    return ElementKind::F16;
  if (type.isBF16())
    return ElementKind::BF16;
  if (type.isF32())
    return ElementKind::F32;
  if (type.isF64())
    return ElementKind::F64;
  if (type.isInteger(32))
    return ElementKind::I32;
  if (type.isInteger(1))
    return ElementKind::I1;
  assert(type.isInteger(64) && "not a google element type");
  return ElementKind::I64;
}

static const llvm::fltSemantics &narrowSemantics(ElementKind kind) {
  return kind == ElementKind::F16 ? llvm::APFloat::IEEEhalf()
                                  : llvm::APFloat::BFloat();
}

static double toDouble(llvm::APFloat value) {
  bool losesInfo;
  value.convert(llvm::APFloat::IEEEdouble(),
                llvm::APFloat::rmNearestTiesToEven, &losesInfo);
  return value.convertToDouble();
}

double EvalAlgebra::round(double x) const {
  switch (kind) {
  case ElementKind::F64:
    return x;
  case ElementKind::F32:
    return static_cast<float>(x);
  case ElementKind::F16:
  case ElementKind::BF16: {
    llvm::APFloat value(x);
    bool losesInfo;
    value.convert(narrowSemantics(kind), llvm::APFloat::rmNearestTiesToEven,
                  &losesInfo);
    return toDouble(value);
  }
  default:
    return x;
  }
}

int64_t EvalAlgebra::wrap(uint64_t x) const {
  if (kind == ElementKind::I1)
    return x & 1;
  if (kind == ElementKind::I32)
    return static_cast<int32_t>(static_cast<uint32_t>(x));
  return static_cast<int64_t>(x);
}

Scalar EvalAlgebra::constant(double value) const {
  if (isFloat())
    return fromDouble(value);
  return Scalar{0, static_cast<int64_t>(value)};
}

Scalar EvalAlgebra::lowest() const {
  if (isFloat())
    return Scalar{-std::numeric_limits<double>::infinity(), 0};
  return Scalar{0, kind == ElementKind::I32
                       ? std::numeric_limits<int32_t>::min()
                       : std::numeric_limits<int64_t>::min()};
}

Scalar EvalAlgebra::highest() const {
  if (isFloat())
    return Scalar{std::numeric_limits<double>::infinity(), 0};
  return Scalar{0, kind == ElementKind::I32
                       ? std::numeric_limits<int32_t>::max()
                       : std::numeric_limits<int64_t>::max()};
}

static uint64_t u(int64_t x) { return static_cast<uint64_t>(x); }

Scalar EvalAlgebra::add(Scalar x, Scalar y) const {
  return isFloat() ? fromDouble(x.f + y.f) : fromInt(u(x.i) + u(y.i));
}
Scalar EvalAlgebra::sub(Scalar x, Scalar y) const {
  return isFloat() ? fromDouble(x.f - y.f) : fromInt(u(x.i) - u(y.i));
}
Scalar EvalAlgebra::mul(Scalar x, Scalar y) const {
  return isFloat() ? fromDouble(x.f * y.f) : fromInt(u(x.i) * u(y.i));
}
Scalar EvalAlgebra::div(Scalar x, Scalar y) const {
  if (!isFloat())
    return fromInt(u(x.i / y.i));
  return fromDouble(x.f / y.f);
}

Scalar EvalAlgebra::rem(Scalar x, Scalar y) const {
  if (!isFloat())
    return fromInt(u(x.i % y.i));
  return Scalar{std::fmod(x.f, y.f), 0}; // exact
}

Scalar EvalAlgebra::compare(semantics::Comparison comparison, Scalar x,
                            Scalar y) const {
  using semantics::Comparison;
  bool result;
  if (isFloat()) {
    switch (comparison) {
    case Comparison::EQ: result = x.f == y.f; break;
    case Comparison::NE: result = !(x.f == y.f); break;
    case Comparison::LT: result = x.f < y.f; break;
    case Comparison::LE: result = x.f <= y.f; break;
    case Comparison::GT: result = x.f > y.f; break;
    case Comparison::GE: result = x.f >= y.f; break;
    }
  } else {
    switch (comparison) {
    case Comparison::EQ: result = x.i == y.i; break;
    case Comparison::NE: result = x.i != y.i; break;
    case Comparison::LT: result = x.i < y.i; break;
    case Comparison::LE: result = x.i <= y.i; break;
    case Comparison::GT: result = x.i > y.i; break;
    case Comparison::GE: result = x.i >= y.i; break;
    }
  }
  return Scalar{0, result};
}

// IEEE 754-2019 maximum/minimum: NaN wins, -0 < +0.
Scalar EvalAlgebra::maximum(Scalar x, Scalar y) const {
  if (!isFloat())
    return x.i >= y.i ? x : y;
  if (std::isnan(x.f) || std::isnan(y.f))
    return Scalar{std::numeric_limits<double>::quiet_NaN(), 0};
  if (x.f == y.f)
    return std::signbit(x.f) ? y : x;
  return x.f > y.f ? x : y;
}
// IEEE 754-2008 maxNum: a NaN loses to a number.
Scalar EvalAlgebra::maxnum(Scalar x, Scalar y) const {
  if (!isFloat())
    return x.i >= y.i ? x : y;
  if (std::isnan(x.f))
    return y;
  if (std::isnan(y.f))
    return x;
  return maximum(x, y);
}
Scalar EvalAlgebra::minimum(Scalar x, Scalar y) const {
  if (!isFloat())
    return x.i <= y.i ? x : y;
  if (std::isnan(x.f) || std::isnan(y.f))
    return Scalar{std::numeric_limits<double>::quiet_NaN(), 0};
  if (x.f == y.f)
    return std::signbit(x.f) ? x : y;
  return x.f < y.f ? x : y;
}

Scalar EvalAlgebra::neg(Scalar x) const {
  return isFloat() ? Scalar{-x.f, 0} : fromInt(0 - u(x.i));
}
Scalar EvalAlgebra::abs(Scalar x) const {
  if (isFloat())
    return Scalar{std::fabs(x.f), 0};
  return x.i < 0 ? fromInt(0 - u(x.i)) : x;
}

Scalar EvalAlgebra::convert(Scalar x, Type to) const {
  return convertTo(x, getElementKind(to));
}

Scalar EvalAlgebra::convertTo(Scalar x, ElementKind to) const {
  EvalAlgebra target(to);
  // Booleans: true is 1; anything but 0 (NaN included) is true.
  if (to == ElementKind::I1)
    return Scalar{0, isFloat() ? !(x.f == 0) : x.i != 0};
  if (kind == ElementKind::I1)
    return target.isFloat() ? Scalar{static_cast<double>(x.i), 0}
                            : Scalar{0, x.i};
  if (isFloat() && target.isFloat())
    return Scalar{target.round(x.f), 0}; // one rounding, from the exact value
  if (isFloat()) {
    // Truncate toward zero, saturate, NaN to 0.
    if (std::isnan(x.f))
      return Scalar{0, 0};
    int width = target.kind == ElementKind::I32 ? 32 : 64;
    double limit = std::ldexp(1.0, width - 1);
    double truncated = std::trunc(x.f);
    if (truncated >= limit)
      return Scalar{0, width == 32 ? std::numeric_limits<int32_t>::max()
                                   : std::numeric_limits<int64_t>::max()};
    if (truncated < -limit)
      return target.lowest();
    return Scalar{0, static_cast<int64_t>(truncated)};
  }
  if (target.isFloat()) {
    switch (target.kind) {
    case ElementKind::F64:
      return Scalar{static_cast<double>(x.i), 0};
    case ElementKind::F32:
      return Scalar{static_cast<float>(x.i), 0};
    default: {
      llvm::APFloat value(narrowSemantics(target.kind));
      value.convertFromAPInt(llvm::APInt(64, x.i, /*isSigned=*/true),
                             /*IsSigned=*/true,
                             llvm::APFloat::rmNearestTiesToEven);
      return Scalar{toDouble(value), 0};
    }
    }
  }
  return Scalar{0, target.wrap(u(x.i))};
}

Scalar EvalAlgebra::convertIndex(int64_t count) const {
  return EvalAlgebra(ElementKind::I64).convertTo(Scalar{0, count}, kind);
}
