//===- FuzzUtils.h - shared helpers of the compiler fuzz targets -*- C++ -*-===//

#ifndef GOOGLE_FUZZ_FUZZUTILS_H
#define GOOGLE_FUZZ_FUZZUTILS_H

#include "Compiler/Compiler.h"
#include "Support/ParserGuard.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

#include <memory>

namespace mlir::google::fuzz {

inline bool &errorSeen() {
  static bool seen = false;
  return seen;
}
inline bool sawError() { return errorSeen(); }
inline void resetErrors() { errorSeen() = false; }

/// A fresh single-threaded context with the compiler's dialects, whose
/// diagnostics are swallowed (errors are recorded).
inline std::unique_ptr<MLIRContext> createContext() {
  DialectRegistry registry;
  registerCompilerDialects(registry);
  auto context = std::make_unique<MLIRContext>(
      registry, MLIRContext::Threading::DISABLED);
  context->getDiagEngine().registerHandler([](Diagnostic &diagnostic) {
    if (diagnostic.getSeverity() == DiagnosticSeverity::Error)
      errorSeen() = true;
  });
  return context;
}

/// Parses the fuzzer's bytes as a module (from a NUL-terminated copy, as
/// the compiler does: the lexer reads up to a NUL), through the same guard.
inline OwningOpRef<ModuleOp> parse(const uint8_t *data, size_t size,
                                   MLIRContext *context) {
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(
          llvm::StringRef(reinterpret_cast<const char *>(data), size),
          "fuzz.mlir"),
      llvm::SMLoc());
  return parseModuleGuarded(sourceMgr, context);
}

} // namespace mlir::google::fuzz

#endif // GOOGLE_FUZZ_FUZZUTILS_H
