//===- CAPI.cpp - C API over the compiler and its cache -------------------===//

#include "Compiler/google_compiler.h"

#include "Compiler/CompileCache.h"
#include "Compiler/Compiler.h"

#include <cstdlib>
#include <cstring>

using namespace mlir;
using namespace mlir::google;

#define GOOGLE_COMPILER_EXPORT extern "C" __attribute__((visibility("default")))

static char *copyString(StringRef text) {
  char *copy = static_cast<char *>(std::malloc(text.size() + 1));
  if (!copy)
    return nullptr;
  std::memcpy(copy, text.data(), text.size());
  copy[text.size()] = '\0';
  return copy;
}

static CompileOptions makeOptions(const char *pipeline) {
  CompileOptions options = getDefaultCompileOptions();
  options.pipeline = pipeline ? pipeline : "";
  return options;
}

GOOGLE_COMPILER_EXPORT char *
google_compiler_compile(const char *source, size_t length, const char *name,
                        const char *pipeline, const char *cacheDirectory,
                        int log, google_compiler_result *result) {
  std::memset(result, 0, sizeof(*result));
  std::string directory =
      cacheDirectory ? cacheDirectory : getDefaultCacheDirectory();
  std::optional<bool> logSwitch;
  if (log >= 0)
    logSwitch = log != 0;
  llvm::Expected<CachedObject> cached =
      getOrCompile(StringRef(source, length), name ? name : "<python>",
                   makeOptions(pipeline), directory, logSwitch);
  if (!cached)
    return copyString(llvm::toString(cached.takeError()));
  result->object_path = copyString(cached->path);
  result->key = copyString(cached->key);
  result->miss_reason = copyString(cached->missReason);
  result->cache_hit = cached->hit;
  result->temporary = cached->temporary;
  result->milliseconds = cached->milliseconds;
  result->parse_ms = cached->stats.parse;
  result->pipeline_ms = cached->stats.pipeline;
  result->codegen_ms = cached->stats.codegen;
  result->link_ms = cached->stats.link;
  return nullptr;
}

GOOGLE_COMPILER_EXPORT void
google_compiler_result_free(google_compiler_result *result) {
  std::free(result->object_path);
  std::free(result->key);
  std::free(result->miss_reason);
  std::memset(result, 0, sizeof(*result));
}

GOOGLE_COMPILER_EXPORT char *
google_compiler_print_stage(const char *source, size_t length,
                            const char *name, const char *pipeline,
                            const char *stage, char **output) {
  *output = nullptr;
  llvm::Expected<std::string> text =
      printStage(StringRef(source, length), name ? name : "<python>",
                 makeOptions(pipeline), stage ? stage : "google");
  if (!text)
    return copyString(llvm::toString(text.takeError()));
  *output = copyString(*text);
  return nullptr;
}

GOOGLE_COMPILER_EXPORT char *google_compiler_default_cache_directory() {
  return copyString(getDefaultCacheDirectory());
}

GOOGLE_COMPILER_EXPORT void google_compiler_free(void *pointer) {
  std::free(pointer);
}
