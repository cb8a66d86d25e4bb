//===- TileToBlocks.cpp - --google-gpu-tile-to-blocks ---------------------===//
//
// The GPU's tensor-level tiling: row chains become scf.forall loops over
// blocks, one row per iteration, before bufferization.
//
//===----------------------------------------------------------------------===//

#include "GpuKernels.h"

#include "Codegen/GPU/Passes.h"
#include "Codegen/Matchers.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Dominance.h"
#include "mlir/Transforms/CSE.h"
#include "mlir/Transforms/RegionUtils.h"

namespace mlir::google {
#define GEN_PASS_DEF_GPUTILETOBLOCKSPASS
#include "Codegen/GPU/Passes.h.inc"
} // namespace mlir::google

using namespace mlir;
using namespace mlir::google;
using namespace mlir::google::kernels;

namespace {

/// The fills that contraction kernels absorb (see MapToGpu's
/// getFusableFill): they stay out of row chains. An elementwise op between
/// a contraction and a chain goes to the chain (which reads the
/// contraction's result once either way).
llvm::SmallPtrSet<Operation *, 8>
getContractionFills(ArrayRef<linalg::LinalgOp> ops) {
  llvm::SmallPtrSet<Operation *, 8> taken;
  for (linalg::LinalgOp op : ops)
    if (getTileableContraction(op))
      if (auto fill =
              op.getDpsInitOperand(0)->get().getDefiningOp<linalg::FillOp>())
        taken.insert(fill);
  return taken;
}

/// Whether `op`'s result is an operand of a contraction.
bool feedsContraction(Operation *op) {
  return llvm::any_of(op->getUsers(), [](Operation *user) {
    auto linalgOp = dyn_cast<linalg::LinalgOp>(user);
    return linalgOp && linalg::isaContractionOpInterface(linalgOp);
  });
}

/// Whether a step of `chain` reads a per-row value of the chain through
/// tensor.expand_shape, which fusion cannot see through.
bool readsThroughReshapes(const RowChain &chain,
                          const llvm::SmallPtrSetImpl<Operation *> &members) {
  return llvm::any_of(chain.steps, [&](const RowStep &step) {
    return llvm::any_of(step.op->getOperands(), [&](Value operand) {
      auto expand = operand.getDefiningOp<tensor::ExpandShapeOp>();
      return expand && members.contains(expand.getSrc().getDefiningOp());
    });
  });
}

/// Tiles `chain`'s last op by one row into an scf.forall mapped to blocks
/// and fuses the chain's other ops in; what the rest of the function reads
/// of them is yielded by the loop. False when the chain reads its per-row
/// values through reshapes that cannot be folded, or an op before its end
/// reads them.
FailureOr<bool> tileChain(RewriterBase &rewriter, const RowChain &chain) {
  linalg::LinalgOp last = chain.steps.back().op;
  llvm::SmallPtrSet<Operation *, 8> members;
  for (const RowStep &step : chain.steps) {
    linalg::LinalgOp op = step.op;
    members.insert(op);
    if (auto generic = dyn_cast<linalg::GenericOp>(op.getOperation()))
      foldUnitExpansions(rewriter, generic);
  }
  if (readsThroughReshapes(chain, members))
    return false;
  // The loop takes the last op's place: what reads the chain's values
  // outside it must come after.
  llvm::SmallPtrSet<Operation *, 8> readOutside;
  for (Operation *member : members)
    for (Operation *user : member->getUsers()) {
      if (members.contains(user))
        continue;
      Operation *ancestor = last->getBlock()->findAncestorOpInBlock(*user);
      if (!ancestor || ancestor->isBeforeInBlock(last))
        return false;
      readOutside.insert(member);
    }
  MLIRContext *context = rewriter.getContext();
  unsigned rank = chain.rows.size();
  SmallVector<int64_t> sizes(rank, 1);
  sizes.push_back(0);
  // Row-major: the last row dimension varies fastest across blocks.
  SmallVector<Attribute> mapping;
  for (unsigned dim = 0; dim < rank; ++dim)
    mapping.push_back(gpu::GPUBlockMappingAttr::get(
        context, static_cast<gpu::MappingId>(
                     static_cast<unsigned>(gpu::MappingId::LinearDim0) + rank -
                     1 - dim)));
  scf::SCFTilingOptions tiling;
  tiling.setTileSizes(getAsIndexOpFoldResult(context, sizes))
      .setLoopType(scf::SCFTilingOptions::LoopType::ForallOp)
      .setMapping(mapping);
  scf::SCFTileAndFuseOptions options;
  options.setTilingOptions(tiling);
  options.setFusionControlFn(
      [&](tensor::ExtractSliceOp, OpResult producer,
          bool) -> std::optional<scf::SCFTileAndFuseOptions::ControlFnResult> {
        if (!members.contains(producer.getOwner()))
          return std::nullopt;
        return scf::SCFTileAndFuseOptions::ControlFnResult{
            readOutside.contains(producer.getOwner())};
      });
  rewriter.setInsertionPoint(last);
  FailureOr<scf::SCFTileAndFuseResult> tiled =
      scf::tileConsumerAndFuseProducersUsingSCF(
          rewriter, cast<TilingInterface>(last.getOperation()), options);
  if (failed(tiled))
    return last->emitError("google-gpu-tile-to-blocks: cannot tile a row "
                           "chain into blocks");
  for (auto [original, replacement] : tiled->replacements)
    rewriter.replaceAllUsesWith(original, replacement);
  // Fusion copies an op once per slice read of it, and leaves slices of
  // the original ops that nothing reads: merge the copies, drop the slices.
  Operation *loop = tiled->loops.front();
  (void)runRegionDCE(rewriter, loop->getRegions());
  DominanceInfo dominance(loop);
  eliminateCommonSubExpressions(rewriter, dominance, loop);
  // The chain's ops are now the loop's; what is left of them is dead.
  for (const RowStep &step : llvm::reverse(chain.steps)) {
    if (!step.op->use_empty())
      return step.op->emitError("google-gpu-tile-to-blocks: a row chain's op "
                                "was not fused into its blocks");
    rewriter.eraseOp(step.op);
  }
  return true;
}

struct GpuTileToBlocksPass
    : public google::impl::GpuTileToBlocksPassBase<GpuTileToBlocksPass> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func->getParentOfType<gpu::GPUModuleOp>())
      return;
    SmallVector<linalg::LinalgOp> ops;
    func.walk([&](linalg::LinalgOp op) {
      if (op.hasPureTensorSemantics())
        ops.push_back(op);
    });
    llvm::SmallPtrSet<Operation *, 8> taken = getContractionFills(ops);
    IRRewriter rewriter(&getContext());
    for (const RowChain &chain : findRowChains(ops, taken)) {
      // One row is one block already (and its views fold into casts).
      if (chain.getNumRows() <= 1 ||
          (fusedAttention && feedsContraction(chain.steps.back().op)))
        continue;
      FailureOr<bool> tiled = tileChain(rewriter, chain);
      if (failed(tiled))
        return signalPassFailure();
      numTiledChains += *tiled;
    }
  }
};

} // namespace
