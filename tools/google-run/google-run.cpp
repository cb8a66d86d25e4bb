//===- google-run.cpp - compile or load a module and run a function -------===//

#include "Runner/GoogleRun.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"

using namespace llvm;

static cl::opt<std::string> module(cl::Positional, cl::Required,
                                   cl::desc("<module.mlir | - | module.so>"));
static cl::opt<std::string>
    function("function",
             cl::desc("Function to run (default: the only public function, "
                      "else @main)"));
static cl::list<std::string>
    inputs("input", cl::desc("One per argument: @file.npy, 2x3xf32=1 2 3 4 "
                             "5 6, or 2x3xf32=0.5"));
static cl::list<std::string>
    outputs("output", cl::desc("One per result, in order: @file.npy"));
static cl::list<std::string>
    expectedOutputs("expected_output",
                    cl::desc("One per result: the expected value, same forms "
                             "as --input"));
static cl::opt<std::string> target("target", cl::init("cpu"),
                                   cl::desc("cpu, cuda or rocm"));
static cl::opt<int> benchmark("benchmark", cl::init(0),
                              cl::desc("Time N calls after one warm-up"));
static cl::opt<std::string>
    emitObject("emit-object",
               cl::desc("Write the compiled shared object and exit"));
static cl::opt<bool>
    check("check",
          cl::desc("Also run the function with the reference interpreter and "
                   "compare every result with it"));
static cl::opt<bool> interpret(
    "interpret",
    cl::desc("Run the function with the reference interpreter instead of "
             "compiled code"));
static cl::opt<std::string> pipelineOptions(
    "pipeline-options",
    cl::desc("Extra --google-extreme-pipeline options, e.g. \"fuse=false\""));

int main(int argc, char **argv) {
  InitLLVM initLLVM(argc, argv);
  std::string parseErrors;
  raw_string_ostream errors(parseErrors);
  if (!cl::ParseCommandLineOptions(
          argc, argv, "google-run: compile or load a module and run a function\n",
          &errors)) {
    StringRef first = StringRef(parseErrors).split('\n').first;
    first.consume_front("google-run: ");
    errs() << "error: " << first << "\n";
    return 2;
  }
  mlir::google::RunOptions options;
  options.module = module;
  options.function = function;
  options.inputs = inputs;
  options.outputs = outputs;
  options.expectedOutputs = expectedOutputs;
  options.target = target;
  options.benchmark = benchmark;
  options.emitObject = emitObject;
  options.pipeline = pipelineOptions;
  options.check = check;
  options.interpret = interpret;
  return mlir::google::runGoogleRun(options, outs(), errs());
}
