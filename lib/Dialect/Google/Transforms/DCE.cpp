//===- DCE.cpp - --google-dce ---------------------------------------------===//

#include "Dialect/Google/IR/GoogleOps.h"
#include "Dialect/Google/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Iterators.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::google {
#define GEN_PASS_DEF_DCEPASS
#include "Dialect/Google/Transforms/Passes.h.inc"
} // namespace mlir::google

using namespace mlir;
using namespace mlir::google;

namespace {

struct DCEPass : public google::impl::DCEPassBase<DCEPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    // Users before producers, so a dead chain goes in one walk; a post-order
    // walk may erase the op it visits.
    bool erased = true;
    while (erased) {
      erased = false;
      module.walk<WalkOrder::PostOrder, ReverseIterator>([&](Operation *op) {
        if (isa<GoogleDialect>(op->getDialect()) && isOpTriviallyDead(op)) {
          op->erase();
          ++numErasedOps;
          erased = true;
        }
      });
    }
    // Erasing a private function can leave another one unused.
    erased = true;
    while (erased) {
      erased = false;
      for (auto func :
           llvm::make_early_inc_range(module.getOps<func::FuncOp>())) {
        if (func.isPrivate() && SymbolTable::symbolKnownUseEmpty(func, module)) {
          func.erase();
          ++numErasedFuncs;
          erased = true;
        }
      }
    }
  }
};

} // namespace
