//===- Compiler.h - MLIR text to a loadable shared object -------*- C++ -*-===//
//
// The compiler behind google-run and Python: runs the extreme pipeline
// in-process, translates to LLVM IR, generates code for the host CPU (or the
// pipeline's chip) and links a shared object that finds its runtime hooks in
// libgoogle_runtime.
//
//===----------------------------------------------------------------------===//

#ifndef GOOGLE_COMPILER_COMPILER_H
#define GOOGLE_COMPILER_COMPILER_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace mlir {
class DialectRegistry;
class ModuleOp;

namespace google {

struct CompileOptions {
  /// --google-extreme-pipeline options, e.g. "target=cpu opt-level=3".
  std::string pipeline;
  /// Directory holding libgoogle_runtime.so, linked as a dependency.
  std::string runtimeLibraryDir;
  /// Threads that optimize and emit parts of a large module in parallel;
  /// 0: one per core. GOOGLE_MLIR_COMPILE_THREADS sets the default.
  unsigned codegenThreads = 0;
  /// The fewest LLVM instructions (before optimization) a part must have
  /// for the module to be split; below, splitting costs more than it
  /// saves. GOOGLE_MLIR_COMPILE_PART_MIN sets the default (1 splits every
  /// module that can be: the tests' setting).
  unsigned minCodegenPartInstructions = 500;
};

/// A CompileOptions with the runtime next to this build.
CompileOptions getDefaultCompileOptions();

/// Registers the dialects, extensions and LLVM IR translations that any
/// input stage needs.
void registerCompilerDialects(DialectRegistry &registry);

/// Where compile time goes, in milliseconds.
struct CompileStats {
  double parse = 0;    // parse and verify
  double pipeline = 0; // the MLIR pass pipeline
  double codegen = 0;  // translation, LLVM optimization, object emission
  double link = 0;     // linking the objects (lld, in-process)
  unsigned codegenParts = 1; // parts optimized and emitted on threads
};

/// Compiles MLIR text at any stage (google dialect, linalg on tensors, or
/// the LLVM dialect output of --google-extreme-pipeline) to a shared object
/// at `outputPath`. An error is one line (`<file>:<line>:<col>: <message>`
/// when the input is at fault).
llvm::Error compileToSharedObject(StringRef source, StringRef bufferName,
                                  const CompileOptions &options,
                                  StringRef outputPath,
                                  CompileStats *stats = nullptr);

/// `source` printed at one stage of the pipeline:
/// "google" (parsed and verified), "optimized" (after the google-level
/// optimizations), "linalg" (lowered to linalg on tensors), "llvm" (the
/// LLVM dialect, as google-opt --google-extreme-pipeline prints it) or
/// "llvm-ir" (LLVM IR after LLVM's optimizations).
llvm::Expected<std::string> printStage(StringRef source, StringRef bufferName,
                                       const CompileOptions &options,
                                       StringRef stage);

/// The stages printStage knows, in pipeline order.
ArrayRef<StringRef> getStageNames();

/// A string that changes whenever the compiler or its options change the
/// code it would produce: version, LLVM version, this binary's identity and
/// the resolved target and options. An error on invalid options.
llvm::Expected<std::string>
getCompilerFingerprint(const CompileOptions &options);

} // namespace google
} // namespace mlir

#endif // GOOGLE_COMPILER_COMPILER_H
