//===- google-opt.cpp - mlir-opt with the google dialect and passes -------===//

#include "Conversion/Passes.h"
#include "Dialect/Google/IR/GoogleDialect.h"
#include "Codegen/GPU/Passes.h"
#include "Codegen/Passes.h"
#include "Dialect/Google/Transforms/Passes.h"
#include "Pipelines/Pipelines.h"
#include "Support/ParserGuard.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"

namespace mlir::google {
/// Test-only passes (test/lib).
void registerGoogleTestPasses();
} // namespace mlir::google

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  llvm::cl::SetVersionPrinter([](llvm::raw_ostream &os) {
    os << "google-opt (google-mlir) " GOOGLE_MLIR_VERSION "\n"
       << "  built with LLVM/MLIR " LLVM_VERSION_STRING "\n";
  });
  mlir::registerAllPasses();
  mlir::google::registerGooglePasses();
  mlir::google::registerGoogleConversionPasses();
  mlir::google::registerGoogleCodegenPasses();
  mlir::google::registerGoogleGPUPasses();
  mlir::google::registerGoogleTestPasses();
  mlir::google::registerExtremePipeline();

  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  // Serializing GPU kernels translates them to LLVM IR.
  mlir::registerAllToLLVMIRTranslations(registry);
  registry.insert<mlir::google::GoogleDialect>();

  // MlirOptMain's steps, with the input checked for text that upstream
  // parsers crash on before it is parsed.
  auto [inputFilename, outputFilename] = mlir::registerAndParseCLIOptions(
      argc, argv, "google-mlir optimizer driver\n", registry);
  mlir::MlirOptMainConfig config =
      mlir::MlirOptMainConfig::createFromCLOptions();
  std::string message;
  std::unique_ptr<llvm::MemoryBuffer> input =
      mlir::openInputFile(inputFilename, &message);
  if (!input) {
    llvm::errs() << message << "\n";
    return EXIT_FAILURE;
  }
  if (std::optional<mlir::google::ParserHazard> hazard =
          mlir::google::findParserHazard(input->getBuffer())) {
    llvm::SourceMgr sourceMgr;
    llvm::StringRef text = input->getBuffer();
    sourceMgr.AddNewSourceBuffer(std::move(input), llvm::SMLoc());
    sourceMgr.PrintMessage(
        llvm::SMLoc::getFromPointer(text.data() + hazard->offset),
        llvm::SourceMgr::DK_Error, hazard->message);
    return EXIT_FAILURE;
  }
  std::unique_ptr<llvm::ToolOutputFile> output =
      mlir::openOutputFile(outputFilename, &message);
  if (!output) {
    llvm::errs() << message << "\n";
    return EXIT_FAILURE;
  }
  if (mlir::failed(
          mlir::MlirOptMain(output->os(), std::move(input), registry, config)))
    return EXIT_FAILURE;
  output->keep();
  return EXIT_SUCCESS;
}
