//===- LoopLocalDestinations.cpp - --google-loop-local-destinations ------===//

#include "Codegen/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"

namespace mlir::google {
#define GEN_PASS_DEF_LOOPLOCALDESTINATIONSPASS
#include "Codegen/Passes.h.inc"
} // namespace mlir::google

using namespace mlir;

namespace {

/// Whether `value` is an empty tensor or a fill of one: contents a
/// destination can be made with again anywhere.
bool isRematerializable(Value value) {
  if (value.getDefiningOp<tensor::EmptyOp>())
    return true;
  auto fill = value.getDefiningOp<linalg::FillOp>();
  return fill && fill.hasPureTensorSemantics() &&
         fill.getDpsInitOperand(0)->get().getDefiningOp<tensor::EmptyOp>();
}

/// The operand through which `yielded`'s destinations leave `loop`: the
/// last one followed (through destination-style ops' inits, nested loops'
/// inits and reshapes) before a value defined above `loop`; null if the
/// chain ends inside it (at an iteration argument, say).
OpOperand *findDestinationAbove(scf::ForOp loop, Value yielded) {
  Value current = yielded;
  OpOperand *via = nullptr;
  while (true) {
    if (!loop->isAncestor(current.getParentBlock()->getParentOp()))
      return via;
    auto result = dyn_cast<OpResult>(current);
    if (!result)
      return nullptr;
    Operation *op = result.getOwner();
    if (auto dps = dyn_cast<DestinationStyleOpInterface>(op))
      via = dps.getTiedOpOperand(result);
    else if (auto nested = dyn_cast<scf::ForOp>(op))
      via = nested.getTiedLoopInit(result);
    else if (isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp,
                 tensor::CastOp>(op))
      via = &op->getOpOperand(0);
    else
      return nullptr;
    if (!via)
      return nullptr;
    current = via->get();
  }
}

struct LoopLocalDestinationsPass
    : public google::impl::LoopLocalDestinationsPassBase<
          LoopLocalDestinationsPass> {
  void runOnOperation() override {
    SetVector<OpOperand *> operands;
    getOperation().walk([&](scf::ForOp loop) {
      for (Value yielded : loop.getYieldedValues())
        if (isa<RankedTensorType>(yielded.getType()))
          if (OpOperand *operand = findDestinationAbove(loop, yielded))
            if (isRematerializable(operand->get()))
              operands.insert(operand);
    });
    IRRewriter rewriter(&getContext());
    for (OpOperand *operand : operands) {
      Value value = operand->get();
      Operation *user = operand->getOwner();
      rewriter.setInsertionPoint(user);
      IRMapping mapping;
      Operation *made = value.getDefiningOp();
      if (auto fill = dyn_cast<linalg::FillOp>(made)) {
        Operation *empty = fill.getDpsInitOperand(0)->get().getDefiningOp();
        mapping.map(empty->getResult(0), rewriter.clone(*empty)->getResult(0));
      }
      Operation *copy = rewriter.clone(*made, mapping);
      rewriter.modifyOpInPlace(user, [&] { operand->set(copy->getResult(0)); });
    }
  }
};

} // namespace
