//===- GoogleOps.cpp - google op verifiers --------------------------------===//
//
// Every message names the operand and what was expected; the op name comes
// from emitOpError.
//
//===----------------------------------------------------------------------===//

#include "Dialect/Google/IR/GoogleOps.h"
#include "Dialect/Google/IR/ShapeRules.h"

#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace mlir::google;

/// `tensor<4x?xf32>`-style text for a shape and element type.
static std::string formatTensor(ArrayRef<int64_t> shape, Type elementType) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "tensor<";
  if (!shape.empty())
    os << formatShape(shape) << "x";
  os << elementType << ">";
  return text;
}

static LogicalResult verifyResultShape(Operation *op, ArrayRef<int64_t> expected,
                                       RankedTensorType result) {
  if (succeeded(verifyCompatibleShape(expected, result.getShape())))
    return success();
  return op->emitOpError("expected result type ")
         << formatTensor(expected, result.getElementType()) << ", got "
         << result;
}

//===----------------------------------------------------------------------===//
// Elementwise binary ops
//===----------------------------------------------------------------------===//

static LogicalResult verifyBroadcastingOp(Operation *op) {
  auto lhs = cast<RankedTensorType>(op->getOperand(0).getType());
  auto rhs = cast<RankedTensorType>(op->getOperand(1).getType());
  auto result = cast<RankedTensorType>(op->getResult(0).getType());
  std::optional<SmallVector<int64_t>> shape =
      broadcastShapes(lhs.getShape(), rhs.getShape());
  if (!shape)
    return op->emitOpError("expected broadcast-compatible operands, got lhs ")
           << lhs << " and rhs " << rhs;
  return verifyResultShape(op, *shape, result);
}

LogicalResult SelectOp::verify() {
  RankedTensorType condition = getCondition().getType();
  RankedTensorType onTrue = getOnTrue().getType();
  RankedTensorType onFalse = getOnFalse().getType();
  std::optional<SmallVector<int64_t>> shape =
      broadcastShapes(condition.getShape(), onTrue.getShape());
  if (shape)
    shape = broadcastShapes(*shape, onFalse.getShape());
  if (!shape)
    return emitOpError("expected broadcast-compatible operands, got ")
           << condition << ", " << onTrue << " and " << onFalse;
  return verifyResultShape(*this, *shape, getResult().getType());
}


//===----------------------------------------------------------------------===//
// Matrix products
//===----------------------------------------------------------------------===//

/// Checks lhs/rhs ranks and the contraction; returns the product's shape.
static FailureOr<SmallVector<int64_t>>
verifyMatmulOperands(Operation *op, RankedTensorType lhs, RankedTensorType rhs,
                     bool allowBatch) {
  int64_t rank = lhs.getRank();
  if (rank != 2 && !(allowBatch && rank == 3))
    return op->emitOpError("expected lhs of rank 2 (MxK)")
           << (allowBatch ? " or 3 (BxMxK)" : "") << ", got " << lhs;
  if (rhs.getRank() != rank)
    return op->emitOpError("expected rhs of rank ")
           << rank << " like lhs, got " << rhs;
  ArrayRef<int64_t> l = lhs.getShape(), r = rhs.getShape();
  if (!areCompatibleDims(l[rank - 1], r[rank - 2]))
    return op->emitOpError("expected rhs dimension ")
           << rank - 2 << " to equal the lhs contracting dimension K = "
           << l[rank - 1] << ", got " << rhs;
  SmallVector<int64_t> shape;
  if (rank == 3) {
    if (!areCompatibleDims(l[0], r[0]))
      return op->emitOpError("expected equal batch dimensions, got lhs ")
             << lhs << " and rhs " << rhs;
    shape.push_back(ShapedType::isDynamic(l[0]) ? r[0] : l[0]);
  }
  shape.push_back(l[rank - 2]);
  shape.push_back(r[rank - 1]);
  return shape;
}

LogicalResult MatmulOp::verify() {
  FailureOr<SmallVector<int64_t>> shape = verifyMatmulOperands(
      *this, getLhs().getType(), getRhs().getType(), /*allowBatch=*/true);
  if (failed(shape))
    return failure();
  return verifyResultShape(*this, *shape, getResult().getType());
}

LogicalResult MatmulBiasReluOp::verify() {
  FailureOr<SmallVector<int64_t>> shape = verifyMatmulOperands(
      *this, getLhs().getType(), getRhs().getType(), /*allowBatch=*/false);
  if (failed(shape))
    return failure();
  RankedTensorType bias = getBias().getType();
  int64_t n = (*shape)[1];
  if (bias.getRank() != 1 || !areCompatibleDims(bias.getDimSize(0), n))
    return emitOpError("expected bias of shape [N] = [")
           << formatShape({n}) << "], got " << bias;
  return verifyResultShape(*this, *shape, getResult().getType());
}

//===----------------------------------------------------------------------===//
// Layout
//===----------------------------------------------------------------------===//

LogicalResult TransposeOp::verify() {
  RankedTensorType input = getInput().getType();
  ArrayRef<int64_t> perm = getPerm();
  if (static_cast<int64_t>(perm.size()) != input.getRank() ||
      !isPermutationVector(perm)) {
    InFlightDiagnostic diag = emitOpError("expected perm to be a permutation of [0, ")
                              << input.getRank() << "), got [";
    llvm::interleaveComma(perm, diag);
    return diag << "]";
  }
  return verifyResultShape(*this, applyPermutation(input.getShape(), perm),
                           getResult().getType());
}

/// Python's len(range(start, limit, stride)).
static int64_t rangeLength(int64_t start, int64_t limit, int64_t stride) {
  int64_t span = stride > 0 ? limit - start : start - limit;
  int64_t step = stride > 0 ? stride : -stride;
  return span <= 0 ? 0 : (span + step - 1) / step;
}

SmallVector<int64_t> SliceOp::getWindowShape() {
  SmallVector<int64_t> shape;
  for (auto [start, limit, stride] :
       llvm::zip_equal(getStarts(), getLimits(), getStrides()))
    shape.push_back(rangeLength(start, limit, stride));
  return shape;
}

LogicalResult SliceOp::verify() {
  RankedTensorType input = getInput().getType();
  int64_t rank = input.getRank();
  ArrayRef<int64_t> starts = getStarts(), limits = getLimits(),
                    strides = getStrides();
  if (static_cast<int64_t>(starts.size()) != rank ||
      static_cast<int64_t>(limits.size()) != rank ||
      static_cast<int64_t>(strides.size()) != rank)
    return emitOpError("expected ")
           << rank << " starts, limits and strides (the input's rank), got "
           << starts.size() << ", " << limits.size() << " and "
           << strides.size();
  if (!input.hasStaticShape())
    return emitOpError("expected an input of static shape, got ") << input;
  SmallVector<int64_t> shape;
  for (int64_t d = 0; d < rank; ++d) {
    int64_t start = starts[d], limit = limits[d], stride = strides[d];
    if (stride == 0)
      return emitOpError("stride of dimension ") << d << " is 0";
    int64_t extent = rangeLength(start, limit, stride);
    int64_t size = input.getDimSize(d);
    int64_t last = start + (extent - 1) * stride;
    if (extent > 0 && (start < 0 || start >= size || last < 0 || last >= size))
      return emitOpError("dimension ")
             << d << " reads indices " << start << " to " << last
             << ", outside [0, " << size << ")";
    shape.push_back(extent);
  }
  return verifyResultShape(*this, shape, getResult().getType());
}

LogicalResult ReshapeOp::verify() {
  RankedTensorType input = getInput().getType();
  RankedTensorType result = getResult().getType();
  std::optional<int64_t> inputCount = staticElementCount(input.getShape());
  int64_t knownResultCount = 1;
  for (int64_t dim : result.getShape())
    if (!ShapedType::isDynamic(dim))
      knownResultCount *= dim;
  switch (checkReshape(input.getShape(), result.getShape())) {
  case ReshapeError::None:
    return success();
  case ReshapeError::TooManyDynamic:
    return emitOpError("expected at most one dynamic dimension in the result, "
                       "got ")
           << result;
  case ReshapeError::CountMismatch:
    return emitOpError("expected result with ")
           << *inputCount << " elements like the input " << input << ", got "
           << result << " with " << knownResultCount;
  case ReshapeError::DynamicNextToZero:
    return emitOpError("cannot infer the dynamic result dimension next to a "
                       "zero-sized one in ")
           << result;
  case ReshapeError::NotDivisible:
    return emitOpError("expected the static result dimensions to divide the ")
           << *inputCount << " elements of the input " << input << ", got "
           << result;
  }
  llvm_unreachable("unknown reshape error");
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

template <typename ReduceOp>
static LogicalResult verifyReduceOp(ReduceOp op) {
  RankedTensorType input = op.getInput().getType();
  std::string error;
  std::optional<SmallVector<int64_t>> axes =
      normalizeReductionAxes(op.getAxes(), input.getRank(), &error);
  if (!axes)
    return op.emitOpError("invalid axes for input ") << input << ": " << error;
  return verifyResultShape(
      op, reducedShape(input.getShape(), *axes, op.getKeepDims()),
      op.getResult().getType());
}

template <typename ReduceOp>
static SmallVector<int64_t> normalizedAxesOf(ReduceOp op) {
  return *normalizeReductionAxes(op.getAxes(), op.getInput().getType().getRank());
}


//===----------------------------------------------------------------------===//
// Softmax and cast
//===----------------------------------------------------------------------===//

LogicalResult SoftmaxOp::verify() {
  int64_t rank = getInput().getType().getRank();
  // I64Attr's getter is unsigned: -2 would print as 2^64 - 2.
  auto axis = static_cast<int64_t>(getAxis());
  if (!normalizeAxis(axis, rank))
    return emitOpError("expected axis in [")
           << -rank << ", " << rank << ") for input " << getInput().getType()
           << ", got " << axis;
  return success();
}

int64_t SoftmaxOp::getNormalizedAxis() {
  return *normalizeAxis(getAxis(), getInput().getType().getRank());
}

LogicalResult CastOp::verify() {
  RankedTensorType input = getInput().getType();
  return verifyResultShape(*this, input.getShape(), getResult().getType());
}

#define GET_OP_CLASSES
#include "Dialect/Google/IR/GoogleOps.cpp.inc"
