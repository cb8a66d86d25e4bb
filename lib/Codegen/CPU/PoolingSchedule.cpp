//===- PoolingSchedule.cpp - poolings in vector tiles ---------------------===//

#include "CpuSchedules.h"

#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

using namespace mlir;

namespace mlir::google::cpu {

/// Each pooling getPoolTile takes runs one output row and one tile of
/// columns and channels at a time, in a loop over the window's rows around
/// a 1-D pooling (upstream's decomposition of a 2-D pooling over one row),
/// vectorized whole: per window column, one vector max or add of the tile,
/// in the order of the loops it replaces. The batch loop goes to threads.
/// (LLVM unrolled the window and channel loops of the scalar nest and
/// vectorized across them: slow to compile, and on one thread.)
LogicalResult CpuScheduler::tilePools(IRRewriter &rewriter, bool &tiledAny) {
  SmallVector<std::pair<linalg::LinalgOp, PoolTile>> pools;
  getOperation()->walk([&](linalg::LinalgOp op) {
    if (std::optional<PoolTile> tile = getPoolTile(op, vectorBits))
      pools.push_back({op, *tile});
  });
  if (pools.empty())
    return success();
  RewritePatternSet decompose(&getContext());
  linalg::populateDecomposeConvolutionPatterns(decompose);
  FrozenRewritePatternSet decomposePatterns(std::move(decompose));
  for (auto [op, tile] : pools) {
    // Batch, output rows, output columns, channels, window rows, window
    // columns.
    int64_t sizes[] = {1, 1, tile.columns, tile.channels, 1, 0};
    FailureOr<scf::SCFTileAndFuseResult> tiled =
        tileAndFuse(rewriter, op, sizes, /*interchange=*/{},
                    [](Operation *) { return false; });
    if (failed(tiled))
      return op->emitError("cannot tile a pooling");
    Operation *tiledPool = tiled->tiledAndFusedOps.front();
    tiled->loops.front()->setAttr(google::kParallelLoopAttrName,
                                  rewriter.getUnitAttr());
    rewriter.eraseOp(op);
    bool changed = false;
    if (failed(applyOpPatternsGreedily({tiledPool}, decomposePatterns,
                                       GreedyRewriteConfig(), &changed)) ||
        !changed)
      return tiledPool->emitError("cannot decompose a pooling row");
    ++numTiled;
  }
  SmallVector<linalg::LinalgOp> rows;
  getOperation()->walk([&](linalg::LinalgOp op) {
    if (isa<linalg::PoolingNwcMaxOp, linalg::PoolingNwcSumOp>(op))
      rows.push_back(op);
  });
  for (linalg::LinalgOp row : rows) {
    rewriter.setInsertionPoint(row);
    FailureOr<linalg::VectorizationResult> vectorized =
        linalg::vectorize(rewriter, row);
    if (failed(vectorized))
      return row->emitError("cannot vectorize a pooling row");
    rewriter.replaceOp(row, vectorized->replacements);
    ++numVectorized;
  }
  tiledAny = true;
  return success();
}

} // namespace mlir::google::cpu
