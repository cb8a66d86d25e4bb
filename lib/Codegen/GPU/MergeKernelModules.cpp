//===- MergeKernelModules.cpp - --google-merge-kernel-modules -------------===//

#include "Codegen/GPU/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"

#include "llvm/ADT/StringExtras.h"

namespace mlir::google {
#define GEN_PASS_DEF_MERGEKERNELMODULESPASS
#include "Codegen/GPU/Passes.h.inc"
} // namespace mlir::google

using namespace mlir;
using namespace mlir::google;

namespace {

constexpr int64_t kWorkgroupAlignment = 16;

/// Whether two kernel modules differ only in their names.
bool sameAttributesButName(gpu::GPUModuleOp a, gpu::GPUModuleOp b) {
  return a.getTargetsAttr() == b.getTargetsAttr() &&
         a.getOffloadingHandlerAttr() == b.getOffloadingHandlerAttr() &&
         a->getDiscardableAttrDictionary() == b->getDiscardableAttrDictionary();
}

/// `name` with every character that PTX identifiers and ELF symbol names do
/// not share replaced by `_`.
std::string getDeviceSymbolName(StringRef name) {
  std::string result;
  for (char c : name)
    result += llvm::isAlnum(c) || c == '_' ? c : '_';
  if (result.empty() || llvm::isDigit(result.front()))
    result.insert(0, "k");
  return result;
}

struct MergeKernelModulesPass
    : public google::impl::MergeKernelModulesPassBase<MergeKernelModulesPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<gpu::GPUModuleOp> kernelModules(
        module.getOps<gpu::GPUModuleOp>());
    if (kernelModules.empty())
      return;
    // (module, kernel) as launches name them -> where the kernel is now.
    DenseMap<std::pair<StringAttr, StringAttr>, SymbolRefAttr> moved;
    auto record = [&](StringAttr module, StringAttr kernel,
                      gpu::GPUModuleOp to, StringAttr name) {
      moved[{module, kernel}] = SymbolRefAttr::get(
          to.getSymNameAttr(), {FlatSymbolRefAttr::get(name)});
    };

    gpu::GPUModuleOp target = kernelModules.front();
    SymbolTable targetSymbols(target);
    for (gpu::GPUModuleOp source : llvm::drop_begin(kernelModules)) {
      // Outlining gives each module one kernel, named like the function it
      // came from: merged ones are renamed apart.
      auto kernels = source.getOps<gpu::GPUFuncOp>();
      if (!sameAttributesButName(source, target) ||
          !llvm::hasSingleElement(kernels) ||
          !llvm::hasSingleElement(source.getBody()->without_terminator()))
        continue;
      gpu::GPUFuncOp kernel = *kernels.begin();
      StringAttr oldName = SymbolTable::getSymbolName(kernel);
      kernel->moveBefore(target.getBody(), target.getBody()->end());
      StringAttr newName = targetSymbols.insert(kernel);
      record(source.getSymNameAttr(), oldName, target, newName);
      source.erase();
    }

    // Kernel names become PTX and ELF symbols.
    for (auto kernelModule : module.getOps<gpu::GPUModuleOp>()) {
      SymbolTable symbols(kernelModule);
      for (auto kernel : kernelModule.getOps<gpu::GPUFuncOp>()) {
        StringAttr name = SymbolTable::getSymbolName(kernel);
        std::string valid = getDeviceSymbolName(name.getValue());
        if (valid == name.getValue())
          continue;
        std::string unique = valid;
        for (int i = 0; symbols.lookup(unique); ++i)
          unique = valid + "_" + std::to_string(i);
        if (failed(symbols.rename(kernel, unique)))
          return signalPassFailure();
        for (auto &entry : moved)
          if (entry.second.getRootReference() == kernelModule.getSymNameAttr() &&
              entry.second.getLeafReference() == name)
            record(entry.first.first, entry.first.second, kernelModule,
                   SymbolTable::getSymbolName(kernel));
        if (!moved.count({kernelModule.getSymNameAttr(), name}))
          record(kernelModule.getSymNameAttr(), name, kernelModule,
                 SymbolTable::getSymbolName(kernel));
      }
    }

    module.walk([&](gpu::LaunchFuncOp launch) {
      auto it = moved.find(
          {launch.getKernelModuleName(), launch.getKernelName()});
      if (it != moved.end())
        launch.setKernelAttr(it->second);
    });

    // Kernels read workgroup buffers as vectors of up to 16 bytes.
    Builder builder(&getContext());
    module.walk([&](gpu::GPUFuncOp kernel) {
      for (unsigned i = 0; i < kernel.getNumWorkgroupAttributions(); ++i)
        if (!kernel.getWorkgroupAttributionAttr(
                i, LLVM::LLVMDialect::getAlignAttrName()))
          kernel.setWorkgroupAttributionAttr(
              i, LLVM::LLVMDialect::getAlignAttrName(),
              builder.getI64IntegerAttr(kWorkgroupAlignment));
    });
  }
};

} // namespace
