//===- CompilerLoader.cpp - load the compiler when a run needs it ---------===//

#include "Runner/CompilerServices.h"

#include <dlfcn.h>
#include <mutex>

using namespace mlir::google;

std::string mlir::google::getCompilerLibraryPath() {
  Dl_info info;
  if (!dladdr(reinterpret_cast<void *>(&google_rt_module_load), &info) ||
      !info.dli_fname)
    return "";
  StringRef runtime(info.dli_fname);
  size_t slash = runtime.rfind('/');
  StringRef directory =
      slash == StringRef::npos ? StringRef() : runtime.take_front(slash + 1);
  return directory.str() + "libgoogle_compiler.so";
}

llvm::Expected<CompilerServices *> mlir::google::loadCompilerServices() {
  static std::once_flag once;
  static CompilerServices *services = nullptr;
  static std::string loadError;
  std::call_once(once, [] {
    std::string path = getCompilerLibraryPath();
    if (path.empty()) {
      loadError = "cannot locate libgoogle_compiler.so (it is installed next "
                  "to libgoogle_runtime)";
      return;
    }
    // Local: its LLVM stays apart from the LLVM Support linked in here.
    void *handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
      loadError = std::string("cannot load the compiler: ") + dlerror();
      return;
    }
    auto entry = reinterpret_cast<decltype(&google_compiler_services)>(
        dlsym(handle, "google_compiler_services"));
    services = entry ? entry(kCompilerServicesVersion) : nullptr;
    if (!services)
      loadError = "the compiler " + path +
                  " is from another build of google-mlir than google-run";
  });
  if (!services)
    return llvm::createStringError(loadError);
  return services;
}
