//===- CompilerServices.cpp - the compiler as google-run loads it ---------===//

#include "Runner/CompilerServices.h"

#include "Compiler/CompileCache.h"
#include "Compiler/Reference.h"
#include "Pipelines/Pipelines.h"

using namespace mlir;
using namespace mlir::google;

namespace {

class CompilerServicesImpl final : public CompilerServices {
public:
  FailureOr<std::string> parsePipeline(StringRef pipeline,
                                       std::string &error) override {
    ExtremePipelineOptions parsed;
    if (llvm::Error err = parseOptions(pipeline, parsed)) {
      error = llvm::toString(std::move(err));
      return failure();
    }
    switch (parsed.target.getValue()) {
    case Target::CPU:
      return std::string("cpu");
    case Target::NVVM:
      return std::string("nvvm");
    case Target::ROCDL:
      return std::string("rocdl");
    }
    llvm_unreachable("unknown target");
  }

  FailureOr<CompiledObject> compile(StringRef source, StringRef name,
                                    StringRef pipeline,
                                    StringRef cacheDirectory,
                                    std::string &error) override {
    CompileOptions options = getDefaultCompileOptions();
    options.pipeline = pipeline.str();
    llvm::Expected<CachedObject> cached =
        getOrCompile(source, name, options, cacheDirectory);
    if (!cached) {
      error = llvm::toString(cached.takeError());
      return failure();
    }
    return CompiledObject{cached->path, cached->key, cached->temporary};
  }

  std::unique_ptr<ReferenceModule>
  parseReference(StringRef source, StringRef bufferName,
                 std::string &error) override {
    llvm::Expected<std::unique_ptr<ReferenceModule>> module =
        parseReferenceModule(source, bufferName);
    if (!module) {
      error = llvm::toString(module.takeError());
      return nullptr;
    }
    return std::move(*module);
  }
};

} // namespace

extern "C" __attribute__((visibility("default"))) CompilerServices *
google_compiler_services(int version) {
  if (version != kCompilerServicesVersion)
    return nullptr;
  static CompilerServicesImpl services;
  return &services;
}
