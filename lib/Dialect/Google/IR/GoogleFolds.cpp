//===- GoogleFolds.cpp - cheap algebraic identities of google ops ---------===//
//
// Folds here never evaluate tensors (that is --google-fold-constants, which
// bounds its work); they only forward an operand or rewrite an op in place.
// An identity applies only where the result type equals the surviving
// operand's type.
//
//===----------------------------------------------------------------------===//

#include "Dialect/Google/IR/GoogleOps.h"
#include "Dialect/Google/IR/ShapeRules.h"

#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/IR/BuiltinAttributes.h"

using namespace mlir;
using namespace mlir::google;

/// True when `attr` is a dense constant whose every element is `value`,
/// bit for bit for floats: -0.0 and +0.0 differ (x + -0 is x, but x + +0
/// is +0 for x = -0; x - +0 is x, but x - -0 is not).
static bool isConstantEqualTo(Attribute attr, double value) {
  auto dense = dyn_cast_if_present<DenseElementsAttr>(attr);
  if (!dense)
    return false;
  Type elementType = dense.getElementType();
  if (auto floatType = dyn_cast<FloatType>(elementType)) {
    llvm::APFloat expected(value);
    bool losesInfo;
    expected.convert(floatType.getFloatSemantics(),
                     llvm::APFloat::rmNearestTiesToEven, &losesInfo);
    auto matches = [&](const llvm::APFloat &v) {
      return v.bitwiseIsEqual(expected);
    };
    if (dense.isSplat())
      return matches(dense.getSplatValue<llvm::APFloat>());
    return llvm::all_of(dense.getValues<llvm::APFloat>(), matches);
  }
  auto matches = [&](const llvm::APInt &v) {
    return v.getSExtValue() == static_cast<int64_t>(value);
  };
  if (dense.isSplat())
    return matches(dense.getSplatValue<llvm::APInt>());
  return llvm::all_of(dense.getValues<llvm::APInt>(), matches);
}

/// True when broadcasting `constant` against `survivor` checks nothing at
/// run time: every extent of the constant is 1 or meets a static extent
/// (a dynamic extent must equal a constant extent other than 1, and the
/// fold would drop that check).
static bool broadcastChecksNothing(Value survivor, Attribute constant) {
  auto constantType = cast<ShapedType>(cast<TypedAttr>(constant).getType());
  auto survivorType = cast<ShapedType>(survivor.getType());
  ArrayRef<int64_t> constantShape = constantType.getShape();
  ArrayRef<int64_t> survivorShape = survivorType.getShape();
  if (constantShape.size() > survivorShape.size())
    return false;
  size_t offset = survivorShape.size() - constantShape.size();
  for (auto [i, extent] : llvm::enumerate(constantShape))
    if (extent != 1 && ShapedType::isDynamic(survivorShape[offset + i]))
      return false;
  return true;
}

/// Returns `survivor` when `constant` is all `identity` and the types allow.
static OpFoldResult foldIdentity(Value result, Value survivor,
                                 Attribute constant, double identity) {
  if (survivor.getType() == result.getType() &&
      isConstantEqualTo(constant, identity) &&
      broadcastChecksNothing(survivor, constant))
    return survivor;
  return {};
}

OpFoldResult ConstantOp::fold(FoldAdaptor) { return getValue(); }

/// Ops a fold may leave unused at most: beyond, the walk below gives up.
static constexpr int kMaxCheckedProducers = 64;

/// True when computing `value` cannot fail at run time, so that a fold may
/// leave it unused: every op it comes from has static shapes (no extent to
/// check) and no index to check (gathers, scatters, arg-reductions of an
/// empty axis), within kMaxCheckedProducers ops; calls, region ops and
/// other dialects' ops count as able to fail.
static bool cannotFailAtRunTime(Value value) {
  SmallVector<Value> pending = {value};
  llvm::SmallPtrSet<Operation *, 16> seen;
  while (!pending.empty()) {
    Operation *op = pending.pop_back_val().getDefiningOp();
    if (!op || !seen.insert(op).second)
      continue;
    if (seen.size() > kMaxCheckedProducers ||
        !isa<GoogleDialect>(op->getDialect()) || op->getNumRegions() != 0 ||
        isa<GatherOp, ScatterAddOp, ArgmaxOp, ArgminOp>(op))
      return false;
    auto isStatic = [](Type type) {
      auto shaped = dyn_cast<ShapedType>(type);
      return !shaped || shaped.hasStaticShape();
    };
    if (!llvm::all_of(op->getOperandTypes(), isStatic) ||
        !llvm::all_of(op->getResultTypes(), isStatic))
      return false;
    llvm::append_range(pending, op->getOperands());
  }
  return true;
}

OpFoldResult
mlir::google::foldSelfComparison(Value lhs, Value rhs, Type resultType,
                                 semantics::Comparison comparison) {
  auto type = dyn_cast<RankedTensorType>(resultType);
  // The comparison is x's last use, maybe: the checks of what computes x
  // would go with it.
  if (lhs != rhs || !type || !type.hasStaticShape() ||
      !cannotFailAtRunTime(lhs))
    return {};
  using semantics::Comparison;
  bool isFloat = isa<FloatType>(getElementTypeOrSelf(lhs.getType()));
  std::optional<bool> answer;
  switch (comparison) {
  case Comparison::LT:
  case Comparison::GT:
    answer = false;
    break;
  case Comparison::NE:
    if (!isFloat)
      answer = false;
    break;
  case Comparison::EQ:
  case Comparison::LE:
  case Comparison::GE:
    if (!isFloat)
      answer = true;
    break;
  }
  if (!answer)
    return {};
  return DenseElementsAttr::get(type, *answer);
}

// The additive identity of IEEE floats is -0 (x + -0 == x for every x,
// -0 included; -0 + +0 is +0). For integers, -0.0 converts to 0.
OpFoldResult AddOp::fold(FoldAdaptor adaptor) {
  if (OpFoldResult r =
          foldIdentity(getResult(), getLhs(), adaptor.getRhs(), -0.0))
    return r;
  return foldIdentity(getResult(), getRhs(), adaptor.getLhs(), -0.0);
}

// x - +0 == x for every x (-0 - +0 is -0); x - -0 is x + +0.
OpFoldResult SubOp::fold(FoldAdaptor adaptor) {
  return foldIdentity(getResult(), getLhs(), adaptor.getRhs(), 0.0);
}

OpFoldResult MulOp::fold(FoldAdaptor adaptor) {
  if (OpFoldResult r = foldIdentity(getResult(), getLhs(), adaptor.getRhs(), 1))
    return r;
  return foldIdentity(getResult(), getRhs(), adaptor.getLhs(), 1);
}

OpFoldResult DivOp::fold(FoldAdaptor adaptor) {
  return foldIdentity(getResult(), getLhs(), adaptor.getRhs(), 1);
}

OpFoldResult ReluOp::fold(FoldAdaptor) {
  // relu(relu(x)) == relu(x).
  if (getInput().getDefiningOp<ReluOp>())
    return getInput();
  return {};
}

OpFoldResult TransposeOp::fold(FoldAdaptor) {
  bool changed = false;
  if (auto inner = getInput().getDefiningOp<TransposeOp>()) {
    // Result dim i is inner's input dim innerPerm[perm[i]].
    TypedValue<RankedTensorType> source = inner.getInput();
    ArrayRef<int64_t> sourceShape = source.getType().getShape();
    SmallVector<int64_t> composed;
    for (int64_t p : getPerm())
      composed.push_back(inner.getPerm()[p]);
    // Skipping the inner transpose is safe when its result type states no
    // extent the source does not (it has no run-time check to lose) and
    // the composed transpose is valid.
    bool innerIsExact = llvm::all_of(
        llvm::enumerate(inner.getPerm()), [&](auto indexed) {
          int64_t dim = inner.getType().getDimSize(indexed.index());
          return ShapedType::isDynamic(dim) ||
                 dim == sourceShape[indexed.value()];
        });
    if (innerIsExact &&
        succeeded(verifyCompatibleShape(
            applyPermutation(sourceShape, composed), getType().getShape()))) {
      getInputMutable().assign(source);
      setPerm(composed);
      changed = true;
    }
  }
  if (isIdentityPermutation(getPerm()) &&
      getInput().getType() == getResult().getType())
    return getInput();
  return changed ? getResult() : OpFoldResult();
}

OpFoldResult ReshapeOp::fold(FoldAdaptor) {
  bool changed = false;
  if (auto inner = getInput().getDefiningOp<ReshapeOp>()) {
    // Skipping the inner reshape is safe when it cannot fail at run time
    // (its check would be lost) and the composed reshape is valid.
    ArrayRef<int64_t> sourceShape = inner.getInput().getType().getShape();
    if (!reshapeNeedsRuntimeCheck(sourceShape, inner.getType().getShape()) &&
        checkReshape(sourceShape, getType().getShape()) == ReshapeError::None) {
      getInputMutable().assign(inner.getInput());
      changed = true;
    }
  }
  if (getInput().getType() == getResult().getType())
    return getInput();
  return changed ? getResult() : OpFoldResult();
}

OpFoldResult CastOp::fold(FoldAdaptor) {
  if (getInput().getType() == getResult().getType())
    return getInput();
  return {};
}

OpFoldResult ConcatOp::fold(FoldAdaptor) {
  // One input of the result's own type (a relaxing or refining type would
  // drop a check or a cast).
  if (getInputs().size() == 1 &&
      getInputs().front().getType() == getResult().getType())
    return getInputs().front();
  return {};
}
