//===- CompileCache.cpp - on-disk cache of compiled modules ---------------===//

#include "Compiler/CompileCache.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

#include <chrono>
#include <cstring>
#include <unistd.h>

using namespace mlir;
using namespace mlir::google;

namespace {

/// Appended to every entry; checked before an entry is used.
struct Trailer {
  char magic[8];
  uint64_t payloadSize;
  uint64_t checksum; // xxh3 of the payload
  char key[32];      // the entry's key: a copied entry is not a hit
};
static_assert(sizeof(Trailer) == 56, "cache entry trailer");
constexpr char kMagic[8] = {'G', 'M', 'L', 'I', 'R', 'C', '0', '2'};

/// Temporary files older than this are left from a crashed writer.
constexpr auto kStaleTemporaryAge = std::chrono::hours(1);

uint64_t checksum(StringRef payload) {
  return llvm::xxh3_64bits(llvm::arrayRefFromStringRef(payload));
}

/// Why the entry at `path` cannot be used, or "" when it can. With a `key`,
/// the entry must have been stored under it.
std::string checkEntry(StringRef path, StringRef key = {}) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                  /*RequiresNullTerminator=*/false);
  if (!buffer)
    return "unreadable: " + buffer.getError().message();
  StringRef data = (*buffer)->getBuffer();
  if (data.size() < sizeof(Trailer))
    return "truncated";
  Trailer trailer;
  std::memcpy(&trailer, data.end() - sizeof(Trailer), sizeof(Trailer));
  if (std::memcmp(trailer.magic, kMagic, sizeof(kMagic)) != 0)
    return "truncated or not a cache entry";
  if (trailer.payloadSize != data.size() - sizeof(Trailer))
    return "size mismatch";
  if (trailer.checksum != checksum(data.drop_back(sizeof(Trailer))))
    return "checksum mismatch";
  if (!key.empty() && StringRef(trailer.key, sizeof(trailer.key)) != key)
    return "stored under another key";
  return "";
}

/// Appends the trailer, with `key`, to the shared object at `path`.
LogicalResult sealEntry(StringRef path, StringRef key, std::string &error) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                  /*RequiresNullTerminator=*/false);
  if (!buffer) {
    error = "cannot read " + path.str();
    return failure();
  }
  StringRef payload = (*buffer)->getBuffer();
  Trailer trailer;
  std::memcpy(trailer.magic, kMagic, sizeof(kMagic));
  trailer.payloadSize = payload.size();
  trailer.checksum = checksum(payload);
  assert(key.size() == sizeof(trailer.key) && "a 128-bit hex key");
  std::memcpy(trailer.key, key.data(), sizeof(trailer.key));
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec, llvm::sys::fs::OF_Append);
  if (!ec) {
    os.write(reinterpret_cast<const char *>(&trailer), sizeof(trailer));
    os.close();
  }
  if (ec || os.has_error()) {
    error = "cannot write " + path.str() + ": " +
            (ec ? ec : os.error()).message();
    os.clear_error();
    return failure();
  }
  return success();
}

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

std::string google::getDefaultCacheDirectory() {
  if (std::optional<std::string> dir =
          llvm::sys::Process::GetEnv("GOOGLE_MLIR_CACHE_DIR");
      dir && !dir->empty())
    return *dir;
  SmallString<128> path;
  // A relative XDG_CACHE_HOME is invalid (XDG base directory spec) and is
  // ignored: it made a folder in the current directory.
  if (std::optional<std::string> xdg =
          llvm::sys::Process::GetEnv("XDG_CACHE_HOME");
      xdg && llvm::sys::path::is_absolute(*xdg)) {
    path = *xdg;
  } else if (llvm::sys::path::home_directory(path)) {
    llvm::sys::path::append(path, ".cache");
  } else {
    llvm::sys::path::system_temp_directory(/*ErasedOnReboot=*/false, path);
  }
  llvm::sys::path::append(path, "google-mlir");
  return path.str().str();
}

bool google::isCompileLogEnabled() {
  std::optional<std::string> value =
      llvm::sys::Process::GetEnv("GOOGLE_MLIR_LOG_COMPILES");
  return value && *value == "1";
}

FailureOr<CachedObject> google::getOrCompile(StringRef source, StringRef name,
                                             const CompileOptions &options,
                                             StringRef cacheDirectory,
                                             std::string &error,
                                             std::optional<bool> logSwitch) {
  auto start = std::chrono::steady_clock::now();
  bool log = logSwitch.value_or(isCompileLogEnabled());

  std::string fingerprint;
  if (failed(getCompilerFingerprint(options, fingerprint, error)))
    return failure();
  std::string key = hexDigest(fingerprint, source);

  // Any problem with the directory: warn, naming it, and compile into a
  // temporary file instead.
  auto compileUncached = [&](const Twine &problem) -> FailureOr<CachedObject> {
    llvm::errs() << "google-mlir: warning: cannot use the cache directory '"
                 << cacheDirectory << "': " << problem
                 << "; compiling without the cache\n";
    CachedObject result;
    result.temporary = true;
    SmallString<128> path;
    if (std::error_code ec =
            llvm::sys::fs::createTemporaryFile("google-mlir", "so", path)) {
      error = "cannot create a temporary file: " + ec.message();
      return failure();
    }
    result.path = path.str().str();
    result.missReason = "cache unusable";
    if (failed(compileToSharedObject(source, name, options, path, error,
                                     &result.stats))) {
      llvm::sys::fs::remove(path);
      return failure();
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
    std::string problem = checkEntry(path, key);
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
  if (failed(compileToSharedObject(source, name, options, temporary, error,
                                   &stats)) ||
      failed(sealEntry(temporary, key, error))) {
    llvm::sys::fs::remove(temporary);
    return failure();
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
        "%.1f, pipeline %.1f, codegen %.1f, link %.1f ms]\n",
        name.str().c_str(), millisecondsSince(start), reason.c_str(),
        key.c_str(), stats.parse, stats.pipeline, stats.codegen, stats.link);
  return result;
}

LogicalResult google::exportSharedObject(StringRef cachedPath, StringRef path,
                                         std::string &error) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFile(cachedPath, /*IsText=*/false,
                                  /*RequiresNullTerminator=*/false);
  if (!buffer) {
    error = "cannot read " + cachedPath.str();
    return failure();
  }
  StringRef data = (*buffer)->getBuffer();
  if (checkEntry(cachedPath).empty())
    data = data.drop_back(sizeof(Trailer));
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  if (!ec) {
    os << data;
    os.close();
  }
  if (ec || os.has_error()) {
    error = "cannot write '" + path.str() +
            "': " + (ec ? ec : os.error()).message();
    os.clear_error();
    return failure();
  }
  return success();
}
