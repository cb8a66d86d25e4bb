//===- ExportFunctions.cpp - --google-export-functions --------------------===//

#include "Dialect/Google/IR/GoogleDialect.h"
#include "Codegen/Passes.h"
#include "google_runtime_abi.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/StringSet.h"

namespace mlir::google {
#define GEN_PASS_DEF_EXPORTFUNCTIONSPASS
#include "Codegen/Passes.h.inc"
} // namespace mlir::google

using namespace mlir;

namespace {

/// Symbols the lowering or code generation may call (libm, libc, the
/// runtime hooks) or define (the manifest, entry points, C interfaces). A
/// function with one of these names would capture or collide with them, so
/// its symbol is renamed; callers still find it by its own name.
bool isReservedSymbol(StringRef name) {
  static const llvm::StringSet<> reserved = [] {
    llvm::StringSet<> names;
    for (StringRef base :
         {"acos", "acosh", "asin", "asinh", "atan", "atan2", "atanh", "cbrt",
          "ceil", "copysign", "cos", "cosh", "erf", "erfc", "exp", "exp2",
          "expm1", "fabs", "floor", "fma", "fmax", "fmin", "fmod", "hypot",
          "ldexp", "lgamma", "log", "log10", "log1p", "log2", "nearbyint",
          "pow", "rint", "round", "roundeven", "sin", "sinh", "sqrt", "tan",
          "tanh", "tgamma", "trunc"}) {
      names.insert(base);
      names.insert((base + "f").str());
      names.insert((base + "l").str());
    }
    for (StringRef other :
         {"abort", "aligned_alloc", "calloc", "free", "malloc", "memcmp",
          "memcpy", "memmove", "memset", "printf", "puts", "realloc",
          "memrefCopy", GOOGLE_RT_CHECK_FAILED_HOOK,
          GOOGLE_RT_NUM_THREADS_HOOK, GOOGLE_RT_ALLOC_HOOK,
          GOOGLE_RT_ALIGNED_ALLOC_HOOK, GOOGLE_RT_FREE_HOOK})
      names.insert(other);
    return names;
  }();
  // The compiled object's own symbols, and the C interface wrappers.
  return reserved.contains(name) || name == GOOGLE_RT_MANIFEST_SYMBOL ||
         name.starts_with("_mlir_") || name.starts_with("_google_");
}

struct ExportFunctionsPass
    : public google::impl::ExportFunctionsPassBase<ExportFunctionsPass> {
  void runOnOperation() override {
    MLIRContext *context = &getContext();
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    for (auto func : module.getOps<func::FuncOp>()) {
      StringRef name = func.getSymName();
      if (func.isPublic() && (name.empty() || name.contains('\0'))) {
        func.emitError("a public function name cannot be empty or contain a "
                       "NUL byte");
        return signalPassFailure();
      }
    }
    for (auto func : llvm::make_early_inc_range(module.getOps<func::FuncOp>())) {
      if (func.isExternal() || !isReservedSymbol(func.getSymName()))
        continue;
      // Keep the name users call it by; the symbol moves aside.
      StringAttr name = func.getSymNameAttr();
      if (func.isPublic())
        func->setAttr(google::GoogleDialect::kExportNameAttrName, name);
      // Reserved names all start with `_google_`, `_mlir_` or are not
      // prefixed at all, so renamed symbols collide with nothing.
      std::string renamed = ("_google_fn." + name.getValue()).str();
      if (failed(symbols.rename(func, StringAttr::get(context, renamed))))
        return signalPassFailure();
    }
    for (auto func : module.getOps<func::FuncOp>()) {
      if (!func.isPublic() || func.isExternal())
        continue;
      func->setAttr(LLVM::LLVMDialect::getEmitCWrapperAttrName(),
                    UnitAttr::get(context));
      // Keep a signature recorded earlier: the function may have been
      // rewritten since (e.g. results turned into out-parameters).
      if (!func->hasAttr(google::GoogleDialect::kSignatureAttrName))
        func->setAttr(google::GoogleDialect::kSignatureAttrName,
                      TypeAttr::get(func.getFunctionType()));
      // The caller's inputs are passed without a copy: code that would
      // update one in place (a scatter, a loop's state) works on a copy.
      for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i)
        if (isa<TensorType>(func.getArgument(i).getType()))
          func.setArgAttr(
              i, bufferization::BufferizationDialect::kWritableAttrName,
              BoolAttr::get(context, false));
    }
  }
};

} // namespace
