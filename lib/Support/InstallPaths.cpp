//===- InstallPaths.cpp - files installed next to our libraries -----------===//

#include "Support/InstallPaths.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <dlfcn.h>

std::string mlir::google::findNextToLibrary(const void *symbol,
                                            llvm::StringRef relative,
                                            llvm::StringRef fallback) {
  Dl_info info;
  if (!dladdr(symbol, &info) || !info.dli_fname)
    return fallback.str();
  llvm::SmallString<128> path(info.dli_fname);
  llvm::sys::path::remove_filename(path);
  if (path.empty())
    return fallback.str();
  llvm::sys::path::append(path, relative);
  if (!llvm::sys::fs::exists(path))
    return fallback.str();
  llvm::sys::fs::make_absolute(path);
  llvm::sys::path::remove_dots(path, /*remove_dot_dot=*/true);
  return path.str().str();
}
