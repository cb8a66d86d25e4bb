//===- google-run.cpp - compile or load a module and run a function -------===//

#include "Runner/GoogleRun.h"

#include "llvm/Config/llvm-config.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"

using namespace llvm;

static cl::OptionCategory category("google-run options");

static cl::opt<std::string> module(cl::Positional, cl::Optional,
                                   cl::desc("<module.mlir | - | module.so>"),
                                   cl::cat(category));
static cl::opt<std::string>
    function("function", cl::value_desc("NAME"),
             cl::desc("Function to run (default: the only public function, "
                      "else @main)"),
             cl::cat(category));
static cl::list<std::string>
    inputs("input", cl::value_desc("SPEC"),
           cl::desc("One per argument: @file.npy, 2x3xf32=1 2 3 4 "
                    "5 6, or 2x3xf32=0.5"),
           cl::cat(category));
static cl::list<std::string>
    outputs("output", cl::value_desc("@FILE.npy"),
            cl::desc("One per result, in order: @file.npy"), cl::cat(category));
static cl::list<std::string>
    expectedOutputs("expected_output", cl::value_desc("SPEC"),
                    cl::desc("One per result: the expected value, same forms "
                             "as --input"),
                    cl::cat(category));
static cl::opt<std::string> target("target", cl::init("cpu"),
                                   cl::value_desc("cpu|cuda|rocm"),
                                   cl::desc("Where the function runs"),
                                   cl::cat(category));
// Numbers are parsed here, not by cl::opt<int>: its errors go straight to
// stderr, around the one error line.
static cl::opt<std::string>
    device("device", cl::value_desc("N"),
           cl::desc("The GPU to run on with --target=cuda or rocm (default: "
                    "0)"),
           cl::cat(category));
static cl::opt<bool>
    listDevices("list-devices",
                cl::desc("List the host and the GPUs the drivers report"),
                cl::cat(category));
// Read as text: a bad number is one of our own error lines.
static cl::opt<std::string>
    benchmark("benchmark", cl::desc("Time N calls after one warm-up"),
              cl::value_desc("N"), cl::cat(category));
static cl::opt<bool>
    printAll("print-all",
             cl::desc("Print every element of large results (default: "
                      "NumPy-style summary past 1000 elements)"),
             cl::cat(category));
static cl::opt<std::string>
    emitObject("emit-object", cl::value_desc("FILE.so"),
               cl::desc("Write the compiled shared object and exit"),
               cl::cat(category));
static cl::opt<bool>
    check("check",
          cl::desc("Also run the function with the reference interpreter and "
                   "compare every result with it"),
          cl::cat(category));
static cl::opt<bool> interpret(
    "interpret",
    cl::desc("Run the function with the reference interpreter instead of "
             "compiled code"),
    cl::cat(category));
static cl::opt<std::string> pipelineOptions(
    "pipeline-options", cl::value_desc("OPTIONS"),
    cl::desc("Extra --google-extreme-pipeline options, e.g. \"fuse=false\""),
    cl::cat(category));

static void printVersion(raw_ostream &os) {
  os << "google-run (google-mlir) " GOOGLE_MLIR_VERSION "\n"
     << "  built with LLVM/MLIR " LLVM_VERSION_STRING "\n";
}

int main(int argc, char **argv) {
  InitLLVM initLLVM(argc, argv);
  cl::HideUnrelatedOptions(category);
  cl::SetVersionPrinter(printVersion);
  std::string parseErrors;
  raw_string_ostream errors(parseErrors);
  if (!cl::ParseCommandLineOptions(
          argc, argv,
          "google-run: compile or load a module and run a function\n",
          &errors)) {
    StringRef first = StringRef(parseErrors).trim().split('\n').first;
    first.consume_front("google-run: ");
    errs() << "error: " << first << "\n";
    return 1;
  }
  int64_t calls = 0;
  if (!benchmark.empty() &&
      (StringRef(benchmark).getAsInteger(10, calls) || calls <= 0)) {
    errs() << "error: --benchmark='" << benchmark
           << "': expected a positive number of calls\n";
    return 1;
  }
  int32_t deviceIndex = -1;
  if (!device.empty() &&
      (StringRef(device).getAsInteger(10, deviceIndex) || deviceIndex < 0)) {
    errs() << "error: --device='" << device
           << "': expected a device number (0, 1, ...)\n";
    return 1;
  }
  mlir::google::RunOptions options;
  options.module = module;
  options.function = function;
  options.inputs = inputs;
  options.outputs = outputs;
  options.expectedOutputs = expectedOutputs;
  options.target = target;
  options.device = deviceIndex;
  options.listDevices = listDevices;
  options.benchmark = calls;
  options.printAll = printAll;
  options.emitObject = emitObject;
  options.pipeline = pipelineOptions;
  options.check = check;
  options.interpret = interpret;
  return mlir::google::runGoogleRun(options, outs(), errs());
}
