//===- Compiler.cpp - MLIR text to a loadable shared object ---------------===//

#include "Compiler/Compiler.h"
#include "ModuleSplitting.h"

#include "Dialect/Google/IR/GoogleDialect.h"
#include "Codegen/GPU/Passes.h"
#include "Pipelines/Pipelines.h"
#include "Support/InstallPaths.h"
#include "Support/ParserGuard.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Target/LLVMIR/Export.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Host.h"

#include "lld/Common/Driver.h"

#include <chrono>
#include <dlfcn.h>
#include <mutex>
#include <sys/stat.h>

LLD_HAS_DRIVER(elf)

using namespace mlir;
using namespace mlir::google;
using llvm::createStringError;
using llvm::Error;
using llvm::Expected;
using llvm::make_error;

/// The directory of libgoogle_runtime: next to the library holding this
/// code when it has one there (an installed libgoogle_compiler), else the
/// build tree's.
static std::string findRuntimeLibraryDir() {
  std::string runtime =
      findNextToLibrary(reinterpret_cast<const void *>(&findRuntimeLibraryDir),
                        "libgoogle_runtime.so", "");
  return runtime.empty()
             ? std::string(GOOGLE_RUNTIME_LIBRARY_DIR)
             : llvm::sys::path::parent_path(runtime).str();
}

CompileOptions google::getDefaultCompileOptions() {
  static const std::string runtimeLibraryDir = findRuntimeLibraryDir();
  CompileOptions options;
  options.runtimeLibraryDir = runtimeLibraryDir;
  if (const char *threads = std::getenv("GOOGLE_MLIR_COMPILE_THREADS"))
    (void)llvm::to_integer(threads, options.codegenThreads);
  if (const char *part = std::getenv("GOOGLE_MLIR_COMPILE_PART_MIN"))
    (void)llvm::to_integer(part, options.minCodegenPartInstructions);
  return options;
}

void google::registerCompilerDialects(DialectRegistry &registry) {
  registerAllDialects(registry);
  registerAllExtensions(registry);
  registerAllToLLVMIRTranslations(registry);
  registry.insert<GoogleDialect>();
}

namespace {

/// One object file's contents.
using ObjectCode = SmallVector<char, 0>;

/// At most this many threads optimize and emit parts of one module.
constexpr unsigned kMaxCodegenThreads = 8;

/// The pass pipeline failed; what went wrong is in the diagnostics.
class PipelineFailed : public llvm::ErrorInfo<PipelineFailed> {
public:
  static char ID;
  void log(raw_ostream &os) const override { os << "the pipeline failed"; }
  std::error_code convertToErrorCode() const override {
    return llvm::inconvertibleErrorCode();
  }
};
char PipelineFailed::ID;

/// Keeps the first error diagnostic as one line.
class FirstErrorHandler {
public:
  explicit FirstErrorHandler(MLIRContext &context)
      : handler(&context, [this](Diagnostic &diag) {
          if (diag.getSeverity() == DiagnosticSeverity::Error &&
              message.empty())
            message = format(diag);
          return success();
        }) {}

  /// The first error, or `fallback` when none was reported.
  std::string take(StringRef fallback) const {
    return message.empty() ? fallback.str() : message;
  }

private:
  static std::string format(Diagnostic &diag) {
    std::string text;
    llvm::raw_string_ostream os(text);
    // The file position, also inside the name the lowering gives locations.
    FileLineColLoc position;
    diag.getLocation()->walk([&](Location loc) {
      position = dyn_cast<FileLineColLoc>(loc);
      return position ? WalkResult::interrupt() : WalkResult::advance();
    });
    if (position)
      os << position.getFilename().getValue() << ":" << position.getLine()
         << ":" << position.getColumn() << ": ";
    os << diag.str();
    // One line: notes and multi-line messages are dropped.
    return text.substr(0, text.find('\n'));
  }

  std::string message;
  ScopedDiagnosticHandler handler;
};

Expected<std::unique_ptr<ExtremePipelineOptions>>
parseAndVerifyOptions(StringRef text) {
  auto options = std::make_unique<ExtremePipelineOptions>();
  if (Error err = google::parseOptions(text, *options))
    return std::move(err);
  if (Error err = verifyOptions(*options))
    return std::move(err);
  return options;
}

/// True when only LLVM dialect ops are left, with device binaries and
/// kernel launches for GPU targets (google-opt's pipeline output).
bool isLoweredToLLVM(ModuleOp module) {
  auto *llvmDialect = module.getContext()->getLoadedDialect<LLVM::LLVMDialect>();
  return !module.getBody()
              ->walk([&](Operation *op) {
                return op->getDialect() == llvmDialect ||
                               isa<gpu::BinaryOp, gpu::LaunchFuncOp>(op)
                           ? WalkResult::advance()
                           : WalkResult::interrupt();
              })
              .wasInterrupted();
}

/// The object links against libgoogle_runtime: the weak stand-ins for its
/// hooks become declarations again.
void dropRuntimeFallbacks(ModuleOp module) {
  for (auto func : module.getOps<LLVM::LLVMFuncOp>()) {
    if (!func->hasAttr(GoogleDialect::kRuntimeFallbackAttrName))
      continue;
    func.getBody().dropAllReferences();
    func.getBody().getBlocks().clear();
    func.setLinkage(LLVM::Linkage::External);
    func->removeAttr(GoogleDialect::kRuntimeFallbackAttrName);
  }
}

/// Runs the pipeline on `module`; fails with the options' error, or
/// leaves the pipeline's to the context's diagnostics (the error then
/// says only that it failed).
Error lowerToLLVMDialect(ModuleOp module,
                         const ExtremePipelineOptions &options) {
  PassManager pm(module.getContext());
  if (isLoweredToLLVM(module))
    addRuntimeInterfacePasses(pm, std::nullopt,
                              getRequiredCpuFeatures(options.getHostChip()));
  else if (Error err = buildExtremePipeline(pm, options))
    return err;
  if (failed(pm.run(module)))
    return make_error<PipelineFailed>();
  dropRuntimeFallbacks(module);
  return Error::success();
}

Expected<std::unique_ptr<llvm::TargetMachine>>
createTargetMachine(const ExtremePipelineOptions &options) {
  static bool initialized = [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    return true;
  }();
  (void)initialized;
  llvm::Triple triple(llvm::sys::getProcessTriple());
  std::string lookupError;
  const llvm::Target *target =
      llvm::TargetRegistry::lookupTarget(triple, lookupError);
  if (!target)
    return createStringError(lookupError);
  std::string chip = options.getHostChip();
  std::string features;
  if (chip == "host") {
    chip = llvm::sys::getHostCPUName().str();
    for (const auto &feature : llvm::sys::getHostCPUFeatures())
      features += (feature.second ? "+" : "-") + feature.first().str() + ",";
  }
  llvm::TargetOptions targetOptions;
  // SPEC: fusing multiply-add is allowed, other fast-math rewrites are not.
  targetOptions.AllowFPOpFusion = llvm::FPOpFusion::Fast;
  // Constructors (GPU modules load their kernels from one) go in
  // .init_array, which the dynamic loader runs; it ignores .ctors.
  targetOptions.UseInitArray = true;
  auto level = static_cast<llvm::CodeGenOptLevel>(
      std::min<unsigned>(options.optLevel, 3));
  std::unique_ptr<llvm::TargetMachine> machine(target->createTargetMachine(
      triple, chip, features, targetOptions, llvm::Reloc::PIC_, std::nullopt,
      level));
  if (!machine)
    return createStringError("cannot create a target machine for " +
                             triple.str() + " " + chip);
  return machine;
}

/// What LLVM may assume about library functions on a chip with vectors of
/// `vectorBits` (getCpuVectorBits): on x86 CPUs with AVX2, glibc's vector
/// math library (libmvec) provides 4- and 8-wide expf/logf/... that the
/// loop vectorizer calls (error at most 1 ulp, as
/// tight as the scalar functions' bound in the differential tester). With
/// AVX-512 it also has 16-wide ones (8-wide in f64), which LLVM 22's list
/// lacks: exp and log, the functions our ops call, are added here.
std::unique_ptr<llvm::TargetLibraryInfoImpl>
createLibraryInfo(unsigned vectorBits, const llvm::TargetMachine &machine) {
  const llvm::Triple &triple = machine.getTargetTriple();
  auto info = std::make_unique<llvm::TargetLibraryInfoImpl>(triple);
  if (!triple.isX86() || !triple.isOSLinux())
    return info;
  if (vectorBits >= 256)
    info->addVectorizableFunctionsFromVecLib(llvm::VectorLibrary::LIBMVEC,
                                             triple);
  if (vectorBits >= 512) {
    auto wide = [](llvm::StringRef scalar, llvm::StringRef vector,
                   unsigned lanes) {
      return llvm::VecDesc(scalar, vector, llvm::ElementCount::getFixed(lanes),
                           /*Masked=*/false,
                           lanes == 16 ? "_ZGV_LLVM_N16v" : "_ZGV_LLVM_N8v",
                           std::nullopt);
    };
    const llvm::VecDesc avx512[] = {
        wide("expf", "_ZGVeN16v_expf", 16),
        wide("llvm.exp.f32", "_ZGVeN16v_expf", 16),
        wide("exp", "_ZGVeN8v_exp", 8),
        wide("llvm.exp.f64", "_ZGVeN8v_exp", 8),
        wide("logf", "_ZGVeN16v_logf", 16),
        wide("llvm.log.f32", "_ZGVeN16v_logf", 16),
        wide("log", "_ZGVeN8v_log", 8),
        wide("llvm.log.f64", "_ZGVeN8v_log", 8)};
    info->addVectorizableFunctions(avx512);
  }
  return info;
}

/// LLVM's default pipeline for `optLevel`, as clang runs it, with the
/// library functions of `libraryInfo`.
llvm::Error optimizeModule(llvm::Module &module, unsigned optLevel,
                           llvm::TargetMachine &machine,
                           const llvm::TargetLibraryInfoImpl &libraryInfo) {
  llvm::PipelineTuningOptions tuning;
  tuning.LoopUnrolling = optLevel > 0;
  tuning.LoopInterleaving = optLevel > 0;
  tuning.LoopVectorization = optLevel > 1;
  tuning.SLPVectorization = optLevel > 1;
  llvm::LoopAnalysisManager loops;
  llvm::FunctionAnalysisManager functions;
  llvm::CGSCCAnalysisManager cgscc;
  llvm::ModuleAnalysisManager modules;
  llvm::PassBuilder builder(&machine, tuning);
  functions.registerPass(
      [&] { return llvm::TargetLibraryAnalysis(libraryInfo); });
  builder.registerModuleAnalyses(modules);
  builder.registerCGSCCAnalyses(cgscc);
  builder.registerFunctionAnalyses(functions);
  builder.registerLoopAnalyses(loops);
  builder.crossRegisterProxies(loops, functions, cgscc, modules);
  static const llvm::OptimizationLevel levels[] = {
      llvm::OptimizationLevel::O0, llvm::OptimizationLevel::O1,
      llvm::OptimizationLevel::O2, llvm::OptimizationLevel::O3};
  llvm::OptimizationLevel level = levels[std::min<unsigned>(optLevel, 3)];
  llvm::ModulePassManager passes =
      optLevel == 0 ? builder.buildO0DefaultPipeline(level)
                    : builder.buildPerModuleDefaultPipeline(level);
  passes.run(module, modules);
  return llvm::Error::success();
}

/// The module as LLVM IR for `machine`, not yet optimized.
Expected<std::unique_ptr<llvm::Module>>
translateForMachine(ModuleOp module, const ExtremePipelineOptions &options,
                    llvm::TargetMachine &machine,
                    llvm::LLVMContext &llvmContext) {
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(module, llvmContext);
  if (!llvmModule)
    return createStringError("cannot translate the module to LLVM IR");
  llvmModule->setDataLayout(machine.createDataLayout());
  llvmModule->setTargetTriple(machine.getTargetTriple());
  // The loops LLVM vectorizes itself get vectors as wide as ours: chips
  // that prefer 256-bit vectors (skylake-avx512 among them) would stop at
  // 8 floats, and call 8-wide exp where a 16-wide one exists.
  if (getCpuVectorBits(options.getHostChip()) >= 512)
    for (llvm::Function &function : *llvmModule)
      if (!function.isDeclaration())
        function.addFnAttr("prefer-vector-width", "512");
  return llvmModule;
}

/// Runs LLVM's pipeline for the options' opt-level on `module`.
Error optimizeForMachine(llvm::Module &module,
                         const ExtremePipelineOptions &options,
                         llvm::TargetMachine &machine) {
  std::unique_ptr<llvm::TargetLibraryInfoImpl> libraryInfo =
      createLibraryInfo(getCpuVectorBits(options.getHostChip()), machine);
  if (Error err =
          optimizeModule(module, options.optLevel, machine, *libraryInfo))
    return createStringError("LLVM optimization failed: " +
                             llvm::toString(std::move(err)));
  return Error::success();
}

/// The module as optimized LLVM IR for `machine`.
Expected<std::unique_ptr<llvm::Module>>
translateAndOptimize(ModuleOp module, const ExtremePipelineOptions &options,
                     llvm::TargetMachine &machine,
                     llvm::LLVMContext &llvmContext) {
  Expected<std::unique_ptr<llvm::Module>> llvmModule =
      translateForMachine(module, options, machine, llvmContext);
  if (!llvmModule)
    return llvmModule.takeError();
  if (Error err = optimizeForMachine(**llvmModule, options, machine))
    return std::move(err);
  return llvmModule;
}

/// Optimizes `module` and appends its object code to `object`.
Error optimizeAndEmit(llvm::Module &module,
                      const ExtremePipelineOptions &options,
                      llvm::TargetMachine &machine,
                      SmallVectorImpl<char> &object) {
  if (Error err = optimizeForMachine(module, options, machine))
    return err;
  llvm::raw_svector_ostream os(object);
  llvm::legacy::PassManager codegen;
  if (machine.addPassesToEmitFile(codegen, os, nullptr,
                                  llvm::CodeGenFileType::ObjectFile))
    return createStringError("the target cannot emit object files");
  codegen.run(module);
  return Error::success();
}

/// Optimizes and emits a part of a split module (splitModuleForCodegen),
/// in a context and target machine of its own: parts run on threads.
Error emitPart(StringRef bitcode, const ExtremePipelineOptions &options,
               SmallVectorImpl<char> &object) {
  Expected<std::unique_ptr<llvm::TargetMachine>> machine =
      createTargetMachine(options);
  if (!machine)
    return machine.takeError();
  llvm::LLVMContext llvmContext;
  Expected<std::unique_ptr<llvm::Module>> part = llvm::parseBitcodeFile(
      llvm::MemoryBufferRef(bitcode, "part"), llvmContext);
  if (!part)
    return part.takeError();
  return optimizeAndEmit(**part, options, **machine, object);
}

/// The module's object code: one object, or one per part when the module
/// is large enough to split over the compile options' threads.
Error emitObjects(ModuleOp module, const ExtremePipelineOptions &options,
                  const CompileOptions &compileOptions,
                  SmallVectorImpl<ObjectCode> &objects) {
  Expected<std::unique_ptr<llvm::TargetMachine>> machine =
      createTargetMachine(options);
  if (!machine)
    return machine.takeError();
  llvm::LLVMContext llvmContext;
  Expected<std::unique_ptr<llvm::Module>> llvmModule =
      translateForMachine(module, options, **machine, llvmContext);
  if (!llvmModule)
    return llvmModule.takeError();
  unsigned threads = compileOptions.codegenThreads;
  if (threads == 0)
    threads = llvm::hardware_concurrency().compute_thread_count();
  SmallVector<SmallString<0>> parts =
      splitModuleForCodegen(**llvmModule, std::min(threads, kMaxCodegenThreads),
                            compileOptions.minCodegenPartInstructions);
  if (parts.empty())
    return optimizeAndEmit(**llvmModule, options, **machine,
                           objects.emplace_back());
  llvmModule->reset();
  objects.resize(parts.size());
  SmallVector<std::string> errors(parts.size());
  {
    llvm::StdThreadPool pool(llvm::hardware_concurrency(parts.size()));
    for (size_t i = 0; i < parts.size(); ++i)
      pool.async([&, i] {
        if (Error err = emitPart(parts[i], options, objects[i]))
          errors[i] = llvm::toString(std::move(err));
      });
    pool.wait();
  }
  for (const std::string &error : errors)
    if (!error.empty())
      return createStringError(error);
  return Error::success();
}

/// lld keeps global state while it links: one link at a time, and none
/// after a link that lld says cannot be followed by another.
struct InProcessLinker {
  std::mutex mutex;
  bool usable = true;
};

InProcessLinker &getLinker() {
  static InProcessLinker linker;
  return linker;
}

Error linkSharedObject(ArrayRef<ObjectCode> objects,
                       const CompileOptions &options, StringRef outputPath) {
  SmallVector<SmallString<128>> objectPaths;
  llvm::scope_exit cleanup([&] {
    for (const SmallString<128> &path : objectPaths)
      llvm::sys::fs::remove(path);
  });
  for (const ObjectCode &object : objects) {
    int fd;
    if (llvm::sys::fs::createTemporaryFile("google-mlir", "o", fd,
                                           objectPaths.emplace_back()))
      return createStringError("cannot create a temporary file");
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    os.write(object.data(), object.size());
    if (os.has_error())
      return createStringError("cannot write " + objectPaths.back());
  }
  std::string runtimeDir = options.runtimeLibraryDir;
  SmallVector<std::string> args = {
      // -Bsymbolic: calls inside the object never bind to a same-named
      // symbol elsewhere in the process (a function called `div`, say).
      "ld.lld", "-shared", "-Bsymbolic", "--hash-style=gnu", "-o",
      outputPath.str()};
  for (const SmallString<128> &path : objectPaths)
    args.push_back(path.str().str());
  args.append({
      // Runtime hooks (allocation, memrefCopy) and libm for transcendental
      // functions.
      "-L" + runtimeDir, "-lgoogle_runtime", "-rpath", runtimeDir,
      // Parallel loops, when the module has any.
      "-L" GOOGLE_OPENMP_LIBRARY_DIR, "--as-needed", "-lomp", "--no-as-needed",
      "-rpath", GOOGLE_OPENMP_LIBRARY_DIR, "-L/lib/x86_64-linux-gnu",
      "-L/usr/lib/x86_64-linux-gnu", "-l:libm.so.6", "-l:libc.so.6",
      "-l:libgcc_s.so.1",
      // Vectorized math (createLibraryInfo), when the code calls it.
      "--as-needed", "-l:libmvec.so.1", "--no-as-needed"});
  SmallVector<const char *> argv;
  for (const std::string &arg : args)
    argv.push_back(arg.c_str());
  std::string messages;
  llvm::raw_string_ostream messageStream(messages);
  InProcessLinker &linker = getLinker();
  std::lock_guard<std::mutex> lock(linker.mutex);
  if (!linker.usable)
    return createStringError(
        "linking failed: the in-process linker cannot run again after an "
        "earlier failure in this process");
  lld::Result result = lld::lldMain(argv, messageStream, messageStream,
                                    {{lld::Gnu, &lld::elf::link}});
  linker.usable = result.canRunAgain;
  if (result.retCode != 0) {
    StringRef first = StringRef(messages).split('\n').first;
    first.consume_front("ld.lld: ");
    first.consume_front("error: ");
    return createStringError("linking failed: " +
                             (first.empty() ? "lld failed" : first));
  }
  return Error::success();
}

OwningOpRef<ModuleOp> parseModule(StringRef source, StringRef bufferName,
                                  MLIRContext &context) {
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      // The lexer reads up to a NUL: parse a terminated copy.
      llvm::MemoryBuffer::getMemBufferCopy(source, bufferName),
      llvm::SMLoc());
  return parseModuleGuarded(sourceMgr, &context);
}

/// A parsed input with its context, keeping the first error reported.
class ParsedSource {
public:
  ParsedSource(StringRef source, StringRef bufferName)
      : context(MLIRContext::Threading::DISABLED), errors(context) {
    DialectRegistry registry;
    registerCompilerDialects(registry);
    context.appendDialectRegistry(registry);
    module = parseModule(source, bufferName, context);
  }

  /// The first error diagnostic, or `fallback`.
  Error diagnosed(StringRef fallback) const {
    return createStringError(errors.take(fallback));
  }

  /// `err`, or the first error diagnostic where `err` only says that the
  /// pipeline failed.
  Error withDiagnostic(Error err) const {
    return llvm::handleErrors(std::move(err), [&](const PipelineFailed &) {
      return diagnosed("the pipeline failed");
    });
  }

  MLIRContext context;
  FirstErrorHandler errors;
  OwningOpRef<ModuleOp> module;
};

} // namespace

Error google::compileToSharedObject(StringRef source, StringRef bufferName,
                                    const CompileOptions &options,
                                    StringRef outputPath, CompileStats *stats) {
  CompileStats local;
  if (!stats)
    stats = &local;
  auto start = std::chrono::steady_clock::now();
  auto lap = [&](double &slot) {
    auto now = std::chrono::steady_clock::now();
    slot = std::chrono::duration<double, std::milli>(now - start).count();
    start = now;
  };
  Expected<std::unique_ptr<ExtremePipelineOptions>> pipeline =
      parseAndVerifyOptions(options.pipeline);
  if (!pipeline)
    return pipeline.takeError();

  ParsedSource parsed(source, bufferName);
  if (!parsed.module)
    return parsed.diagnosed("cannot parse the module");
  lap(stats->parse);
  if (Error err = lowerToLLVMDialect(*parsed.module, **pipeline))
    return parsed.withDiagnostic(std::move(err));
  lap(stats->pipeline);
  SmallVector<ObjectCode> objects;
  if (Error err = emitObjects(*parsed.module, **pipeline, options, objects))
    return err;
  stats->codegenParts = objects.size();
  lap(stats->codegen);
  Error linked = linkSharedObject(objects, options, outputPath);
  lap(stats->link);
  return linked;
}

Expected<std::string>
google::getCompilerFingerprint(const CompileOptions &options) {
  Expected<std::unique_ptr<ExtremePipelineOptions>> parsed =
      parseAndVerifyOptions(options.pipeline);
  if (!parsed)
    return parsed.takeError();
  ExtremePipelineOptions *pipeline = parsed->get();
  std::string fingerprint;
  llvm::raw_string_ostream os(fingerprint);
  os << "google-mlir " << GOOGLE_MLIR_VERSION << "; LLVM " << LLVM_VERSION_STRING
     << "; ";
  // This binary: a rebuilt compiler never reuses an old entry.
  Dl_info info;
  struct stat st;
  if (dladdr(reinterpret_cast<void *>(&google::getCompilerFingerprint),
             &info) &&
      info.dli_fname && stat(info.dli_fname, &st) == 0)
    os << info.dli_fname << " " << st.st_size << " " << st.st_mtim.tv_sec << "."
       << st.st_mtim.tv_nsec << "; ";
  // The host's CPU name and its features: machines sharing a cache (and a
  // CPU name) may still differ in features.
  // The device chip is in the options; the host code's CPU here.
  std::string chip = pipeline->getHostChip();
  if (chip == "host") {
    // Asking the CPU takes ~0.2 ms: once per process.
    static const std::string host = [] {
      std::vector<std::string> features;
      for (const auto &feature : llvm::sys::getHostCPUFeatures())
        features.push_back((feature.second ? "+" : "-") +
                           feature.first().str());
      llvm::sort(features);
      return llvm::sys::getHostCPUName().str() + " " +
             llvm::join(features, ",");
    }();
    chip += "=" + host;
  }
  os << "chip " << chip << "; runtime " << options.runtimeLibraryDir;
  // What NVVM kernels ship as: a fatbin with ptxas, PTX (with libdevice, or
  // approximated math) without.
  if (pipeline->target == Target::NVVM) {
    std::string cuda = findCudaToolkit(pipeline->toolkit);
    os << "; cuda " << cuda << (hasCudaCompilers(cuda) ? " compilers" : "")
       << (findLibdevice(cuda).empty() ? "" : " libdevice");
  }
  os << "; options ";
  pipeline->print(os);
  return fingerprint;
}

Expected<std::string> google::printStage(StringRef source, StringRef bufferName,
                                         const CompileOptions &options,
                                         StringRef stage) {
  Expected<std::unique_ptr<ExtremePipelineOptions>> parsedOptions =
      parseAndVerifyOptions(options.pipeline);
  if (!parsedOptions)
    return parsedOptions.takeError();
  const ExtremePipelineOptions &pipeline = **parsedOptions;
  if (!llvm::is_contained(getStageNames(), stage))
    return createStringError("unknown stage '" + stage + "'; expected one of " +
                             llvm::join(getStageNames(), ", "));
  ParsedSource parsed(source, bufferName);
  OwningOpRef<ModuleOp> &module = parsed.module;
  if (!module)
    return parsed.diagnosed("cannot parse the module");
  std::string output;
  llvm::raw_string_ostream os(output);
  if (stage == "optimized" || stage == "linalg") {
    PassManager pm(&parsed.context);
    addGoogleOptimizationPasses(pm, pipeline);
    if (stage == "linalg")
      addLinalgLoweringPasses(pm, pipeline);
    if (failed(pm.run(*module)))
      return parsed.diagnosed("the pipeline failed");
  } else if (stage == "llvm" || stage == "llvm-ir") {
    if (Error err = lowerToLLVMDialect(*module, pipeline))
      return parsed.withDiagnostic(std::move(err));
  }
  if (stage != "llvm-ir") {
    module->print(os);
    return output;
  }
  Expected<std::unique_ptr<llvm::TargetMachine>> machine =
      createTargetMachine(pipeline);
  if (!machine)
    return machine.takeError();
  llvm::LLVMContext llvmContext;
  Expected<std::unique_ptr<llvm::Module>> llvmModule =
      translateAndOptimize(*module, pipeline, **machine, llvmContext);
  if (!llvmModule)
    return llvmModule.takeError();
  (*llvmModule)->print(os, nullptr);
  return output;
}

ArrayRef<StringRef> google::getStageNames() {
  static const StringRef names[] = {"google", "optimized", "linalg", "llvm",
                                    "llvm-ir"};
  return names;
}
