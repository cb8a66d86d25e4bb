//===- HoistEpilogues.cpp - --google-gpu-hoist-epilogues ------------------===//

#include "Codegen/GPU/Passes.h"

#include "GpuKernels.h"

#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "mlir/Transforms/RegionUtils.h"

namespace mlir::google {
#define GEN_PASS_DEF_GPUHOISTEPILOGUESPASS
#include "Codegen/GPU/Passes.h.inc"
} // namespace mlir::google

using namespace mlir;
using namespace mlir::google;
using Accesses = kernels::BufferAccesses;

namespace {

/// Whether `op` is elementwise on buffers.
bool isElementwiseOnBuffers(linalg::GenericOp op) {
  return op.hasPureBufferSemantics() &&
         op.getNumParallelLoops() == op.getNumLoops() &&
         !op->getParentOfType<gpu::LaunchOp>();
}

/// Whether `producer` is a contraction whose kernel --google-map-to-gpu
/// builds from the linalg op itself (split K, register tiles: not a block
/// loop), which then takes in the elementwise op after it.
bool isUntiledContraction(Operation *producer) {
  auto contraction = dyn_cast<linalg::LinalgOp>(producer);
  return contraction && contraction.hasPureBufferSemantics() &&
         kernels::getTileableContraction(contraction);
}

/// Moves `op` up to just after the last op of its block it depends on, with
/// the ops defining its operands in between; whether it moved. It moves
/// when nothing after it reads its results (moving it away from what
/// follows cannot part it from a consumer that would take it in), or when
/// it becomes the epilogue of the contraction it moves after (which takes
/// it in: a kernel less whatever reads it).
bool hoist(linalg::GenericOp op) {
  Accesses accesses(op);
  if (accesses.unknown)
    return false;
  bool readLater = false;
  for (Operation *after = op->getNextNode(); after && !readLater;
       after = after->getNextNode()) {
    Accesses later(after);
    readLater = later.unknown || later.readsAny(accesses.writes);
  }
  Operation *producer = op->getPrevNode();
  for (; producer; producer = producer->getPrevNode())
    if (Accesses(producer).dependsOn(accesses))
      break;
  if (!producer || producer->getNextNode() == op)
    return false;
  // Nothing to fuse with an op of unknown effects; an op just after the
  // producer that reads what it writes is the producer's own epilogue:
  // keep it there.
  Accesses producerAccesses(producer);
  Accesses nextAccesses(producer->getNextNode());
  if (producerAccesses.unknown || nextAccesses.unknown ||
      nextAccesses.readsAny(producerAccesses.writes))
    return false;
  if (readLater && !isUntiledContraction(producer))
    return false;

  // The ops between the two that define values `op` uses move along
  // (effect-free ones and allocations), in their order.
  llvm::SetVector<Operation *> moved;
  SmallVector<Value> worklist;
  auto addUses = [&](Operation *user) {
    llvm::append_range(worklist, user->getOperands());
    llvm::SetVector<Value> captured;
    getUsedValuesDefinedAbove(user->getRegions(), captured);
    llvm::append_range(worklist, captured);
  };
  addUses(op);
  while (!worklist.empty()) {
    Operation *definer = worklist.pop_back_val().getDefiningOp();
    if (!definer || definer->getBlock() != op->getBlock() ||
        definer->isBeforeInBlock(producer) || definer == producer ||
        moved.contains(definer))
      continue;
    if (!isMemoryEffectFree(definer) &&
        !isa<memref::AllocOp, gpu::AllocOp>(definer))
      return false;
    moved.insert(definer);
    addUses(definer);
  }
  SmallVector<Operation *> ordered(moved.begin(), moved.end());
  llvm::sort(ordered,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  ordered.push_back(op);
  // Where each was, to put it back.
  SmallVector<Operation *> nextNodes = llvm::map_to_vector(
      ordered, [](Operation *moving) { return moving->getNextNode(); });
  Operation *insertAfter = producer;
  for (Operation *moving : ordered) {
    moving->moveAfter(insertAfter);
    insertAfter = moving;
  }
  if (readLater &&
      kernels::getFusableEpilogue(cast<linalg::LinalgOp>(producer)) != op) {
    for (auto [moving, next] :
         llvm::reverse(llvm::zip_equal(ordered, nextNodes)))
      moving->moveBefore(next);
    return false;
  }
  return true;
}

struct GpuHoistEpiloguesPass
    : public google::impl::GpuHoistEpiloguesPassBase<GpuHoistEpiloguesPass> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func->getParentOfType<gpu::GPUModuleOp>())
      return;
    SmallVector<linalg::GenericOp> candidates;
    func.walk([&](linalg::GenericOp op) {
      if (isElementwiseOnBuffers(op))
        candidates.push_back(op);
    });
    for (linalg::GenericOp op : candidates)
      if (hoist(op))
        ++numHoisted;
  }
};

} // namespace
