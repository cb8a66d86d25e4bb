//===- Utils.h - helpers shared by the google-to-linalg patterns -*- C++ -*-===//

#ifndef GOOGLE_LIB_CONVERSION_GOOGLETOLINALG_UTILS_H
#define GOOGLE_LIB_CONVERSION_GOOGLETOLINALG_UTILS_H

#include "Conversion/GoogleToLinalg/GoogleToLinalg.h"

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

/// `input` with `low[d]` and `high[d]` elements of the scalar `value`
/// around each dimension d (a fill, then the input inserted).
Value createPaddedTensor(OpBuilder &b, Location loc, Value input,
                         ArrayRef<int64_t> low, ArrayRef<int64_t> high,
                         Value value);

/// A tensor of `type` filled with `value`.
Value createFilledTensor(OpBuilder &b, Location loc, RankedTensorType type,
                         ArrayRef<OpFoldResult> sizes, Value value);

/// The extent of dimension `dim` of `value` (constant when static).
OpFoldResult getDimSize(OpBuilder &b, Location loc, Value value, int64_t dim);

/// The extents of every dimension of `value`.
SmallVector<OpFoldResult> getDimSizes(OpBuilder &b, Location loc, Value value);

SmallVector<utils::IteratorType> parallelIterators(int64_t rank);

/// Emits a run-time check that two extents are equal, unless both are
/// constants (the verifier compared them) or the same value. In `message`,
/// `{0}` stands for `actual` and `{1}` for `expected`; the runtime fills
/// them in.
void emitExtentCheck(OpBuilder &b, Location loc, OpFoldResult actual,
                     OpFoldResult expected, const Twine &message);

/// "<op>: dimension <dim> of <what> is {0}, expected {1}".
std::string extentMessage(StringRef opName, StringRef what, int64_t dim);

/// `value` with the static extents of `shape` where its own are dynamic:
/// each such extent is checked at run time (`message(d)` describes
/// dimension d, see extentMessage), then a tensor.cast makes it static.
/// Lowerings refine their operands this way so that every linalg op they
/// build is shape-consistent and no later pass can assume more than was
/// checked.
Value refineShape(OpBuilder &b, Location loc, Value value,
                  ArrayRef<int64_t> shape,
                  function_ref<std::string(int64_t)> message);

/// `value` cast to `type` when they differ; `type` may only be less static
/// (a declared result type that leaves extents dynamic).
Value relaxToType(OpBuilder &b, Location loc, Value value, Type type);

/// A linalg.generic over the iteration space `sizes` of `type` that reads
/// `inputs` through `inputMaps` and writes `body(inputs)` to a new tensor
/// of `type`. It never reads its output: values flow through inputs only
/// (a generic that read its `outs` would be miscompiled by elementwise
/// fusion when the output is broadcast).
Value createParallelGeneric(OpBuilder &b, Location loc, RankedTensorType type,
                            ArrayRef<OpFoldResult> sizes, ValueRange inputs,
                            ArrayRef<AffineMap> inputMaps, ScalarBuilder body);

/// One linalg.generic over `resultType` reading `inputs` with NumPy
/// broadcasting and computing each element with `body`. Dynamic extents
/// that must agree at run time are checked (`opName` names the op).
Value createBroadcastingGeneric(OpBuilder &b, Location loc, StringRef opName,
                                RankedTensorType resultType, ValueRange inputs,
                                ScalarBuilder body);

/// The accumulators `reduced` (f32 for f16/bf16 sums and products, SPEC
/// section 2) rounded once to `elementType`; `reduced` itself when it has
/// that type.
Value roundAccumulators(OpBuilder &b, Location loc, Value reduced,
                        Type elementType);

/// Registers the patterns of each op family.
void populateElementwiseToLinalgPatterns(RewritePatternSet &patterns);
void populateMatmulToLinalgPatterns(RewritePatternSet &patterns);
void populateLayoutToLinalgPatterns(RewritePatternSet &patterns);
void populateReductionToLinalgPatterns(RewritePatternSet &patterns);
void populateIndexingToLinalgPatterns(RewritePatternSet &patterns,
                                      ScatterLowering scatter);
void populateConvolutionToLinalgPatterns(RewritePatternSet &patterns);
void populateControlFlowToScfPatterns(RewritePatternSet &patterns);

/// Rank-0 integer computations on scalars the host knows (counted loops'
/// counters) as scalar ops.
void populateKnownScalarPatterns(RewritePatternSet &patterns);

} // namespace mlir::google

#endif // GOOGLE_LIB_CONVERSION_GOOGLETOLINALG_UTILS_H
