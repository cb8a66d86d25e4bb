//===- GoogleRun.h - the google-run driver ----------------------*- C++ -*-===//

#ifndef GOOGLE_RUNNER_GOOGLERUN_H
#define GOOGLE_RUNNER_GOOGLERUN_H

#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <string>
#include <vector>

namespace mlir::google {

/// google-run's command line (SPEC section 3).
struct RunOptions {
  /// A .mlir file at any stage, `-` for standard input, or a shared object
  /// emitted with --emit-object.
  std::string module;
  std::string function;
  std::vector<std::string> inputs;
  std::vector<std::string> outputs;
  std::vector<std::string> expectedOutputs;
  /// cpu, cuda or rocm: where the function runs (GPU targets compile with
  /// target=nvvm or target=rocdl).
  std::string target = "cpu";
  /// The GPU to run on (default: 0).
  int32_t device = -1;
  /// List the host and the GPUs the drivers report, then exit.
  bool listDevices = false;
  int64_t benchmark = 0;
  std::string emitObject;
  /// Extra --google-extreme-pipeline options (e.g. "fuse=false").
  std::string pipeline;
  /// Compare every result with the reference interpreter's (the module
  /// must be in the google dialect).
  bool check = false;
  /// Run the function with the reference interpreter instead of compiling
  /// it (the module must be in the google dialect).
  bool interpret = false;
  /// Print large results in full instead of NumPy's summary.
  bool printAll = false;
};

/// Runs google-run and returns its exit status. Results go to `out`; any
/// failure is one `error: ...` line on `err`, and then no result is printed.
int runGoogleRun(const RunOptions &options, llvm::raw_ostream &out,
                 llvm::raw_ostream &err);

} // namespace mlir::google

#endif // GOOGLE_RUNNER_GOOGLERUN_H
