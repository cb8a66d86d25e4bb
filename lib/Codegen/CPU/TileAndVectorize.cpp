//===- TileAndVectorize.cpp - --google-tile-and-vectorize -----------------===//
//
// Register blocking for f32 matmuls: MR x NR blocks whose accumulator stays
// in vector registers across the K loop. Full blocks are vectorized, and so
// are the remainders that get static shapes; the others stay scalar (so
// any M, N and K, static or not, are handled).
//
//===----------------------------------------------------------------------===//

#include "CpuSchedules.h"

#include "Codegen/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/IR/Dominance.h"
#include "mlir/Transforms/CSE.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/LoopInvariantCodeMotionUtils.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/MathExtras.h"

#define DEBUG_TYPE "google-tile-and-vectorize"

namespace mlir::google {
#define GEN_PASS_DEF_TILEANDVECTORIZEPASS
#include "Codegen/Passes.h.inc"
} // namespace mlir::google

using namespace mlir;

using namespace mlir::google::cpu;

namespace {

/// Canonicalization patterns of the dialects the pass works with (all
/// registered ops would cost more to collect than to run).
void populateSimplifyPatterns(RewritePatternSet &patterns) {
  MLIRContext *context = patterns.getContext();
  for (StringRef name :
       {"affine", "arith", "cf", "linalg", "scf", "tensor", "vector"}) {
    Dialect *dialect = context->getLoadedDialect(name);
    if (!dialect)
      continue;
    dialect->getCanonicalizationPatterns(patterns);
    for (RegisteredOperationName op : context->getRegisteredOperations())
      if (&op.getDialect() == dialect)
        op.getCanonicalizationPatterns(patterns, context);
  }
}

/// A 0-d vector.transfer_read of a tensor (a row op's operand broadcast in
/// every dimension) as tensor.extract and a broadcast: once bufferized, a
/// 0-d transfer from a view whose innermost stride is not 1 (a strided
/// slice) has no lowering to LLVM.
struct ZeroDimReadToExtract : public OpRewritePattern<vector::TransferReadOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(vector::TransferReadOp read,
                                PatternRewriter &rewriter) const override {
    if (read.getVectorType().getRank() != 0 || read.getMask() ||
        !isa<RankedTensorType>(read.getBase().getType()))
      return rewriter.notifyMatchFailure(read, "not a 0-d read of a tensor");
    Value element = tensor::ExtractOp::create(
        rewriter, read.getLoc(), read.getBase(), read.getIndices());
    rewriter.replaceOpWithNewOp<vector::BroadcastOp>(read, read.getVectorType(),
                                                     element);
    return success();
  }
};

struct TileAndVectorizePass
    : public google::impl::TileAndVectorizePassBase<TileAndVectorizePass> {
  using Base::Base;

  LogicalResult initialize(MLIRContext *context) override {
    RewritePatternSet simplify(context);
    populateSimplifyPatterns(simplify);
    simplifyPatterns = FrozenRewritePatternSet(std::move(simplify));
    RewritePatternSet cleanUp(context);
    vector::populateVectorReductionToContractPatterns(cleanUp);
    vector::populateVectorTransferPermutationMapLoweringPatterns(cleanUp);
    tensor::populateFoldTensorSubsetIntoVectorTransferPatterns(cleanUp);
    cleanUp.add<ZeroDimReadToExtract>(context);
    populateSimplifyPatterns(cleanUp);
    vectorCleanupPatterns = FrozenRewritePatternSet(std::move(cleanUp));
    return success();
  }

  FrozenRewritePatternSet simplifyPatterns;
  FrozenRewritePatternSet vectorCleanupPatterns;

  void runOnOperation() override {
    CpuScheduler scheduler(getOperation(), vectorBits, simplifyPatterns,
                           vectorCleanupPatterns);
    if (failed(scheduler.run()))
      return signalPassFailure();
    numTiled += scheduler.numTiled;
    numVectorized += scheduler.numVectorized;
  }
};

} // namespace

LogicalResult CpuScheduler::run() {
  IRRewriter rewriter(&getContext());
  foldTransposedLhs(rewriter);
  collapseTransposes(rewriter);
  loopSmallTransposes(rewriter);
  SmallVector<linalg::LinalgOp> matmuls;
  getOperation()->walk([&](linalg::LinalgOp op) {
    if (isa<linalg::MatmulOp, linalg::BatchMatmulOp>(op) &&
        op.hasPureTensorSemantics() && llvm::all_of(op->getOperands(), isF32) &&
        hasBlockableMaps(op) && !hasEmptyLoop(op))
      matmuls.push_back(op);
  });
  for (linalg::LinalgOp matmul : matmuls)
    if (failed(tileMatmul(rewriter, matmul)))
      return failure();
  if (failed(fuseRowChains(rewriter)) || failed(tileElementwise(rewriter)))
    return failure();
  vectorizeWindowCopies(rewriter);
  if (failed(collapseReductions(rewriter)))
    return failure();
  // Row reductions (softmax, layer norm, reduce_* over the last axis),
  // in the row loops of fuseRowChains or not.
  SmallVector<linalg::LinalgOp> rowOps;
  getOperation()->walk([&](linalg::LinalgOp op) {
    if (isRowReduction(op) && !op->hasAttr(kVectorizeAttr))
      rowOps.push_back(op);
  });
  for (linalg::LinalgOp op : rowOps)
    if (failed(tileRowReduction(rewriter, op)))
      return failure();
  bool shortRows = false, pools = false;
  if (failed(tileTransposes(rewriter)) || failed(tilePools(rewriter, pools)) ||
      failed(collapseElementwise(rewriter)) ||
      failed(tileShortRows(rewriter, shortRows)))
    return failure();
  if (matmuls.empty() && rowOps.empty() && !shortRows && !pools)
    return success();
  peelBlockLoops(rewriter);
  if (failed(simplify()) || failed(splitPartialRows(rewriter)) ||
      failed(splitColumns(rewriter)) || failed(tileBlocksK(rewriter)) ||
      failed(simplify()))
    return failure();
  vectorizeFullBlocks(rewriter);
  return hoistAccumulators(rewriter);
}

/// Tiles `root` into scf.for loops (`interchange` orders them), fuses the
/// producers `fuse` accepts into the innermost loop, and replaces
/// `root`'s uses.
FailureOr<scf::SCFTileAndFuseResult> CpuScheduler::tileAndFuse(
    IRRewriter &rewriter, linalg::LinalgOp root, ArrayRef<int64_t> sizes,
    ArrayRef<int64_t> interchange, function_ref<bool(Operation *)> fuse) {
  scf::SCFTilingOptions tiling;
  tiling.setTileSizes(getAsIndexOpFoldResult(&getContext(), sizes))
      .setInterchange(interchange)
      .setLoopType(scf::SCFTilingOptions::LoopType::ForOp);
  scf::SCFTileAndFuseOptions options;
  options.setTilingOptions(tiling);
  options.setFusionControlFn(
      [&](tensor::ExtractSliceOp, OpResult producer,
          bool) -> std::optional<scf::SCFTileAndFuseOptions::ControlFnResult> {
        if (fuse(producer.getOwner()))
          return scf::SCFTileAndFuseOptions::ControlFnResult{};
        return std::nullopt;
      });
  rewriter.setInsertionPoint(root);
  FailureOr<scf::SCFTileAndFuseResult> tiled =
      scf::tileConsumerAndFuseProducersUsingSCF(
          rewriter, cast<TilingInterface>(root.getOperation()), options);
  if (failed(tiled))
    return failure();
  for (OpResult result : root->getResults())
    rewriter.replaceAllUsesWith(result, tiled->replacements.lookup(result));
  return tiled;
}

/// Step 2: every block loop splits into full blocks and one partial
/// block, outer loops first (so inner loops are peeled in both copies).
void CpuScheduler::peelBlockLoops(IRRewriter &rewriter) {
  for (int depth = 0;; ++depth) {
    SmallVector<scf::ForOp> loops;
    getOperation()->walk([&](scf::ForOp loop) {
      if (!loop->hasAttr(kBlockLoopAttr))
        return;
      int enclosing = 0;
      for (Operation *parent = loop->getParentOp(); parent;
           parent = parent->getParentOp())
        enclosing += parent->hasAttr(kBlockLoopAttr);
      if (enclosing == depth)
        loops.push_back(loop);
    });
    if (loops.empty())
      break;
    for (scf::ForOp loop : loops) {
      rewriter.setInsertionPoint(loop);
      scf::ForOp partial;
      // Fails when the step divides the range statically: nothing to do.
      (void)scf::peelForLoopAndSimplifyBounds(rewriter, loop, partial);
      // The one partial block is not worth threads.
      if (partial)
        partial->removeAttr(google::kParallelLoopAttrName);
    }
  }
  getOperation()->walk(
      [](scf::ForOp loop) { loop->removeAttr(kBlockLoopAttr); });
}

/// Full blocks get static shapes once their sizes fold to constants.
LogicalResult CpuScheduler::simplify() {
  if (failed(applyPatternsGreedily(getOperation(), simplifyPatterns)))
    return getOperation()->emitError("canonicalization did not converge");
  return success();
}

/// Step 3: the marked ops with static shapes (full blocks) become vector
/// ops; the others (partial blocks) stay linalg and become loops.
void CpuScheduler::vectorizeFullBlocks(IRRewriter &rewriter) {
  SmallVector<linalg::LinalgOp> marked;
  getOperation()->walk([&](linalg::LinalgOp op) {
    if (op->hasAttr(kVectorizeAttr))
      marked.push_back(op);
  });
  for (linalg::LinalgOp op : marked) {
    op->removeAttr(kVectorizeAttr);
    if (!op.hasPureTensorSemantics() || op.hasDynamicShape())
      continue;
    rewriter.setInsertionPoint(op);
    FailureOr<linalg::VectorizationResult> vectorized =
        linalg::vectorize(rewriter, op);
    if (failed(vectorized))
      continue;
    if (!vectorized->replacements.empty())
      rewriter.replaceOp(op, vectorized->replacements);
    else
      rewriter.eraseOp(op);
    ++numVectorized;
  }
}

/// The K step's reads and writes of the accumulator move out of the K
/// loop: the accumulator becomes a loop-carried vector.
LogicalResult CpuScheduler::hoistAccumulators(IRRewriter &rewriter) {
  auto cleanUp = [&]() -> LogicalResult {
    if (failed(applyPatternsGreedily(getOperation(), vectorCleanupPatterns)))
      return getOperation()->emitError("vector cleanup did not converge");
    DominanceInfo dominance(getOperation());
    eliminateCommonSubExpressions(rewriter, dominance, getOperation());
    return success();
  };
  if (failed(cleanUp()))
    return failure();
  SmallVector<scf::ForOp> loops;
  // Innermost first.
  getOperation()->walk([&](scf::ForOp loop) { loops.push_back(loop); });
  for (scf::ForOp loop : loops)
    (void)hoistLoopInvariantSubsets(rewriter, loop);
  return cleanUp();
}
