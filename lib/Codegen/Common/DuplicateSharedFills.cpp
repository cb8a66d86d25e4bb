//===- DuplicateSharedFills.cpp - --google-duplicate-shared-fills ---------===//

#include "Codegen/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::google {
#define GEN_PASS_DEF_DUPLICATESHAREDFILLSPASS
#include "Codegen/Passes.h.inc"
} // namespace mlir::google

using namespace mlir;

namespace {

struct DuplicateSharedFillsPass
    : public google::impl::DuplicateSharedFillsPassBase<
          DuplicateSharedFillsPass> {
  void runOnOperation() override {
    SmallVector<linalg::FillOp> fills;
    getOperation().walk([&](linalg::FillOp fill) {
      if (fill.hasPureTensorSemantics())
        fills.push_back(fill);
    });
    IRRewriter rewriter(&getContext());
    for (linalg::FillOp fill : fills) {
      Value filled = fill.getResult(0);
      SmallVector<OpOperand *> inits;
      for (OpOperand &use : filled.getUses()) {
        auto user = dyn_cast<DestinationStyleOpInterface>(use.getOwner());
        if (user && user.isDpsInit(&use))
          inits.push_back(&use);
      }
      if (inits.size() < 2)
        continue;
      // Each destination gets its own fill, just before it, on an empty
      // tensor of its own when the fill's is one.
      for (OpOperand *init : inits) {
        rewriter.setInsertionPoint(init->getOwner());
        IRMapping mapping;
        if (auto empty = fill.getDpsInitOperand(0)
                             ->get()
                             .getDefiningOp<tensor::EmptyOp>())
          mapping.map(empty.getResult(), rewriter.clone(*empty)->getResult(0));
        Operation *copy = rewriter.clone(*fill, mapping);
        rewriter.modifyOpInPlace(init->getOwner(),
                                 [&] { init->set(copy->getResult(0)); });
      }
      if (!fill->use_empty())
        continue;
      Operation *init = fill.getDpsInitOperand(0)->get().getDefiningOp();
      rewriter.eraseOp(fill);
      if (isa_and_nonnull<tensor::EmptyOp>(init) && init->use_empty())
        rewriter.eraseOp(init);
    }
  }
};

} // namespace
