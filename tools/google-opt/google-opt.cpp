//===- google-opt.cpp - mlir-opt with the google dialect and passes -------===//

#include "Conversion/Passes.h"
#include "Dialect/Google/IR/GoogleDialect.h"
#include "Dialect/Google/Transforms/Passes.h"
#include "GPU/Passes.h"
#include "Pipelines/Pipelines.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

namespace mlir::google {
/// Test-only passes (test/lib).
void registerGoogleTestPasses();
} // namespace mlir::google

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  mlir::google::registerGooglePasses();
  mlir::google::registerGoogleConversionPasses();
  mlir::google::registerGoogleGPUPasses();
  mlir::google::registerGoogleTestPasses();
  mlir::google::registerExtremePipeline();

  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  // Serializing GPU kernels translates them to LLVM IR.
  mlir::registerAllToLLVMIRTranslations(registry);
  registry.insert<mlir::google::GoogleDialect>();
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "google-mlir optimizer driver\n", registry));
}
