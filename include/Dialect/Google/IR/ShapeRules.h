//===- ShapeRules.h - shape rules shared by verifiers and folds -*- C++ -*-===//
//
// NumPy broadcasting, matrix products, reductions and permutations, written
// once. Dimensions use ShapedType::kDynamic for `?`.
//
//===----------------------------------------------------------------------===//

#ifndef GOOGLE_DIALECT_GOOGLE_IR_SHAPERULES_H
#define GOOGLE_DIALECT_GOOGLE_IR_SHAPERULES_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Error.h"
#include <optional>
#include <string>

namespace mlir::google {

/// Broadcasts two shapes the NumPy way: trailing dimensions align, a static
/// 1 stretches to the other extent. A dynamic dimension meets a static N > 1
/// as N, a 1 or another dynamic dimension as dynamic. Returns std::nullopt
/// when two static extents differ and neither is 1.
std::optional<SmallVector<int64_t>> broadcastShapes(ArrayRef<int64_t> lhs,
                                                    ArrayRef<int64_t> rhs);

/// True when the dimensions are equal or one of them is dynamic (shapes:
/// mlir::verifyCompatibleShape).
bool areCompatibleDims(int64_t lhs, int64_t rhs);

/// Formats a shape as MLIR does inside a tensor type: `4x?x8`, `` for rank 0.
std::string formatShape(ArrayRef<int64_t> shape);

/// Maps `axis` in [-rank, rank) to [0, rank); std::nullopt when out of range.
std::optional<int64_t> normalizeAxis(int64_t axis, int64_t rank);

/// Normalizes and sorts reduction axes; an error when `axes` is empty,
/// has an axis out of [-rank, rank) or repeats one, saying which.
llvm::Expected<SmallVector<int64_t>>
normalizeReductionAxes(ArrayRef<int64_t> axes, int64_t rank);

/// The shape of a reduction over normalized `axes`.
SmallVector<int64_t> reducedShape(ArrayRef<int64_t> shape,
                                  ArrayRef<int64_t> axes, bool keepDims);

/// Number of elements of a static shape, std::nullopt when dynamic.
std::optional<int64_t> staticElementCount(ArrayRef<int64_t> shape);

/// Why a reshape from `input` to `result` is invalid, as far as the static
/// extents tell.
enum class ReshapeError {
  None,
  /// The result has more than one dynamic dimension.
  TooManyDynamic,
  /// Both static, with different element counts.
  CountMismatch,
  /// A dynamic result dimension next to a zero-sized one.
  DynamicNextToZero,
  /// The result's static extents do not divide the static input count.
  NotDivisible,
};
ReshapeError checkReshape(ArrayRef<int64_t> input, ArrayRef<int64_t> result);

/// True when a valid reshape can still fail at run time: the element count
/// it needs depends on dynamic input extents.
bool reshapeNeedsRuntimeCheck(ArrayRef<int64_t> input,
                              ArrayRef<int64_t> result);

//===----------------------------------------------------------------------===//
// Run-time shape rules: the static extents each operand must have, given
// everything the op's types say. The lowering checks and refines operands
// to them, the interpreter checks concrete shapes against them.
//===----------------------------------------------------------------------===//

/// True when operand dimension `operandDim` stretches over result dimension
/// `resultDim`: only a static 1 does, over a result that is not 1.
bool stretches(int64_t operandDim, int64_t resultDim);

/// The static extent of each result dimension of a broadcasting op, where
/// the result type or an operand that does not stretch knows it (dynamic
/// otherwise).
SmallVector<int64_t> knownBroadcastShape(ArrayRef<int64_t> result,
                                         ArrayRef<ArrayRef<int64_t>> operands);

/// The extents a (batched) matrix product's operands must have: M from the
/// result or lhs, N from the result, a bias or rhs, K and the batch from
/// whichever operand has them static. `biasLength` is dynamic when there is
/// no bias.
struct MatmulShapes {
  SmallVector<int64_t> lhs, rhs, product;
};
MatmulShapes knownMatmulShapes(ArrayRef<int64_t> lhs, ArrayRef<int64_t> rhs,
                               ArrayRef<int64_t> result, int64_t biasLength);

/// The extents a transpose's input must have for its result type.
SmallVector<int64_t> knownTransposeInput(ArrayRef<int64_t> input,
                                         ArrayRef<int64_t> result,
                                         ArrayRef<int64_t> perm);

/// The extents a reduction's input must have for its result type (the kept
/// dimensions take the result's static extents).
SmallVector<int64_t> knownReduceInput(ArrayRef<int64_t> input,
                                      ArrayRef<int64_t> result,
                                      ArrayRef<int64_t> axes, bool keepDims);

} // namespace mlir::google

#endif // GOOGLE_DIALECT_GOOGLE_IR_SHAPERULES_H
