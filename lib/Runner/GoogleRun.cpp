//===- GoogleRun.cpp - compile or load a module and run one function ------===//

#include "Runner/GoogleRun.h"

#include "CacheIndex.h"
#include "Runner/CompilerServices.h"
#include "Runner/HostTensor.h"
#include "Support/CacheEntry.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <random>

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

/// While compiled code runs, a crash is the code's (a compiler bug), not
/// the tool's: its signals take their default action instead of LLVM's
/// handler, whose stack trace allocates and so hung when the code had
/// corrupted the heap (a deadlock on malloc's lock).
class CompiledCodeSignals {
public:
  CompiledCodeSignals() {
    struct sigaction defaults;
    std::memset(&defaults, 0, sizeof(defaults));
    defaults.sa_handler = SIG_DFL;
    sigemptyset(&defaults.sa_mask);
    for (auto [signal, saved] : llvm::zip(kSignals, savedActions))
      sigaction(signal, &defaults, &saved);
  }
  ~CompiledCodeSignals() {
    for (auto [signal, saved] : llvm::zip(kSignals, savedActions))
      sigaction(signal, &saved, nullptr);
  }
  CompiledCodeSignals(const CompiledCodeSignals &) = delete;
  CompiledCodeSignals &operator=(const CompiledCodeSignals &) = delete;

private:
  static constexpr int kSignals[] = {SIGSEGV, SIGBUS,  SIGFPE,
                                     SIGILL,  SIGABRT, SIGTRAP};
  struct sigaction savedActions[std::size(kSignals)];
};

/// Calls `function` with the compiled code's crashes left to the system.
google_rt_status callCompiled(const google_rt_function *function,
                              std::vector<google_rt_tensor> &args,
                              std::vector<google_rt_tensor> &results) {
  CompiledCodeSignals signals;
  return google_rt_call(function, args.data(), args.size(), results.data(),
                        results.size());
}

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

bool isSharedObject(StringRef data) { return data.starts_with("\177ELF"); }

/// `@a, @b`, or `(none)`.
std::string publicList(ArrayRef<std::string> publicFunctions) {
  std::string names;
  for (auto [i, function] : llvm::enumerate(publicFunctions))
    names += (i ? ", @" : "@") + function;
  return publicFunctions.empty() ? "(none)" : names;
}

/// SPEC: the requested function, else the only public one, else @main.
std::optional<RunError> selectFunction(ArrayRef<std::string> publicFunctions,
                                       StringRef requested, std::string &name) {
  if (!requested.empty()) {
    name = requested.str();
    return std::nullopt;
  }
  if (publicFunctions.size() == 1) {
    name = publicFunctions.front();
    return std::nullopt;
  }
  if (llvm::is_contained(publicFunctions, "main")) {
    name = "main";
    return std::nullopt;
  }
  return RunError{"no --function given and the module has no @main; its "
                  "public functions are: " +
                  publicList(publicFunctions)};
}

/// The function google-run calls, as the compiled object or the reference
/// interpreter describes it.
struct Signature {
  std::string name;
  std::vector<google_rt_tensor_type> arguments, results;
};

/// Whether `tensor` can stand for a value of `type` (a bf16 value may be
/// given as f32).
bool matchesType(const google_rt_tensor_type *type, const HostTensor &tensor) {
  bool matches =
      (tensor.dtype() == type->dtype ||
       (type->dtype == GOOGLE_RT_BF16 && tensor.dtype() == GOOGLE_RT_F32)) &&
      static_cast<int32_t>(tensor.shape().size()) == type->rank;
  for (int32_t d = 0; matches && d < type->rank; ++d)
    matches = type->shape[d] == GOOGLE_RT_DYNAMIC ||
              type->shape[d] == tensor.shape()[d];
  return matches;
}

/// Parses input `index` and checks it against the argument's type. A bf16
/// argument takes f32 values.
std::optional<RunError> prepareInput(const Signature &signature, size_t index,
                                     StringRef spec, HostTensor &tensor) {
  std::string where =
      "@" + signature.name + " argument " + std::to_string(index);
  llvm::Expected<HostTensor> parsed = parseTensorSpec(spec);
  if (!parsed)
    return RunError{where + ": " + llvm::toString(parsed.takeError())};
  tensor = std::move(*parsed);
  const google_rt_tensor_type *type = &signature.arguments[index];
  if (!matchesType(type, tensor))
    return RunError{where + ": expected " + typeText(type) + ", got " +
                    formatTensorType(tensor.shape(), tensor.dtype())};
  if (type->dtype == GOOGLE_RT_BF16 && tensor.dtype() == GOOGLE_RT_F32)
    tensor = tensor.convertTo(GOOGLE_RT_BF16);
  return std::nullopt;
}

/// Parses expected result `index` and checks its element type against the
/// result's (bf16 results compare with f32 values); its shape is compared
/// with the shape the result has once the function ran.
std::optional<RunError> prepareExpected(const Signature &signature,
                                        size_t index, StringRef spec,
                                        HostTensor &tensor) {
  std::string where = "@" + signature.name + " result " + std::to_string(index);
  llvm::Expected<HostTensor> parsed = parseTensorSpec(spec);
  if (!parsed)
    return RunError{where + ": " + llvm::toString(parsed.takeError())};
  tensor = std::move(*parsed);
  const google_rt_tensor_type *type = &signature.results[index];
  if (tensor.dtype() != type->dtype &&
      !(type->dtype == GOOGLE_RT_BF16 && tensor.dtype() == GOOGLE_RT_F32))
    return RunError{where + ": --expected_output is " +
                    formatTensorType(tensor.shape(), tensor.dtype()) +
                    ", the result is " + typeText(type)};
  return std::nullopt;
}

/// Whether `text` (a module in MLIR) defines a private function `name`.
bool definesPrivateFunction(StringRef text, StringRef name) {
  for (StringRef quote : {"", "\""}) {
    std::string needle =
        ("func.func private @" + quote + name + quote + "(").str();
    if (text.contains(needle))
      return true;
  }
  return false;
}

/// The GPU kind a --target names (the host for cpu).
google_rt_device_kind getDeviceKind(StringRef target) {
  return target == "cuda"   ? GOOGLE_RT_DEVICE_CUDA
         : target == "rocm" ? GOOGLE_RT_DEVICE_ROCM
                            : GOOGLE_RT_DEVICE_HOST;
}

/// --list-devices: the host, then each GPU or why there is none.
void listDevices(llvm::raw_ostream &out) {
  google_rt_device host = {GOOGLE_RT_DEVICE_HOST, 0};
  google_rt_device_properties properties;
  if (!check(google_rt_device_get_properties(host, &properties)))
    out << "host: " << properties.name << " (" << properties.multiprocessors
        << " threads)\n";
  for (google_rt_device_kind kind :
       {GOOGLE_RT_DEVICE_CUDA, GOOGLE_RT_DEVICE_ROCM}) {
    StringRef name = google_rt_device_kind_name(kind);
    int32_t count = 0;
    if (std::optional<RunError> error =
            check(google_rt_device_count(kind, &count))) {
      out << name << ": unavailable: " << error->message << "\n";
      continue;
    }
    if (count == 0)
      out << name << ": no devices\n";
    for (int32_t ordinal = 0; ordinal < count; ++ordinal) {
      out << name << ":" << ordinal << ": ";
      if (std::optional<RunError> error = check(
              google_rt_device_get_properties({kind, ordinal}, &properties))) {
        out << "unavailable: " << error->message << "\n";
        continue;
      }
      out << properties.name;
      SmallVector<std::string> details;
      if (properties.arch[0])
        details.push_back(properties.arch);
      details.push_back(
          llvm::formatv("{0:f1} GiB",
                        static_cast<double>(properties.total_memory) /
                            (1 << 30)));
      if (properties.multiprocessors)
        details.push_back(std::to_string(properties.multiprocessors) +
                          " multiprocessors");
      out << " (" << llvm::join(details, ", ") << ")\n";
    }
  }
}

/// Inputs copied to the function's GPU once, so that --benchmark times the
/// calls and not the copies; released with the object.
struct DeviceInputs {
  std::vector<google_rt_tensor> tensors;
  ~DeviceInputs() {
    for (google_rt_tensor &tensor : tensors)
      google_rt_tensor_release(&tensor);
  }
};

/// One google-run: validate the options, obtain the function (a compiled
/// object, cached or compiled now, or the reference interpreter's), run it,
/// report its results. The compiler is loaded only when a step needs it.
class Runner {
public:
  Runner(const RunOptions &options, llvm::raw_ostream &out)
      : options(options), out(out) {}
  ~Runner() { removeTemporary(); }

  std::optional<RunError> run() {
    if (options.listDevices) {
      listDevices(out);
      return std::nullopt;
    }
    if (std::optional<RunError> error = validate())
      return error;
    if (options.interpret) {
      if (std::optional<RunError> error = openReference())
        return error;
    } else {
      bool emittedOnly = false;
      if (std::optional<RunError> error = obtainObject(emittedOnly))
        return error;
      if (emittedOnly)
        return std::nullopt;
      if (std::optional<RunError> error = loadFunction())
        return error;
    }
    for (auto step : {&Runner::prepareArguments, &Runner::execute,
                      &Runner::report, &Runner::benchmark})
      if (std::optional<RunError> error = (this->*step)())
        return error;
    return std::nullopt;
  }

private:
  //===--- validate ---===//

  std::optional<RunError> validate() {
    if (options.module.empty())
      return RunError{"no module given: google-run MODULE [options] (see "
                      "--help)"};
    if (options.target != "cpu" && options.target != "cuda" &&
        options.target != "rocm")
      return RunError{"unknown --target='" + options.target +
                      "'; expected cpu, cuda or rocm"};
    deviceKind = getDeviceKind(options.target);
    static const char *const pipelineTargets[] = {"cpu", "nvvm", "rocdl"};
    pipelineTarget = pipelineTargets[deviceKind];
    pipeline = "target=" + pipelineTarget + " " + options.pipeline;
    if (options.device >= 0 && deviceKind == GOOGLE_RT_DEVICE_HOST)
      return RunError{"--device selects a GPU; it goes with --target=cuda or "
                      "--target=rocm"};
    if (options.interpret && deviceKind != GOOGLE_RT_DEVICE_HOST)
      return RunError{"--interpret runs the reference interpreter on the "
                      "host; it does not go with --target=" +
                      options.target};
    // Options for a GPU or the interpreter need the compiler anyway; a CPU
    // run checks them once it is known whether the cache has the object.
    if (!options.pipeline.empty() &&
        (deviceKind != GOOGLE_RT_DEVICE_HOST || options.interpret))
      if (std::optional<RunError> error = checkPipeline())
        return error;
    // Running on a GPU needs its driver and the device, before compiling.
    if (deviceKind != GOOGLE_RT_DEVICE_HOST && options.emitObject.empty())
      if (std::optional<RunError> error = check(google_rt_device_select(
              {deviceKind, options.device >= 0 ? options.device : 0})))
        return error;
    if (options.benchmark < 0)
      return RunError{"--benchmark must be a positive number of calls"};
    if (options.interpret &&
        (options.check || options.benchmark || !options.emitObject.empty()))
      return RunError{"--interpret runs the reference interpreter instead of "
                      "compiled code; it does not go with --check, "
                      "--benchmark or --emit-object"};
    if (options.check && !options.emitObject.empty())
      return RunError{"--check runs the function; it does not go with "
                      "--emit-object"};
    return std::nullopt;
  }

  /// The compiler, loaded on first use; `purpose` completes the error.
  std::optional<RunError> loadCompiler(const std::string &purpose) {
    if (compiler)
      return std::nullopt;
    llvm::Expected<CompilerServices *> loaded = loadCompilerServices();
    if (!loaded)
      return RunError{llvm::toString(loaded.takeError()) +
                      " (it is needed to " + purpose + ")"};
    compiler = *loaded;
    return std::nullopt;
  }

  /// Parses the pipeline options, which must not ask for another target.
  std::optional<RunError> checkPipeline() {
    if (pipelineChecked)
      return std::nullopt;
    if (std::optional<RunError> error =
            loadCompiler("read --pipeline-options"))
      return error;
    std::string error;
    FailureOr<std::string> target = compiler->parsePipeline(pipeline, error);
    if (failed(target))
      return RunError{error};
    if (*target != pipelineTarget)
      return RunError{"--pipeline-options='" + options.pipeline +
                      "' compiles for another target than --target=" +
                      options.target + " (target=" + pipelineTarget + ")"};
    pipelineChecked = true;
    return std::nullopt;
  }

  //===--- obtain the function ---===//

  /// The module's bytes into `data`, its name for messages into `name`.
  std::optional<RunError> readModule() {
    bool fromStdin = options.module == "-";
    llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
        fromStdin ? llvm::MemoryBuffer::getSTDIN()
                  : llvm::MemoryBuffer::getFile(
                        options.module, /*IsText=*/false,
                        /*RequiresNullTerminator=*/false);
    if (!buffer)
      return RunError{"cannot open module '" + options.module +
                      "': " + buffer.getError().message()};
    data = (*buffer)->getBuffer().str();
    name = fromStdin ? "<stdin>"
                     : llvm::sys::path::filename(options.module).str();
    return std::nullopt;
  }

  /// The compiled object for the module: the module itself when it is one,
  /// the cache's (found through its index without the compiler), or
  /// compiled now. Handles --emit-object.
  std::optional<RunError> obtainObject(bool &emittedOnly) {
    if (std::optional<RunError> error = readModule())
      return error;
    if (isSharedObject(data)) {
      if (!options.pipeline.empty())
        if (std::optional<RunError> error = checkPipeline())
          return error;
      if (options.module == "-") {
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
      if (StringRef(data).trim().empty())
        return RunError{"module '" + name + "' is empty"};
      moduleText = data;
      if (std::optional<RunError> error = compileThroughCache())
        return error;
    }
    if (!options.emitObject.empty()) {
      if (llvm::Error err = exportCachePayload(objectPath, options.emitObject))
        return RunError{llvm::toString(std::move(err))};
      emittedOnly = true;
      removeTemporary();
    }
    return std::nullopt;
  }

  std::optional<RunError> compileThroughCache() {
    auto start = std::chrono::steady_clock::now();
    std::string directory = getDefaultCacheDirectory();
    std::string indexKey = deviceKind == GOOGLE_RT_DEVICE_HOST
                               ? getCacheIndexKey(data, pipeline, directory)
                               : "";
    if (!indexKey.empty())
      if (std::optional<std::string> path =
              lookupCacheIndex(directory, indexKey)) {
        objectPath = *path;
        if (const char *log = std::getenv("GOOGLE_MLIR_LOG_COMPILES");
            log && StringRef(log) == "1")
          llvm::errs() << llvm::format(
              "google-mlir: cache hit for %s (%s) in %.2f ms\n", name.c_str(),
              llvm::sys::path::stem(objectPath).str().c_str(),
              std::chrono::duration<double, std::milli>(
                  std::chrono::steady_clock::now() - start)
                  .count());
        return std::nullopt;
      }
    if (std::optional<RunError> error = loadCompiler("compile " + name))
      return error;
    if (std::optional<RunError> error = checkPipeline())
      return error;
    std::string error;
    FailureOr<CompiledObject> compiled =
        compiler->compile(data, name, pipeline, directory, error);
    if (failed(compiled))
      return RunError{error};
    objectPath = compiled->path;
    temporary = compiled->temporary;
    if (!temporary)
      recordCacheIndex(directory, indexKey, objectPath);
    return std::nullopt;
  }

  void removeTemporary() {
    if (temporary)
      llvm::sys::fs::remove(objectPath);
    temporary = false;
  }

  /// Loads the object and looks up the function to run.
  std::optional<RunError> loadFunction() {
    google_rt_module *rawModule = nullptr;
    std::optional<RunError> loaded =
        check(google_rt_module_load(objectPath.c_str(), &rawModule));
    // A temporary object is not needed once loaded.
    removeTemporary();
    if (loaded) {
      // An object compiled here (a cache entry) goes by the module's name.
      if (objectPath != options.module)
        for (StringRef object :
             {StringRef(objectPath), llvm::sys::path::filename(objectPath)}) {
          size_t at = loaded->message.find(object.str());
          if (at == std::string::npos)
            continue;
          loaded->message.replace(at, object.size(), options.module);
          break;
        }
      return loaded;
    }
    module.reset(rawModule);
    google_rt_device_kind moduleKind =
        google_rt_module_device(module.get()).kind;
    if (moduleKind != deviceKind) {
      std::string runsOn = moduleKind == GOOGLE_RT_DEVICE_HOST
                               ? "the CPU"
                               : google_rt_device_kind_name(moduleKind);
      std::string target = moduleKind == GOOGLE_RT_DEVICE_HOST
                               ? "cpu"
                               : google_rt_device_kind_name(moduleKind);
      return RunError{"module '" + options.module +
                      "' was compiled to run on " + runsOn +
                      "; run it with --target=" + target +
                      " (given: --target=" + options.target + ")"};
    }
    if (options.check && moduleText.empty())
      return RunError{"--check needs the module as MLIR in the google "
                      "dialect, not a compiled object"};
    std::vector<std::string> publicFunctions;
    for (size_t i = 0, e = google_rt_module_num_functions(module.get()); i < e;
         ++i)
      publicFunctions.push_back(
          google_rt_function_name(google_rt_module_function(module.get(), i)));
    std::string selected;
    if (std::optional<RunError> error =
            selectFunction(publicFunctions, options.function, selected))
      return error;
    if (std::optional<RunError> error = check(google_rt_module_lookup(
            module.get(), selected.c_str(), &function))) {
      if (definesPrivateFunction(moduleText, selected))
        error->message = "@" + selected +
                         " is private: only public functions can be run "
                         "(remove `private`); the public functions are: " +
                         publicList(publicFunctions);
      return error;
    }
    signature.name = google_rt_function_name(function);
    for (size_t i = 0, e = google_rt_function_num_args(function); i < e; ++i)
      signature.arguments.push_back(*google_rt_function_arg_type(function, i));
    for (size_t i = 0, e = google_rt_function_num_results(function); i < e;
         ++i)
      signature.results.push_back(*google_rt_function_result_type(function, i));
    return std::nullopt;
  }

  /// Parses `moduleText` for the reference interpreter.
  std::optional<RunError> parseReference(const std::string &purpose,
                                         std::unique_ptr<ReferenceModule> &into,
                                         std::string &error) {
    if (std::optional<RunError> loadError = loadCompiler(purpose))
      return loadError;
    into = compiler->parseReference(moduleText, options.module, error);
    return std::nullopt;
  }

  /// --interpret: the reference interpreter instead of compiled code.
  std::optional<RunError> openReference() {
    if (std::optional<RunError> error = readModule())
      return error;
    if (isSharedObject(data))
      return RunError{"--interpret needs the module as MLIR in the google "
                      "dialect, not a compiled object"};
    if (StringRef(data).trim().empty())
      return RunError{"module '" + options.module + "' is empty"};
    moduleText = data;
    std::string error;
    if (std::optional<RunError> loadError =
            parseReference("interpret " + name, reference, error))
      return loadError;
    if (!reference)
      return RunError{error};
    if (std::optional<RunError> notFound = selectFunction(
            reference->getPublicFunctions(),
            StringRef(options.function).ltrim('@'), signature.name))
      return notFound;
    if (failed(reference->getSignature(signature.name, signature.arguments,
                                       signature.results, error)))
      return RunError{error};
    return std::nullopt;
  }

  //===--- run ---===//

  std::optional<RunError> prepareArguments() {
    const std::string &fn = signature.name;
    size_t numArgs = signature.arguments.size();
    size_t numResults = signature.results.size();
    if (options.inputs.size() != numArgs) {
      std::string types;
      for (size_t i = 0; i < numArgs; ++i)
        types += (i ? ", " : "") + typeText(&signature.arguments[i]);
      return RunError{"@" + fn + " takes " + std::to_string(numArgs) +
                      " input" + (numArgs == 1 ? "" : "s") +
                      (numArgs ? " (" + types + ")" : "") + ", got " +
                      std::to_string(options.inputs.size()) + " --input"};
    }
    if (options.outputs.size() > numResults ||
        options.expectedOutputs.size() > numResults)
      return RunError{
          "@" + fn + " has " + std::to_string(numResults) + " result" +
          (numResults == 1 ? "" : "s") + ", got " +
          std::to_string(std::max(options.outputs.size(),
                                  options.expectedOutputs.size())) +
          (options.outputs.size() > numResults ? " --output"
                                               : " --expected_output")};
    for (StringRef output : options.outputs)
      if (!output.starts_with("@") || output.size() == 1)
        return RunError{"--output='" + output.str() +
                        "': expected @FILE.npy"};
    inputs.resize(numArgs);
    args.resize(numArgs);
    for (size_t i = 0; i < numArgs; ++i) {
      if (std::optional<RunError> error =
              prepareInput(signature, i, options.inputs[i], inputs[i]))
        return error;
      args[i] = inputs[i].view();
    }
    expected.resize(options.expectedOutputs.size());
    for (size_t i = 0; i < expected.size(); ++i)
      if (std::optional<RunError> error = prepareExpected(
              signature, i, options.expectedOutputs[i], expected[i]))
        return error;
    return std::nullopt;
  }

  /// Calls the function (or interprets it); with --check, compares with the
  /// reference interpreter.
  std::optional<RunError> execute() {
    const std::string &fn = signature.name;
    if (options.interpret) {
      std::string error;
      FailureOr<std::vector<HostTensor>> interpreted =
          reference->run(fn, inputs, error);
      if (failed(interpreted))
        return RunError{"@" + fn + ": " + error};
      values = std::move(*interpreted);
      return std::nullopt;
    }
    // The reference first: its verdict decides how a failed call reads.
    std::optional<std::vector<HostTensor>> referenceValues;
    std::string referenceError;
    std::unique_ptr<ReferenceModule> checked;
    if (options.check) {
      if (std::optional<RunError> error =
              parseReference("run --check", checked, referenceError))
        return error;
      if (!checked)
        return RunError{"--check: the reference interpreter " +
                        referenceError};
      bool unsupported = false;
      FailureOr<std::vector<HostTensor>> interpreted =
          checked->run(fn, inputs, referenceError, &unsupported);
      if (unsupported)
        return RunError{"--check: " + referenceError};
      if (succeeded(interpreted))
        referenceValues = std::move(*interpreted);
    }
    size_t numResults = signature.results.size();
    Results results(numResults);
    // Inputs are passed without a copy; the compiled code must leave them
    // as they were.
    std::vector<HostTensor> inputsBefore = inputs;
    if (std::optional<RunError> error =
            check(callCompiled(function, args, results.tensors))) {
      if (referenceValues)
        error->message = "the compiled code failed where the reference "
                         "interpreter computed every result: " +
                         error->message;
      return error;
    }
    for (size_t i = 0; i < inputs.size(); ++i)
      if (inputs[i].numBytes() &&
          std::memcmp(inputs[i].data(), inputsBefore[i].data(),
                      inputs[i].numBytes()) != 0)
        return RunError{"@" + fn + ": the compiled code wrote into input " +
                        std::to_string(i) + ", which it must leave unchanged"};
    for (const google_rt_tensor &tensor : results.tensors)
      values.push_back(HostTensor::copyOf(tensor));
    if (!options.check)
      return std::nullopt;
    if (!referenceValues)
      return RunError{"@" + fn +
                      ": the compiled code returned results "
                      "where the reference interpreter reports: " +
                      referenceError};
    // Floats within what rounding may do (computed in f64 with a bound);
    // integers exactly as the interpreter has them.
    std::string mismatch;
    bool covered = false;
    if (failed(checked->checkWithinBounds(fn, inputs, values,
                                          *referenceValues, mismatch,
                                          covered)))
      return RunError{"--check: " + mismatch};
    if (!covered) {
      if (llvm::Error err = compareWithReference(fn, values, *referenceValues))
        return RunError{llvm::toString(std::move(err))};
      return std::nullopt;
    }
    for (size_t i = 0; i < values.size(); ++i) {
      google_rt_dtype dtype = values[i].dtype();
      if (dtype != GOOGLE_RT_I32 && dtype != GOOGLE_RT_I64 &&
          dtype != GOOGLE_RT_I1)
        continue;
      if (llvm::Error err = compareTensors(values[i], (*referenceValues)[i]))
        return RunError{"@" + fn + " result " + std::to_string(i) +
                        " differs from the reference interpreter: " +
                        llvm::toString(std::move(err))};
    }
    return std::nullopt;
  }

  //===--- report ---===//

  /// GOOGLE_MLIR_DEBUG_NANS=1 (SPEC section 6): a result holding a NaN
  /// fails the run, naming the first op that produced one (the reference
  /// interpreter replays the google-dialect module) or the argument that
  /// brought it in.
  std::optional<RunError> checkNaNs() {
    const char *flag = std::getenv("GOOGLE_MLIR_DEBUG_NANS");
    if (!flag || StringRef(flag) != "1")
      return std::nullopt;
    std::optional<size_t> bad;
    for (size_t i = 0; i < values.size() && !bad; ++i) {
      const HostTensor &value = values[i];
      if (value.dtype() == GOOGLE_RT_I32 || value.dtype() == GOOGLE_RT_I64 ||
          value.dtype() == GOOGLE_RT_I1 || value.dtype() == GOOGLE_RT_I8)
        continue;
      for (int64_t n = 0, e = value.numElements(); n < e; ++n)
        if (std::isnan(value.getDouble(n))) {
          bad = i;
          break;
        }
    }
    if (!bad)
      return std::nullopt;
    const std::string &fn = signature.name;
    std::string prefix = "@" + fn + ": ";
    std::string suffix = " (GOOGLE_MLIR_DEBUG_NANS)";
    std::unique_ptr<ReferenceModule> parsed;
    const ReferenceModule *replay = reference.get();
    std::string error;
    if (!replay && !moduleText.empty()) {
      if (std::optional<RunError> loadError =
              parseReference("find the op that produced a NaN", parsed, error))
        error = loadError->message;
      replay = parsed.get();
    }
    std::optional<std::string> found;
    if (replay)
      found = replay->findFirstNaN(fn, inputs, error);
    else if (error.empty())
      error = "the op that produced it is named for a module in the google "
              "dialect, not a compiled object";
    if (found)
      return RunError{prefix + *found + suffix};
    return RunError{prefix + "result " + std::to_string(*bad) +
                    " contains NaN" + suffix +
                    (error.empty() ? "; replaying the module found no op "
                                     "that produced one"
                                   : "; " + error)};
  }

  std::optional<RunError> report() {
    if (std::optional<RunError> error = checkNaNs())
      return error;
    const std::string &fn = signature.name;
    for (size_t i = 0; i < expected.size(); ++i) {
      if (llvm::Error err = compareTensors(values[i], expected[i]))
        return RunError{"@" + fn + " result " + std::to_string(i) + ": " +
                        llvm::toString(std::move(err))};
    }
    for (size_t i = 0; i < options.outputs.size(); ++i) {
      if (llvm::Error err =
              writeNpy(StringRef(options.outputs[i]).drop_front(), values[i]))
        return RunError{"@" + fn + " result " + std::to_string(i) + ": " +
                        llvm::toString(std::move(err))};
    }
    size_t numResults = signature.results.size();
    for (size_t i = options.outputs.size(); i < numResults; ++i)
      out << "result[" << i
          << "]: " << formatTensor(values[i], !options.printAll) << "\n";
    if (options.check)
      out << "check: @" << fn << ": " << numResults
          << (numResults == 1 ? " result matches" : " results match")
          << " the reference interpreter\n";
    return std::nullopt;
  }

  std::optional<RunError> benchmark() {
    if (options.benchmark <= 0)
      return std::nullopt;
    size_t numResults = signature.results.size();
    Results results(numResults);
    // On a GPU, inputs stay on the device and results are left there.
    google_rt_device device = google_rt_module_device(module.get());
    DeviceInputs onDevice;
    std::vector<google_rt_tensor> callArgs = args;
    if (device.kind != GOOGLE_RT_DEVICE_HOST) {
      for (const google_rt_tensor &arg : args) {
        google_rt_tensor copy;
        if (std::optional<RunError> error = check(google_rt_tensor_alloc_on(
                device, arg.dtype, arg.rank, arg.shape, &copy)))
          return error;
        onDevice.tensors.push_back(copy);
        if (std::optional<RunError> error =
                check(google_rt_tensor_copy(&arg, &onDevice.tensors.back())))
          return error;
      }
      callArgs = onDevice.tensors;
    }
    auto prepareResults = [&] {
      for (google_rt_tensor &tensor : results.tensors)
        tensor.device = device;
    };
    prepareResults();
    // Exact min, mean and standard deviation (Welford); the median from a
    // uniform sample of at most kSamples calls, so memory stays flat.
    constexpr size_t kSamples = 1 << 16;
    std::vector<double> sample;
    std::mt19937_64 random(0);
    double minimum = INFINITY, mean = 0, squares = 0;
    // Set once for the whole loop, outside the timed calls.
    CompiledCodeSignals signals;
    for (int64_t n = 0; n < options.benchmark; ++n) {
      auto start = std::chrono::steady_clock::now();
      google_rt_status status =
          google_rt_call(function, callArgs.data(), callArgs.size(),
                         results.tensors.data(), results.tensors.size());
      results.reset();
      prepareResults();
      double time = std::chrono::duration<double, std::micro>(
                        std::chrono::steady_clock::now() - start)
                        .count();
      if (std::optional<RunError> error = check(status))
        return error;
      minimum = std::min(minimum, time);
      double delta = time - mean;
      mean += delta / static_cast<double>(n + 1);
      squares += delta * (time - mean);
      if (sample.size() < kSamples) {
        sample.push_back(time);
      } else {
        uint64_t slot = random() % static_cast<uint64_t>(n + 1);
        if (slot < kSamples)
          sample[slot] = time;
      }
    }
    std::nth_element(sample.begin(), sample.begin() + sample.size() / 2,
                     sample.end());
    double deviation =
        options.benchmark > 1
            ? std::sqrt(squares / static_cast<double>(options.benchmark - 1))
            : 0;
    out << llvm::format("benchmark: @%s, %lld calls: min %.3f us, median "
                        "%.3f us, mean %.3f us, stddev %.3f us per call\n",
                        signature.name.c_str(), (long long)options.benchmark,
                        minimum, sample[sample.size() / 2], mean, deviation);
    return std::nullopt;
  }

  const RunOptions &options;
  llvm::raw_ostream &out;
  google_rt_device_kind deviceKind = GOOGLE_RT_DEVICE_HOST;
  /// "cpu", "nvvm" or "rocdl", and the options with it.
  std::string pipelineTarget, pipeline;
  bool pipelineChecked = false;
  CompilerServices *compiler = nullptr;
  /// The module's bytes, its name in messages, and its text when MLIR.
  std::string data, name, moduleText;
  std::string objectPath;
  bool temporary = false;
  ModulePtr module;
  const google_rt_function *function = nullptr;
  std::unique_ptr<ReferenceModule> reference;
  Signature signature;
  std::vector<HostTensor> inputs, expected, values;
  std::vector<google_rt_tensor> args;
};
} // namespace

int google::runGoogleRun(const RunOptions &options, llvm::raw_ostream &out,
                         llvm::raw_ostream &err) {
  std::string printed;
  llvm::raw_string_ostream buffered(printed);
  if (std::optional<RunError> error = Runner(options, buffered).run()) {
    err << "error: " << error->message << "\n";
    return 1;
  }
  out << printed;
  return 0;
}
