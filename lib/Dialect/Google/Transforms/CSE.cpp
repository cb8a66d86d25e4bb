//===- CSE.cpp - --google-cse ---------------------------------------------===//

#include "Dialect/Google/Transforms/Passes.h"

#include "mlir/IR/Dominance.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/CSE.h"

namespace mlir::google {
#define GEN_PASS_DEF_CSEPASS
#include "Dialect/Google/Transforms/Passes.h.inc"
} // namespace mlir::google

using namespace mlir;

namespace {

/// Counts the ops the CSE utility erases.
struct EraseCounter : public RewriterBase::Listener {
  int64_t count = 0;
  void notifyOperationErased(Operation *) override { ++count; }
};

struct CSEPass : public google::impl::CSEPassBase<CSEPass> {
  void runOnOperation() override {
    EraseCounter counter;
    IRRewriter rewriter(&getContext(), &counter);
    bool changed = false;
    eliminateCommonSubExpressions(rewriter, getAnalysis<DominanceInfo>(),
                                  getOperation(), &changed);
    numCSE += counter.count;
    if (!changed)
      markAllAnalysesPreserved();
    else
      markAnalysesPreserved<DominanceInfo>();
  }
};

} // namespace
