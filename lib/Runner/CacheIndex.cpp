//===- CacheIndex.cpp - find cached objects without the compiler ----------===//

#include "CacheIndex.h"

#include "Runner/CompilerServices.h"
#include "Support/CacheEntry.h"

#include "google_runtime.h"
#include "google_runtime_abi.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/raw_ostream.h"

#include <sys/stat.h>

using namespace llvm;

namespace {

constexpr char kIndexDirectory[] = "index";

/// "size mtime_ns" of `path`, or "" when it cannot be read.
std::string fileIdentity(StringRef path) {
  struct stat st;
  if (stat(path.str().c_str(), &st) != 0)
    return "";
  return std::to_string(st.st_size) + " " +
         std::to_string(static_cast<int64_t>(st.st_mtim.tv_sec) * 1000000000 +
                        st.st_mtim.tv_nsec);
}

/// The CPU features the runtime checks, present ones only.
std::string cpuFeatures() {
  std::string present;
  for (StringRef feature : split(GOOGLE_RT_X86_FEATURES, ' '))
    if (!feature.empty() && google_rt_cpu_has_feature(feature.str().c_str()))
      present += (present.empty() ? "" : " ") + feature.str();
  return present;
}

std::string absolute(StringRef path) {
  SmallString<128> result(path);
  sys::fs::make_absolute(result);
  sys::path::remove_dots(result, /*remove_dot_dot=*/true);
  return result.str().str();
}

} // namespace

std::string mlir::google::getCacheIndexKey(StringRef text, StringRef pipeline,
                                           StringRef directory) {
  std::string library = getCompilerLibraryPath();
  std::string identity = library.empty() ? "" : fileIdentity(library);
  if (identity.empty())
    return "";
  std::string build = library + " " + identity, cpu = cpuFeatures(),
              where = absolute(directory);
  SHA256 hash;
  for (StringRef part : {StringRef(build), StringRef(cpu), StringRef(where),
                         pipeline, text}) {
    hash.update(part);
    hash.update(StringRef("\0", 1));
  }
  return toHex(hash.final(), /*LowerCase=*/true);
}

std::optional<std::string>
mlir::google::lookupCacheIndex(StringRef directory, StringRef key) {
  SmallString<128> recordPath(directory);
  sys::path::append(recordPath, kIndexDirectory, key);
  ErrorOr<std::unique_ptr<MemoryBuffer>> record =
      MemoryBuffer::getFile(recordPath, /*IsText=*/true);
  if (!record)
    return std::nullopt;
  auto [name, identity] = (*record)->getBuffer().trim().split(' ');
  // A name, not a path: the record cannot point out of the directory.
  if (!name.ends_with(".so") || name.contains('/') || name == ".so")
    return std::nullopt;
  SmallString<128> path(directory);
  sys::path::append(path, name);
  if (fileIdentity(path) != identity.trim() ||
      !checkCacheEntry(path, name.drop_back(3)).empty())
    return std::nullopt;
  return path.str().str();
}

void mlir::google::recordCacheIndex(StringRef directory, StringRef key,
                                    StringRef path) {
  std::string entry = absolute(path);
  if (key.empty() || sys::path::parent_path(entry) != absolute(directory))
    return;
  std::string identity = fileIdentity(path);
  if (identity.empty())
    return;
  SmallString<128> index(directory);
  sys::path::append(index, kIndexDirectory);
  if (sys::fs::create_directories(index))
    return;
  SmallString<128> temporary;
  int fd;
  if (sys::fs::createUniqueFile(index + "/%%%%%%%%.tmp", fd, temporary))
    return;
  {
    raw_fd_ostream os(fd, /*shouldClose=*/true);
    os << sys::path::filename(path) << " " << identity << "\n";
    if (os.has_error()) {
      os.clear_error();
      sys::fs::remove(temporary);
      return;
    }
  }
  SmallString<128> recordPath(index);
  sys::path::append(recordPath, key);
  if (sys::fs::rename(temporary, recordPath))
    sys::fs::remove(temporary);
}
