//===- CompileCache.cpp - on-disk cache of compiled modules ---------------===//

#include "Compiler/CompileCache.h"

#include "Support/CacheEntry.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <unistd.h>

using namespace mlir;
using namespace mlir::google;

namespace {

/// Temporary files older than this are left from a crashed writer.
constexpr auto kStaleTemporaryAge = std::chrono::hours(1);

/// Removes `*.tmp` files that a writer which crashed left in `directory`.
void removeStaleTemporaries(StringRef directory) {
  std::error_code ec;
  auto now = std::chrono::system_clock::now();
  for (llvm::sys::fs::directory_iterator it(directory, ec), end;
       it != end && !ec; it.increment(ec)) {
    if (!StringRef(it->path()).ends_with(".tmp"))
      continue;
    llvm::ErrorOr<llvm::sys::fs::basic_file_status> status = it->status();
    if (status && now - status->getLastModificationTime() > kStaleTemporaryAge)
      llvm::sys::fs::remove(it->path());
  }
}

std::string hexDigest(StringRef fingerprint, StringRef source) {
  llvm::SHA256 hash;
  hash.update(fingerprint);
  hash.update(StringRef("\0", 1));
  hash.update(source);
  std::array<uint8_t, 32> digest = hash.final();
  return llvm::toHex(ArrayRef<uint8_t>(digest).take_front(16),
                     /*LowerCase=*/true);
}

double millisecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(
             std::chrono::steady_clock::now() - start)
      .count();
}

} // namespace

bool google::isCompileLogEnabled() {
  std::optional<std::string> value =
      llvm::sys::Process::GetEnv("GOOGLE_MLIR_LOG_COMPILES");
  return value && *value == "1";
}

llvm::Expected<CachedObject>
google::getOrCompile(StringRef source, StringRef name,
                     const CompileOptions &options, StringRef cacheDirectory,
                     std::optional<bool> logSwitch) {
  auto start = std::chrono::steady_clock::now();
  bool log = logSwitch.value_or(isCompileLogEnabled());

  llvm::Expected<std::string> fingerprint = getCompilerFingerprint(options);
  if (!fingerprint)
    return fingerprint.takeError();
  std::string key = hexDigest(*fingerprint, source);

  // Any problem with the directory: warn, naming it, and compile into a
  // temporary file instead.
  auto compileUncached =
      [&](const Twine &problem) -> llvm::Expected<CachedObject> {
    llvm::errs() << "google-mlir: warning: cannot use the cache directory '"
                 << cacheDirectory << "': " << problem
                 << "; compiling without the cache\n";
    CachedObject result;
    result.temporary = true;
    SmallString<128> path;
    if (std::error_code ec =
            llvm::sys::fs::createTemporaryFile("google-mlir", "so", path))
      return llvm::createStringError("cannot create a temporary file: " +
                                     ec.message());
    result.path = path.str().str();
    result.missReason = "cache unusable";
    if (llvm::Error err =
            compileToSharedObject(source, name, options, path, &result.stats)) {
      llvm::sys::fs::remove(path);
      return std::move(err);
    }
    result.milliseconds = millisecondsSince(start);
    if (log)
      llvm::errs() << llvm::format("google-mlir: compiled %s in %.1f ms "
                                   "(cache unusable)\n",
                                   name.str().c_str(), millisecondsSince(start));
    return result;
  };
  if (std::error_code ec = llvm::sys::fs::create_directories(cacheDirectory))
    return compileUncached(ec.message());
  SmallString<128> path(cacheDirectory);
  llvm::sys::path::append(path, key + ".so");

  CachedObject result;
  result.path = path.str().str();
  result.key = key;
  std::string &reason = result.missReason;
  reason = "no entry";
  if (llvm::sys::fs::exists(path)) {
    std::string problem = checkCacheEntry(path, key);
    if (problem.empty()) {
      result.hit = true;
      result.missReason.clear();
      result.milliseconds = millisecondsSince(start);
      if (log)
        llvm::errs() << llvm::format("google-mlir: cache hit for %s (%s) in "
                                     "%.2f ms\n",
                                     name.str().c_str(), key.c_str(),
                                     millisecondsSince(start));
      return result;
    }
    reason = "corrupt entry (" + problem + "), rebuilt";
    llvm::errs() << "google-mlir: warning: cache entry " << path
                 << " is corrupt (" << problem << "); rebuilding\n";
  }
  removeStaleTemporaries(cacheDirectory);

  // Build under a unique name, then rename: readers see all or nothing.
  SmallString<128> temporary;
  if (std::error_code ec = llvm::sys::fs::createUniqueFile(
          path + ".%%%%%%%%.tmp", temporary))
    return compileUncached(ec.message());
  CompileStats &stats = result.stats;
  llvm::Error err =
      compileToSharedObject(source, name, options, temporary, &stats);
  if (!err)
    err = sealCacheEntry(temporary, key);
  if (err) {
    llvm::sys::fs::remove(temporary);
    return std::move(err);
  }
  if (std::error_code ec = llvm::sys::fs::rename(temporary, path)) {
    llvm::errs() << "google-mlir: warning: cannot use the cache directory '"
                 << cacheDirectory << "': " << ec.message()
                 << "; running without the cache\n";
    result.path = temporary.str().str();
    result.temporary = true;
    result.milliseconds = millisecondsSince(start);
    return result;
  }
  result.milliseconds = millisecondsSince(start);
  if (log)
    llvm::errs() << llvm::format(
        "google-mlir: compiled %s in %.1f ms (cache miss: %s; %s) [parse "
        "%.1f, pipeline %.1f, codegen %.1f, link %.1f ms; codegen in %u "
        "part%s]\n",
        name.str().c_str(), millisecondsSince(start), reason.c_str(),
        key.c_str(), stats.parse, stats.pipeline, stats.codegen, stats.link,
        stats.codegenParts, stats.codegenParts == 1 ? "" : "s");
  return result;
}
