//===- ElementwiseRuns.cpp - Consecutive elementwise ops as one kernel ----===//

#include "GpuKernels.h"

#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

namespace mlir::google::kernels {

namespace {

/// Whether `op` can join a run: elementwise on buffers over static loops,
/// writing each result at its loops' element.
bool isRunnable(linalg::LinalgOp op) {
  auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
  if (!generic || !generic.hasPureBufferSemantics() ||
      generic.getNumLoops() == 0 ||
      generic.getNumParallelLoops() != generic.getNumLoops() ||
      ShapedType::isDynamicShape(generic.getStaticLoopRanges()))
    return false;
  if (!hasEffectFreePayload(generic))
    return false;
  return llvm::all_of(generic.getDpsInitsMutable(), [&](OpOperand &init) {
    return generic.getMatchingIndexingMap(&init).isIdentity();
  });
}

/// Whether nothing between `first` and `second` (same block) touches
/// memory: the run's writes can all happen at `second`.
bool onlyEffectFreeBetween(Operation *first, Operation *second) {
  for (Operation *op = first->getNextNode(); op && op != second;
       op = op->getNextNode())
    if (!isMemoryEffectFree(op) &&
        !isa<memref::AllocOp, gpu::AllocOp, cf::AssertOp>(op))
      return false;
  return true;
}

/// Whether a thread per element can run `run` (with `next` appended when
/// given) in program order: every buffer the run writes is accessed in it
/// only at the thread's element (the very value written, an identity
/// map), and every memref operand views a known buffer.
bool isElementLocal(ArrayRef<linalg::GenericOp> run, linalg::GenericOp next) {
  SmallVector<linalg::GenericOp> ops(run);
  if (next)
    ops.push_back(next);
  // Each written buffer through one value: two views of one buffer could
  // overlap at different elements.
  llvm::SmallDenseSet<Value> written;
  DenseMap<Value, Value> writtenRoots;
  for (linalg::GenericOp op : ops)
    for (Value init : op.getDpsInits()) {
      Value root = getBufferRoot(init);
      if (!root)
        return false;
      auto [entry, inserted] = writtenRoots.try_emplace(root, init);
      if (!inserted && entry->second != init)
        return false;
      written.insert(init);
    }
  for (linalg::GenericOp op : ops)
    for (OpOperand &operand : op->getOpOperands()) {
      if (!isa<MemRefType>(operand.get().getType()))
        continue;
      Value root = getBufferRoot(operand.get());
      if (!root)
        return false;
      if (writtenRoots.contains(root) &&
          (!written.contains(operand.get()) ||
           !op.getMatchingIndexingMap(&operand).isIdentity()))
        return false;
    }
  return true;
}

} // namespace

SmallVector<SmallVector<linalg::GenericOp>>
findElementwiseRuns(ArrayRef<linalg::LinalgOp> ops,
                    const llvm::SmallPtrSetImpl<Operation *> &taken) {
  SmallVector<SmallVector<linalg::GenericOp>> runs;
  SmallVector<linalg::GenericOp> run;
  auto flush = [&] {
    if (run.size() > 1)
      runs.push_back(run);
    run.clear();
  };
  for (linalg::LinalgOp op : ops) {
    if (taken.contains(op) || !isRunnable(op)) {
      flush();
      continue;
    }
    auto generic = cast<linalg::GenericOp>(op.getOperation());
    if (!run.empty()) {
      linalg::GenericOp last = run.back();
      if (last->getBlock() != generic->getBlock() ||
          last.getStaticLoopRanges() != generic.getStaticLoopRanges() ||
          !onlyEffectFreeBetween(last, generic) ||
          !isElementLocal(run, generic))
        flush();
    }
    if (run.empty() && !isElementLocal({}, generic))
      continue;
    run.push_back(generic);
  }
  flush();
  return runs;
}

linalg::GenericOp fuseElementwiseRun(RewriterBase &rewriter,
                                     ArrayRef<linalg::GenericOp> run) {
  linalg::GenericOp last = run.back();
  MLIRContext *context = last.getContext();
  Location loc = last.getLoc();
  unsigned numLoops = last.getNumLoops();
  AffineMap identity = AffineMap::getMultiDimIdentityMap(numLoops, context);

  // What the run reads from memory (each buffer and map once), what it
  // writes (each buffer once, its last value; buffers only the run uses
  // are not written at all).
  SmallVector<std::pair<Value, AffineMap>> reads;
  SmallVector<Value> writes;
  llvm::SmallDenseSet<Value> written;
  SmallVector<Operation *> runOps(run.begin(), run.end());
  for (linalg::GenericOp op : run) {
    for (OpOperand &operand : op->getOpOperands()) {
      bool isInit = op.isDpsInit(&operand);
      if (isInit && !op.payloadUsesValueFromOperand(&operand))
        continue;
      if (written.contains(operand.get()))
        continue;
      std::pair<Value, AffineMap> read{operand.get(),
                                       op.getMatchingIndexingMap(&operand)};
      if (!llvm::is_contained(reads, read))
        reads.push_back(read);
    }
    for (Value init : op.getDpsInits()) {
      written.insert(init);
      if (!llvm::is_contained(writes, init) && !isOnlyUsedBy(init, runOps))
        writes.push_back(init);
    }
  }

  if (writes.empty()) {
    SmallVector<Value> buffers(written.begin(), written.end());
    for (linalg::GenericOp op : llvm::reverse(run))
      rewriter.eraseOp(op);
    for (Value buffer : buffers)
      if (isOnlyUsedBy(buffer, {}))
        eraseAllocation(rewriter, buffer);
    return nullptr;
  }
  rewriter.setInsertionPoint(last);
  SmallVector<Value> inputs = llvm::map_to_vector(
      reads, [](const auto &read) -> Value { return read.first; });
  SmallVector<AffineMap> maps =
      llvm::map_to_vector(reads, [](const auto &read) { return read.second; });
  maps.append(writes.size(), identity);
  auto fused = linalg::GenericOp::create(
      rewriter, loc, TypeRange(), inputs, writes, maps,
      SmallVector<utils::IteratorType>(numLoops,
                                       utils::IteratorType::parallel));
  SmallVector<Type> argTypes;
  SmallVector<Location> argLocs;
  for (Value value : llvm::concat<Value>(inputs, writes)) {
    argTypes.push_back(getElementTypeOrSelf(value.getType()));
    argLocs.push_back(loc);
  }
  Block *body = rewriter.createBlock(&fused.getRegion(), {}, argTypes, argLocs);
  rewriter.setInsertionPointToStart(body);

  // Each op's payload in turn, its operands the block's arguments or the
  // values computed before it.
  DenseMap<Value, Value> current;
  for (linalg::GenericOp op : run) {
    IRMapping mapping;
    for (OpOperand &operand : op->getOpOperands()) {
      Value arg = op.getMatchingBlockArgument(&operand);
      if (Value value = current.lookup(operand.get())) {
        mapping.map(arg, value);
        continue;
      }
      auto *read = llvm::find(
          reads,
          std::make_pair(operand.get(), op.getMatchingIndexingMap(&operand)));
      if (read != reads.end())
        mapping.map(arg, body->getArgument(read - reads.begin()));
    }
    for (Operation &nested : op.getBlock()->without_terminator())
      rewriter.clone(nested, mapping);
    auto yield = cast<linalg::YieldOp>(op.getBlock()->getTerminator());
    for (auto [init, value] : llvm::zip(op.getDpsInits(), yield.getValues()))
      current[init] = mapping.lookupOrDefault(value);
  }
  SmallVector<Value> results =
      llvm::map_to_vector(writes, [&](Value init) { return current[init]; });
  linalg::YieldOp::create(rewriter, loc, results);

  SmallVector<Value> buffers(written.begin(), written.end());
  for (linalg::GenericOp op : llvm::reverse(run))
    rewriter.eraseOp(op);
  for (Value buffer : buffers)
    if (!llvm::is_contained(writes, buffer) && isOnlyUsedBy(buffer, {}))
      eraseAllocation(rewriter, buffer);
  return fused;
}

} // namespace mlir::google::kernels
