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
#include "mlir/IR/Matchers.h"
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
// Convolution and pooling
//===----------------------------------------------------------------------===//

/// Checks two positive values named `what`.
static LogicalResult verifyPositivePair(Operation *op, ArrayRef<int64_t> values,
                                        StringRef what) {
  if (values.size() != 2 || values[0] < 1 || values[1] < 1) {
    InFlightDiagnostic diag = op->emitOpError("expected 2 positive ")
                              << what << " (height, width), got [";
    llvm::interleaveComma(values, diag);
    return diag << "]";
  }
  return success();
}

/// The output extent of a window of `size` (after dilation) sliding
/// `stride` apart over `extent` padded by `low` and `high`.
static int64_t windowCount(int64_t extent, int64_t low, int64_t high,
                           int64_t size, int64_t stride) {
  return (extent + low + high - size) / stride + 1;
}

/// Checks an NHWC input with static H and W (and C when `staticChannels`)
/// and the windows' strides, padding and dilated sizes; returns the
/// output's H and W.
static FailureOr<std::pair<int64_t, int64_t>>
verifyWindows(Operation *op, RankedTensorType input, ArrayRef<int64_t> sizes,
              ArrayRef<int64_t> strides, ArrayRef<int64_t> padding,
              bool staticChannels) {
  if (input.getRank() != 4)
    return op->emitOpError("expected an NHWC input of rank 4, got ") << input;
  if (input.isDynamicDim(1) || input.isDynamicDim(2) ||
      (staticChannels && input.isDynamicDim(3)))
    return op->emitOpError("expected an input with static H, W")
           << (staticChannels ? " and C" : "") << ", got " << input;
  if (failed(verifyPositivePair(op, strides, "strides")))
    return failure();
  if (padding.size() != 4 || llvm::any_of(padding, [](int64_t p) {
        return p < 0;
      })) {
    InFlightDiagnostic diag =
        op->emitOpError("expected 4 non-negative paddings (top, bottom, "
                        "left, right), got [");
    llvm::interleaveComma(padding, diag);
    return diag << "]";
  }
  int64_t h = input.getDimSize(1), w = input.getDimSize(2);
  if (sizes[0] > h + padding[0] + padding[1] ||
      sizes[1] > w + padding[2] + padding[3])
    return op->emitOpError("expected the window (")
           << sizes[0] << "x" << sizes[1] << " with dilation) to fit the "
           << "padded input (" << h + padding[0] + padding[1] << "x"
           << w + padding[2] + padding[3] << "), got input " << input;
  return std::make_pair(
      windowCount(h, padding[0], padding[1], sizes[0], strides[0]),
      windowCount(w, padding[2], padding[3], sizes[1], strides[1]));
}

LogicalResult Conv2DOp::verify() {
  RankedTensorType input = getInput().getType();
  RankedTensorType filter = getFilter().getType();
  if (filter.getRank() != 4 || !filter.hasStaticShape())
    return emitOpError("expected a static HWIO filter of rank 4, got ")
           << filter;
  if (failed(verifyPositivePair(*this, getDilations(), "dilations")))
    return failure();
  auto groups = static_cast<int64_t>(getGroups());
  if (groups < 1)
    return emitOpError("expected groups >= 1, got ") << groups;
  ArrayRef<int64_t> dilations = getDilations();
  SmallVector<int64_t> sizes = {
      dilations[0] * (filter.getDimSize(0) - 1) + 1,
      dilations[1] * (filter.getDimSize(1) - 1) + 1};
  FailureOr<std::pair<int64_t, int64_t>> output =
      verifyWindows(*this, input, sizes, getStrides(), getPadding(),
                    /*staticChannels=*/true);
  if (failed(output))
    return failure();
  int64_t channels = input.getDimSize(3), outChannels = filter.getDimSize(3);
  if (channels % groups || outChannels % groups)
    return emitOpError("expected the input's C = ")
           << channels << " and the filter's output channels ("
           << outChannels << ") to be multiples of groups = " << groups;
  if (filter.getDimSize(2) * groups != channels)
    return emitOpError("expected a filter of C/groups = ")
           << channels / groups << " input channels (dimension 2), got "
           << filter;
  return verifyResultShape(*this, getOutputShape(), getResult().getType());
}

SmallVector<int64_t> Conv2DOp::getOutputShape() {
  RankedTensorType input = getInput().getType();
  RankedTensorType filter = getFilter().getType();
  ArrayRef<int64_t> strides = getStrides(), dilations = getDilations(),
                    padding = getPadding();
  int64_t kh = dilations[0] * (filter.getDimSize(0) - 1) + 1;
  int64_t kw = dilations[1] * (filter.getDimSize(1) - 1) + 1;
  return {input.getDimSize(0),
          windowCount(input.getDimSize(1), padding[0], padding[1], kh,
                      strides[0]),
          windowCount(input.getDimSize(2), padding[2], padding[3], kw,
                      strides[1]),
          filter.getDimSize(3)};
}

template <typename PoolOp>
static LogicalResult verifyPoolOp(PoolOp op) {
  ArrayRef<int64_t> window = op.getWindow(), padding = op.getPadding();
  if (failed(verifyPositivePair(op, window, "window extents")))
    return failure();
  if (failed(verifyWindows(op, op.getInput().getType(), window,
                           op.getStrides(), padding,
                           /*staticChannels=*/false)))
    return failure();
  if (padding[0] >= window[0] || padding[1] >= window[0] ||
      padding[2] >= window[1] || padding[3] >= window[1])
    return op.emitOpError("expected each padding smaller than the window "
                          "(a window of padding only has no value), got "
                          "padding [")
           << padding[0] << ", " << padding[1] << ", " << padding[2] << ", "
           << padding[3] << "] for a " << window[0] << "x" << window[1]
           << " window";
  return verifyResultShape(op, op.getOutputShape(), op.getResult().getType());
}

template <typename PoolOp>
static SmallVector<int64_t> poolOutputShape(PoolOp op) {
  RankedTensorType input = op.getInput().getType();
  ArrayRef<int64_t> window = op.getWindow(), strides = op.getStrides(),
                    padding = op.getPadding();
  return {input.getDimSize(0),
          windowCount(input.getDimSize(1), padding[0], padding[1], window[0],
                      strides[0]),
          windowCount(input.getDimSize(2), padding[2], padding[3], window[1],
                      strides[1]),
          input.getDimSize(3)};
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

LogicalResult ConcatOp::verify() {
  if (getInputs().empty())
    return emitOpError("expected at least one input");
  auto first = cast<RankedTensorType>(getInputs().front().getType());
  int64_t rank = first.getRank();
  auto axisValue = static_cast<int64_t>(getAxis());
  std::optional<int64_t> axis = normalizeAxis(axisValue, rank);
  if (!axis)
    return emitOpError("expected axis in [")
           << -rank << ", " << rank << ") for inputs of rank " << rank
           << ", got " << axisValue;
  SmallVector<int64_t> shape(first.getShape());
  shape[*axis] = 0;
  for (auto [i, input] : llvm::enumerate(getInputs())) {
    auto type = cast<RankedTensorType>(input.getType());
    if (type.getRank() != rank)
      return emitOpError("expected input ")
             << i << " of rank " << rank << " like input 0, got " << type;
    if (type.getElementType() != getResult().getType().getElementType())
      return emitOpError("expected input ")
             << i << " of element type "
             << getResult().getType().getElementType()
             << " like the result, got " << type;
    for (int64_t d = 0; d < rank; ++d) {
      int64_t size = type.getDimSize(d);
      if (d == *axis) {
        shape[d] = ShapedType::isDynamic(size) || ShapedType::isDynamic(shape[d])
                       ? ShapedType::kDynamic
                       : shape[d] + size;
        continue;
      }
      if (!areCompatibleDims(size, shape[d]))
        return emitOpError("expected input ")
               << i << " to match the other inputs in dimension " << d
               << " (all but axis " << *axis << "), got " << type;
      if (ShapedType::isDynamic(shape[d]))
        shape[d] = size;
    }
  }
  return verifyResultShape(*this, shape, getResult().getType());
}

int64_t ConcatOp::getNormalizedAxis() {
  auto type = cast<RankedTensorType>(getInputs().front().getType());
  return *normalizeAxis(getAxis(), type.getRank());
}

LogicalResult PadOp::verify() {
  RankedTensorType input = getInput().getType();
  int64_t rank = input.getRank();
  if (getValue().getType().getRank() != 0)
    return emitOpError("expected a rank-0 padding value, got ")
           << getValue().getType();
  ArrayRef<int64_t> low = getLow(), high = getHigh();
  if (static_cast<int64_t>(low.size()) != rank ||
      static_cast<int64_t>(high.size()) != rank)
    return emitOpError("expected ")
           << rank << " low and high paddings (the input's rank), got "
           << low.size() << " and " << high.size();
  SmallVector<int64_t> shape;
  for (int64_t d = 0; d < rank; ++d) {
    if (low[d] < 0 || high[d] < 0)
      return emitOpError("expected non-negative paddings, got ")
             << low[d] << " and " << high[d] << " in dimension " << d;
    int64_t size = input.getDimSize(d);
    shape.push_back(ShapedType::isDynamic(size) ? size
                                                : size + low[d] + high[d]);
  }
  return verifyResultShape(*this, shape, getResult().getType());
}

LogicalResult IotaOp::verify() {
  RankedTensorType result = getResult().getType();
  if (Value like = getLike()) {
    auto likeType = cast<RankedTensorType>(like.getType());
    if (likeType.getRank() != result.getRank() ||
        !llvm::all_of(llvm::zip(likeType.getShape(), result.getShape()),
                      [](auto pair) {
                        auto [a, b] = pair;
                        return a == b || ShapedType::isDynamic(b);
                      }))
      return emitOpError("expected a result of the shape of 'like' (")
             << likeType << "), got " << result;
  } else if (!result.hasStaticShape()) {
    return emitOpError("expected a result of static shape (or a 'like' "
                       "operand), got ")
           << result;
  }
  auto dimension = static_cast<int64_t>(getDimension());
  if (dimension < 0 || dimension >= result.getRank())
    return emitOpError("expected dimension in [0, ")
           << result.getRank() << ") for result " << result << ", got "
           << dimension;
  return success();
}

LogicalResult GatherOp::verify() {
  RankedTensorType input = getInput().getType();
  RankedTensorType indices = getIndices().getType();
  int64_t rank = input.getRank();
  auto axisValue = static_cast<int64_t>(getAxis());
  std::optional<int64_t> axis = normalizeAxis(axisValue, rank);
  if (!axis)
    return emitOpError("expected axis in [")
           << -rank << ", " << rank << ") for input " << input << ", got "
           << axisValue;
  // Indices of a dynamic count are checked at run time (any index is out
  // of range for an empty axis).
  if (input.getDimSize(*axis) == 0 && indices.hasStaticShape() &&
      indices.getNumElements() != 0)
    return emitOpError("cannot gather from axis ")
           << *axis << " of extent 0 of input " << input;
  SmallVector<int64_t> shape(input.getShape().take_front(*axis));
  llvm::append_range(shape, indices.getShape());
  llvm::append_range(shape, input.getShape().drop_front(*axis + 1));
  return verifyResultShape(*this, shape, getResult().getType());
}

int64_t GatherOp::getNormalizedAxis() {
  return *normalizeAxis(getAxis(), getInput().getType().getRank());
}

LogicalResult ScatterAddOp::verify() {
  RankedTensorType base = getBase().getType();
  RankedTensorType indices = getIndices().getType();
  int64_t rank = base.getRank();
  auto axisValue = static_cast<int64_t>(getAxis());
  std::optional<int64_t> axis = normalizeAxis(axisValue, rank);
  if (!axis)
    return emitOpError("expected axis in [")
           << -rank << ", " << rank << ") for base " << base << ", got "
           << axisValue;
  if (base.getDimSize(*axis) == 0 && indices.hasStaticShape() &&
      indices.getNumElements() != 0)
    return emitOpError("cannot scatter into axis ")
           << *axis << " of extent 0 of base " << base;
  SmallVector<int64_t> shape(base.getShape().take_front(*axis));
  llvm::append_range(shape, indices.getShape());
  llvm::append_range(shape, base.getShape().drop_front(*axis + 1));
  RankedTensorType updates = getUpdates().getType();
  if (failed(verifyCompatibleShape(shape, updates.getShape())))
    return emitOpError("expected updates of type ")
           << formatTensor(shape, base.getElementType())
           << " (base.shape[:axis] + indices.shape + base.shape[axis+1:]), "
              "got "
           << updates;
  return success();
}

int64_t ScatterAddOp::getNormalizedAxis() {
  return *normalizeAxis(getAxis(), getBase().getType().getRank());
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

template <typename ReduceOp>
static LogicalResult verifyReduceOp(ReduceOp op) {
  RankedTensorType input = op.getInput().getType();
  llvm::Expected<SmallVector<int64_t>> axes =
      normalizeReductionAxes(op.getAxes(), input.getRank());
  if (!axes)
    return op.emitOpError("invalid axes for input ")
           << input << ": " << llvm::toString(axes.takeError());
  return verifyResultShape(
      op, reducedShape(input.getShape(), *axes, op.getKeepDims()),
      op.getResult().getType());
}

template <typename ReduceOp>
static SmallVector<int64_t> normalizedAxesOf(ReduceOp op) {
  return llvm::cantFail(
      normalizeReductionAxes(op.getAxes(), op.getInput().getType().getRank()));
}

template <typename ArgReduceOp>
static LogicalResult verifyArgReduceOp(ArgReduceOp op) {
  RankedTensorType input = op.getInput().getType();
  int64_t rank = input.getRank();
  auto axisValue = static_cast<int64_t>(op.getAxis());
  std::optional<int64_t> axis = normalizeAxis(axisValue, rank);
  if (!axis)
    return op.emitOpError("expected axis in [")
           << -rank << ", " << rank << ") for input " << input << ", got "
           << axisValue;
  if (input.getDimSize(*axis) == 0)
    return op.emitOpError("expected a non-empty axis ")
           << *axis << " (NumPy has no arg-extreme of an empty sequence), got "
           << input;
  return verifyResultShape(
      op, reducedShape(input.getShape(), {*axis}, op.getKeepDims()),
      op.getResult().getType());
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

//===----------------------------------------------------------------------===//
// Structured control flow
//===----------------------------------------------------------------------===//

/// Checks that `region`'s block ends with a google.yield of `types`.
static LogicalResult verifyYield(Operation *op, Region &region,
                                 TypeRange types, StringRef what) {
  auto yield = dyn_cast<YieldOp>(region.front().getTerminator());
  if (!yield)
    return op->emitOpError("expected ") << what << " to end with google.yield";
  if (yield.getValues().getTypes() != types)
    return op->emitOpError("expected ")
           << what << " to yield (" << types << "), got ("
           << yield.getValues().getTypes() << ")";
  return success();
}

LogicalResult IfOp::verify() {
  if (failed(verifyYield(*this, getThenRegion(), getResultTypes(),
                         "the then region")))
    return failure();
  return verifyYield(*this, getElseRegion(), getResultTypes(),
                     "the else region");
}

LogicalResult WhileOp::verify() {
  TypeRange state = getInit().getTypes();
  if (getResultTypes() != state)
    return emitOpError("expected results of the state's types (")
           << state << "), got (" << getResultTypes() << ")";
  for (auto [region, what] :
       {std::pair{&getCond(), "cond"}, std::pair{&getBody(), "body"}}) {
    if (region->front().getArgumentTypes() != state)
      return emitOpError("expected the ")
             << what << " block to take the state (" << state << "), got ("
             << region->front().getArgumentTypes() << ")";
  }
  if (!isa<ConditionOp>(getCond().front().getTerminator()))
    return emitOpError("expected the cond region to end with "
                       "google.condition");
  return verifyYield(*this, getBody(), state, "the body");
}

std::optional<APInt> WhileOp::getStateStep(unsigned index) {
  auto type = dyn_cast<RankedTensorType>(getInit()[index].getType());
  // Booleans are not counters (a cast to i1 is `!= 0`, not modular).
  if (!type || type.getRank() != 0 ||
      !type.getElementType().isSignlessInteger() ||
      type.getElementType().isInteger(1))
    return std::nullopt;
  Block &body = getBody().front();
  Value value = body.getArgument(index);
  auto constant = [](Value step) -> std::optional<APInt> {
    APInt value;
    if (!matchPattern(step, m_ConstantInt(&value)))
      return std::nullopt;
    return value;
  };
  Operation *next = body.getTerminator()->getOperand(index).getDefiningOp();
  if (isa_and_nonnull<AddOp>(next)) {
    if (next->getOperand(0) == value)
      return constant(next->getOperand(1));
    if (next->getOperand(1) == value)
      return constant(next->getOperand(0));
  } else if (isa_and_nonnull<SubOp>(next) && next->getOperand(0) == value) {
    if (std::optional<APInt> step = constant(next->getOperand(1)))
      return -*step;
  }
  return std::nullopt;
}

#define GET_OP_CLASSES
#include "Dialect/Google/IR/GoogleOps.cpp.inc"
