//===- InstallPaths.h - files installed next to our libraries ---*- C++ -*-===//
//
// The compiler finds the runtime and the bundled ROCm directory relative to
// the library it runs from (the build tree's lib/, or an install prefix's),
// falling back to the build tree's paths configured at build time.
//
//===----------------------------------------------------------------------===//

#ifndef GOOGLE_SUPPORT_INSTALLPATHS_H
#define GOOGLE_SUPPORT_INSTALLPATHS_H

#include "llvm/ADT/StringRef.h"

#include <string>

namespace mlir::google {

/// `relative` (a path or a file name) resolved against the directory of the
/// shared object or executable defining `symbol`, made absolute, when it
/// exists there; else `fallback`.
std::string findNextToLibrary(const void *symbol, llvm::StringRef relative,
                              llvm::StringRef fallback);

} // namespace mlir::google

#endif // GOOGLE_SUPPORT_INSTALLPATHS_H
