//===- BlockLoops.cpp - kernels from scf.forall loops over blocks ---------===//
//
// --google-gpu-tile-to-blocks tiles kernels on tensors into scf.forall
// loops mapped to blocks; after bufferization each loop's body is a
// block's work on views of its rows. This turns such a loop into the
// kernel's gpu.launch.
//
//===----------------------------------------------------------------------===//

#include "GpuKernels.h"

#include "mlir/Dialect/SCF/Transforms/Transforms.h"

namespace mlir::google::kernels {

bool isMappedToBlocks(scf::ForallOp loop) {
  std::optional<ArrayAttr> mapping = loop.getMapping();
  return mapping && !mapping->empty() &&
         llvm::all_of(*mapping, llvm::IsaPred<gpu::GPUBlockMappingAttr>);
}

gpu::LaunchOp createLaunchFromLoop(RewriterBase &rewriter, scf::ForallOp loop,
                                   int64_t threads, TypeRange shared) {
  Location loc = loop.getLoc();
  rewriter.setInsertionPoint(loop);
  auto constant = [&](int64_t value) -> Value {
    return arith::ConstantIndexOp::create(rewriter, loc, value);
  };
  ArrayRef<int64_t> extents = loop.getStaticUpperBound();
  int64_t blocks = std::accumulate(extents.begin(), extents.end(), int64_t(1),
                                   std::multiplies<int64_t>());
  gpu::LaunchOp launch = createLaunch(rewriter, loc, constant(blocks),
                                      constant(threads), constant(1), shared);
  SmallVector<Value> extentValues = llvm::map_to_vector(extents, constant);
  SmallVector<Value> indices = *affine::delinearizeIndex(
      rewriter, loc, launch.getBlockIds().x, extentValues);
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

/// The row chain that makes up `loop`'s body, if one does.
std::optional<RowChain> getBodyRowChain(scf::ForallOp loop) {
  SmallVector<linalg::LinalgOp> ops;
  bool nested = false;
  loop.getBody()->walk([&](linalg::LinalgOp op) {
    if (op->getBlock() != loop.getBody())
      nested = true;
    ops.push_back(op);
  });
  if (nested || ops.empty())
    return std::nullopt;
  SmallVector<RowChain> chains =
      findRowChains(ops, llvm::SmallPtrSet<Operation *, 1>());
  if (chains.size() != 1 || chains.front().steps.size() != ops.size())
    return std::nullopt;
  return std::move(chains.front());
}

} // namespace

FailureOr<gpu::LaunchOp> lowerBlockLoop(RewriterBase &rewriter,
                                        scf::ForallOp loop, bool warpShuffles) {
  if (!loop.isNormalized() ||
      ShapedType::isDynamicShape(loop.getStaticUpperBound()))
    return failure();
  std::optional<RowChain> chain = getBodyRowChain(loop);
  FailureOr<SmallVector<Operation *>> allocations =
      getHoistableAllocations(loop);
  if (!chain || failed(allocations))
    return failure();
  hoistBlockAllocations(rewriter, loop, *allocations);
  gpu::LaunchOp launch =
      lowerRowChainLoopToBlocks(rewriter, loop, *chain, warpShuffles);
  eraseUnusedBuffers(rewriter, launch);
  return launch;
}

} // namespace mlir::google::kernels
