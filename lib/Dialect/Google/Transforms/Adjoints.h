//===- Adjoints.h - reverse-mode rules of the google ops --------*- C++ -*-===//
//
// The adjoint (vector-Jacobian product) of every differentiable google op,
// written with google ops, so that a gradient is itself a google program.
// --google-differentiate walks a function backwards and asks each op for
// the cotangents of its operands given those of its results.
//
//===----------------------------------------------------------------------===//

#ifndef GOOGLE_DIALECT_GOOGLE_TRANSFORMS_ADJOINTS_H
#define GOOGLE_DIALECT_GOOGLE_TRANSFORMS_ADJOINTS_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"

namespace mlir::google {

/// Builds google ops with their result types worked out (NumPy
/// broadcasting for elementwise ops), at one location.
class AdjointBuilder {
public:
  AdjointBuilder(OpBuilder &builder, Location loc)
      : builder(builder), loc(loc) {}

  OpBuilder &getBuilder() { return builder; }
  Location getLoc() { return loc; }

  Value add(Value a, Value b);
  Value sub(Value a, Value b);
  Value mul(Value a, Value b);
  Value div(Value a, Value b);
  Value pow(Value a, Value b);
  Value floorDiv(Value a, Value b);
  Value neg(Value a);
  Value exp(Value a);
  Value log(Value a);
  Value sin(Value a);
  Value cos(Value a);
  Value eq(Value a, Value b);
  Value gt(Value a, Value b);
  Value lt(Value a, Value b);
  Value ne(Value a, Value b);
  Value logicalOr(Value a, Value b);
  Value select(Value condition, Value onTrue, Value onFalse);
  /// `value` converted to `elementType`.
  Value cast(Value value, Type elementType);
  /// 1.0 where `condition` holds, else 0.0, in `elementType`.
  Value indicator(Value condition, Type elementType);
  /// A rank-0 constant.
  Value scalar(double value, Type elementType);
  /// Zeros with `like`'s type (dynamic extents too), whatever its values.
  Value zerosLike(Value like);
  /// `value` broadcast to `like`'s shape (NumPy rules).
  Value broadcastLike(Value value, Value like);
  Value reduceSum(Value value, ArrayRef<int64_t> axes, bool keepDims);
  Value reduceMin(Value value, ArrayRef<int64_t> axes, bool keepDims);
  Value transpose(Value value, ArrayRef<int64_t> perm);
  Value reshape(Value value, RankedTensorType type);
  Value matmul(Value lhs, Value rhs);
  Value slice(Value value, ArrayRef<int64_t> starts, ArrayRef<int64_t> limits,
              ArrayRef<int64_t> strides);
  /// slice() where `value` may have dynamic extents: those dimensions
  /// must be taken whole (start 0, limit the extent or kDynamic, stride
  /// 1), and each static dimension cut is a gather of its positions (a
  /// slice needs a static input). Null when a dynamic dimension is cut.
  Value window(Value value, ArrayRef<int64_t> starts, ArrayRef<int64_t> limits,
               ArrayRef<int64_t> strides);
  Value pad(Value value, ArrayRef<int64_t> low, ArrayRef<int64_t> high);
  Value padWith(Value value, ArrayRef<int64_t> low, ArrayRef<int64_t> high,
                Value padValue);
  /// The positions along `dimension`, shaped `type` (static), or like
  /// `like` where given.
  Value iota(RankedTensorType type, int64_t dimension, Value like = {});
  /// 0, 1, ..., n-1 (i64) for float `value`'s extent n along `dimension`
  /// (dynamic or not): a 1-D iota shaped like `value` summed over its
  /// other dimensions.
  Value positionsAlong(Value value, int64_t dimension);
  /// `value`'s extent along `dimension` as a rank-0 i64 tensor.
  Value extentAlong(Value value, int64_t dimension);
  /// `base` plus `updates` added at `indices` along `axis`.
  Value scatterAdd(Value base, Value indices, Value updates, int64_t axis);

  /// A cotangent `ct` of a broadcast result, summed back to `type` (an
  /// operand's): over the leading dimensions it lacks and over its static
  /// 1s that stretched; refined to `type`'s static extents.
  Value unbroadcast(Value ct, RankedTensorType type);

  /// `value` typed with the static extents of `shape` it does not know
  /// (the same rank).
  Value refine(Value value, ArrayRef<int64_t> shape);

private:
  Value elementwise(StringRef name, Value a, Value b, Type elementType);
  Value unary(StringRef name, Value a);

  OpBuilder &builder;
  Location loc;
};

/// The cotangents of `op`'s operands given `resultCotangents` (null where a
/// result has none), built at the builder's insertion point after `op`'s
/// clone: null for an operand that gets none (integers, booleans, indices).
/// An operand's cotangent may have the result's broadcast shape (the caller
/// unbroadcasts). Fails, with an error on `op`, for an op without a rule.
LogicalResult buildAdjoint(Operation *op, AdjointBuilder &b,
                           ArrayRef<Value> resultCotangents,
                           SmallVectorImpl<Value> &operandCotangents);

} // namespace mlir::google

#endif // GOOGLE_DIALECT_GOOGLE_TRANSFORMS_ADJOINTS_H
