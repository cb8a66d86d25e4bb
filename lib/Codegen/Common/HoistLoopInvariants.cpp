//===- HoistLoopInvariants.cpp - --google-hoist-loop-invariants -----------===//

#include "Codegen/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"

namespace mlir::google {
#define GEN_PASS_DEF_HOISTLOOPINVARIANTSPASS
#include "Codegen/Passes.h.inc"
} // namespace mlir::google

using namespace mlir;

namespace {

bool isDefinedOutside(Value value, Operation *loop) {
  return cast<LoopLikeOpInterface>(loop).isDefinedOutsideOfLoop(value);
}

/// Whether every use of `value` only reads it: as an input of a linalg op,
/// the source of a slice or a reshape whose result is only read too, or
/// an element read.
bool isOnlyRead(Value value) {
  return llvm::all_of(value.getUses(), [](OpOperand &use) {
    Operation *user = use.getOwner();
    if (auto linalgOp = dyn_cast<linalg::LinalgOp>(user))
      return linalgOp.isDpsInput(&use);
    if (isa<tensor::ExtractOp>(user))
      return true;
    if (isa<tensor::ExtractSliceOp, tensor::ExpandShapeOp,
            tensor::CollapseShapeOp>(user))
      return use.getOperandNumber() == 0 && isOnlyRead(user->getResult(0));
    return false;
  });
}

bool hasStaticShapes(Operation *op) {
  auto isStatic = [](Type type) {
    auto shaped = dyn_cast<ShapedType>(type);
    return !shaped || shaped.hasStaticShape();
  };
  return llvm::all_of(op->getOperandTypes(), isStatic) &&
         llvm::all_of(op->getResultTypes(), isStatic);
}

/// The empty tensor `value` is, made in `op`'s block for `op` alone, or
/// null.
Operation *getOwnEmpty(Value value, Operation *op) {
  auto empty = value.getDefiningOp<tensor::EmptyOp>();
  return empty && empty->hasOneUse() && empty->getBlock() == op->getBlock()
             ? empty
             : nullptr;
}

/// The ops in `loop` that make `op`'s destinations (empty tensors, and
/// fills of them with a value from outside, each for `op` alone), in
/// order, if `op` can run before `loop` (see the pass description).
std::optional<SmallVector<Operation *>> getHoistable(linalg::LinalgOp op,
                                                     Operation *loop) {
  if (!op.hasPureTensorSemantics() || !hasStaticShapes(op))
    return std::nullopt;
  for (Operation &payload : op.getBlock()->without_terminator())
    if (!isPure(&payload) || isa<tensor::ExtractOp>(payload) ||
        payload.getNumRegions() != 0)
      return std::nullopt;
  for (OpOperand *input : op.getDpsInputOperands())
    if (!isDefinedOutside(input->get(), loop))
      return std::nullopt;
  // Values its payload takes from above (a gather's clamp bounds).
  llvm::SetVector<Value> captured;
  getUsedValuesDefinedAbove(op->getRegions(), captured);
  if (!llvm::all_of(captured,
                    [&](Value value) { return isDefinedOutside(value, loop); }))
    return std::nullopt;
  SmallVector<Operation *> makers;
  for (OpOperand &init : op.getDpsInitsMutable()) {
    if (isDefinedOutside(init.get(), loop))
      continue;
    if (Operation *empty = getOwnEmpty(init.get(), op)) {
      makers.push_back(empty);
      continue;
    }
    auto fill = init.get().getDefiningOp<linalg::FillOp>();
    if (!fill || !fill->hasOneUse() || fill->getBlock() != op->getBlock() ||
        !fill.hasPureTensorSemantics() ||
        !isDefinedOutside(fill.getInputs().front(), loop))
      return std::nullopt;
    Operation *empty = getOwnEmpty(fill.getOutputs().front(), fill);
    if (!empty)
      return std::nullopt;
    makers.push_back(empty);
    makers.push_back(fill);
  }
  if (!llvm::all_of(op->getResults(), isOnlyRead))
    return std::nullopt;
  return makers;
}

struct HoistLoopInvariantsPass
    : public google::impl::HoistLoopInvariantsPassBase<
          HoistLoopInvariantsPass> {
  using Base::Base;

  void runOnOperation() override {
    bool moved = true;
    while (moved) {
      moved = false;
      getOperation().walk([&](Operation *loop) {
        Region *body = nullptr;
        if (auto forOp = dyn_cast<scf::ForOp>(loop))
          body = &forOp.getRegion();
        else if (auto whileOp = dyn_cast<scf::WhileOp>(loop))
          body = &whileOp.getAfter();
        if (!body || !body->hasOneBlock())
          return;
        for (Operation &nested :
             llvm::make_early_inc_range(body->front().without_terminator())) {
          auto op = dyn_cast<linalg::LinalgOp>(&nested);
          if (!op)
            continue;
          std::optional<SmallVector<Operation *>> makers =
              getHoistable(op, loop);
          if (!makers)
            continue;
          for (Operation *maker : *makers)
            maker->moveBefore(loop);
          op->moveBefore(loop);
          ++numHoisted;
          moved = true;
        }
      });
    }
  }
};

} // namespace
