//===- ExportFunctions.cpp - --google-export-functions --------------------===//

#include "Dialect/Google/IR/GoogleDialect.h"
#include "Dialect/Google/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

namespace mlir::google {
#define GEN_PASS_DEF_EXPORTFUNCTIONSPASS
#include "Dialect/Google/Transforms/Passes.h.inc"
} // namespace mlir::google

using namespace mlir;

namespace {

struct ExportFunctionsPass
    : public google::impl::ExportFunctionsPassBase<ExportFunctionsPass> {
  void runOnOperation() override {
    MLIRContext *context = &getContext();
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      if (!func.isPublic() || func.isExternal())
        continue;
      func->setAttr(LLVM::LLVMDialect::getEmitCWrapperAttrName(),
                    UnitAttr::get(context));
      // Keep a signature recorded earlier: the function may have been
      // rewritten since (e.g. results turned into out-parameters).
      if (!func->hasAttr(google::GoogleDialect::kSignatureAttrName))
        func->setAttr(google::GoogleDialect::kSignatureAttrName,
                      TypeAttr::get(func.getFunctionType()));
    }
  }
};

} // namespace
