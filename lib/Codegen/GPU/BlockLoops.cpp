//===- BlockLoops.cpp - kernels from scf.forall loops over blocks ---------===//
//
// --google-gpu-tile-to-blocks tiles kernels on tensors into scf.forall
// loops mapped to blocks; after bufferization each loop's body is a
// block's work on views of its rows. This turns such a loop into the
// kernel's gpu.launch.
//
//===----------------------------------------------------------------------===//

#include "GpuKernels.h"

#include "Codegen/Matchers.h"

#include "mlir/Dialect/SCF/Transforms/Transforms.h"

namespace mlir::google::kernels {

bool isMappedToBlocks(scf::ForallOp loop) {
  std::optional<ArrayAttr> mapping = loop.getMapping();
  return mapping && !mapping->empty() &&
         llvm::all_of(*mapping, llvm::IsaPred<gpu::GPUBlockMappingAttr>);
}

gpu::LaunchOp createLaunchFromLoop(RewriterBase &rewriter, scf::ForallOp loop,
                                   int64_t threadsX, int64_t threadsY,
                                   TypeRange shared,
                                   int64_t blocksPerIteration) {
  Location loc = loop.getLoc();
  rewriter.setInsertionPoint(loop);
  auto constant = [&](int64_t value) -> Value {
    return arith::ConstantIndexOp::create(rewriter, loc, value);
  };
  // Iterations per dimension: ceil((upper - lower) / step).
  SmallVector<OpFoldResult> lower = loop.getMixedLowerBound(),
                            upper = loop.getMixedUpperBound(),
                            steps = loop.getMixedStep();
  SmallVector<OpFoldResult> counts;
  for (auto [first, end, step] : llvm::zip(lower, upper, steps)) {
    std::optional<int64_t> knownFirst = getConstantIntValue(first),
                           knownEnd = getConstantIntValue(end),
                           knownStep = getConstantIntValue(step);
    if (knownFirst && knownEnd && knownStep) {
      counts.push_back(rewriter.getIndexAttr(llvm::divideCeil(
          std::max<int64_t>(*knownEnd - *knownFirst, 0), *knownStep)));
      continue;
    }
    Value span = getValueOrCreateConstantIndexOp(rewriter, loc, end);
    if (!knownFirst || *knownFirst != 0)
      span = arith::SubIOp::create(
          rewriter, loc, span,
          getValueOrCreateConstantIndexOp(rewriter, loc, first));
    counts.push_back(
        knownStep && *knownStep == 1
            ? span
            : arith::CeilDivSIOp::create(
                  rewriter, loc, span,
                  getValueOrCreateConstantIndexOp(rewriter, loc, step))
                  .getResult());
  }
  Value blocks;
  if (std::optional<SmallVector<int64_t>> known = getConstantIntValues(counts))
    blocks = constant(std::accumulate(known->begin(), known->end(),
                                      blocksPerIteration,
                                      std::multiplies<int64_t>()));
  else {
    for (OpFoldResult count : counts) {
      Value extent = getValueOrCreateConstantIndexOp(rewriter, loc, count);
      blocks = blocks ? arith::MulIOp::create(rewriter, loc, blocks, extent)
                      : extent;
    }
    if (blocksPerIteration > 1)
      blocks = arith::MulIOp::create(rewriter, loc, blocks,
                                     constant(blocksPerIteration));
  }
  gpu::LaunchOp launch = createLaunch(rewriter, loc, blocks, constant(threadsX),
                                      constant(threadsY), shared);
  Value iteration = launch.getBlockIds().x;
  if (blocksPerIteration > 1)
    iteration = arith::DivUIOp::create(rewriter, loc, iteration,
                                       constant(blocksPerIteration));
  SmallVector<Value> indices = *affine::delinearizeIndex(
      rewriter, loc, iteration,
      getValueOrCreateConstantIndexOp(rewriter, loc, counts));
  // The loop's induction variables: lower + index * step.
  for (auto [index, first, step] : llvm::zip(indices, lower, steps)) {
    std::optional<int64_t> knownStep = getConstantIntValue(step);
    if (!knownStep || *knownStep != 1)
      index = arith::MulIOp::create(
          rewriter, loc, index,
          getValueOrCreateConstantIndexOp(rewriter, loc, step));
    std::optional<int64_t> knownFirst = getConstantIntValue(first);
    if (!knownFirst || *knownFirst != 0)
      index = arith::AddIOp::create(
          rewriter, loc, index,
          getValueOrCreateConstantIndexOp(rewriter, loc, first));
  }
  Block *body = loop.getBody();
  rewriter.eraseOp(body->getTerminator());
  rewriter.inlineBlockBefore(body, launch.getBody().front().getTerminator(),
                             indices);
  rewriter.eraseOp(loop);
  return launch;
}

namespace {

/// The buffers allocated in `loop`'s body, when each can move out of it:
/// static, identity layout, used only by linalg ops and deallocations.
FailureOr<SmallVector<Operation *>>
getHoistableAllocations(scf::ForallOp loop) {
  SmallVector<Operation *> allocations;
  for (Operation &op : loop.getBody()->getOperations()) {
    if (!isa<memref::AllocOp, gpu::AllocOp>(op))
      continue;
    auto type = cast<MemRefType>(op.getResult(0).getType());
    if (!type.hasStaticShape() || !type.getLayout().isIdentity())
      return failure();
    for (Operation *user : op.getUsers())
      if (!isa<linalg::LinalgOp, memref::DeallocOp, gpu::DeallocOp>(user))
        return failure();
    allocations.push_back(&op);
  }
  return allocations;
}

/// Each buffer `loop` allocates per iteration becomes one buffer for all
/// iterations before it (freed after it), of which each iteration uses its
/// part: what the kernel does not keep in registers lives in device memory,
/// as it does for ops that are not tiled on tensors.
void hoistBlockAllocations(RewriterBase &rewriter, scf::ForallOp loop,
                           ArrayRef<Operation *> allocations) {
  Location loc = loop.getLoc();
  ArrayRef<int64_t> extents = loop.getStaticUpperBound();
  for (Operation *allocation : allocations) {
    auto type = cast<MemRefType>(allocation->getResult(0).getType());
    SmallVector<int64_t> shape(extents);
    llvm::append_range(shape, type.getShape());
    auto wholeType =
        MemRefType::get(shape, type.getElementType(),
                        MemRefLayoutAttrInterface(), type.getMemorySpace());
    rewriter.setInsertionPoint(loop);
    Value whole;
    if (isa<gpu::AllocOp>(allocation))
      whole =
          gpu::AllocOp::create(rewriter, loc, wholeType, Type(), ValueRange(),
                               ValueRange(), ValueRange(), UnitAttr())
              .getMemref();
    else
      whole = memref::AllocOp::create(rewriter, loc, wholeType);
    rewriter.setInsertionPoint(allocation);
    SmallVector<OpFoldResult> offsets =
        llvm::map_to_vector(loop.getInductionVars(),
                            [](Value index) -> OpFoldResult { return index; });
    SmallVector<OpFoldResult> sizes(extents.size(), rewriter.getIndexAttr(1));
    for (int64_t extent : type.getShape()) {
      offsets.push_back(rewriter.getIndexAttr(0));
      sizes.push_back(rewriter.getIndexAttr(extent));
    }
    SmallVector<OpFoldResult> strides(shape.size(), rewriter.getIndexAttr(1));
    MemRefType viewType = memref::SubViewOp::inferRankReducedResultType(
        type.getShape(), wholeType, offsets, sizes, strides);
    Value view =
        memref::SubViewOp::create(rewriter, allocation->getLoc(), viewType,
                                  whole, offsets, sizes, strides);
    for (Operation *user : llvm::to_vector(allocation->getUsers())) {
      if (!isa<memref::DeallocOp, gpu::DeallocOp>(user))
        continue;
      rewriter.setInsertionPointAfter(loop);
      IRMapping mapping;
      mapping.map(allocation->getResult(0), whole);
      rewriter.clone(*user, mapping);
      rewriter.eraseOp(user);
    }
    rewriter.replaceOp(allocation, view);
  }
}

/// Erases the views in `launch` that nothing reads any more, then the
/// buffers outside it that only deallocations use.
void eraseUnusedBuffers(RewriterBase &rewriter, gpu::LaunchOp launch) {
  SmallVector<Value> sources;
  launch.walk([&](memref::SubViewOp view) {
    if (!view->use_empty())
      return;
    sources.push_back(view.getSource());
    rewriter.eraseOp(view);
  });
  for (Value source : sources) {
    Operation *allocation = source.getDefiningOp();
    if (!isa_and_nonnull<memref::AllocOp, gpu::AllocOp>(allocation) ||
        !llvm::all_of(allocation->getUsers(),
                      llvm::IsaPred<memref::DeallocOp, gpu::DeallocOp>))
      continue;
    for (Operation *user : llvm::to_vector(allocation->getUsers()))
      rewriter.eraseOp(user);
    rewriter.eraseOp(allocation);
  }
}

/// The linalg ops of `loop`'s body, in order, if there are some and the
/// rest of the body (views, index arithmetic, buffers of its own, checks)
/// touches no memory and holds no regions.
std::optional<SmallVector<linalg::LinalgOp>>
getBodyLinalgOps(scf::ForallOp loop) {
  SmallVector<linalg::LinalgOp> ops;
  for (Operation &op : loop.getBody()->without_terminator()) {
    if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op)) {
      ops.push_back(linalgOp);
      continue;
    }
    if (op.getNumRegions() != 0 ||
        !(isMemoryEffectFree(&op) ||
          isa<memref::AllocOp, gpu::AllocOp, memref::DeallocOp, gpu::DeallocOp,
              cf::AssertOp>(op)))
      return std::nullopt;
  }
  if (ops.empty())
    return std::nullopt;
  return ops;
}

/// The row chain that makes up `loop`'s body, if one does.
std::optional<RowChain> getBodyRowChain(scf::ForallOp loop) {
  std::optional<SmallVector<linalg::LinalgOp>> ops = getBodyLinalgOps(loop);
  if (!ops)
    return std::nullopt;
  SmallVector<RowChain> chains =
      findRowChains(*ops, llvm::SmallPtrSet<Operation *, 1>());
  if (chains.size() != 1 || chains.front().steps.size() != ops->size())
    return std::nullopt;
  return std::move(chains.front());
}

/// The row reduction that makes up `loop`'s body: a fill of its output if
/// one, the reduction (each of its parallel loops of extent 1), then
/// elementwise ops on the row's values.
std::optional<BlockRowReduction> getBodyRowReduction(scf::ForallOp loop) {
  std::optional<SmallVector<linalg::LinalgOp>> ops = getBodyLinalgOps(loop);
  if (!ops)
    return std::nullopt;
  BlockRowReduction result;
  MutableArrayRef<linalg::LinalgOp> rest(*ops);
  if (auto fill = dyn_cast<linalg::FillOp>(rest.front().getOperation())) {
    result.fill = fill;
    rest = rest.drop_front();
  }
  if (rest.empty())
    return std::nullopt;
  result.reduction = rest.front();
  result.consumers.assign(rest.begin() + 1, rest.end());
  linalg::LinalgOp reduction = result.reduction;
  if (!reduction.hasPureBufferSemantics() || !getReductionCombine(reduction) ||
      (result.fill && result.fill.getDpsInitOperand(0)->get() !=
                          reduction.getDpsInitOperand(0)->get()))
    return std::nullopt;
  for (auto [range, iterator] : llvm::zip(reduction.getStaticLoopRanges(),
                                          reduction.getIteratorTypesArray()))
    if (linalg::isParallelIterator(iterator) && range != 1)
      return std::nullopt;
  for (linalg::LinalgOp consumer : result.consumers)
    if (!consumer.hasPureBufferSemantics() || consumer.hasIndexSemantics() ||
        consumer.getNumReductionLoops() != 0 ||
        llvm::any_of(consumer.getStaticLoopRanges(),
                     [](int64_t range) { return range != 1; }))
      return std::nullopt;
  return result;
}

/// The attention that makes up `loop`'s body (see matchAttention, which
/// starts at its first contraction): every linalg op of the body is one of
/// its ops.
std::optional<Attention> getBodyAttention(scf::ForallOp loop) {
  std::optional<SmallVector<linalg::LinalgOp>> ops = getBodyLinalgOps(loop);
  if (!ops)
    return std::nullopt;
  auto scores = llvm::find_if(*ops, [](linalg::LinalgOp op) {
    return getTileableContraction(op).has_value();
  });
  if (scores == ops->end())
    return std::nullopt;
  std::optional<Attention> attention = matchAttention(*scores);
  if (!attention || attention->getOps().size() != ops->size())
    return std::nullopt;
  return attention;
}

/// A contraction kernel's block of work: `op` with the fill of its
/// accumulator and the elementwise epilogue on its result, when there are.
struct BlockContraction {
  linalg::LinalgOp op;
  linalg::ContractionDimensions dims;
  linalg::FillOp fill;
  linalg::GenericOp epilogue;
  /// The buffer of the product, when the block allocates it.
  Operation *product = nullptr;
};

/// The contraction that makes up `loop`'s body, a tile of C of bounded
/// extents (one batch) per iteration: a fill of its accumulator if one,
/// the contraction, then an elementwise epilogue if one. A buffer the body
/// allocates can only be the product the epilogue reads, which the kernel
/// keeps in registers.
std::optional<BlockContraction> getBodyContraction(scf::ForallOp loop) {
  std::optional<SmallVector<linalg::LinalgOp>> ops = getBodyLinalgOps(loop);
  if (!ops)
    return std::nullopt;
  BlockContraction result;
  MutableArrayRef<linalg::LinalgOp> rest(*ops);
  if (auto fill = dyn_cast<linalg::FillOp>(rest.front().getOperation())) {
    result.fill = fill;
    rest = rest.drop_front();
  }
  if (rest.empty() || rest.size() > 2)
    return std::nullopt;
  result.op = rest.front();
  std::optional<linalg::ContractionDimensions> dims =
      getTileableContraction(result.op);
  if (!dims || !result.op.hasPureBufferSemantics())
    return std::nullopt;
  result.dims = *dims;
  Value product = result.op.getDpsInitOperand(0)->get();
  if (result.fill && (result.fill.getDpsInitOperand(0)->get() != product ||
                      !result.fill.hasPureBufferSemantics()))
    return std::nullopt;
  if (rest.size() == 2) {
    result.epilogue = dyn_cast<linalg::GenericOp>(rest.back().getOperation());
    if (!result.epilogue || !result.epilogue.hasPureBufferSemantics() ||
        !isElementwiseEpilogue(result.epilogue, product) ||
        !hasEffectFreePayload(result.epilogue) ||
        !readsOwnElementsOnly(result.epilogue, product))
      return std::nullopt;
  }
  // An iteration's tile: one batch, bounded rows and columns (a partial
  // tile's extents are bounded by the affine.min of its slice).
  auto bound = [&](unsigned dim) { return getLoopRangeBound(result.op, dim); };
  if ((!dims->batch.empty() && bound(dims->batch.front()) != 1) ||
      !bound(dims->m.front()) || !bound(dims->n.front()))
    return std::nullopt;
  for (Operation &op : loop.getBody()->without_terminator()) {
    if (!isa<memref::AllocOp, gpu::AllocOp>(op))
      continue;
    if (!result.epilogue || op.getResult(0) != product ||
        !cast<MemRefType>(product.getType()).getLayout().isIdentity() ||
        !llvm::all_of(op.getUsers(), [&](Operation *user) {
          return user == result.op.getOperation() ||
                 user == result.fill.getOperation() ||
                 user == result.epilogue.getOperation() ||
                 isa<memref::DeallocOp, gpu::DeallocOp>(user) ||
                 (isa<memref::DimOp>(user) &&
                  cast<memref::DimOp>(user).getConstantIndex());
        }))
      return std::nullopt;
    result.product = &op;
  }
  return result;
}

/// Erases `allocation` (a buffer of the kernel's block that the kernel
/// keeps in registers), its deallocation, and the reads of its extents,
/// which become the extents it was allocated with.
void eraseBlockBuffer(RewriterBase &rewriter, Operation *allocation) {
  auto type = cast<MemRefType>(allocation->getResult(0).getType());
  ValueRange sizes = isa<gpu::AllocOp>(allocation)
                         ? cast<gpu::AllocOp>(allocation).getDynamicSizes()
                         : cast<memref::AllocOp>(allocation).getDynamicSizes();
  for (Operation *user : llvm::to_vector(allocation->getUsers())) {
    auto dim = dyn_cast<memref::DimOp>(user);
    if (!dim) {
      rewriter.eraseOp(user);
      continue;
    }
    std::optional<int64_t> index = dim.getConstantIndex();
    assert(index && "a dimension the block reads of its buffer");
    rewriter.setInsertionPoint(dim);
    Value extent = type.isDynamicDim(*index)
                       ? sizes[type.getDynamicDimIndex(*index)]
                       : arith::ConstantIndexOp::create(rewriter, dim.getLoc(),
                                                        type.getDimSize(*index))
                             .getResult();
    rewriter.replaceOp(dim, extent);
  }
  rewriter.eraseOp(allocation);
}

} // namespace

namespace {

/// The buffers above `loop` of which `contraction`'s A and B are the whole
/// tiles of a kernel owning `blockTile` x `blockTile` tiles of C: its rows
/// and columns have that static extent, K is static, and each input is a
/// buffer defined above the loop or a view of one made in the body, the
/// buffer static and without offset. After tiling with steps of the
/// kernel's tile (see --google-gpu-tile-to-blocks), the views then start
/// where a whole-op kernel's tiles would.
std::optional<SmallVector<Value>>
getWholeTileInputs(scf::ForallOp loop, const BlockContraction &contraction,
                   int64_t blockTile) {
  linalg::LinalgOp op = contraction.op;
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  if (ranges[contraction.dims.m.front()] != blockTile ||
      ranges[contraction.dims.n.front()] != blockTile ||
      ShapedType::isDynamic(ranges[contraction.dims.k.front()]))
    return std::nullopt;
  SmallVector<Value> buffers;
  for (OpOperand *input : op.getDpsInputOperands()) {
    Value buffer = input->get();
    if (auto view = buffer.getDefiningOp<memref::SubViewOp>();
        view && !loop.isDefinedOutsideOfLoop(buffer)) {
      if (view.getSourceType().getRank() != view.getType().getRank() ||
          !llvm::all_of(view.getStaticStrides(),
                        [](int64_t stride) { return stride == 1; }))
        return std::nullopt;
      buffer = view.getSource();
    }
    auto type = dyn_cast<MemRefType>(buffer.getType());
    if (!loop.isDefinedOutsideOfLoop(buffer) || !type ||
        !type.hasStaticShape() || !type.getLayout().isIdentity())
      return std::nullopt;
    buffers.push_back(buffer);
  }
  return buffers;
}

/// Builds the kernel `strategy` names for `loop`'s body, `contraction`.
void lowerContractionLoop(RewriterBase &rewriter, scf::ForallOp loop,
                          const BlockContraction &contraction,
                          const ContractionStrategy &strategy,
                          const BlockKernelOptions &options) {
  lowerContractionToBlocks(rewriter, strategy, contraction.op, contraction.dims,
                           contraction.fill, contraction.epilogue,
                           options.mmaSync, ContractionBlocks{loop});
  if (contraction.product)
    eraseBlockBuffer(rewriter, contraction.product);
}

} // namespace

FailureOr<int64_t> lowerBlockLoop(RewriterBase &rewriter, scf::ForallOp loop,
                                  const BlockKernelOptions &options) {
  if (options.fusedAttention)
    if (std::optional<Attention> attention = getBodyAttention(loop)) {
      lowerAttentionToBlocks(rewriter, *attention, loop);
      return 1;
    }
  if (std::optional<BlockContraction> contraction = getBodyContraction(loop)) {
    ContractionStrategy sharedTiles{ContractionKernel::SharedTiles,
                                    options.tileSize};
    std::optional<ContractionStrategy> strategy =
        getRecordedContractionKernel(contraction->op);
    if (!strategy || !strategy->getBlockTile())
      strategy = sharedTiles;
    std::optional<SmallVector<Value>> inputs;
    if (strategy->needsAlignedInputs())
      inputs = getWholeTileInputs(loop, *contraction, strategy->getBlockTile());
    if (!inputs) {
      lowerContractionLoop(
          rewriter, loop, *contraction,
          strategy->needsAlignedInputs() ? sharedTiles : *strategy, options);
      return 1;
    }
    // The kernel reading vectors when A and B are aligned at run time, a
    // shared-tile kernel otherwise.
    Location loc = loop.getLoc();
    rewriter.setInsertionPoint(loop);
    Value aligned = createAlignmentCheck(rewriter, loc, *inputs);
    auto branch =
        scf::IfOp::create(rewriter, loc, aligned, /*withElseRegion=*/true);
    rewriter.setInsertionPoint(branch.thenBlock()->getTerminator());
    auto alignedLoop = cast<scf::ForallOp>(rewriter.clone(*loop));
    rewriter.moveOpBefore(loop, branch.elseBlock()->getTerminator());
    std::optional<BlockContraction> alignedContraction =
        getBodyContraction(alignedLoop);
    assert(alignedContraction && "a copy of a contraction loop");
    lowerContractionLoop(rewriter, alignedLoop, *alignedContraction, *strategy,
                         options);
    lowerContractionLoop(rewriter, loop, *contraction, sharedTiles, options);
    return 2;
  }
  if (!loop.isNormalized())
    return failure();
  FailureOr<SmallVector<Operation *>> allocations =
      getHoistableAllocations(loop);
  if (failed(allocations))
    return failure();
  std::optional<BlockRowReduction> reduction = getBodyRowReduction(loop);
  // The row's values, which thread 0 alone accesses, are few.
  if (reduction && llvm::all_of(*allocations, [&](Operation *allocation) {
        auto type = cast<MemRefType>(allocation->getResult(0).getType());
        return type.getNumElements() <= kMaxRowValues &&
               reduction->reduction.getDpsInputOperand(0)->get() !=
                   allocation->getResult(0);
      })) {
    reduction->buffers = std::move(*allocations);
    lowerRowReductionLoopToBlocks(rewriter, loop, *reduction);
    return 1;
  }
  std::optional<RowChain> chain = getBodyRowChain(loop);
  if (!chain || ShapedType::isDynamicShape(loop.getStaticUpperBound()))
    return failure();
  hoistBlockAllocations(rewriter, loop, *allocations);
  gpu::LaunchOp launch =
      lowerRowChainLoopToBlocks(rewriter, loop, *chain, options.warpShuffles);
  eraseUnusedBuffers(rewriter, launch);
  return 1;
}

} // namespace mlir::google::kernels
