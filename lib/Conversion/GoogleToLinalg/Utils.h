//===- Utils.h - helpers shared by the google-to-linalg patterns -*- C++ -*-===//

#ifndef GOOGLE_LIB_CONVERSION_GOOGLETOLINALG_UTILS_H
#define GOOGLE_LIB_CONVERSION_GOOGLETOLINALG_UTILS_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Utils/StructuredOpsUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::google {

using ScalarBuilder =
    function_ref<Value(OpBuilder &, Location, ValueRange args)>;

/// A tensor.empty of `type`, each dynamic dimension i taking `sizes[i]`.
Value createEmptyTensor(OpBuilder &b, Location loc, RankedTensorType type,
                        ArrayRef<OpFoldResult> sizes);

/// A tensor of `type` filled with `value`.
Value createFilledTensor(OpBuilder &b, Location loc, RankedTensorType type,
                         ArrayRef<OpFoldResult> sizes, Value value);

/// Scalar constant of `type` (float or integer).
Value createScalarConstant(OpBuilder &b, Location loc, Type type, double value);

/// Applies the scalar function `fn` to `x`; f16 and bf16 go through f32
/// (transcendental functions have no narrow implementations on CPUs).
Value computeInF32IfNarrow(OpBuilder &b, Location loc, Value x,
                           function_ref<Value(OpBuilder &, Location, Value)> fn);

/// The extent of dimension `dim` of `value` (constant when static).
OpFoldResult getDimSize(OpBuilder &b, Location loc, Value value, int64_t dim);

/// One linalg.generic over `resultType` reading `inputs` with NumPy
/// broadcasting and computing each element with `body`. Dynamic extents
/// that must agree at run time are checked (`opName` names the op).
Value createBroadcastingGeneric(OpBuilder &b, Location loc, StringRef opName,
                                RankedTensorType resultType, ValueRange inputs,
                                ScalarBuilder body);

/// Emits a run-time check that two extents are equal, unless both are
/// static (the verifier has compared them) or they are the same value.
void assertEqualExtents(OpBuilder &b, Location loc, OpFoldResult lhs,
                        OpFoldResult rhs, const Twine &message);

SmallVector<utils::IteratorType> parallelIterators(int64_t rank);

/// Registers the patterns of each op family.
void populateElementwiseToLinalgPatterns(RewritePatternSet &patterns);
void populateMatmulToLinalgPatterns(RewritePatternSet &patterns);
void populateLayoutToLinalgPatterns(RewritePatternSet &patterns);
void populateReductionToLinalgPatterns(RewritePatternSet &patterns);

} // namespace mlir::google

#endif // GOOGLE_LIB_CONVERSION_GOOGLETOLINALG_UTILS_H
