//===- CompileCache.h - on-disk cache of compiled modules -------*- C++ -*-===//
//
// Entries live in GOOGLE_MLIR_CACHE_DIR (default $XDG_CACHE_HOME/google-mlir
// or ~/.cache/google-mlir) as `<key>.so`, the key hashing the module text,
// the pipeline options, target and chip (the host's CPU features too), and
// the compiler's fingerprint. Each entry ends with a trailer (magic, payload
// size, checksum, key) that is checked before the entry is used; entries
// are written to a temporary file and renamed, so concurrent processes
// never see half an object, and temporary files an hour old (left by a
// crashed writer) are removed. A directory that cannot be used is a warning
// naming it, and the module is compiled without the cache.
//
//===----------------------------------------------------------------------===//

#ifndef GOOGLE_COMPILER_COMPILECACHE_H
#define GOOGLE_COMPILER_COMPILECACHE_H

#include "Compiler/Compiler.h"
#include "Support/CacheEntry.h"

#include <optional>

namespace mlir::google {

struct CachedObject {
  /// A loadable shared object (the cache entry, trailer included).
  std::string path;
  bool hit = false;
  /// The cache directory was unusable: `path` is a temporary file the
  /// caller removes once it has loaded it.
  bool temporary = false;
  /// What a miss cost, and why it missed ("no entry", "corrupt entry ...").
  CompileStats stats;
  std::string missReason;
  /// The entry's key, and the whole call's time in milliseconds.
  std::string key;
  double milliseconds = 0;
};

/// Returns a shared object for `source`, loading it from `cacheDirectory`
/// or compiling and storing it. `name` labels log lines. With
/// GOOGLE_MLIR_LOG_COMPILES=1 prints one line per compile or hit to stderr
/// (`log` overrides the variable: Python prints its own lines).
/// When the directory cannot be used, warns and compiles to a temporary
/// file instead.
llvm::Expected<CachedObject>
getOrCompile(StringRef source, StringRef name, const CompileOptions &options,
             StringRef cacheDirectory, std::optional<bool> log = std::nullopt);

/// Whether GOOGLE_MLIR_LOG_COMPILES=1 is set.
bool isCompileLogEnabled();

} // namespace mlir::google

#endif // GOOGLE_COMPILER_COMPILECACHE_H
