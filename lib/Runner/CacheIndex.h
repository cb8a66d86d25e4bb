//===- CacheIndex.h - find cached objects without the compiler --*- C++ -*-===//
//
// The compiler keys a cache entry on its parsed options, its own build and
// the host CPU, which needs the compiler loaded. The index records, after
// each compile through the cache, the entry under a key computed here from
// what determines the compiler's (the module text, the pipeline options as
// written, the compiler library's identity, the CPU's features and the
// cache directory), so that a later run with the same key loads the object
// with the runtime alone. The record holds the entry's size and modification
// time; a changed entry is not used, and the compiler decides again. The
// Python package keeps the same index (python/google_mlir/_cache.py). GPU
// targets always go through the compiler: their key depends on the toolkit
// found at compile time.
//
//===----------------------------------------------------------------------===//

#ifndef GOOGLE_RUNNER_CACHEINDEX_H
#define GOOGLE_RUNNER_CACHEINDEX_H

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace mlir::google {

/// The index key for compiling `text` with `pipeline` into `directory`; ""
/// when the compiler library is not found (nothing can be recorded then).
std::string getCacheIndexKey(llvm::StringRef text, llvm::StringRef pipeline,
                             llvm::StringRef directory);

/// The valid, unchanged cache entry recorded under `key`, if any.
std::optional<std::string> lookupCacheIndex(llvm::StringRef directory,
                                            llvm::StringRef key);

/// Records the entry at `path` (in `directory`) under `key`; best effort.
void recordCacheIndex(llvm::StringRef directory, llvm::StringRef key,
                      llvm::StringRef path);

} // namespace mlir::google

#endif // GOOGLE_RUNNER_CACHEINDEX_H
