//===- RowSchedule.cpp - row chains and row reductions --------------------===//

#include "CpuSchedules.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
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

using namespace mlir;

namespace mlir::google::cpu {

/// Whether `map` reads rows: its first `rowDims` results are the loops
/// d0, d1, ... (a row's slice of the operand is a row of it).
bool CpuScheduler::readsRows(AffineMap map, unsigned rowDims) {
  if (map.getNumResults() < rowDims)
    return false;
  for (unsigned d = 0; d < rowDims; ++d)
    if (map.getResult(d) != getAffineDimExpr(d, map.getContext()))
      return false;
  return true;
}

/// The linalg ops `end` depends on row by row (each row of theirs is
/// read by one row of `end`: not a column sum, which every row would
/// compute again), through ops all of whose users are in the chain too
/// (nothing is computed twice).
llvm::SetVector<Operation *> CpuScheduler::getRowChain(linalg::GenericOp end) {
  unsigned rowDims = end.getNumLoops() - 1;
  llvm::SetVector<Operation *> chain;
  SmallVector<linalg::LinalgOp> worklist = {end};
  while (!worklist.empty()) {
    linalg::LinalgOp op = worklist.pop_back_val();
    for (OpOperand &operand : op->getOpOperands()) {
      auto producer = operand.get().getDefiningOp<linalg::LinalgOp>();
      if (producer && producer.hasPureTensorSemantics() &&
          producer->getBlock() == end->getBlock() &&
          producer->getNumResults() == 1 &&
          readsRows(op.getMatchingIndexingMap(&operand), rowDims) &&
          readsRows(
              producer.getMatchingIndexingMap(producer.getDpsInitOperand(0)),
              rowDims) &&
          chain.insert(producer))
        worklist.push_back(producer);
    }
  }
  // Ops read outside the chain, or not by rows, stay out, and so do
  // their producers.
  auto readOutside = [&](OpOperand &use) {
    Operation *user = use.getOwner();
    if (user != end && !chain.contains(user))
      return true;
    auto consumer = cast<linalg::LinalgOp>(user);
    return !readsRows(consumer.getMatchingIndexingMap(&use), rowDims);
  };
  bool changed = true;
  while (changed) {
    changed = false;
    for (Operation *op : llvm::to_vector(chain))
      if (llvm::any_of(op->getUses(), readOutside)) {
        chain.remove(op);
        changed = true;
      }
  }
  return chain;
}

/// Step 0: each chain of row-wise ops (a softmax: max, exp, sum, divide)
/// runs row by row: its end is tiled by rows with the chain fused in,
/// so that a row stays in cache from op to op, and the row loop goes
/// to threads. The copies fusion makes of an op read twice are merged.
LogicalResult CpuScheduler::fuseRowChains(IRRewriter &rewriter) {
  SmallVector<linalg::GenericOp> ends;
  for (Operation &op : getOperation().getBody().getOps()) {
    auto generic = dyn_cast<linalg::GenericOp>(&op);
    if (!generic)
      continue;
    google::foldUnitExpansions(rewriter, generic);
    if (isRowChainEnd(generic))
      ends.push_back(generic);
  }
  // Last first: an end that feeds a later one is fused into its chain.
  llvm::SmallPtrSet<Operation *, 8> fused;
  for (linalg::GenericOp end : llvm::reverse(ends)) {
    if (fused.contains(end))
      continue;
    llvm::SetVector<Operation *> chain = getRowChain(end);
    if (llvm::none_of(chain, [&](Operation *op) {
          return isRowReduction(cast<linalg::LinalgOp>(op));
        }))
      continue;
    fused.insert(chain.begin(), chain.end());
    SmallVector<int64_t> sizes(end.getNumLoops(), 1);
    sizes.back() = 0;
    FailureOr<scf::SCFTileAndFuseResult> tiled =
        tileAndFuse(rewriter, end, sizes, /*interchange=*/{},
                    [&](Operation *op) { return chain.contains(op); });
    if (failed(tiled))
      return end->emitError("cannot tile a chain of row ops into rows");
    tiled->loops.front()->setAttr(google::kParallelLoopAttrName,
                                  rewriter.getUnitAttr());
    chain.insert(end);
    for (bool erased = true; erased;) {
      erased = false;
      for (Operation *op : llvm::to_vector(chain))
        if (op->use_empty()) {
          chain.remove(op);
          rewriter.eraseOp(op);
          erased = true;
        }
    }
  }
  if (ends.empty())
    return success();
  DominanceInfo dominance(getOperation());
  eliminateCommonSubExpressions(rewriter, dominance, getOperation());
  return success();
}

/// Whether `op` (one result) reduces with one arith op that has a neutral
/// element, which partial sums start from.
static bool hasPartialReductionCombiner(linalg::LinalgOp op) {
  if (op->getNumResults() != 1 || op.getNumDpsInits() != 1)
    return false;
  SmallVector<Operation *> combiners;
  if (!matchReduction(op.getRegionOutputArgs(), 0, combiners) ||
      combiners.size() != 1)
    return false;
  return arith::getNeutralElement(combiners.front()).has_value();
}

/// A long row reduces into a few vectors of partial results that its loop
/// carries in registers (getPartialReductionWidth), and those into the
/// result once after the loop; chunks reduced one at a time each ended in
/// a horizontal reduction, and long ones spilled.
LogicalResult CpuScheduler::tileIntoPartialReductions(IRRewriter &rewriter,
                                                      linalg::LinalgOp row,
                                                      int64_t length) {
  Type element = getElementTypeOrSelf(row->getResult(0).getType());
  if (!element.isIntOrFloat() || !hasPartialReductionCombiner(row))
    return failure();
  int64_t lanes = vectorBits / element.getIntOrFloatBitWidth();
  int64_t width = getPartialReductionWidth(length, lanes);
  if (!width)
    return failure();
  unsigned innermost = row.getNumLoops() - 1;
  SmallVector<int64_t> sizes(row.getNumLoops(), 0);
  sizes[innermost] = width;
  scf::SCFTilingOptions tiling;
  tiling.setTileSizes(getAsIndexOpFoldResult(&getContext(), sizes))
      .setLoopType(scf::SCFTilingOptions::LoopType::ForOp)
      .setReductionTilingStrategy(
          ReductionTilingStrategy::PartialReductionOuterReduction)
      .setReductionDims({innermost});
  rewriter.setInsertionPoint(row);
  FailureOr<scf::SCFTilingResult> partial = scf::tileUsingSCF(
      rewriter, cast<TilingInterface>(row.getOperation()), tiling);
  if (failed(partial))
    return row->emitError("cannot reduce a row into partial results");
  rewriter.replaceOp(row, partial->replacements);
  for (Operation *op : partial->tiledOps)
    op->setAttr(kVectorizeAttr, rewriter.getUnitAttr());
  for (Operation *op : partial->mergeOps)
    op->setAttr(kVectorizeAttr, rewriter.getUnitAttr());
  for (Value init : partial->initialValues)
    if (Operation *fill = init.getDefiningOp<linalg::FillOp>())
      fill->setAttr(kVectorizeAttr, rewriter.getUnitAttr());
  return success();
}

/// One row per tile, with the fill of the reduction's init fused in; a
/// long row is then reduced into partial results, or where their width
/// does not divide it, chunk by chunk into the row's accumulator.
LogicalResult CpuScheduler::tileRowReduction(IRRewriter &rewriter,
                                             linalg::LinalgOp op) {
  rewriter.setInsertionPoint(op);
  google::checkLinalgExtents(op);
  int64_t length = op.getStaticLoopRanges().back();
  int64_t chunk = getReductionChunk(length);
  SmallVector<Operation *> rows = {op};
  if (op.getNumLoops() > 1) {
    SmallVector<int64_t> sizes(op.getNumLoops(), 1);
    sizes.back() = 0;
    FailureOr<scf::SCFTileAndFuseResult> tiled = tileAndFuse(
        rewriter, op, sizes, /*interchange=*/{},
        [](Operation *producer) { return isa<linalg::FillOp>(producer); });
    if (failed(tiled))
      return op->emitError("cannot tile into rows");
    rows.assign(tiled->tiledAndFusedOps.begin(), tiled->tiledAndFusedOps.end());
  }
  for (Operation *row : rows) {
    auto rowOp = dyn_cast<linalg::LinalgOp>(row);
    if (!rowOp || chunk == length || isa<linalg::FillOp>(row)) {
      row->setAttr(kVectorizeAttr, rewriter.getUnitAttr());
      continue;
    }
    if (succeeded(tileIntoPartialReductions(rewriter, rowOp, length)))
      continue;
    // Chunks of the row accumulate into its result in turn.
    SmallVector<int64_t> sizes(rowOp.getNumLoops(), 0);
    sizes.back() = chunk;
    scf::SCFTilingOptions tiling;
    tiling.setTileSizes(getAsIndexOpFoldResult(&getContext(), sizes))
        .setLoopType(scf::SCFTilingOptions::LoopType::ForOp);
    rewriter.setInsertionPoint(row);
    FailureOr<scf::SCFTilingResult> chunked =
        scf::tileUsingSCF(rewriter, cast<TilingInterface>(row), tiling);
    if (failed(chunked))
      return row->emitError("cannot split the row into chunks");
    rewriter.replaceOp(row, chunked->replacements);
    for (Operation *tiledOp : chunked->tiledOps)
      tiledOp->setAttr(kVectorizeAttr, rewriter.getUnitAttr());
  }
  return success();
}

/// A reduction over several innermost loops that every operand reads
/// contiguously together (a sum over all axes, a mean over an image's rows
/// and columns) reduces one loop of their product instead, which
/// isRowReduction takes; LLVM left the nest of loops scalar.
LogicalResult CpuScheduler::collapseReductions(IRRewriter &rewriter) {
  SmallVector<linalg::LinalgOp> ops;
  getOperation()->walk([&](linalg::LinalgOp op) {
    if (isa<linalg::GenericOp, linalg::ReduceOp>(op) &&
        op.hasPureTensorSemantics() && !isScheduled(op) &&
        !op->hasAttr(kVectorizeAttr) && op.getNumReductionLoops() >= 2 &&
        op->getNumResults() == 1 && !hasEmptyLoop(op))
      ops.push_back(op);
  });
  for (linalg::LinalgOp op : ops) {
    // Parallel loops, then the reductions, all of them collapsible into
    // one (and the parallel ones as they may).
    unsigned numLoops = op.getNumLoops();
    unsigned firstReduction = numLoops - op.getNumReductionLoops();
    SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
    if (llvm::any_of(ArrayRef(iterators).drop_front(firstReduction),
                     [](utils::IteratorType type) {
                       return type != utils::IteratorType::reduction;
                     }))
      continue;
    SmallVector<ReassociationIndices> folded;
    for (ReassociationIndices &group : getCollapsibleDims(op)) {
      ReassociationIndices parallel, reduction;
      for (int64_t d : group)
        (d < firstReduction ? parallel : reduction).push_back(d);
      for (ReassociationIndices *part : {&parallel, &reduction})
        if (part->size() > 1)
          folded.push_back(*part);
    }
    if (folded.empty() || folded.back().front() != firstReduction ||
        folded.back().size() != numLoops - firstReduction)
      continue;
    rewriter.setInsertionPoint(op);
    linalg::LinalgOp generic = op;
    if (!isa<linalg::GenericOp>(op)) {
      FailureOr<linalg::GenericOp> generalized =
          linalg::generalizeNamedOp(rewriter, op);
      if (failed(generalized))
        return op->emitError("cannot generalize a reduction");
      generic = *generalized;
    }
    FailureOr<linalg::CollapseResult> collapsed =
        linalg::collapseOpIterationDims(generic, folded, rewriter);
    if (failed(collapsed))
      return generic->emitError("cannot collapse a reduction's loops");
    rewriter.replaceOp(generic, collapsed->results);
  }
  return success();
}

} // namespace mlir::google::cpu
