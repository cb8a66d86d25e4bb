//===- OutlineKernels.cpp - --google-outline-kernels ----------------------===//

#include "Codegen/GPU/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Pass/PassManager.h"

namespace mlir::google {
#define GEN_PASS_DEF_OUTLINEKERNELSPASS
#include "Codegen/GPU/Passes.h.inc"
} // namespace mlir::google

using namespace mlir;
using namespace mlir::google;

namespace {

struct OutlineKernelsPass
    : public google::impl::OutlineKernelsPassBase<OutlineKernelsPass> {
  static OpPassManager getOutlining() {
    OpPassManager pm(ModuleOp::getOperationName());
    pm.addPass(createGpuKernelOutliningPass());
    return pm;
  }

  void getDependentDialects(DialectRegistry &registry) const override {
    OutlineKernelsPassBase::getDependentDialects(registry);
    getOutlining().getDependentDialects(registry);
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    // Outlining replaces each launch by a gpu.launch_func where it was, so
    // the launches (and any launch_func already there) in walk order are
    // the launch_funcs after it in the same order.
    SmallVector<DictionaryAttr> requested;
    module.walk([&](Operation *op) {
      if (isa<gpu::LaunchOp>(op))
        requested.push_back(
            op->getAttrOfType<DictionaryAttr>(kKernelAttrsAttr));
      else if (isa<gpu::LaunchFuncOp>(op))
        requested.push_back(nullptr);
    });
    OpPassManager outlining = getOutlining();
    if (failed(runPipeline(outlining, module)))
      return signalPassFailure();

    SmallVector<gpu::LaunchFuncOp> launches;
    module.walk([&](gpu::LaunchFuncOp launch) { launches.push_back(launch); });
    if (launches.size() != requested.size()) {
      module.emitError() << "google-outline-kernels: " << requested.size()
                         << " launches became " << launches.size()
                         << " kernel launches";
      return signalPassFailure();
    }
    for (auto [launch, attrs] : llvm::zip_equal(launches, requested)) {
      if (!attrs)
        continue;
      auto kernel = SymbolTable::lookupNearestSymbolFrom<gpu::GPUFuncOp>(
          launch, launch.getKernel());
      for (NamedAttribute attr : attrs)
        kernel->setAttr(attr.getName(), attr.getValue());
    }
  }
};

} // namespace
