//===- CacheEntry.h - the compile cache's entry format ----------*- C++ -*-===//
//
// A cache entry is the shared object followed by a trailer (magic, payload
// size, checksum, key) that is checked before the entry is used. The
// compiler writes entries (Compiler/CompileCache.h); google-run also reads
// them without loading the compiler. LLVM Support only.
//
//===----------------------------------------------------------------------===//

#ifndef GOOGLE_SUPPORT_CACHEENTRY_H
#define GOOGLE_SUPPORT_CACHEENTRY_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace mlir::google {

/// GOOGLE_MLIR_CACHE_DIR, else $XDG_CACHE_HOME/google-mlir, else
/// ~/.cache/google-mlir.
std::string getDefaultCacheDirectory();

/// Why the entry at `path` cannot be used, or "" when it can. With a `key`,
/// the entry must have been stored under it.
std::string checkCacheEntry(llvm::StringRef path, llvm::StringRef key = {});

/// Appends the trailer, with `key` (32 hex digits), to the shared object at
/// `path`.
llvm::Error sealCacheEntry(llvm::StringRef path, llvm::StringRef key);

/// Writes the payload of a cache entry (or any shared object) to `path`,
/// without the trailer.
llvm::Error exportCachePayload(llvm::StringRef cachedPath,
                               llvm::StringRef path);

} // namespace mlir::google

#endif // GOOGLE_SUPPORT_CACHEENTRY_H
