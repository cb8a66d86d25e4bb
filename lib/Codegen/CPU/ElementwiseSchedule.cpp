//===- ElementwiseSchedule.cpp - elementwise chunks for threads -----------===//

#include "CpuSchedules.h"

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

/// Step 0': each elementwise op left in the function that may have
/// enough work for threads runs in a loop over chunks
/// (getElementwiseChunk), which goes to threads. The chunks' loops stay
/// whole for LLVM's vectorizer.
LogicalResult CpuScheduler::tileElementwise(IRRewriter &rewriter) {
  SmallVector<std::pair<linalg::LinalgOp, std::pair<unsigned, int64_t>>> ops;
  for (Operation &op : getOperation().getBody().getOps())
    if (auto linalgOp = dyn_cast<linalg::LinalgOp>(&op))
      if (auto chunk = getElementwiseChunk(linalgOp))
        ops.push_back({linalgOp, *chunk});
  for (auto [op, chunk] : ops) {
    SmallVector<int64_t> sizes(op.getNumLoops(), 0);
    sizes[chunk.first] = chunk.second;
    FailureOr<scf::SCFTileAndFuseResult> tiled =
        tileAndFuse(rewriter, op, sizes, /*interchange=*/{},
                    [](Operation *) { return false; });
    if (failed(tiled))
      return op->emitError("cannot tile an elementwise op into chunks");
    tiled->loops.front()->setAttr(google::kParallelLoopAttrName,
                                  rewriter.getUnitAttr());
    rewriter.eraseOp(op);
  }
  return success();
}

/// Step 0'': the loops of each elementwise op that its operands read
/// contiguously together become one (an op on 256x8x8x8 one loop of
/// 131072, which LLVM vectorizes whole, not 32768 rows of 8); so do the
/// loops of fills (isCollapsibleFill).
LogicalResult CpuScheduler::collapseElementwise(IRRewriter &rewriter) {
  SmallVector<linalg::FillOp> fills;
  getOperation()->walk([&](linalg::FillOp fill) {
    if (isCollapsibleFill(fill))
      fills.push_back(fill);
  });
  for (linalg::FillOp fill : fills) {
    Location loc = fill.getLoc();
    rewriter.setInsertionPoint(fill);
    auto type = cast<RankedTensorType>(fill.getResult(0).getType());
    SmallVector<ReassociationIndices> all = {
        llvm::to_vector(llvm::seq<int64_t>(0, type.getRank()))};
    Value flat = tensor::CollapseShapeOp::create(rewriter, loc,
                                                 fill.getOutputs()[0], all);
    // As a generic: the canonicalizer would fold the reshape of a fill
    // back into a fill of the reshaped tensor.
    auto flatFill =
        linalg::FillOp::create(rewriter, loc, fill.getInputs()[0], flat);
    FailureOr<linalg::GenericOp> generic =
        linalg::generalizeNamedOp(rewriter, flatFill);
    if (failed(generic))
      return fill->emitError("cannot fill a tensor as one dimension");
    rewriter.replaceOpWithNewOp<tensor::ExpandShapeOp>(
        fill, type, generic->getResult(0), all);
  }
  SmallVector<linalg::GenericOp> ops;
  getOperation()->walk([&](linalg::GenericOp op) {
    if (isFreeElementwise(op))
      ops.push_back(op);
  });
  for (linalg::GenericOp op : ops) {
    SmallVector<ReassociationIndices> folded = getCollapsibleDims(op);
    if (folded.empty())
      continue;
    rewriter.setInsertionPoint(op);
    FailureOr<linalg::CollapseResult> collapsed =
        linalg::collapseOpIterationDims(op, folded, rewriter);
    if (succeeded(collapsed))
      rewriter.replaceOp(op, collapsed->results);
  }
  return success();
}

/// Step 0''': elementwise ops and column sums over short rows
/// (isShortRowOp) run row by row, each row one vector op (a column sum's
/// rows add into its result's row, the loop carrying it).
LogicalResult CpuScheduler::tileShortRows(IRRewriter &rewriter,
                                          bool &tiledAny) {
  SmallVector<linalg::LinalgOp> ops;
  getOperation()->walk([&](linalg::LinalgOp op) {
    if (isShortRowOp(op, vectorBits))
      ops.push_back(op);
  });
  for (linalg::LinalgOp op : ops) {
    SmallVector<int64_t> sizes(op.getNumLoops(), 1);
    sizes.back() = 0;
    FailureOr<scf::SCFTileAndFuseResult> tiled =
        tileAndFuse(rewriter, op, sizes, /*interchange=*/{},
                    [](Operation *) { return false; });
    if (failed(tiled))
      return op->emitError("cannot tile an elementwise op into rows");
    for (Operation *row : tiled->tiledAndFusedOps)
      row->setAttr(kVectorizeAttr, rewriter.getUnitAttr());
    rewriter.eraseOp(op);
    tiledAny = true;
  }
  return success();
}

} // namespace mlir::google::cpu
