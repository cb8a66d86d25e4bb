//===- CompilerServices.h - what google-run asks of the compiler -*- C++ -*-===//
//
// google-run runs compiled objects with the runtime alone; it loads the
// compiler (libgoogle_compiler.so, which maps libMLIR and libLLVM) only
// when a run needs it: a module to compile, --check, --interpret, or a NaN
// to trace back. The two sides share no LLVM copy (google-run links LLVM
// Support statically), so only standard and header-only types cross.
//
//===----------------------------------------------------------------------===//

#ifndef GOOGLE_RUNNER_COMPILERSERVICES_H
#define GOOGLE_RUNNER_COMPILERSERVICES_H

#include "Runner/HostTensor.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mlir::google {

/// A parsed google-dialect module whose functions the reference
/// interpreter runs ("is this a compiler bug?": the results the dialect
/// itself defines, computed op by op).
class ReferenceModule {
public:
  virtual ~ReferenceModule() = default;

  /// The names of the public functions, in order.
  virtual std::vector<std::string> getPublicFunctions() const = 0;
  /// The argument and result types of function `name`; fails when there
  /// is no such function or a type is not a tensor the runtime knows.
  virtual LogicalResult
  getSignature(StringRef name, std::vector<google_rt_tensor_type> &arguments,
               std::vector<google_rt_tensor_type> &results,
               std::string &error) const = 0;
  /// Interprets function `name` on `inputs`. On failure `error` says why,
  /// and `unsupported` (when given) tells whether the function cannot be
  /// interpreted at all (missing, or not in the google dialect) rather than
  /// failing for these inputs (extents that disagree).
  virtual FailureOr<std::vector<HostTensor>>
  run(StringRef name, ArrayRef<HostTensor> inputs, std::string &error,
      bool *unsupported = nullptr) const = 0;
  /// GOOGLE_MLIR_DEBUG_NANS: interprets function `name` on `inputs` up to
  /// the first op whose result holds a NaN and says which it is and where,
  /// or which argument brought the NaN in; std::nullopt when no op does.
  virtual std::optional<std::string>
  findFirstNaN(StringRef name, ArrayRef<HostTensor> inputs,
               std::string &error) const = 0;
  /// --check: compares the float `results` of function `name` on `inputs`
  /// with their values computed in f64, within a bound on what rounding to
  /// the program's types may do (lib/Compiler/ErrorBounds.h); an element
  /// equal to the interpreter's (`interpreted`, run()'s results) passes
  /// too (overflow to inf on the way, which the bounds do not model).
  /// `covered` is false (and nothing is compared) for functions the bounds
  /// do not cover (calls): compare with run()'s results then.
  virtual LogicalResult
  checkWithinBounds(StringRef name, ArrayRef<HostTensor> inputs,
                    ArrayRef<HostTensor> results,
                    ArrayRef<HostTensor> interpreted, std::string &error,
                    bool &covered) const = 0;
};

/// A compiled module as a loadable shared object.
struct CompiledObject {
  std::string path;
  /// The cache's key for it ("" when the cache was not used).
  std::string key;
  /// The cache was unusable: `path` is a temporary file to remove once
  /// loaded.
  bool temporary = false;
};

class CompilerServices {
public:
  virtual ~CompilerServices() = default;

  /// Parses --google-extreme-pipeline options and returns the target they
  /// compile for ("cpu", "nvvm" or "rocdl").
  virtual FailureOr<std::string> parsePipeline(StringRef pipeline,
                                               std::string &error) = 0;
  /// Compiles `source` with `pipeline` through the cache in
  /// `cacheDirectory` (CompileCache.h: logs, warnings, corrupt entries).
  virtual FailureOr<CompiledObject> compile(StringRef source, StringRef name,
                                            StringRef pipeline,
                                            StringRef cacheDirectory,
                                            std::string &error) = 0;
  /// Parses `source` for the reference interpreter; on failure `error` is
  /// the first diagnostic.
  virtual std::unique_ptr<ReferenceModule>
  parseReference(StringRef source, StringRef bufferName,
                 std::string &error) = 0;
};

/// Bumped whenever the classes above change.
constexpr int kCompilerServicesVersion = 1;

/// libgoogle_compiler.so next to libgoogle_runtime (the build tree's lib/,
/// or an install prefix's); "" when the runtime's location is unknown.
std::string getCompilerLibraryPath();

/// Loads the compiler library once and returns its services.
llvm::Expected<CompilerServices *> loadCompilerServices();

} // namespace mlir::google

/// The compiler library's entry point: its services, or null when it was
/// built with another kCompilerServicesVersion.
extern "C" mlir::google::CompilerServices *
google_compiler_services(int version);

#endif // GOOGLE_RUNNER_COMPILERSERVICES_H
