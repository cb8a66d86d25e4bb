//===- PassesFuzzer.cpp - every google pass on modules that verify --------===//
//
// libFuzzer target: text that parses and verifies goes through each google
// pass on its own, and through the pipeline down to linalg. A pass may
// reject a module with an error; it must not crash, hang, leak, or leave IR
// that does not verify.
//
//===----------------------------------------------------------------------===//

#include "FuzzUtils.h"

#include "Conversion/Passes.h"
#include "Dialect/Google/Transforms/Passes.h"
#include "Pipelines/Pipelines.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"

#include <cstdio>
#include <cstdlib>

using namespace mlir;
using namespace mlir::google;

namespace {

using PipelineBuilder = void (*)(OpPassManager &);

void runPipeline(ModuleOp module, PipelineBuilder build) {
  OwningOpRef<ModuleOp> copy = module.clone();
  PassManager pm(module.getContext());
  pm.enableVerifier(true);
  build(pm);
  // A pass that fails says why (an error diagnostic); one that succeeds
  // must leave valid IR, which the pass manager's verifier checks.
  if (failed(pm.run(*copy)) && !fuzz::sawError()) {
    std::fprintf(stderr, "a pass failed without an error diagnostic\n");
    std::abort();
  }
}

const PipelineBuilder kPipelines[] = {
    [](OpPassManager &pm) { pm.addPass(createFoldConstantsPass()); },
    [](OpPassManager &pm) { pm.addPass(google::createCSEPass()); },
    [](OpPassManager &pm) { pm.addPass(google::createDCEPass()); },
    [](OpPassManager &pm) { pm.addPass(createFuseMatmulBiasReluPass()); },
    [](OpPassManager &pm) { pm.addPass(createConvertGoogleToLinalgPass()); },
    [](OpPassManager &pm) {
      ExtremePipelineOptions options;
      addGoogleOptimizationPasses(pm, options);
      addLinalgLoweringPasses(pm, options);
    },
};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::unique_ptr<MLIRContext> context = fuzz::createContext();
  OwningOpRef<ModuleOp> module = fuzz::parse(data, size, context.get());
  if (!module || failed(verify(*module)))
    return 0;
  for (PipelineBuilder build : kPipelines) {
    fuzz::resetErrors();
    runPipeline(*module, build);
  }
  return 0;
}
