//===- ShapeRules.cpp - shape rules shared by verifiers and folds ---------===//

#include "Dialect/Google/IR/ShapeRules.h"

#include "mlir/IR/BuiltinTypeInterfaces.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;

static bool isDynamic(int64_t dim) { return ShapedType::isDynamic(dim); }

std::optional<SmallVector<int64_t>>
google::broadcastShapes(ArrayRef<int64_t> lhs, ArrayRef<int64_t> rhs) {
  size_t rank = std::max(lhs.size(), rhs.size());
  SmallVector<int64_t> result(rank);
  for (size_t i = 0; i < rank; ++i) {
    // Walk both shapes from the back; a missing dimension acts as 1.
    int64_t l = i < lhs.size() ? lhs[lhs.size() - 1 - i] : 1;
    int64_t r = i < rhs.size() ? rhs[rhs.size() - 1 - i] : 1;
    int64_t &out = result[rank - 1 - i];
    if (l == 1)
      out = r;
    else if (r == 1)
      out = l;
    else if (isDynamic(l))
      out = r;
    else if (isDynamic(r) || l == r)
      out = l;
    else
      return std::nullopt;
  }
  return result;
}

bool google::areCompatibleDims(int64_t lhs, int64_t rhs) {
  return lhs == rhs || isDynamic(lhs) || isDynamic(rhs);
}

std::string google::formatShape(ArrayRef<int64_t> shape) {
  std::string text;
  for (auto [i, dim] : llvm::enumerate(shape)) {
    if (i)
      text += "x";
    text += isDynamic(dim) ? "?" : std::to_string(dim);
  }
  return text;
}

std::optional<int64_t> google::normalizeAxis(int64_t axis, int64_t rank) {
  if (axis < -rank || axis >= rank)
    return std::nullopt;
  return axis < 0 ? axis + rank : axis;
}

llvm::Expected<SmallVector<int64_t>>
google::normalizeReductionAxes(ArrayRef<int64_t> axes, int64_t rank) {
  auto fail = [](const Twine &message) {
    return llvm::createStringError(message);
  };
  if (axes.empty())
    return fail("expected at least one axis");
  SmallVector<int64_t> normalized;
  for (int64_t axis : axes) {
    std::optional<int64_t> n = normalizeAxis(axis, rank);
    if (!n)
      return fail("axis " + Twine(axis) + " is out of range [" + Twine(-rank) +
                  ", " + Twine(rank) + ")");
    normalized.push_back(*n);
  }
  llvm::sort(normalized);
  for (size_t i = 1; i < normalized.size(); ++i)
    if (normalized[i] == normalized[i - 1])
      return fail("axis " + Twine(normalized[i]) +
                  " is repeated; expected unique axes");
  return normalized;
}

SmallVector<int64_t> google::reducedShape(ArrayRef<int64_t> shape,
                                          ArrayRef<int64_t> axes,
                                          bool keepDims) {
  SmallVector<int64_t> result;
  for (auto [i, dim] : llvm::enumerate(shape)) {
    if (!llvm::is_contained(axes, static_cast<int64_t>(i)))
      result.push_back(dim);
    else if (keepDims)
      result.push_back(1);
  }
  return result;
}

std::optional<int64_t> google::staticElementCount(ArrayRef<int64_t> shape) {
  int64_t count = 1;
  for (int64_t dim : shape) {
    if (isDynamic(dim))
      return std::nullopt;
    count *= dim;
  }
  return count;
}

/// The product of the static extents of `shape`.
static int64_t knownProduct(ArrayRef<int64_t> shape) {
  int64_t product = 1;
  for (int64_t dim : shape)
    if (!isDynamic(dim))
      product *= dim;
  return product;
}

static int64_t numDynamic(ArrayRef<int64_t> shape) {
  return llvm::count_if(shape, isDynamic);
}

google::ReshapeError google::checkReshape(ArrayRef<int64_t> input,
                                          ArrayRef<int64_t> result) {
  if (numDynamic(result) > 1)
    return ReshapeError::TooManyDynamic;
  std::optional<int64_t> inputCount = staticElementCount(input);
  int64_t known = knownProduct(result);
  if (numDynamic(result) == 0)
    return inputCount && *inputCount != known ? ReshapeError::CountMismatch
                                              : ReshapeError::None;
  if (known == 0)
    return ReshapeError::DynamicNextToZero;
  if (inputCount && *inputCount % known != 0)
    return ReshapeError::NotDivisible;
  return ReshapeError::None;
}

bool google::reshapeNeedsRuntimeCheck(ArrayRef<int64_t> input,
                                      ArrayRef<int64_t> result) {
  if (numDynamic(input) == 0)
    return false;
  if (numDynamic(result) == 0)
    return true;
  // count = (static input extents) * (dynamic ones): a multiple of the
  // result's static extents whatever the dynamic ones are?
  int64_t known = knownProduct(result);
  return known == 0 || knownProduct(input) % known != 0;
}

bool google::stretches(int64_t operandDim, int64_t resultDim) {
  return operandDim == 1 && resultDim != 1;
}

SmallVector<int64_t>
google::knownBroadcastShape(ArrayRef<int64_t> result,
                            ArrayRef<ArrayRef<int64_t>> operands) {
  SmallVector<int64_t> known(result);
  int64_t rank = result.size();
  for (ArrayRef<int64_t> operand : operands) {
    int64_t offset = rank - operand.size();
    for (auto [i, dim] : llvm::enumerate(operand)) {
      int64_t d = offset + i;
      if (isDynamic(known[d]) && !stretches(dim, result[d]))
        known[d] = dim;
    }
  }
  return known;
}

static int64_t firstStatic(std::initializer_list<int64_t> dims) {
  for (int64_t dim : dims)
    if (!isDynamic(dim))
      return dim;
  return ShapedType::kDynamic;
}

google::MatmulShapes google::knownMatmulShapes(ArrayRef<int64_t> lhs,
                                               ArrayRef<int64_t> rhs,
                                               ArrayRef<int64_t> result,
                                               int64_t biasLength) {
  size_t rank = result.size();
  int64_t m = firstStatic({result[rank - 2], lhs[rank - 2]});
  int64_t n = firstStatic({result[rank - 1], biasLength, rhs[rank - 1]});
  int64_t k = firstStatic({lhs[rank - 1], rhs[rank - 2]});
  MatmulShapes shapes;
  if (rank == 3) {
    int64_t batch = firstStatic({result[0], lhs[0], rhs[0]});
    shapes.lhs.push_back(batch);
    shapes.rhs.push_back(batch);
    shapes.product.push_back(batch);
  }
  shapes.lhs.append({m, k});
  shapes.rhs.append({k, n});
  shapes.product.append({m, n});
  return shapes;
}

SmallVector<int64_t> google::knownTransposeInput(ArrayRef<int64_t> input,
                                                 ArrayRef<int64_t> result,
                                                 ArrayRef<int64_t> perm) {
  SmallVector<int64_t> known(input);
  for (auto [i, p] : llvm::enumerate(perm))
    if (!isDynamic(result[i]))
      known[p] = result[i];
  return known;
}

SmallVector<int64_t> google::knownReduceInput(ArrayRef<int64_t> input,
                                              ArrayRef<int64_t> result,
                                              ArrayRef<int64_t> axes,
                                              bool keepDims) {
  SmallVector<int64_t> known(input);
  for (int64_t d = 0, r = 0, e = input.size(); d < e; ++d) {
    bool reduced = llvm::is_contained(axes, d);
    if (reduced && !keepDims)
      continue;
    if (!reduced && !isDynamic(result[r]))
      known[d] = result[r];
    ++r;
  }
  return known;
}
