//===- runtime_bench.cpp - compile time and per-call overhead -------------===//
//
// Usage: runtime_bench MODULE.mlir (examples/mlp.mlir, bench/mlp_784.mlir)
// 1. compile time of the MLP, cold (in-process stages and the link), and
//    from the cache (lookup, checksum, dlopen);
// 2. per-call overhead of a 4-element add through google_rt_call, against
//    calling the compiled entry point directly.
// Medians over repeated runs; timings are never asserted.
//
//===----------------------------------------------------------------------===//

#include "Compiler/CompileCache.h"
#include "google_runtime.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cstring>
#include <chrono>
#include <dlfcn.h>
#include <vector>

using namespace mlir::google;
using Clock = std::chrono::steady_clock;

static double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

static double msSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start)
      .count();
}

static const char *kTiny = R"mlir(
func.func @add(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = google.add %a, %b : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
)mlir";

int main(int argc, char **argv) {
  if (argc != 2) {
    llvm::errs() << "usage: runtime_bench MODULE.mlir\n";
    return 2;
  }
  auto buffer = llvm::MemoryBuffer::getFile(argv[1]);
  if (!buffer) {
    llvm::errs() << "error: cannot read " << argv[1] << "\n";
    return 1;
  }
  std::string source = (*buffer)->getBuffer().str();
  CompileOptions options = getDefaultCompileOptions();
  llvm::SmallString<128> dir;
  llvm::sys::fs::createUniqueDirectory("google-bench", dir);

  // 1. Cold compiles.
  std::vector<double> parse, pipeline, codegen, link, total;
  for (int i = 0; i < 7; ++i) {
    CompileStats stats;
    std::string out = (dir + "/cold" + std::to_string(i) + ".so").str();
    auto start = Clock::now();
    if (llvm::Error err =
            compileToSharedObject(source, "mlp.mlir", options, out, &stats)) {
      llvm::errs() << "error: " << llvm::toString(std::move(err)) << "\n";
      return 1;
    }
    total.push_back(msSince(start));
    parse.push_back(stats.parse);
    pipeline.push_back(stats.pipeline);
    codegen.push_back(stats.codegen);
    link.push_back(stats.link);
  }
  // Cache hits: lookup + checksum + dlopen + manifest.
  std::string cacheDir = (dir + "/cache").str();
  if (llvm::Expected<CachedObject> first =
          getOrCompile(source, "mlp.mlir", options, cacheDir);
      !first) {
    llvm::errs() << "error: " << llvm::toString(first.takeError()) << "\n";
    return 1;
  }
  std::vector<double> hits;
  for (int i = 0; i < 50; ++i) {
    auto start = Clock::now();
    llvm::Expected<CachedObject> cached =
        getOrCompile(source, "mlp.mlir", options, cacheDir);
    if (!cached) {
      llvm::errs() << "error: " << llvm::toString(cached.takeError()) << "\n";
      return 1;
    }
    google_rt_module *module = nullptr;
    google_rt_status status =
        google_rt_module_load(cached->path.c_str(), &module);
    hits.push_back(msSince(start));
    if (status || !cached->hit)
      return 1;
    google_rt_module_free(module);
  }
  llvm::outs() << "compile " << argv[1] << llvm::format(
      ", cold (medians): parse %.1f + pipeline %.1f + codegen %.1f + link "
      "%.1f ms = %.1f ms\n",
      median(parse), median(pipeline), median(codegen), median(link),
      median(total));
  llvm::outs() << "compile " << argv[1]
               << llvm::format(", cache hit + load: %.3f ms\n", median(hits));

  // 2. Per-call overhead.
  std::string tinyPath = (dir + "/tiny.so").str();
  if (llvm::Error err =
          compileToSharedObject(kTiny, "tiny.mlir", options, tinyPath)) {
    llvm::errs() << "error: " << llvm::toString(std::move(err)) << "\n";
    return 1;
  }
  google_rt_module *module = nullptr;
  if (google_rt_module_load(tinyPath.c_str(), &module))
    return 1;
  const google_rt_function *add = google_rt_module_function(module, 0);
  float a[4] = {1, 2, 3, 4}, b[4] = {4, 3, 2, 1}, c[4];
  int64_t shape[1] = {4};
  google_rt_tensor args[2], result;
  google_rt_tensor_view(GOOGLE_RT_F32, 1, shape, a, &args[0]);
  google_rt_tensor_view(GOOGLE_RT_F32, 1, shape, b, &args[1]);
  const int calls = 1000000;
  auto perCall = [&](auto body) {
    std::vector<double> runs;
    for (int r = 0; r < 5; ++r) {
      auto start = Clock::now();
      for (int i = 0; i < calls; ++i)
        body();
      runs.push_back(msSince(start) * 1e6 / calls);
    }
    return median(runs);
  };
  double provided = perCall([&] {
    google_rt_tensor_view(GOOGLE_RT_F32, 1, shape, c, &result);
    google_rt_call(add, args, 2, &result, 1);
  });
  double allocated = perCall([&] {
    std::memset(&result, 0, sizeof(result));
    google_rt_call(add, args, 2, &result, 1);
    google_rt_tensor_release(&result);
  });
  // Baseline: the compiled packed entry called directly.
  void *handle = dlopen(tinyPath.c_str(), RTLD_NOW | RTLD_LOCAL);
  auto entry = reinterpret_cast<void (*)(void **)>(
      dlsym(handle, "_google_packed_add"));
  int64_t da[5] = {(int64_t)a, (int64_t)a, 0, 4, 1};
  int64_t db[5] = {(int64_t)b, (int64_t)b, 0, 4, 1};
  int64_t dc[5] = {(int64_t)c, (int64_t)c, 0, 4, 1};
  void *packed[3] = {da, db, dc};
  double direct = perCall([&] { entry(packed); });
  llvm::outs() << llvm::format(
      "call overhead, 4-element add: google_rt_call %.0f ns (caller "
      "buffer), %.0f ns (runtime-allocated result); compiled entry alone "
      "%.0f ns; overhead %.0f ns\n",
      provided, allocated, direct, provided - direct);
  dlclose(handle);
  google_rt_module_free(module);
  llvm::sys::fs::remove_directories(dir);
  return 0;
}
