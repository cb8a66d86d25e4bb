//===- Reference.h - run a function with the reference interpreter -*- C++ -*-===//
//
// "Is this a compiler bug?": the results the google dialect itself defines
// for a call, computed op by op by the reference interpreter, to compare
// compiled results with (google-run --check and --interpret, the
// differential tester).
//
//===----------------------------------------------------------------------===//

#ifndef GOOGLE_RUNNER_REFERENCE_H
#define GOOGLE_RUNNER_REFERENCE_H

#include "Interpreter/ConcreteTensor.h"
#include "Runner/HostTensor.h"

#include <optional>

#include <memory>

namespace mlir::google {

/// A parsed google-dialect module whose functions the reference
/// interpreter runs.
class ReferenceModule {
public:
  ~ReferenceModule();

  /// Parses `source`; on failure `error` is the first diagnostic.
  static std::unique_ptr<ReferenceModule>
  parse(StringRef source, StringRef bufferName, std::string &error);

  /// The names of the public functions, in order.
  std::vector<std::string> getPublicFunctions() const;

  /// The argument and result types of function `name`; fails when there
  /// is no such function or a type is not a tensor the runtime knows.
  LogicalResult getSignature(StringRef name,
                             std::vector<google_rt_tensor_type> &arguments,
                             std::vector<google_rt_tensor_type> &results,
                             std::string &error) const;

  /// Interprets function `name` on `inputs`. On failure `error` says why,
  /// and `unsupported` (when given) tells whether the function cannot be
  /// interpreted at all (missing, or not in the google dialect) rather than
  /// failing for these inputs (extents that disagree).
  FailureOr<std::vector<HostTensor>> run(StringRef name,
                                         ArrayRef<HostTensor> inputs,
                                         std::string &error,
                                         bool *unsupported = nullptr) const;

  /// GOOGLE_MLIR_DEBUG_NANS: interprets function `name` on `inputs` up to
  /// the first op whose result holds a NaN and says which it is and where,
  /// or which argument brought the NaN in; std::nullopt when no op does.
  std::optional<std::string> findFirstNaN(StringRef name,
                                          ArrayRef<HostTensor> inputs,
                                          std::string &error) const;

  /// --check: compares the float `results` of function `name` on `inputs`
  /// with their values computed in f64, within a bound on what rounding to
  /// the program's types may do (lib/Runner/ErrorBounds.h); an element
  /// equal to the interpreter's (`interpreted`, run()'s results) passes
  /// too (overflow to inf on the way, which the bounds do not model).
  /// `covered` is false (and nothing is compared) for functions the bounds
  /// do not cover (calls): compare with run()'s results then.
  LogicalResult checkWithinBounds(StringRef name, ArrayRef<HostTensor> inputs,
                                  ArrayRef<HostTensor> results,
                                  ArrayRef<HostTensor> interpreted,
                                  std::string &error, bool &covered) const;

private:
  ReferenceModule();
  /// `inputs` as the interpreter's tensors for function `func`.
  FailureOr<SmallVector<ConcreteTensor>>
  toArguments(ArrayRef<HostTensor> inputs, std::string &error) const;
  struct Impl;
  std::unique_ptr<Impl> impl;
};

/// Parses `source` and interprets its function `function` on `inputs` (see
/// ReferenceModule::run).
FailureOr<std::vector<HostTensor>>
interpretModule(StringRef source, StringRef bufferName, StringRef function,
                ArrayRef<HostTensor> inputs, std::string &error,
                bool *unsupported = nullptr);

/// Compares compiled `results` with the `reference` results; on a mismatch
/// `error` names the result and the first differing element.
LogicalResult compareWithReference(StringRef function,
                                   ArrayRef<HostTensor> results,
                                   ArrayRef<HostTensor> reference,
                                   std::string &error);

} // namespace mlir::google

#endif // GOOGLE_RUNNER_REFERENCE_H
