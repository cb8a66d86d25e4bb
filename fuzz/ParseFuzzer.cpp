//===- ParseFuzzer.cpp - parse and verify arbitrary text ------------------===//
//
// libFuzzer target: any text, parsed and verified with the google dialect
// (and the dialects a google module uses). Errors are expected; crashes,
// sanitizer reports, leaks and hangs are bugs.
//
//===----------------------------------------------------------------------===//

#include "FuzzUtils.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Verifier.h"

using namespace mlir;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::unique_ptr<MLIRContext> context = google::fuzz::createContext();
  OwningOpRef<ModuleOp> module =
      google::fuzz::parse(data, size, context.get());
  if (module)
    (void)verify(*module);
  return 0;
}
