//===- InlineSingleCalls.cpp - --google-inline-single-calls ---------------===//

#include "Dialect/Google/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir::google {
#define GEN_PASS_DEF_INLINESINGLECALLSPASS
#include "Dialect/Google/Transforms/Passes.h.inc"
} // namespace mlir::google

using namespace mlir;

namespace {

struct InlineSingleCallsPass
    : public google::impl::InlineSingleCallsPassBase<InlineSingleCallsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    IRRewriter rewriter(&getContext());
    // Inlining a call can make its caller's own call the only use of the
    // caller: repeat until none is left.
    bool inlined = true;
    while (inlined) {
      inlined = false;
      SmallVector<func::CallOp> calls;
      module.walk([&](func::CallOp call) { calls.push_back(call); });
      for (func::CallOp call : calls) {
        auto callee = symbols.lookup<func::FuncOp>(call.getCallee());
        if (!callee || !callee.isPrivate() || callee.isExternal() ||
            !callee.getBody().hasOneBlock() ||
            callee->isAncestor(call.getOperation()))
          continue;
        std::optional<SymbolTable::UseRange> uses =
            SymbolTable::getSymbolUses(callee, module);
        if (!uses || !llvm::hasSingleElement(*uses))
          continue;
        Block &body = callee.getBody().front();
        auto ret = cast<func::ReturnOp>(body.getTerminator());
        // Returned arguments are the call's operands.
        SmallVector<Value> results;
        for (Value value : ret.getOperands()) {
          auto argument = dyn_cast<BlockArgument>(value);
          results.push_back(argument && argument.getOwner() == &body
                                ? call.getOperand(argument.getArgNumber())
                                : value);
        }
        rewriter.eraseOp(ret);
        rewriter.inlineBlockBefore(&body, call, call.getOperands());
        rewriter.replaceOp(call, results);
        symbols.erase(callee);
        ++numInlined;
        inlined = true;
      }
    }
  }
};

} // namespace
