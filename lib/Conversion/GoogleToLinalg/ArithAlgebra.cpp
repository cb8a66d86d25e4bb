//===- ArithAlgebra.cpp - scalar semantics emitted as arith/math ops ------===//

#include "ArithAlgebra.h"

#include "Dialect/Google/IR/ScalarSemantics.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "llvm/ADT/APFloat.h"

using namespace mlir;
using namespace mlir::google;

using V = ArithAlgebra::Value;

V ArithAlgebra::constant(double value) {
  if (auto floatType = dyn_cast<FloatType>(elementType))
    return arith::ConstantOp::create(b, loc, b.getFloatAttr(floatType, value));
  return arith::ConstantOp::create(
      b, loc, b.getIntegerAttr(elementType, static_cast<int64_t>(value)));
}

/// -inf or +inf for floats, the minimum or maximum for integers.
static V extreme(OpBuilder &b, Location loc, Type elementType,
                 bool negative) {
  if (auto floatType = dyn_cast<FloatType>(elementType))
    return arith::ConstantOp::create(
        b, loc,
        b.getFloatAttr(floatType, llvm::APFloat::getInf(
                                      floatType.getFloatSemantics(), negative)));
  unsigned width = elementType.getIntOrFloatBitWidth();
  return arith::ConstantOp::create(
      b, loc,
      b.getIntegerAttr(elementType, negative ? APInt::getSignedMinValue(width)
                                             : APInt::getSignedMaxValue(width)));
}

V ArithAlgebra::lowest() { return extreme(b, loc, elementType, true); }
V ArithAlgebra::highest() { return extreme(b, loc, elementType, false); }

V ArithAlgebra::add(V x, V y) {
  if (isNarrow())
    return inF32(x, y, [&](V l, V r) { return arith::AddFOp::create(b, loc, l, r); });
  if (isFloat())
    return arith::AddFOp::create(b, loc, x, y);
  return arith::AddIOp::create(b, loc, x, y);
}
V ArithAlgebra::sub(V x, V y) {
  if (isNarrow())
    return inF32(x, y, [&](V l, V r) { return arith::SubFOp::create(b, loc, l, r); });
  if (isFloat())
    return arith::SubFOp::create(b, loc, x, y);
  return arith::SubIOp::create(b, loc, x, y);
}
V ArithAlgebra::mul(V x, V y) {
  if (isNarrow())
    return inF32(x, y, [&](V l, V r) { return arith::MulFOp::create(b, loc, l, r); });
  if (isFloat())
    return arith::MulFOp::create(b, loc, x, y);
  return arith::MulIOp::create(b, loc, x, y);
}
V ArithAlgebra::div(V x, V y) {
  if (isNarrow())
    return inF32(x, y, [&](V l, V r) { return arith::DivFOp::create(b, loc, l, r); });
  if (!isFloat())
    return arith::DivSIOp::create(b, loc, x, y);
  return arith::DivFOp::create(b, loc, x, y);
}
V ArithAlgebra::rem(V x, V y) {
  if (isNarrow())
    return inF32(x, y, [&](V l, V r) { return arith::RemFOp::create(b, loc, l, r); });
  if (!isFloat())
    return arith::RemSIOp::create(b, loc, x, y);
  return arith::RemFOp::create(b, loc, x, y);
}
V ArithAlgebra::copysign(V x, V y) {
  if (isNarrow())
    return inF32(x, y, [&](V l, V r) { return math::CopySignOp::create(b, loc, l, r); });
  return math::CopySignOp::create(b, loc, x, y);
}

V ArithAlgebra::compare(semantics::Comparison comparison, V x, V y) {
  using semantics::Comparison;
  if (isFloat()) {
    if (isNarrow()) {
      // Exact in f32.
      x = arith::ExtFOp::create(b, loc, b.getF32Type(), x);
      y = arith::ExtFOp::create(b, loc, b.getF32Type(), y);
    }
    arith::CmpFPredicate predicate;
    switch (comparison) {
    case Comparison::EQ: predicate = arith::CmpFPredicate::OEQ; break;
    case Comparison::NE: predicate = arith::CmpFPredicate::UNE; break;
    case Comparison::LT: predicate = arith::CmpFPredicate::OLT; break;
    case Comparison::LE: predicate = arith::CmpFPredicate::OLE; break;
    case Comparison::GT: predicate = arith::CmpFPredicate::OGT; break;
    case Comparison::GE: predicate = arith::CmpFPredicate::OGE; break;
    }
    return arith::CmpFOp::create(b, loc, predicate, x, y);
  }
  // Booleans order false < true.
  bool isBool = elementType.isInteger(1);
  arith::CmpIPredicate predicate;
  switch (comparison) {
  case Comparison::EQ: predicate = arith::CmpIPredicate::eq; break;
  case Comparison::NE: predicate = arith::CmpIPredicate::ne; break;
  case Comparison::LT: predicate = isBool ? arith::CmpIPredicate::ult : arith::CmpIPredicate::slt; break;
  case Comparison::LE: predicate = isBool ? arith::CmpIPredicate::ule : arith::CmpIPredicate::sle; break;
  case Comparison::GT: predicate = isBool ? arith::CmpIPredicate::ugt : arith::CmpIPredicate::sgt; break;
  case Comparison::GE: predicate = isBool ? arith::CmpIPredicate::uge : arith::CmpIPredicate::sge; break;
  }
  return arith::CmpIOp::create(b, loc, predicate, x, y);
}
V ArithAlgebra::select(V condition, V x, V y) {
  return arith::SelectOp::create(b, loc, condition, x, y);
}
V ArithAlgebra::logicalAnd(V p, V q) { return arith::AndIOp::create(b, loc, p, q); }
V ArithAlgebra::logicalOr(V p, V q) { return arith::OrIOp::create(b, loc, p, q); }
V ArithAlgebra::logicalXor(V p, V q) { return arith::XOrIOp::create(b, loc, p, q); }
V ArithAlgebra::logicalNot(V p) {
  return arith::XOrIOp::create(
      b, loc, p, arith::ConstantOp::create(b, loc, b.getBoolAttr(true)));
}
V ArithAlgebra::maximum(V x, V y) {
  if (isFloat())
    return arith::MaximumFOp::create(b, loc, x, y);
  return arith::MaxSIOp::create(b, loc, x, y);
}
V ArithAlgebra::minimum(V x, V y) {
  if (isFloat())
    return arith::MinimumFOp::create(b, loc, x, y);
  return arith::MinSIOp::create(b, loc, x, y);
}
V ArithAlgebra::maxnum(V x, V y) {
  if (isFloat())
    return arith::MaxNumFOp::create(b, loc, x, y);
  return arith::MaxSIOp::create(b, loc, x, y);
}
V ArithAlgebra::neg(V x) {
  if (isFloat())
    return arith::NegFOp::create(b, loc, x);
  return arith::SubIOp::create(b, loc, constant(0), x);
}
V ArithAlgebra::abs(V x) {
  if (isFloat())
    return math::AbsFOp::create(b, loc, x);
  return math::AbsIOp::create(b, loc, x);
}

//===----------------------------------------------------------------------===//
// Conversions (SPEC section 1: round to nearest even once; float to int
// truncates and saturates, NaN to 0)
//===----------------------------------------------------------------------===//

namespace {

Value intConstant(OpBuilder &b, Location loc, Type type, const APInt &value) {
  return arith::ConstantOp::create(b, loc, b.getIntegerAttr(type, value));
}
Value intConstant(OpBuilder &b, Location loc, Type type, int64_t value) {
  return arith::ConstantOp::create(b, loc, b.getIntegerAttr(type, value));
}

/// f64 to f32 rounded to odd: the truncated value with its last bit set
/// when inexact. Rounding that to a type of at most 22 significand bits
/// (f16, bf16) gives the correctly rounded result, unlike two roundings
/// to nearest.
Value roundF64ToOddF32(OpBuilder &b, Location loc, Value x) {
  Type f32 = b.getF32Type(), i32 = b.getI32Type();
  Value nearest = arith::TruncFOp::create(b, loc, f32, x);
  Value back = arith::ExtFOp::create(b, loc, b.getF64Type(), nearest);
  Value exact =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, back, x);
  // Rounded away from zero: step back to the truncated value (the
  // magnitude's bit pattern is monotonic; inf steps back to the maximum).
  Value awayFromZero = arith::CmpFOp::create(
      b, loc, arith::CmpFPredicate::OGT, math::AbsFOp::create(b, loc, back),
      math::AbsFOp::create(b, loc, x));
  Value bits = arith::BitcastOp::create(b, loc, i32, nearest);
  Value one = intConstant(b, loc, i32, 1);
  Value truncated = arith::SelectOp::create(
      b, loc, awayFromZero, arith::SubIOp::create(b, loc, bits, one), bits);
  Value odd = arith::OrIOp::create(b, loc, truncated, one);
  Value result = arith::SelectOp::create(b, loc, exact, bits, odd);
  return arith::BitcastOp::create(b, loc, f32, result);
}

/// A signed integer to f32 rounded to odd (see above): the top 24
/// significant bits of |x|, the last one set when lower bits were dropped,
/// scaled by a power of two.
Value roundIntToOddF32(OpBuilder &b, Location loc, Value x) {
  Type i64 = b.getI64Type(), f32 = b.getF32Type();
  if (x.getType() != i64)
    x = arith::ExtSIOp::create(b, loc, i64, x);
  Value zero = intConstant(b, loc, i64, 0);
  Value one = intConstant(b, loc, i64, 1);
  Value negative =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, x, zero);
  // |INT64_MIN| wraps to 2^63, which is right as an unsigned value.
  Value magnitude = arith::SelectOp::create(
      b, loc, negative, arith::SubIOp::create(b, loc, zero, x), x);
  Value bitLength = arith::SubIOp::create(
      b, loc, intConstant(b, loc, i64, 64),
      math::CountLeadingZerosOp::create(b, loc, magnitude));
  Value shift = arith::MaxSIOp::create(
      b, loc, arith::SubIOp::create(b, loc, bitLength,
                                    intConstant(b, loc, i64, 24)),
      zero);
  Value kept = arith::ShRUIOp::create(b, loc, magnitude, shift);
  Value mask = arith::SubIOp::create(
      b, loc, arith::ShLIOp::create(b, loc, one, shift), one);
  Value dropped = arith::AndIOp::create(b, loc, magnitude, mask);
  Value sticky = arith::ExtUIOp::create(
      b, loc, i64,
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, dropped, zero));
  Value significand = arith::UIToFPOp::create(
      b, loc, f32, arith::OrIOp::create(b, loc, kept, sticky));
  // 2^shift as f32 bits: the biased exponent 127 + shift (shift <= 40).
  Value exponent = arith::ShLIOp::create(
      b, loc,
      arith::AddIOp::create(b, loc, shift, intConstant(b, loc, i64, 127)),
      intConstant(b, loc, i64, 23));
  Value scale = arith::BitcastOp::create(
      b, loc, f32, arith::TruncIOp::create(b, loc, b.getI32Type(), exponent));
  Value result = arith::MulFOp::create(b, loc, significand, scale);
  return arith::SelectOp::create(b, loc, negative,
                                 arith::NegFOp::create(b, loc, result), result);
}

bool isNarrowFloat(Type type) { return type.isF16() || type.isBF16(); }

Value floatToFloat(OpBuilder &b, Location loc, Value x, Type to) {
  Type from = x.getType();
  unsigned fromWidth = from.getIntOrFloatBitWidth();
  unsigned toWidth = to.getIntOrFloatBitWidth();
  if (fromWidth < toWidth)
    return arith::ExtFOp::create(b, loc, to, x); // exact
  if (isNarrowFloat(to)) {
    // Through f32, which holds f16 and bf16 exactly; f64 rounds to odd
    // first so that the value is rounded once.
    if (from.isF64())
      x = roundF64ToOddF32(b, loc, x);
    else if (!from.isF32())
      x = arith::ExtFOp::create(b, loc, b.getF32Type(), x);
  }
  return arith::TruncFOp::create(b, loc, to, x);
}

Value floatToInt(OpBuilder &b, Location loc, Value x, Type to) {
  auto from = cast<FloatType>(x.getType());
  unsigned width = to.getIntOrFloatBitWidth();
  auto bound = [&](bool negative) {
    // +-2^(width-1), exact in every float type or out of its range (inf).
    llvm::APFloat value = llvm::APFloat::getOne(from.getFloatSemantics(),
                                                negative);
    value = llvm::scalbn(value, width - 1, llvm::APFloat::rmNearestTiesToEven);
    return arith::ConstantOp::create(b, loc, b.getFloatAttr(from, value));
  };
  Value converted = arith::FPToSIOp::create(b, loc, to, x);
  Value tooHigh = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGE, x,
                                        bound(false));
  Value tooLow = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, x,
                                       bound(true));
  Value isNaN =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, x, x);
  Value result = arith::SelectOp::create(
      b, loc, tooHigh,
      intConstant(b, loc, to, APInt::getSignedMaxValue(width)), converted);
  result = arith::SelectOp::create(
      b, loc, tooLow, intConstant(b, loc, to, APInt::getSignedMinValue(width)),
      result);
  return arith::SelectOp::create(b, loc, isNaN, intConstant(b, loc, to, 0),
                                 result);
}

Value intToFloat(OpBuilder &b, Location loc, Value x, Type to) {
  if (to.isBF16())
    return arith::TruncFOp::create(b, loc, to, roundIntToOddF32(b, loc, x));
  if (to.isF16()) {
    // Integers beyond 2^24 are inf in f16 whichever way they round, and
    // the others are exact in f32: one rounding.
    Value wide = arith::SIToFPOp::create(b, loc, b.getF32Type(), x);
    return arith::TruncFOp::create(b, loc, to, wide);
  }
  return arith::SIToFPOp::create(b, loc, to, x);
}

} // namespace

V ArithAlgebra::convert(V x, Type to) {
  Type from = x.getType();
  if (from == to)
    return x;
  // Booleans: true is 1; anything but 0 (NaN included) is true.
  if (to.isInteger(1)) {
    if (isa<FloatType>(from))
      return arith::CmpFOp::create(
          b, loc, arith::CmpFPredicate::UNE, x,
          arith::ConstantOp::create(b, loc, b.getFloatAttr(from, 0)));
    return arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::ne, x,
        arith::ConstantOp::create(b, loc, b.getIntegerAttr(from, 0)));
  }
  if (from.isInteger(1)) {
    if (!isa<FloatType>(to))
      return arith::ExtUIOp::create(b, loc, to, x);
    // 0 and 1 are exact in every float type.
    Type wide = isNarrowFloat(to) ? b.getF32Type() : to;
    Value converted = arith::UIToFPOp::create(b, loc, wide, x);
    return wide == to ? converted
                      : arith::TruncFOp::create(b, loc, to, converted);
  }
  bool fromFloat = isa<FloatType>(from), toFloat = isa<FloatType>(to);
  if (fromFloat && toFloat)
    return floatToFloat(b, loc, x, to);
  if (fromFloat)
    return floatToInt(b, loc, x, to);
  if (toFloat)
    return intToFloat(b, loc, x, to);
  if (from.getIntOrFloatBitWidth() < to.getIntOrFloatBitWidth())
    return arith::ExtSIOp::create(b, loc, to, x);
  return arith::TruncIOp::create(b, loc, to, x);
}

ArithAlgebra ArithAlgebra::accumulator() const {
  return ArithAlgebra(b, loc, semantics::getAccumulatorType(elementType));
}

V ArithAlgebra::toAccumulator(V x) {
  Type accumulator = semantics::getAccumulatorType(elementType);
  if (accumulator == elementType)
    return x;
  return arith::ExtFOp::create(b, loc, accumulator, x);
}

V ArithAlgebra::fromAccumulator(V x) {
  if (x.getType() == elementType)
    return x;
  return arith::TruncFOp::create(b, loc, elementType, x);
}

V ArithAlgebra::convertIndex(V index) {
  Value count = arith::IndexCastOp::create(b, loc, b.getI64Type(), index);
  return convert(count, elementType);
}
