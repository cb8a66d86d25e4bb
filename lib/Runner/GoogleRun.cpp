//===- GoogleRun.cpp - compile or load a module and run one function ------===//

#include "Runner/GoogleRun.h"

#include "Compiler/CompileCache.h"
#include "Runner/HostTensor.h"
#include "Runner/Reference.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <chrono>
#include <cstring>

using namespace mlir;
using namespace mlir::google;

namespace {

/// A failure already formatted as one line, without the `error: ` prefix.
struct RunError {
  std::string message;
};

/// Owns a runtime status and turns it into a RunError.
std::optional<RunError> check(google_rt_status status) {
  if (!status)
    return std::nullopt;
  RunError error{google_rt_status_message(status)};
  google_rt_status_free(status);
  return error;
}

struct ModuleDeleter {
  void operator()(google_rt_module *module) const {
    google_rt_module_free(module);
  }
};
using ModulePtr = std::unique_ptr<google_rt_module, ModuleDeleter>;

/// Results released on scope exit.
struct Results {
  std::vector<google_rt_tensor> tensors;
  explicit Results(size_t count) : tensors(count) {
    for (google_rt_tensor &tensor : tensors)
      std::memset(&tensor, 0, sizeof(tensor));
  }
  ~Results() {
    for (google_rt_tensor &tensor : tensors)
      google_rt_tensor_release(&tensor);
  }
  void reset() {
    for (google_rt_tensor &tensor : tensors) {
      google_rt_tensor_release(&tensor);
      std::memset(&tensor, 0, sizeof(tensor));
    }
  }
};

std::string typeText(const google_rt_tensor_type *type) {
  char buffer[256];
  google_rt_tensor_type_format(type, buffer, sizeof(buffer));
  return buffer;
}

bool isSharedObject(StringRef data) { return data.starts_with("\x7f" "ELF"); }

/// Compiles (through the cache) or takes the shared object; returns its
/// path, and the module's text when it is MLIR. `--emit-object` is handled
/// here too.
std::optional<RunError> obtainObject(const RunOptions &options,
                                     std::string &objectPath,
                                     std::string &moduleText,
                                     bool &emittedOnly, bool &temporary) {
  emittedOnly = false;
  temporary = false;
  bool fromStdin = options.module == "-";
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      fromStdin ? llvm::MemoryBuffer::getSTDIN()
                : llvm::MemoryBuffer::getFile(options.module, /*IsText=*/false,
                                              /*RequiresNullTerminator=*/false);
  if (!buffer)
    return RunError{"cannot open module '" + options.module +
                    "': " + buffer.getError().message()};
  StringRef data = (*buffer)->getBuffer();
  std::string name =
      fromStdin ? "<stdin>" : llvm::sys::path::filename(options.module).str();
  std::string error;

  if (isSharedObject(data)) {
    if (fromStdin) {
      SmallString<128> path;
      int fd;
      if (llvm::sys::fs::createTemporaryFile("google-run", "so", fd, path))
        return RunError{"cannot create a temporary file"};
      llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
      os << data;
      objectPath = path.str().str();
      temporary = true;
    } else {
      objectPath = options.module;
    }
  } else {
    if (data.trim().empty())
      return RunError{"module '" + name + "' is empty"};
    moduleText = data.str();
    CompileOptions compileOptions = getDefaultCompileOptions();
    compileOptions.pipeline = options.pipeline;
    FailureOr<CachedObject> cached =
        getOrCompile(data, name, compileOptions, getDefaultCacheDirectory(),
                     error);
    if (failed(cached))
      return RunError{error};
    objectPath = cached->path;
    temporary = cached->temporary;
  }
  if (!options.emitObject.empty()) {
    if (failed(exportSharedObject(objectPath, options.emitObject, error)))
      return RunError{error};
    emittedOnly = true;
  }
  return std::nullopt;
}

std::optional<RunError> selectFunction(const google_rt_module *module,
                                       StringRef requested,
                                       const google_rt_function *&function) {
  if (!requested.empty())
    return check(google_rt_module_lookup(module, requested.str().c_str(),
                                         &function));
  size_t count = google_rt_module_num_functions(module);
  if (count == 1) {
    function = google_rt_module_function(module, 0);
    return std::nullopt;
  }
  if (std::optional<RunError> notFound =
          check(google_rt_module_lookup(module, "main", &function))) {
    std::string names;
    for (size_t i = 0; i < count; ++i)
      names += (i ? ", @" : "@") +
               std::string(google_rt_function_name(
                   google_rt_module_function(module, i)));
    return RunError{"no --function given and the module has no @main; its "
                    "public functions are: " +
                    (count ? names : "(none)")};
  }
  return std::nullopt;
}

/// Parses input `index` and checks it against the argument's type. A bf16
/// argument takes f32 values.
std::optional<RunError> prepareInput(const google_rt_function *function,
                                     size_t index, StringRef spec,
                                     HostTensor &tensor) {
  std::string where = "@" + std::string(google_rt_function_name(function)) +
                      " argument " + std::to_string(index);
  std::string error;
  if (failed(parseTensorSpec(spec, tensor, error)))
    return RunError{where + ": " + error};
  const google_rt_tensor_type *type =
      google_rt_function_arg_type(function, index);
  if (type->dtype == GOOGLE_RT_BF16 && tensor.dtype() == GOOGLE_RT_F32)
    tensor = tensor.convertTo(GOOGLE_RT_BF16);
  bool matches = tensor.dtype() == type->dtype &&
                 static_cast<int32_t>(tensor.shape().size()) == type->rank;
  for (int32_t d = 0; matches && d < type->rank; ++d)
    matches = type->shape[d] == GOOGLE_RT_DYNAMIC ||
              type->shape[d] == tensor.shape()[d];
  if (!matches)
    return RunError{where + ": expected " + typeText(type) + ", got " +
                    formatTensorType(tensor.shape(), tensor.dtype())};
  return std::nullopt;
}

std::optional<RunError> prepareExpected(const google_rt_function *function,
                                        size_t index, StringRef spec,
                                        HostTensor &tensor) {
  std::string error;
  if (failed(parseTensorSpec(spec, tensor, error)))
    return RunError{"@" + std::string(google_rt_function_name(function)) +
                    " result " + std::to_string(index) + ": " + error};
  return std::nullopt;
}

std::optional<RunError> run(const RunOptions &options, llvm::raw_ostream &out) {
  if (options.target == "cuda" || options.target == "rocm")
    return RunError{"--target=" + options.target +
                    " is not supported yet; only --target=cpu is"};
  if (options.target != "cpu")
    return RunError{"unknown --target='" + options.target +
                    "'; expected cpu, cuda or rocm"};
  if (options.benchmark < 0)
    return RunError{"--benchmark must be a positive number of calls"};

  if (options.check && !options.emitObject.empty())
    return RunError{"--check runs the function; it does not go with "
                    "--emit-object"};
  std::string objectPath, moduleText;
  bool emittedOnly, temporary;
  std::optional<RunError> obtained =
      obtainObject(options, objectPath, moduleText, emittedOnly, temporary);
  // A temporary object is not needed once loaded (or emitted).
  llvm::scope_exit removeTemporary([&] {
    if (temporary)
      llvm::sys::fs::remove(objectPath);
  });
  if (obtained)
    return obtained;
  if (emittedOnly)
    return std::nullopt;

  google_rt_module *rawModule = nullptr;
  std::optional<RunError> loaded =
      check(google_rt_module_load(objectPath.c_str(), &rawModule));
  if (temporary)
    llvm::sys::fs::remove(objectPath);
  temporary = false;
  if (loaded)
    return loaded;
  if (options.check && moduleText.empty())
    return RunError{"--check needs the module as MLIR in the google dialect, "
                    "not a compiled object"};
  ModulePtr module(rawModule);
  const google_rt_function *function = nullptr;
  if (std::optional<RunError> error =
          selectFunction(module.get(), options.function, function))
    return error;
  std::string name = google_rt_function_name(function);
  size_t numArgs = google_rt_function_num_args(function);
  size_t numResults = google_rt_function_num_results(function);

  if (options.inputs.size() != numArgs) {
    std::string types;
    for (size_t i = 0; i < numArgs; ++i)
      types += (i ? ", " : "") +
               typeText(google_rt_function_arg_type(function, i));
    return RunError{"@" + name + " takes " + std::to_string(numArgs) +
                    " input" + (numArgs == 1 ? "" : "s") +
                    (numArgs ? " (" + types + ")" : "") + ", got " +
                    std::to_string(options.inputs.size()) + " --input"};
  }
  if (options.outputs.size() > numResults ||
      options.expectedOutputs.size() > numResults)
    return RunError{"@" + name + " has " + std::to_string(numResults) +
                    " result" + (numResults == 1 ? "" : "s") + ", got " +
                    std::to_string(std::max(options.outputs.size(),
                                            options.expectedOutputs.size())) +
                    (options.outputs.size() > numResults ? " --output"
                                                         : " --expected_output")};
  for (StringRef output : options.outputs)
    if (!output.starts_with("@") || output.size() == 1)
      return RunError{"--output='" + output.str() +
                      "': expected @FILE.npy"};

  std::vector<HostTensor> inputs(numArgs);
  std::vector<google_rt_tensor> args(numArgs);
  for (size_t i = 0; i < numArgs; ++i) {
    if (std::optional<RunError> error =
            prepareInput(function, i, options.inputs[i], inputs[i]))
      return error;
    args[i] = inputs[i].view();
  }
  std::vector<HostTensor> expected(options.expectedOutputs.size());
  for (size_t i = 0; i < expected.size(); ++i)
    if (std::optional<RunError> error = prepareExpected(
            function, i, options.expectedOutputs[i], expected[i]))
      return error;

  // The reference first: its verdict decides how a failed call reads.
  std::optional<std::vector<HostTensor>> reference;
  std::string referenceError;
  if (options.check) {
    bool unsupported = false;
    FailureOr<std::vector<HostTensor>> interpreted =
        interpretModule(moduleText, options.module, name, inputs,
                        referenceError, &unsupported);
    if (unsupported)
      return RunError{"--check: " + referenceError};
    if (succeeded(interpreted))
      reference = std::move(*interpreted);
  }

  Results results(numResults);
  if (std::optional<RunError> error =
          check(google_rt_call(function, args.data(), numArgs,
                               results.tensors.data(), numResults))) {
    if (reference)
      error->message = "the compiled code failed where the reference "
                       "interpreter computed every result: " +
                       error->message;
    return error;
  }
  std::vector<HostTensor> values;
  for (const google_rt_tensor &tensor : results.tensors)
    values.push_back(HostTensor::copyOf(tensor));
  results.reset();
  if (options.check) {
    if (!reference)
      return RunError{"@" + name + ": the compiled code returned results "
                      "where the reference interpreter reports: " +
                      referenceError};
    std::string mismatch;
    if (failed(compareWithReference(name, values, *reference, mismatch)))
      return RunError{mismatch};
  }

  for (size_t i = 0; i < expected.size(); ++i) {
    std::string error;
    if (failed(compareTensors(values[i], expected[i], error)))
      return RunError{"@" + name + " result " + std::to_string(i) + ": " +
                      error};
  }
  for (size_t i = 0; i < options.outputs.size(); ++i) {
    std::string error;
    if (failed(writeNpy(StringRef(options.outputs[i]).drop_front(), values[i],
                        error)))
      return RunError{"@" + name + " result " + std::to_string(i) + ": " +
                      error};
  }
  for (size_t i = options.outputs.size(); i < numResults; ++i)
    out << "result[" << i << "]: " << formatTensor(values[i]) << "\n";
  if (options.check)
    out << "check: @" << name << ": " << numResults
        << (numResults == 1 ? " result matches" : " results match")
        << " the reference interpreter\n";

  if (options.benchmark > 0) {
    std::vector<double> times;
    for (int64_t n = 0; n < options.benchmark; ++n) {
      auto start = std::chrono::steady_clock::now();
      google_rt_status status = google_rt_call(
          function, args.data(), numArgs, results.tensors.data(), numResults);
      results.reset();
      times.push_back(std::chrono::duration<double, std::micro>(
                          std::chrono::steady_clock::now() - start)
                          .count());
      if (std::optional<RunError> error = check(status))
        return error;
    }
    std::sort(times.begin(), times.end());
    double mean = 0;
    for (double t : times)
      mean += t / times.size();
    out << llvm::format("benchmark: @%s, %lld calls: min %.3f us, median "
                        "%.3f us, mean %.3f us per call\n",
                        name.c_str(), (long long)options.benchmark, times[0],
                        times[times.size() / 2], mean);
  }
  return std::nullopt;
}

} // namespace

int google::runGoogleRun(const RunOptions &options, llvm::raw_ostream &out,
                         llvm::raw_ostream &err) {
  std::string printed;
  llvm::raw_string_ostream buffered(printed);
  if (std::optional<RunError> error = run(options, buffered)) {
    err << "error: " << error->message << "\n";
    return 1;
  }
  out << printed;
  return 0;
}
