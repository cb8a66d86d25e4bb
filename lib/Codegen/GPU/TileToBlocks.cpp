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
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Dominance.h"
#include "mlir/Transforms/CSE.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
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

/// The block mapping of `count` loops: row-major, the last varying
/// fastest across blocks.
SmallVector<Attribute> getBlockMapping(MLIRContext *context, unsigned count) {
  SmallVector<Attribute> mapping;
  for (unsigned dim = 0; dim < count; ++dim)
    mapping.push_back(gpu::GPUBlockMappingAttr::get(
        context, static_cast<gpu::MappingId>(
                     static_cast<unsigned>(gpu::MappingId::LinearDim0) + count -
                     1 - dim)));
  return mapping;
}

/// The most loops a kernel's blocks are mapped to (linear_dim_0 to _9).
constexpr unsigned kMaxBlockLoops = 10;

/// Tiles `last` by `sizes` (a block's part of each loop; 0 for a loop each
/// block runs whole) into an scf.forall mapped to blocks and fuses in the
/// ops of `members` it reads; those of `readOutside` are also yielded.
/// Then erases `members`, which must be dead. Returns the loop.
FailureOr<scf::ForallOp>
tileIntoBlocks(RewriterBase &rewriter, linalg::LinalgOp last,
               ArrayRef<int64_t> sizes, ArrayRef<Operation *> members,
               const llvm::SmallPtrSetImpl<Operation *> &readOutside) {
  MLIRContext *context = rewriter.getContext();
  scf::SCFTilingOptions tiling;
  tiling.setTileSizes(getAsIndexOpFoldResult(context, sizes))
      .setLoopType(scf::SCFTilingOptions::LoopType::ForallOp)
      .setMapping(getBlockMapping(
          context, llvm::count_if(sizes, [](int64_t size) { return size; })));
  scf::SCFTileAndFuseOptions options;
  options.setTilingOptions(tiling);
  options.setFusionControlFn(
      [&](tensor::ExtractSliceOp, OpResult producer,
          bool) -> std::optional<scf::SCFTileAndFuseOptions::ControlFnResult> {
        if (!llvm::is_contained(members, producer.getOwner()))
          return std::nullopt;
        return scf::SCFTileAndFuseOptions::ControlFnResult{
            readOutside.contains(producer.getOwner())};
      });
  rewriter.setInsertionPoint(last);
  FailureOr<scf::SCFTileAndFuseResult> tiled =
      scf::tileConsumerAndFuseProducersUsingSCF(
          rewriter, cast<TilingInterface>(last.getOperation()), options);
  if (failed(tiled))
    return last->emitError("google-gpu-tile-to-blocks: cannot tile a kernel "
                           "into blocks");
  for (auto [original, replacement] : tiled->replacements)
    rewriter.replaceAllUsesWith(original, replacement);
  // Fusion copies an op once per slice read of it, and leaves slices of
  // the original ops that nothing reads: merge the copies, drop the slices.
  Operation *loop = tiled->loops.front();
  (void)runRegionDCE(rewriter, loop->getRegions());
  DominanceInfo dominance(loop);
  eliminateCommonSubExpressions(rewriter, dominance, loop);
  // The kernel's ops are now the loop's; what is left of them is dead,
  // but for the dynamic extents the loop reads, which their outputs have.
  for (Operation *member : llvm::reverse(members)) {
    auto destination = cast<DestinationStyleOpInterface>(member);
    for (OpOperand &use : llvm::make_early_inc_range(member->getUses()))
      if (auto dim = dyn_cast<tensor::DimOp>(use.getOwner()))
        rewriter.modifyOpInPlace(dim, [&] {
          use.set(destination.getTiedOpOperand(cast<OpResult>(dim.getSource()))
                      ->get());
        });
    if (!member->use_empty())
      return member->emitError("google-gpu-tile-to-blocks: an op of a "
                               "kernel was not fused into its blocks");
    rewriter.eraseOp(member);
  }
  return cast<scf::ForallOp>(loop);
}

/// Lets the elementwise op whose result the last op of `loop`'s body
/// reads at each element (softmax's exponentials, read by the divide)
/// write into the block's slice of the loop's output, and the last op
/// overwrite it in place: bufferization then allocates nothing for it,
/// as when the ops were not tiled. Only for a fresh result (its
/// destination a slice of tensor.empty) of the output slice's type that
/// nothing outside the loop reads.
void writeIntoOutput(RewriterBase &rewriter, scf::ForallOp loop) {
  scf::InParallelOp terminator = loop.getTerminator();
  for (Operation &yielding : terminator.getYieldingOps()) {
    auto insert = dyn_cast<tensor::ParallelInsertSliceOp>(yielding);
    if (!insert)
      continue;
    auto last = insert.getSource().getDefiningOp<linalg::GenericOp>();
    if (!last || last->getBlock() != loop.getBody() ||
        last.getNumDpsInits() != 1 || !last.getResult(0).hasOneUse())
      continue;
    OpOperand *init = last.getDpsInitOperand(0);
    auto slice = init->get().getDefiningOp<tensor::ExtractSliceOp>();
    if (!slice || slice.getSource() != insert.getDest() ||
        last.payloadUsesValueFromOperand(init))
      continue;
    for (OpOperand *input : last.getDpsInputOperands()) {
      auto producer = input->get().getDefiningOp<linalg::GenericOp>();
      if (!producer || producer->getBlock() != loop.getBody() ||
          producer.getNumDpsInits() != 1 ||
          producer->getResult(0).getType() != init->get().getType() ||
          !last.getMatchingIndexingMap(input).isIdentity() ||
          llvm::any_of(producer->getUsers(), [&](Operation *user) {
            return user->getBlock() != loop.getBody() ||
                   (user != last.getOperation() &&
                    !user->isBeforeInBlock(last));
          }))
        continue;
      OpOperand *fresh = producer.getDpsInitOperand(0);
      auto freshSlice = fresh->get().getDefiningOp<tensor::ExtractSliceOp>();
      if (!freshSlice ||
          !freshSlice.getSource().getDefiningOp<tensor::EmptyOp>() ||
          producer.payloadUsesValueFromOperand(fresh) ||
          !isEqualConstantIntOrValueArray(freshSlice.getMixedOffsets(),
                                          slice.getMixedOffsets()) ||
          !isEqualConstantIntOrValueArray(freshSlice.getMixedSizes(),
                                          slice.getMixedSizes()) ||
          !isEqualConstantIntOrValueArray(freshSlice.getMixedStrides(),
                                          slice.getMixedStrides()))
        continue;
      rewriter.setInsertionPoint(producer);
      Operation *output = rewriter.clone(*slice);
      rewriter.modifyOpInPlace(producer,
                               [&] { fresh->set(output->getResult(0)); });
      rewriter.modifyOpInPlace(last,
                               [&] { init->set(producer->getResult(0)); });
      for (tensor::ExtractSliceOp unused : {slice, freshSlice})
        if (unused->use_empty())
          rewriter.eraseOp(unused);
      break;
    }
  }
}

/// Tiles `chain`'s last op by one row into an scf.forall mapped to blocks
/// and fuses the chain's other ops in; what the rest of the function reads
/// of them is yielded by the loop. False when the chain reads its per-row
/// values through reshapes that cannot be folded, or an op before its end
/// reads them.
FailureOr<bool> tileChain(RewriterBase &rewriter, const RowChain &chain) {
  linalg::LinalgOp last = chain.steps.back().op;
  SmallVector<Operation *> members;
  for (const RowStep &step : chain.steps) {
    linalg::LinalgOp op = step.op;
    members.push_back(op);
    if (auto generic = dyn_cast<linalg::GenericOp>(op.getOperation()))
      foldUnitExpansions(rewriter, generic);
  }
  llvm::SmallPtrSet<Operation *, 8> memberSet(members.begin(), members.end());
  if (readsThroughReshapes(chain, memberSet))
    return false;
  // The loop takes the last op's place: what reads the chain's values
  // outside it must come after.
  // A reshape of a value (a per-row value given back its unit dimension)
  // that only ops after the chain read moves after it.
  auto readsAfter = [&](Operation *op) {
    return llvm::all_of(op->getUsers(), [&](Operation *user) {
      Operation *ancestor = last->getBlock()->findAncestorOpInBlock(*user);
      return ancestor && last->isBeforeInBlock(ancestor);
    });
  };
  llvm::SmallPtrSet<Operation *, 8> readOutside;
  for (Operation *member : members)
    for (Operation *user : llvm::make_early_inc_range(member->getUsers())) {
      if (memberSet.contains(user))
        continue;
      Operation *ancestor = last->getBlock()->findAncestorOpInBlock(*user);
      if (ancestor == user && ancestor->isBeforeInBlock(last) &&
          isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp>(user) &&
          readsAfter(user))
        user->moveAfter(last);
      if (!ancestor || ancestor->isBeforeInBlock(last))
        return false;
      readOutside.insert(member);
    }
  if (chain.rows.size() > kMaxBlockLoops)
    return false;
  SmallVector<int64_t> sizes(chain.rows.size(), 1);
  sizes.push_back(0);
  FailureOr<scf::ForallOp> loop =
      tileIntoBlocks(rewriter, last, sizes, members, readOutside);
  if (failed(loop))
    return failure();
  writeIntoOutput(rewriter, *loop);
  return true;
}

/// The elementwise ops after row reduction `op` that only go on with its
/// rows' values (as reduce_mean's divide), in order: each the only reader
/// of the one before (`op` first), over one loop per output dimension of
/// `op`, reading every tensor at its loops, and not in `taken`.
SmallVector<linalg::LinalgOp>
getRowConsumers(linalg::LinalgOp op,
                const llvm::SmallPtrSetImpl<Operation *> &taken) {
  SmallVector<linalg::LinalgOp> consumers;
  unsigned rank = op.getNumParallelLoops();
  Operation *last = op;
  while (last->hasOneUse()) {
    auto next = dyn_cast<linalg::GenericOp>(*last->getUsers().begin());
    if (!next || taken.contains(next) || !next.hasPureTensorSemantics() ||
        next.hasIndexSemantics() || next.getNumLoops() != rank ||
        next.getNumParallelLoops() != rank || next->getNumResults() != 1 ||
        !llvm::all_of(next.getIndexingMapsArray(),
                      [&](AffineMap map) {
                        return map.isIdentity() || map.getNumResults() == 0;
                      }) ||
        llvm::count_if(next.getDpsInputs(), [&](Value input) {
          return input.getDefiningOp() == last;
        }) != 1)
      break;
    consumers.push_back(next);
    last = next;
  }
  return consumers;
}

/// Tiles row reduction `op` (see getRowReduction) by one output element
/// into an scf.forall mapped to blocks, with the fill of its output (when
/// nothing else reads it) and its row consumers (see getRowConsumers)
/// fused in: a block reduces one row and goes on with its value. Ops in
/// `taken` stay out. False when it has too many parallel loops to map, or
/// no elements (it folds away).
FailureOr<bool>
tileRowReduction(RewriterBase &rewriter, linalg::LinalgOp op,
                 const llvm::SmallPtrSetImpl<Operation *> &taken) {
  if (op.getNumParallelLoops() > kMaxBlockLoops ||
      llvm::is_contained(op.getStaticLoopRanges(), 0))
    return false;
  SmallVector<Operation *> members;
  auto fill = op.getDpsInitOperand(0)->get().getDefiningOp<linalg::FillOp>();
  if (fill && fill->hasOneUse() && !taken.contains(fill))
    members.push_back(fill);
  members.push_back(op);
  SmallVector<linalg::LinalgOp> consumers = getRowConsumers(op, taken);
  llvm::append_range(members, consumers);
  linalg::LinalgOp last = consumers.empty() ? op : consumers.back();
  SmallVector<int64_t> sizes = llvm::map_to_vector(
      last.getIteratorTypesArray(), [](utils::IteratorType iterator) {
        return linalg::isParallelIterator(iterator) ? int64_t(1) : int64_t(0);
      });
  if (failed(tileIntoBlocks(rewriter, last, sizes, members,
                            llvm::SmallPtrSet<Operation *, 1>())))
    return failure();
  return true;
}

/// The elementwise epilogue of contraction `op` on tensors: the only
/// reader of its result (see isElementwiseEpilogue), not in `taken`.
linalg::GenericOp
getTensorEpilogue(linalg::LinalgOp op,
                  const llvm::SmallPtrSetImpl<Operation *> &taken) {
  Value product = op->getResult(0);
  if (!product.hasOneUse())
    return nullptr;
  auto epilogue = dyn_cast<linalg::GenericOp>(*product.getUsers().begin());
  if (!epilogue || taken.contains(epilogue) ||
      !epilogue.hasPureTensorSemantics() ||
      !isElementwiseEpilogue(epilogue, product))
    return nullptr;
  return epilogue;
}

/// Makes the elementwise epilogue of contraction `op` (not in `taken`),
/// which writes an empty tensor of the product's type and is not yielded by
/// a loop, write the product instead, in place: its buffer is then the
/// contraction's, and the kernels --google-map-to-gpu builds from the op
/// itself (split K, register tiles) take it in wherever bufferization would
/// have put its result (a reused buffer the contraction reads, say).
/// Whether it did.
bool writeEpilogueInPlace(RewriterBase &rewriter, linalg::LinalgOp op,
                          const llvm::SmallPtrSetImpl<Operation *> &taken) {
  linalg::GenericOp epilogue = getTensorEpilogue(op, taken);
  if (!epilogue)
    return false;
  OpOperand *init = epilogue.getDpsInitOperand(0);
  Value product = op->getResult(0);
  // A value a loop yields is computed in its iteration argument
  // (--google-loop-local-destinations), which an empty destination allows.
  if (llvm::any_of(epilogue->getUsers(), llvm::IsaPred<scf::YieldOp>) ||
      !init->get().getDefiningOp<tensor::EmptyOp>() ||
      init->get().getType() != product.getType() ||
      epilogue.payloadUsesValueFromOperand(init))
    return false;
  rewriter.modifyOpInPlace(epilogue, [&] { init->set(product); });
  return true;
}

/// Tiles contraction `op` (dimensions `dims`) by the block tile of its
/// kernel, `strategy` (one batch), with the fill of its accumulator (when
/// nothing else reads it) and its elementwise epilogue (not in `taken`)
/// fused in, and records the kernel on the tiled contraction. False when
/// it has no elements.
FailureOr<bool>
tileContraction(RewriterBase &rewriter, linalg::LinalgOp op,
                const linalg::ContractionDimensions &dims,
                const ContractionStrategy &strategy,
                const llvm::SmallPtrSetImpl<Operation *> &taken) {
  if (llvm::is_contained(op.getStaticLoopRanges(), 0))
    return false;
  int64_t blockTile = strategy.getBlockTile();
  recordContractionKernel(op, strategy);
  SmallVector<int64_t> loopSizes(op.getNumLoops(), 0);
  for (unsigned batch : dims.batch)
    loopSizes[batch] = 1;
  loopSizes[dims.m.front()] = blockTile;
  loopSizes[dims.n.front()] = blockTile;
  // (Chains leave contractions' fills out: they are not in any.)
  SmallVector<Operation *> members;
  auto fill = op.getDpsInitOperand(0)->get().getDefiningOp<linalg::FillOp>();
  if (fill && fill->hasOneUse())
    members.push_back(fill);
  members.push_back(op);
  linalg::LinalgOp last = op;
  SmallVector<int64_t> sizes = loopSizes;
  if (linalg::GenericOp epilogue = getTensorEpilogue(op, taken)) {
    members.push_back(epilogue);
    last = epilogue;
    // The epilogue's loops are the product's dimensions.
    AffineMap output = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
    sizes = llvm::map_to_vector(output.getResults(), [&](AffineExpr result) {
      return loopSizes[cast<AffineDimExpr>(result).getPosition()];
    });
  }
  if (failed(tileIntoBlocks(rewriter, last, sizes, members,
                            llvm::SmallPtrSet<Operation *, 1>())))
    return failure();
  return true;
}

/// The ops of the attention whose scores contraction `scores` computes, on
/// tensors, in program order, as --google-map-to-gpu's fused-attention
/// kernel takes them (matchAttention decides after bufferization): the
/// ops from `scores` on to the next contraction (the probabilities times
/// V), which are elementwise steps on the scores and softmax's two row
/// reductions (max, sum) and their elementwise ops, that contraction, the
/// fills of their outputs, a transpose of K that only the scores read, and
/// an elementwise epilogue of the output not in `taken`. All f32 and
/// static, in one block, read outside only at the last; Q's, K's and V's
/// depths multiples of 16 up to kAttentionTile. Empty when there is no
/// such attention.
SmallVector<Operation *>
getTensorAttention(linalg::LinalgOp scores,
                   const llvm::SmallPtrSetImpl<Operation *> &taken) {
  // On from the scores to the one contraction they lead to.
  constexpr size_t kMaxOps = 32;
  llvm::SetVector<Operation *> members;
  members.insert(scores);
  linalg::LinalgOp output;
  for (size_t next = 0; next < members.size(); ++next)
    for (Operation *user : members[next]->getUsers()) {
      auto op = dyn_cast<linalg::LinalgOp>(user);
      if (!op || op->getBlock() != scores->getBlock())
        return {};
      if (!getTileableContraction(op)) {
        members.insert(op);
        continue;
      }
      if (output && output != op)
        return {};
      output = op;
    }
  if (!output || members.size() > kMaxOps ||
      llvm::count_if(members, [](Operation *op) {
        return cast<linalg::LinalgOp>(op).getNumReductionLoops() != 0;
      }) != 3)
    return {};
  std::optional<linalg::ContractionDimensions> scoreDims =
      getTileableContraction(scores);
  std::optional<linalg::ContractionDimensions> outputDims =
      getTileableContraction(output);
  SmallVector<int64_t> scoreRanges = scores.getStaticLoopRanges();
  SmallVector<int64_t> outputRanges = output.getStaticLoopRanges();
  auto isDepth = [](int64_t depth) {
    return depth % 16 == 0 && depth <= kAttentionTile;
  };
  if (scoreDims->batch.size() != outputDims->batch.size() ||
      !isDepth(scoreRanges[scoreDims->k.front()]) ||
      !isDepth(outputRanges[outputDims->n.front()]))
    return {};
  members.insert(output);
  SmallVector<Operation *> fills;
  for (Operation *member : members)
    for (Value init : cast<linalg::LinalgOp>(member).getDpsInits())
      if (auto fill = init.getDefiningOp<linalg::FillOp>();
          fill && fill->hasOneUse())
        fills.push_back(fill);
  members.insert(fills.begin(), fills.end());
  if (auto transpose = scores.getDpsInputOperand(1)
                           ->get()
                           .getDefiningOp<linalg::TransposeOp>();
      transpose && transpose->hasOneUse())
    members.insert(transpose);
  Operation *last = output;
  if (linalg::GenericOp epilogue = getTensorEpilogue(output, taken)) {
    members.insert(epilogue);
    last = epilogue;
  }
  for (Operation *member : members) {
    auto op = cast<linalg::LinalgOp>(member);
    if (!op.hasPureTensorSemantics() ||
        member->getBlock() != last->getBlock() ||
        ShapedType::isDynamicShape(op.getStaticLoopRanges()) ||
        !llvm::all_of(member->getResultTypes(), [](Type type) {
          return getElementTypeOrSelf(type).isF32();
        }))
      return {};
    if (member != last &&
        llvm::any_of(member->getUsers(),
                     [&](Operation *user) { return !members.contains(user); }))
      return {};
  }
  SmallVector<Operation *> ordered = members.takeVector();
  llvm::sort(ordered, [](Operation *lhs, Operation *rhs) {
    return lhs->isBeforeInBlock(rhs);
  });
  return ordered;
}

/// Tiles `attention` (see getTensorAttention, its last op last) by one
/// batch: the fused-attention kernel splits the rows into blocks itself (a
/// partial last tile of rows overlaps the one before, which slices cannot
/// say). False without a batch, or with one: a single iteration's loop
/// would fold away, and the kernel takes the whole ops.
FailureOr<bool> tileAttention(RewriterBase &rewriter,
                              ArrayRef<Operation *> attention) {
  auto last = cast<linalg::LinalgOp>(attention.back());
  SmallVector<int64_t> ranges = last.getStaticLoopRanges();
  // The last op's loops start with the output's dimensions: [batch,] rows.
  if (cast<ShapedType>(last->getResult(0).getType()).getRank() != 3 ||
      ranges[0] <= 1 || llvm::is_contained(ranges, 0))
    return false;
  SmallVector<int64_t> sizes(ranges.size(), 0);
  sizes[0] = 1;
  if (failed(tileIntoBlocks(rewriter, last, sizes, attention,
                            llvm::SmallPtrSet<Operation *, 1>())))
    return failure();
  return true;
}

/// The ops next to the chains that the attention kernel takes: the
/// contractions before and after them, through at most one elementwise op.
llvm::SmallPtrSet<Operation *, 8>
getAttentionNeighbours(ArrayRef<RowChain> chains) {
  llvm::SmallPtrSet<Operation *, 8> neighbours;
  for (const RowChain &chain : chains)
    for (const RowStep &step : chain.steps) {
      auto addLinalg = [&](Operation *op) {
        if (isa_and_nonnull<linalg::LinalgOp>(op))
          neighbours.insert(op);
      };
      for (Value operand : step.op->getOperands()) {
        Operation *producer = operand.getDefiningOp();
        addLinalg(producer);
        if (producer)
          for (Value input : producer->getOperands())
            addLinalg(input.getDefiningOp());
      }
      for (Operation *user : step.op->getUsers()) {
        addLinalg(user);
        for (Operation *next : user->getUsers())
          addLinalg(next);
      }
    }
  return neighbours;
}

/// Elementwise ops over per-row values kept with trailing unit dimensions
/// (`var + eps` on N x 1 where a layer norm's variance is saved for its
/// gradient) drop them: over the rows only, they join row chains (the
/// reshapes around them fold, and chains read through the expansions).
void dropTrailingUnitLoops(RewriterBase &rewriter, func::FuncOp func) {
  SmallVector<linalg::GenericOp> candidates;
  func.walk([&](linalg::GenericOp op) {
    SmallVector<int64_t> ranges = op.getStaticLoopRanges();
    if (!op.hasPureTensorSemantics() || op.hasIndexSemantics() ||
        op.getNumParallelLoops() != op.getNumLoops() || ranges.size() < 2 ||
        ranges.back() != 1 || ShapedType::isDynamicShape(ranges) ||
        llvm::all_of(ranges, [](int64_t extent) { return extent == 1; }))
      return;
    candidates.push_back(op);
  });
  if (candidates.empty())
    return;
  linalg::ControlDropUnitDims options;
  options.controlFn = [](Operation *op) {
    SmallVector<int64_t> ranges =
        cast<linalg::LinalgOp>(op).getStaticLoopRanges();
    SmallVector<unsigned> trailing;
    for (unsigned dim = ranges.size(); dim > 0 && ranges[dim - 1] == 1; --dim)
      trailing.push_back(dim - 1);
    return trailing;
  };
  for (linalg::GenericOp op : candidates) {
    rewriter.setInsertionPoint(op);
    FailureOr<linalg::DropUnitDimsResult> dropped =
        linalg::dropUnitDims(rewriter, op, options);
    if (succeeded(dropped))
      rewriter.replaceOp(op, dropped->replacements);
  }
  // collapse(expand(x)) -> x, and the dead ops an aborted drop leaves.
  RewritePatternSet patterns(func.getContext());
  tensor::CollapseShapeOp::getCanonicalizationPatterns(patterns,
                                                       func.getContext());
  tensor::ExpandShapeOp::getCanonicalizationPatterns(patterns,
                                                     func.getContext());
  (void)applyPatternsGreedily(func, std::move(patterns));
}

struct GpuTileToBlocksPass
    : public google::impl::GpuTileToBlocksPassBase<GpuTileToBlocksPass> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func->getParentOfType<gpu::GPUModuleOp>())
      return;
    // As --google-map-to-gpu's (whose kernels the tiles must fit).
    if (tileSize < 1 || tileSize > 8) {
      func.emitError() << "google-gpu-tile-to-blocks: expected tile-size in "
                          "[1, 8], got tile-size="
                       << tileSize;
      return signalPassFailure();
    }
    IRRewriter rewriter(&getContext());
    dropTrailingUnitLoops(rewriter, func);
    SmallVector<linalg::LinalgOp> ops;
    func.walk([&](linalg::LinalgOp op) {
      if (op.hasPureTensorSemantics())
        ops.push_back(op);
    });
    llvm::SmallPtrSet<Operation *, 8> taken = getContractionFills(ops);
    SmallVector<RowChain> chains = findRowChains(ops, taken);
    // Ops of chains left alone (for the attention kernel) stay whole too.
    for (const RowChain &chain : chains)
      for (const RowStep &step : chain.steps)
        taken.insert(step.op);
    // Attentions go to one kernel each; chains of other attentions are
    // kept whole for --google-map-to-gpu to find on buffers.
    SmallVector<SmallVector<Operation *>> attentions;
    if (fusedAttention)
      for (linalg::LinalgOp op : ops) {
        if (taken.contains(op) || !getTileableContraction(op))
          continue;
        SmallVector<Operation *> attention = getTensorAttention(op, taken);
        if (attention.empty())
          continue;
        taken.insert(attention.begin(), attention.end());
        attentions.push_back(std::move(attention));
      }
    llvm::SmallPtrSet<Operation *, 16> inAttention;
    for (ArrayRef<Operation *> attention : attentions)
      inAttention.insert(attention.begin(), attention.end());
    SmallVector<RowChain> keptChains;
    for (const RowChain &chain : chains)
      if (fusedAttention && feedsContraction(chain.steps.back().op) &&
          !inAttention.contains(chain.steps.back().op))
        keptChains.push_back(chain);
    SmallVector<linalg::LinalgOp> reductions;
    for (linalg::LinalgOp op : ops)
      if (!taken.contains(op) && getRowReduction(op))
        reductions.push_back(op);
    llvm::SmallPtrSet<Operation *, 8> nearAttention =
        getAttentionNeighbours(keptChains);
    // Contractions whose kernels' blocks own tiles of C.
    ContractionChoices choices{tileSize, mmaSync, mfma,    mfmaBf16,
                               tf32,     wgmma,   warpDots};
    struct Contraction {
      linalg::LinalgOp op;
      linalg::ContractionDimensions dims;
      ContractionStrategy strategy;
    };
    SmallVector<Contraction> contractions;
    for (linalg::LinalgOp op : ops) {
      std::optional<linalg::ContractionDimensions> dims =
          getTileableContraction(op);
      if (!dims || taken.contains(op) || nearAttention.contains(op))
        continue;
      ContractionStrategy strategy =
          chooseContractionKernel(op, *dims, choices);
      if (strategy.getBlockTile())
        contractions.push_back({op, *dims, strategy});
      else
        numEpiloguesInPlace += writeEpilogueInPlace(rewriter, op, taken);
    }
    for (const RowChain &chain : chains) {
      // One row is one block already (and its views fold into casts).
      if (chain.getNumRows() <= 1 ||
          (fusedAttention && feedsContraction(chain.steps.back().op)))
        continue;
      FailureOr<bool> tiled = tileChain(rewriter, chain);
      if (failed(tiled))
        return signalPassFailure();
      numTiledChains += *tiled;
    }
    for (linalg::LinalgOp op : reductions) {
      FailureOr<bool> tiled = tileRowReduction(rewriter, op, taken);
      if (failed(tiled))
        return signalPassFailure();
      numTiledReductions += *tiled;
    }
    for (ArrayRef<Operation *> attention : attentions) {
      FailureOr<bool> tiled = tileAttention(rewriter, attention);
      if (failed(tiled))
        return signalPassFailure();
      numTiledAttentions += *tiled;
    }
    for (const Contraction &contraction : contractions) {
      FailureOr<bool> tiled =
          tileContraction(rewriter, contraction.op, contraction.dims,
                          contraction.strategy, taken);
      if (failed(tiled))
        return signalPassFailure();
      numTiledContractions += *tiled;
    }
  }
};

} // namespace
