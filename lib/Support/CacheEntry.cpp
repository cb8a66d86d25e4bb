//===- CacheEntry.cpp - the compile cache's entry format ------------------===//

#include "Support/CacheEntry.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

#include <cassert>
#include <cstring>

using namespace llvm;

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

uint64_t checksum(StringRef payload) {
  return xxh3_64bits(arrayRefFromStringRef(payload));
}

ErrorOr<std::unique_ptr<MemoryBuffer>> readFile(StringRef path) {
  return MemoryBuffer::getFile(path, /*IsText=*/false,
                               /*RequiresNullTerminator=*/false);
}

/// Why `data` is not a valid entry, or "".
std::string checkData(StringRef data, StringRef key) {
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

Error writeFile(StringRef path, StringRef data, sys::fs::OpenFlags flags) {
  std::error_code ec;
  raw_fd_ostream os(path, ec, flags);
  if (!ec) {
    os << data;
    os.close();
  }
  if (ec || os.has_error()) {
    std::string reason = (ec ? ec : os.error()).message();
    os.clear_error();
    return createStringError("cannot write '" + path + "': " + reason);
  }
  return Error::success();
}

} // namespace

std::string mlir::google::checkCacheEntry(StringRef path, StringRef key) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> buffer = readFile(path);
  if (!buffer)
    return "unreadable: " + buffer.getError().message();
  return checkData((*buffer)->getBuffer(), key);
}

Error mlir::google::sealCacheEntry(StringRef path, StringRef key) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> buffer = readFile(path);
  if (!buffer)
    return createStringError("cannot read " + path);
  StringRef payload = (*buffer)->getBuffer();
  Trailer trailer;
  std::memcpy(trailer.magic, kMagic, sizeof(kMagic));
  trailer.payloadSize = payload.size();
  trailer.checksum = checksum(payload);
  assert(key.size() == sizeof(trailer.key) && "a 128-bit hex key");
  std::memcpy(trailer.key, key.data(), sizeof(trailer.key));
  return writeFile(
      path,
      StringRef(reinterpret_cast<const char *>(&trailer), sizeof(trailer)),
      sys::fs::OF_Append);
}

Error mlir::google::exportCachePayload(StringRef cachedPath, StringRef path) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> buffer = readFile(cachedPath);
  if (!buffer)
    return createStringError("cannot read " + cachedPath);
  StringRef data = (*buffer)->getBuffer();
  if (checkData(data, {}).empty())
    data = data.drop_back(sizeof(Trailer));
  return writeFile(path, data, sys::fs::OF_None);
}

std::string mlir::google::getDefaultCacheDirectory() {
  if (std::optional<std::string> dir =
          sys::Process::GetEnv("GOOGLE_MLIR_CACHE_DIR");
      dir && !dir->empty())
    return *dir;
  SmallString<128> path;
  // A relative XDG_CACHE_HOME is invalid (XDG base directory spec) and is
  // ignored: it made a folder in the current directory.
  if (std::optional<std::string> xdg =
          sys::Process::GetEnv("XDG_CACHE_HOME");
      xdg && sys::path::is_absolute(*xdg)) {
    path = *xdg;
  } else if (sys::path::home_directory(path)) {
    sys::path::append(path, ".cache");
  } else {
    sys::path::system_temp_directory(/*ErasedOnReboot=*/false, path);
  }
  sys::path::append(path, "google-mlir");
  return path.str().str();
}
