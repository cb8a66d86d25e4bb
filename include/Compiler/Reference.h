//===- Reference.h - the reference interpreter over parsed modules -*- C++ -*-===//
//
// The compiler side of ReferenceModule (Runner/CompilerServices.h): google-run
// --check and --interpret, GOOGLE_MLIR_DEBUG_NANS, and the differential
// tester use it.
//
//===----------------------------------------------------------------------===//

#ifndef GOOGLE_COMPILER_REFERENCE_H
#define GOOGLE_COMPILER_REFERENCE_H

#include "Runner/CompilerServices.h"

namespace mlir::google {

/// Parses `source`; an error holds the first diagnostic.
llvm::Expected<std::unique_ptr<ReferenceModule>>
parseReferenceModule(StringRef source, StringRef bufferName);

/// Parses `source` and interprets its function `function` on `inputs` (see
/// ReferenceModule::run).
llvm::Expected<std::vector<HostTensor>>
interpretModule(StringRef source, StringRef bufferName, StringRef function,
                ArrayRef<HostTensor> inputs, bool *unsupported = nullptr);

} // namespace mlir::google

#endif // GOOGLE_COMPILER_REFERENCE_H
