//===- SwapMatmulTransposes.cpp - --google-swap-matmul-transposes ---------===//

#include "Dialect/Google/IR/GoogleOps.h"
#include "Dialect/Google/Transforms/Passes.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "google-swap-matmul-transposes"

namespace mlir::google {
#define GEN_PASS_DEF_SWAPMATMULTRANSPOSESPASS
#include "Dialect/Google/Transforms/Passes.h.inc"
} // namespace mlir::google

using namespace mlir;
using namespace mlir::google;

namespace {

/// Whether `perm` swaps the last two dimensions and keeps the others.
bool swapsLastTwo(ArrayRef<int64_t> perm) {
  int64_t rank = perm.size();
  if (rank < 2 || perm[rank - 2] != rank - 1 || perm[rank - 1] != rank - 2)
    return false;
  for (int64_t dim = 0; dim < rank - 2; ++dim)
    if (perm[dim] != dim)
      return false;
  return true;
}

/// The transpose swapping the last two dimensions that defines `value`, or
/// null.
TransposeOp getSwappingTranspose(Value value) {
  auto transpose = value.getDefiningOp<TransposeOp>();
  return transpose && swapsLastTwo(transpose.getPerm()) ? transpose
                                                        : TransposeOp();
}

std::optional<int64_t> getStaticSize(Value value) {
  auto type = cast<RankedTensorType>(value.getType());
  if (!type.hasStaticShape())
    return std::nullopt;
  return type.getNumElements();
}

/// Whether `matmul`'s K and batch dimensions are static in both operands
/// (none needs a run-time check).
bool hasStaticContractedDims(MatmulOp matmul) {
  auto lhs = cast<RankedTensorType>(matmul.getLhs().getType());
  auto rhs = cast<RankedTensorType>(matmul.getRhs().getType());
  ArrayRef<int64_t> lhsShape = lhs.getShape(), rhsShape = rhs.getShape();
  SmallVector<int64_t> dims(lhsShape.drop_back(2));
  llvm::append_range(dims, rhsShape.drop_back(2));
  dims.push_back(lhsShape.back());
  dims.push_back(rhsShape[rhsShape.size() - 2]);
  return llvm::none_of(dims, ShapedType::isDynamic);
}

/// transpose(a @ b) => b^T @ a^T, where a or b is itself a transpose of
/// the last two dimensions (whose transpose then cancels).
struct SwapTransposedMatmul : public OpRewritePattern<TransposeOp> {
  SwapTransposedMatmul(MLIRContext *context, Pass::Statistic *numSwapped)
      : OpRewritePattern(context), numSwapped(numSwapped) {}

  LogicalResult matchAndRewrite(TransposeOp transpose,
                                PatternRewriter &rewriter) const override {
    if (!swapsLastTwo(transpose.getPerm()))
      return rewriter.notifyMatchFailure(transpose, "not of the last two dims");
    auto matmul = transpose.getInput().getDefiningOp<MatmulOp>();
    if (!matmul || !matmul->hasOneUse())
      return rewriter.notifyMatchFailure(
          transpose, "not the only user of a google.matmul");
    TransposeOp lhsTranspose = getSwappingTranspose(matmul.getLhs());
    TransposeOp rhsTranspose = getSwappingTranspose(matmul.getRhs());
    if (!lhsTranspose && !rhsTranspose)
      return rewriter.notifyMatchFailure(transpose,
                                         "neither operand is a transpose");
    // A run-time check of K or the batch would name the operands the
    // other way round.
    if (!hasStaticContractedDims(matmul))
      return rewriter.notifyMatchFailure(transpose, "dynamic K or batch");
    // With one operand transposed, the other one gets a transpose: only
    // when it is no larger than those that go (the result's, and the
    // operand's unless something else reads it).
    if (!lhsTranspose || !rhsTranspose) {
      TransposeOp going = lhsTranspose ? lhsTranspose : rhsTranspose;
      Value other = lhsTranspose ? matmul.getRhs() : matmul.getLhs();
      std::optional<int64_t> otherSize = getStaticSize(other);
      std::optional<int64_t> resultSize = getStaticSize(transpose);
      std::optional<int64_t> goingSize = getStaticSize(going);
      if (!otherSize || !resultSize || !goingSize)
        return rewriter.notifyMatchFailure(transpose, "dynamic shapes");
      if (*otherSize > *resultSize + (going->hasOneUse() ? *goingSize : 0))
        return rewriter.notifyMatchFailure(
            transpose, "the new transpose would be the larger");
    }
    auto swapped = [&](TransposeOp source, Value value) -> Value {
      if (source)
        return source.getInput();
      auto type = cast<RankedTensorType>(value.getType());
      SmallVector<int64_t> shape(type.getShape());
      std::swap(shape[shape.size() - 2], shape.back());
      return TransposeOp::create(rewriter, transpose.getLoc(),
                                 type.clone(shape), value,
                                 transpose.getPermAttr());
    };
    Value lhs = swapped(rhsTranspose, matmul.getRhs());
    Value rhs = swapped(lhsTranspose, matmul.getLhs());
    rewriter.replaceOpWithNewOp<MatmulOp>(transpose, transpose.getType(), lhs,
                                          rhs);
    ++*numSwapped;
    return success();
  }

  Pass::Statistic *numSwapped;
};

struct SwapMatmulTransposesPass
    : public google::impl::SwapMatmulTransposesPassBase<
          SwapMatmulTransposesPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<SwapTransposedMatmul>(&getContext(), &numSwapped);
    GreedyRewriteConfig config;
    config.enableFolding(false).enableConstantCSE(false);
    config.setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);
    if (failed(
            applyPatternsGreedily(getOperation(), std::move(patterns), config)))
      LLVM_DEBUG(llvm::dbgs() << "the rewrite did not converge\n");
  }
};

} // namespace
