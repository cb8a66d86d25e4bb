//===- Reference.h - run a function with the reference interpreter -*- C++ -*-===//
//
// "Is this a compiler bug?": the results the google dialect itself defines
// for a call, computed op by op by the reference interpreter, to compare
// compiled results with (google-run --check, the differential tester).
//
//===----------------------------------------------------------------------===//

#ifndef GOOGLE_RUNNER_REFERENCE_H
#define GOOGLE_RUNNER_REFERENCE_H

#include "Runner/HostTensor.h"

namespace mlir::google {

/// Parses `source` (a google-dialect module) and interprets its function
/// `function` on `inputs`. On failure `error` says why, and `unsupported`
/// (when given) tells whether the module cannot be interpreted at all (it
/// does not parse, or the function is missing or not in the google
/// dialect) rather than failing for these inputs (extents that disagree).
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
