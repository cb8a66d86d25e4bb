//===- DeferChecks.cpp - --google-defer-checks ----------------------------===//

#include "Codegen/Passes.h"
#include "Dialect/Google/IR/GoogleDialect.h"

#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::google {
#define GEN_PASS_DEF_DEFERCHECKSPASS
#include "Codegen/Passes.h.inc"
} // namespace mlir::google

using namespace mlir;

namespace {

bool isDeferrableCheck(Operation *op) {
  return isa<cf::AssertOp>(op) &&
         op->hasAttr(google::GoogleDialect::kDeferrableCheckAttrName);
}

/// The ops of `block` that move with its deferrable checks: the checks,
/// and the pure ops without regions (constants aside) whose results only
/// they (or other such ops) read.
llvm::SmallPtrSet<Operation *, 16> getMovingOps(Block &block) {
  llvm::SmallPtrSet<Operation *, 16> moving;
  // Users come after their operands' definitions: one backward pass.
  for (Operation &op : llvm::reverse(block)) {
    if (isDeferrableCheck(&op)) {
      moving.insert(&op);
      continue;
    }
    if (op.getNumRegions() != 0 || op.getNumResults() == 0 ||
        op.hasTrait<OpTrait::ConstantLike>() || !isMemoryEffectFree(&op))
      continue;
    if (llvm::all_of(op.getUsers(),
                     [&](Operation *user) { return moving.contains(user); }))
      moving.insert(&op);
  }
  return moving;
}

/// Whether a failed check must be reported before `op` runs.
bool stopsChecks(Operation &op) {
  if (op.hasTrait<OpTrait::IsTerminator>() || isa<CallOpInterface>(op) ||
      isa<tensor::ExtractOp>(op))
    return true;
  if (op.getNumRegions() != 0 &&
      !isa<linalg::LinalgOp, tensor::PadOp, tensor::GenerateOp>(op))
    return true;
  return !isMemoryEffectFree(&op);
}

struct DeferChecksPass
    : public google::impl::DeferChecksPassBase<DeferChecksPass> {
  void runOnOperation() override {
    SmallVector<Block *> blocks;
    getOperation().walk([&](Block *block) {
      if (llvm::any_of(*block,
                       [](Operation &op) { return isDeferrableCheck(&op); }))
        blocks.push_back(block);
    });
    for (Block *block : blocks)
      deferChecks(*block);
  }

  /// Moves each run of moving ops to just before the op that stops it.
  static void deferChecks(Block &block) {
    llvm::SmallPtrSet<Operation *, 16> moving = getMovingOps(block);
    SmallVector<Operation *> pending;
    for (Operation &op : llvm::make_early_inc_range(block)) {
      if (moving.contains(&op)) {
        pending.push_back(&op);
        continue;
      }
      if (!stopsChecks(op))
        continue;
      for (Operation *deferred : pending)
        deferred->moveBefore(&op);
      pending.clear();
    }
  }
};

} // namespace
