//===- BufferAccesses.cpp - which buffers an op reads and writes ----------===//

#include "GpuKernels.h"

#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"

namespace mlir::google::kernels {

namespace {

/// Whether `value` is defined inside `op` (a kernel's own workgroup
/// buffers, a payload's scalars).
bool isDefinedIn(Value value, Operation *op) {
  Region *region = value.getParentRegion();
  return region && op->isAncestor(region->getParentOp());
}

} // namespace

BufferAccesses::BufferAccesses(Operation *op) {
  op->walk([&](Operation *nested) {
    // A failing check ends the call: what ran before it does not matter.
    if (isa<cf::AssertOp>(nested))
      return;
    auto interface = dyn_cast<MemoryEffectOpInterface>(nested);
    if (!interface) {
      // Its nested ops say what it does (they are walked too); an op in a
      // kernel that uses nothing from outside `op` (a barrier) touches
      // none of the buffers `op` is ordered against; else nothing says.
      if (nested->hasTrait<OpTrait::HasRecursiveMemoryEffects>() ||
          (nested != op &&
           llvm::all_of(nested->getOperands(), [&](Value operand) {
             return isDefinedIn(operand, op);
           })))
        return;
      unknown = true;
      return;
    }
    SmallVector<MemoryEffects::EffectInstance> effects;
    interface.getEffects(effects);
    for (const MemoryEffects::EffectInstance &effect : effects) {
      // A new buffer aliases nothing the op is ordered against, nor do
      // buffers of its own.
      if (isa<MemoryEffects::Allocate>(effect.getEffect()) ||
          (effect.getValue() && nested != op &&
           isDefinedIn(effect.getValue(), op) &&
           !getBufferRoot(effect.getValue())))
        continue;
      Value root =
          effect.getValue() ? getBufferRoot(effect.getValue()) : Value();
      if (!root)
        unknown = true;
      else if (isa<MemoryEffects::Read>(effect.getEffect()))
        reads.insert(root);
      else
        writes.insert(root);
    }
  });
}

bool BufferAccesses::writesAny(
    const llvm::SmallDenseSet<Value> &buffers) const {
  return llvm::any_of(writes,
                      [&](Value root) { return buffers.contains(root); });
}

bool BufferAccesses::readsAny(const llvm::SmallDenseSet<Value> &buffers) const {
  return llvm::any_of(reads,
                      [&](Value root) { return buffers.contains(root); });
}

bool BufferAccesses::touches(Value root) const {
  return unknown || reads.contains(root) || writes.contains(root);
}

bool BufferAccesses::dependsOn(const BufferAccesses &other) const {
  return unknown || other.unknown || other.writesAny(reads) ||
         other.writesAny(writes) || other.readsAny(writes);
}

} // namespace mlir::google::kernels
