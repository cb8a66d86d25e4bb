//===- CopiesIntoStores.cpp - permuted copies as the writer's stores ------===//
//
// Attention splits a matmul's result into heads: reshape, then transpose
// (0, 2, 1, 3) into a buffer of its own, and back after it. Each such copy
// was a kernel of its own, one pass over the result. Where the kernels
// that wrote the copied buffer only store into it, they store each element
// where the copy would put it instead.
//
//===----------------------------------------------------------------------===//

#include "GpuKernels.h"

#include "mlir/IR/Dominance.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

namespace mlir::google::kernels {

namespace {

/// A copy of `input` into `output` that puts input element v at output
/// element o, o[outputDimOf[k]] = v[k].
struct PermutedCopy {
  Value input, output;
  SmallVector<unsigned> outputDimOf;
};

/// `op` as a permuted copy: a linalg.copy or linalg.transpose, or a
/// linalg.generic that yields its one input read through a permutation
/// and writes its output at the loops' element. Its innermost dimension
/// stays innermost, so that the writer's stores stay as coalesced.
std::optional<PermutedCopy> matchPermutedCopy(linalg::LinalgOp op) {
  if (!op.hasPureBufferSemantics() || op.getNumDpsInputs() != 1 ||
      op.getNumDpsInits() != 1)
    return std::nullopt;
  PermutedCopy copy{
      op.getDpsInputOperand(0)->get(), op.getDpsInitOperand(0)->get(), {}};
  auto inputType = dyn_cast<MemRefType>(copy.input.getType());
  auto outputType = dyn_cast<MemRefType>(copy.output.getType());
  if (!inputType || !outputType || inputType.getRank() == 0 ||
      inputType.getRank() != outputType.getRank() ||
      inputType.getElementType() != outputType.getElementType())
    return std::nullopt;
  unsigned rank = inputType.getRank();
  if (isa<linalg::CopyOp>(op)) {
    copy.outputDimOf = llvm::to_vector(llvm::seq<unsigned>(0, rank));
  } else if (auto transpose =
                 dyn_cast<linalg::TransposeOp>(op.getOperation())) {
    // Output dimension i is input dimension permutation[i].
    copy.outputDimOf.assign(rank, 0);
    for (auto [i, inputDim] : llvm::enumerate(transpose.getPermutation()))
      copy.outputDimOf[inputDim] = i;
  } else if (auto generic = dyn_cast<linalg::GenericOp>(op.getOperation())) {
    AffineMap inputMap =
        generic.getMatchingIndexingMap(generic.getDpsInputOperand(0));
    auto yield = cast<linalg::YieldOp>(generic.getBody()->getTerminator());
    if (generic.getNumParallelLoops() != rank ||
        generic.getNumLoops() != rank || !inputMap.isPermutation() ||
        !generic.getMatchingIndexingMap(generic.getDpsInitOperand(0))
             .isIdentity() ||
        &generic.getBody()->front() != yield.getOperation() ||
        yield.getValues().front() != generic.getBody()->getArgument(0))
      return std::nullopt;
    for (unsigned k = 0; k < rank; ++k)
      copy.outputDimOf.push_back(inputMap.getDimPosition(k));
  } else {
    return std::nullopt;
  }
  if (copy.outputDimOf.back() != rank - 1)
    return std::nullopt;
  return copy;
}

/// The reshapes (memref.expand_shape, memref.collapse_shape) from a static
/// row-major allocation to `value`, first to last, each used only by the
/// next (or, the last, by `user`); the allocation is `source`.
std::optional<SmallVector<Operation *>>
getReshapes(Value value, Operation *user, Value &source) {
  SmallVector<Operation *> reshapes;
  Operation *next = user;
  while (isa_and_nonnull<memref::ExpandShapeOp, memref::CollapseShapeOp>(
      value.getDefiningOp())) {
    if (!llvm::all_of(value.getUsers(),
                      [&](Operation *use) { return use == next; }))
      return std::nullopt;
    next = value.getDefiningOp();
    reshapes.push_back(next);
    value = next->getOperand(0);
  }
  auto type = dyn_cast<MemRefType>(value.getType());
  if (!value.getDefiningOp<gpu::AllocOp>() &&
      !value.getDefiningOp<memref::AllocOp>())
    return std::nullopt;
  if (!type || !type.hasStaticShape() || !type.getLayout().isIdentity())
    return std::nullopt;
  source = value;
  std::reverse(reshapes.begin(), reshapes.end());
  return reshapes;
}

/// The kernel `op` runs in: its gpu.launch, or the outermost scf.parallel
/// mapped to the GPU (which becomes a launch at the end of
/// --google-map-to-gpu); null on the host.
Operation *getEnclosingKernel(Operation *op) {
  if (auto launch = op->getParentOfType<gpu::LaunchOp>())
    return launch;
  Operation *kernel = nullptr;
  for (auto loop = op->getParentOfType<scf::ParallelOp>(); loop;
       loop = loop->getParentOfType<scf::ParallelOp>())
    if (loop->hasAttr(gpu::getMappingAttrName()))
      kernel = loop;
  return kernel;
}

/// The stores into `buffer` that kernels make: memref.store into it, or
/// into a rank-preserving, unit-stride memref.subview of it made in the
/// kernel. Fails if anything else in a kernel uses it but loads whose
/// values nothing uses (loops over an op's output load it even where its
/// payload ignores it), which go into `deadLoads`.
bool collectKernelStores(Value buffer, SmallVectorImpl<memref::StoreOp> &stores,
                         SmallVectorImpl<memref::SubViewOp> &subviews,
                         SmallVectorImpl<memref::LoadOp> &deadLoads) {
  auto collectStore = [&](OpOperand &use, Value memref) {
    if (auto load = dyn_cast<memref::LoadOp>(use.getOwner());
        load && load.getResult().use_empty()) {
      deadLoads.push_back(load);
      return true;
    }
    auto store = dyn_cast<memref::StoreOp>(use.getOwner());
    if (!store || store.getMemRef() != memref)
      return false;
    stores.push_back(store);
    return true;
  };
  for (OpOperand &use : buffer.getUses()) {
    Operation *user = use.getOwner();
    if (!getEnclosingKernel(user))
      continue;
    if (collectStore(use, buffer))
      continue;
    auto subview = dyn_cast<memref::SubViewOp>(user);
    if (!subview ||
        subview.getSourceType().getRank() != subview.getType().getRank() ||
        !llvm::all_of(subview.getStaticStrides(),
                      [](int64_t stride) { return stride == 1; }))
      return false;
    for (OpOperand &subviewUse : subview->getUses())
      if (!collectStore(subviewUse, subview.getResult()))
        return false;
    subviews.push_back(subview);
  }
  return true;
}

/// `indices` into the source of `reshape` as indices into its result
/// (row-major: an expansion splits each index, a collapse joins them; a
/// 0-d source expands to unit dimensions, all at 0).
SmallVector<Value> reshapeIndices(IndexBuilder &b, Operation *reshape,
                                  ArrayRef<Value> indices) {
  SmallVector<Value> result;
  if (auto expand = dyn_cast<memref::ExpandShapeOp>(reshape)) {
    ArrayRef<int64_t> shape = expand.getResultType().getShape();
    if (expand.getSrcType().getRank() == 0)
      return SmallVector<Value>(shape.size(), b.constant(0));
    for (auto [index, group] :
         llvm::zip(indices, expand.getReassociationIndices())) {
      SmallVector<Value> parts(group.size());
      Value rest = index;
      for (size_t i = group.size(); i-- > 1;) {
        parts[i] = b.rem(rest, shape[group[i]]);
        rest = b.div(rest, shape[group[i]]);
      }
      parts[0] = rest;
      llvm::append_range(result, parts);
    }
    return result;
  }
  auto collapse = cast<memref::CollapseShapeOp>(reshape);
  ArrayRef<int64_t> shape = collapse.getSrcType().getShape();
  for (const ReassociationIndices &group : collapse.getReassociationIndices()) {
    Value joined = indices[group.front()];
    for (int64_t dim : ArrayRef(group).drop_front())
      joined = b.add(b.mul(joined, shape[dim]), indices[dim]);
    result.push_back(joined);
  }
  return result;
}

/// Moves the ops defining `value` (views of an allocation, the
/// allocation) before `point` where they are not already; fails (moving
/// nothing) unless their other operands dominate `point`.
bool defineBefore(Value value, Operation *point, DominanceInfo &dominance) {
  SmallVector<Operation *> definers;
  while (Operation *definer = value.getDefiningOp()) {
    if (dominance.properlyDominates(definer, point))
      break;
    if (definer->getBlock() != point->getBlock() ||
        !(isa<ViewLikeOpInterface>(definer) ||
          isa<gpu::AllocOp, memref::AllocOp>(definer)) ||
        definer->getNumRegions() != 0)
      return false;
    definers.push_back(definer);
    auto view = dyn_cast<ViewLikeOpInterface>(definer);
    Value source = view ? view.getViewSource() : Value();
    for (Value operand : definer->getOperands())
      if (operand != source && !dominance.properlyDominates(operand, point))
        return false;
    if (!source)
      break;
    value = source;
  }
  for (Operation *definer : llvm::reverse(definers))
    definer->moveBefore(point);
  return true;
}

} // namespace

bool foldCopyIntoWriterStores(RewriterBase &rewriter, linalg::LinalgOp op) {
  std::optional<PermutedCopy> copy = matchPermutedCopy(op);
  if (!copy)
    return false;
  Value source;
  std::optional<SmallVector<Operation *>> reshapes =
      getReshapes(copy->input, op, source);
  if (!reshapes)
    return false;
  Operation *firstReshape = reshapes->empty() ? op : reshapes->front();
  SmallVector<memref::StoreOp> stores;
  SmallVector<memref::SubViewOp> subviews;
  SmallVector<memref::LoadOp> deadLoads;
  if (!collectKernelStores(source, stores, subviews, deadLoads) ||
      stores.empty())
    return false;

  // Everything else using the buffer: the copy's reshapes, deallocations.
  Block *block = op->getBlock();
  llvm::SmallPtrSet<Operation *, 4> writers;
  for (Operation *user : source.getUsers()) {
    if (user == firstReshape || isa<memref::DeallocOp, gpu::DeallocOp>(user))
      continue;
    Operation *kernel = getEnclosingKernel(user);
    Operation *writer =
        kernel ? block->findAncestorOpInBlock(*kernel) : nullptr;
    if (!writer || !writer->isBeforeInBlock(op))
      return false;
    writers.insert(writer);
  }
  for (Operation *user : source.getUsers())
    if (isa<memref::DeallocOp, gpu::DeallocOp>(user) &&
        (user->getBlock() != block || user->isBeforeInBlock(op)))
      return false;

  // The writers' stores into the output happen where they are, so nothing
  // from the first writer on may access the output (the writers included),
  // or else the one writer moves down to the copy, past ops that neither
  // access what it writes nor write what it reads.
  Value outputRoot = getBufferRoot(copy->output);
  if (!outputRoot)
    return false;
  Operation *firstWriter =
      *llvm::min_element(writers, [](Operation *a, Operation *b) {
        return a->isBeforeInBlock(b);
      });
  llvm::SmallPtrSet<Operation *, 4> outputDefiners;
  for (Value value = copy->output;
       Operation *definer = value.getDefiningOp();) {
    outputDefiners.insert(definer);
    auto view = dyn_cast<ViewLikeOpInterface>(definer);
    if (!view)
      break;
    value = view.getViewSource();
  }
  auto isPartOfCopy = [&](Operation *between) {
    return outputDefiners.contains(between) ||
           llvm::is_contained(*reshapes, between);
  };
  bool outputUntouched = true;
  for (Operation *between = firstWriter; between != op;
       between = between->getNextNode())
    if (!isPartOfCopy(between) && BufferAccesses(between).touches(outputRoot))
      outputUntouched = false;
  if (!outputUntouched) {
    BufferAccesses writer(firstWriter);
    if (writers.size() != 1 || firstWriter->getNumResults() != 0 ||
        writer.touches(outputRoot))
      return false;
    for (Operation *between = firstWriter->getNextNode(); between != op;
         between = between->getNextNode())
      if (!isPartOfCopy(between) && BufferAccesses(between).dependsOn(writer))
        return false;
    firstWriter->moveBefore(op);
  }
  DominanceInfo dominance(op->getParentOp());
  if (!defineBefore(copy->output, firstWriter, dominance))
    return false;

  for (memref::StoreOp store : stores) {
    rewriter.setInsertionPoint(store);
    IndexBuilder b{rewriter, store.getLoc()};
    SmallVector<Value> indices(store.getIndices());
    if (auto subview = store.getMemRef().getDefiningOp<memref::SubViewOp>()) {
      for (auto [index, offset] : llvm::zip(indices, subview.getMixedOffsets()))
        index = b.add(
            getValueOrCreateConstantIndexOp(rewriter, store.getLoc(), offset),
            index);
    }
    for (Operation *reshape : *reshapes)
      indices = reshapeIndices(b, reshape, indices);
    SmallVector<Value> outputIndices(indices.size());
    for (auto [k, index] : llvm::enumerate(indices))
      outputIndices[copy->outputDimOf[k]] = index;
    rewriter.replaceOpWithNewOp<memref::StoreOp>(store, store.getValue(),
                                                 copy->output, outputIndices);
  }
  for (memref::LoadOp load : deadLoads)
    rewriter.eraseOp(load);
  for (memref::SubViewOp subview : subviews)
    rewriter.eraseOp(subview);
  rewriter.eraseOp(op);
  for (Operation *reshape : llvm::reverse(*reshapes))
    rewriter.eraseOp(reshape);
  eraseAllocation(rewriter, source);
  return true;
}

} // namespace mlir::google::kernels
