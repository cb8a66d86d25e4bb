//===- SerializeKernels.cpp - --google-serialize-kernels ------------------===//

#include "Codegen/GPU/Passes.h"

#include "mlir/Dialect/GPU/IR/CompilationInterfaces.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Target/LLVM/ModuleToObject.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/Module.h"

#include <atomic>

namespace mlir::google {
#define GEN_PASS_DEF_SERIALIZEKERNELSPASS
#include "Codegen/GPU/Passes.h.inc"
} // namespace mlir::google

using namespace mlir;
using namespace mlir::google;

namespace {

/// Temporary files removed when this goes out of scope.
class TemporaryFiles {
public:
  ~TemporaryFiles() {
    for (const std::string &path : paths)
      llvm::sys::fs::remove(path);
  }

  /// A new temporary file holding `contents` ("" to leave it empty).
  FailureOr<std::string> create(StringRef suffix, StringRef contents) {
    SmallString<128> path;
    int fd;
    if (llvm::sys::fs::createTemporaryFile("google-mlir-kernel", suffix, fd,
                                           path))
      return failure();
    paths.push_back(path.str().str());
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    os << contents;
    os.close();
    if (os.has_error())
      return failure();
    return paths.back();
  }

private:
  SmallVector<std::string> paths;
};

/// Runs `program` with `args`; a failure's error holds the first line it
/// printed.
llvm::Error runTool(StringRef program, ArrayRef<StringRef> args,
                    TemporaryFiles &files) {
  FailureOr<std::string> log = files.create("log", "");
  if (failed(log))
    return llvm::createStringError("cannot create a temporary file");
  SmallVector<StringRef> argv = {program};
  argv.append(args.begin(), args.end());
  std::optional<StringRef> redirects[] = {std::nullopt, StringRef(*log),
                                          StringRef(*log)};
  std::string message;
  int status = llvm::sys::ExecuteAndWait(program, argv, std::nullopt,
                                         redirects, 0, 0, &message);
  if (status == 0)
    return llvm::Error::success();
  auto output = llvm::MemoryBuffer::getFile(*log);
  StringRef first =
      output ? StringRef((*output)->getBuffer()).trim().split('\n').first : "";
  return llvm::createStringError(
      llvm::sys::path::filename(program) +
      " failed: " + (first.empty() ? StringRef(message) : first));
}

/// A gpu.module lowered to NVVM, as PTX from LLVM's NVPTX backend: no CUDA
/// toolkit involved, libdevice linked in when `libdevice` names it.
class PtxSerializer : public LLVM::ModuleToObject {
public:
  PtxSerializer(gpu::GPUModuleOp module, NVVM::NVVMTargetAttr target,
                StringRef libdevice)
      : ModuleToObject(*module, target.getTriple(), target.getChip(),
                       target.getFeatures(), target.getO()),
        libdevice(libdevice.str()) {
    static bool initialized = [] {
      llvm::InitializeAllTargets();
      llvm::InitializeAllTargetMCs();
      llvm::InitializeAllAsmPrinters();
      return true;
    }();
    (void)initialized;
  }

protected:
  std::optional<SmallVector<std::unique_ptr<llvm::Module>>>
  loadBitcodeFiles(llvm::Module &module) override {
    SmallVector<std::unique_ptr<llvm::Module>> libraries;
    if (libdevice.empty())
      return libraries;
    std::unique_ptr<llvm::Module> library =
        loadBitcodeFile(module.getContext(), libdevice);
    if (!library)
      return std::nullopt;
    libraries.push_back(std::move(library));
    return libraries;
  }

  /// Without libdevice, the libdevice functions that have an LLVM
  /// intrinsic the NVPTX backend lowers (with the same rounding) are
  /// defined by it; any other stays a declaration, which the caller
  /// reports.
  void handleModulePostLink(llvm::Module &module) override {
    if (!libdevice.empty())
      return;
    for (llvm::Function &function : module) {
      StringRef name = function.getName();
      if (!function.isDeclaration() || !name.consume_front("__nv_"))
        continue;
      bool isFloat = name.consume_back("f");
      llvm::Type *type = function.getReturnType();
      if (!type->isFloatingPointTy() ||
          isFloat != type->isFloatTy() ||
          !llvm::all_of(function.args(), [&](llvm::Argument &arg) {
            return arg.getType() == type;
          }))
        continue;
      llvm::Intrinsic::ID id = llvm::StringSwitch<llvm::Intrinsic::ID>(name)
                                   .Case("sqrt", llvm::Intrinsic::sqrt)
                                   .Case("fabs", llvm::Intrinsic::fabs)
                                   .Case("floor", llvm::Intrinsic::floor)
                                   .Case("ceil", llvm::Intrinsic::ceil)
                                   .Case("trunc", llvm::Intrinsic::trunc)
                                   .Case("rint", llvm::Intrinsic::rint)
                                   .Case("fma", llvm::Intrinsic::fma)
                                   .Case("fmin", llvm::Intrinsic::minnum)
                                   .Case("fmax", llvm::Intrinsic::maxnum)
                                   .Case("copysign", llvm::Intrinsic::copysign)
                                   .Default(llvm::Intrinsic::not_intrinsic);
      if (id == llvm::Intrinsic::not_intrinsic)
        continue;
      llvm::IRBuilder<> builder(
          llvm::BasicBlock::Create(module.getContext(), "entry", &function));
      SmallVector<llvm::Value *> args;
      for (llvm::Argument &arg : function.args())
        args.push_back(&arg);
      builder.CreateRet(builder.CreateIntrinsic(id, {type}, args));
      function.setLinkage(llvm::GlobalValue::InternalLinkage);
      function.addFnAttr(llvm::Attribute::AlwaysInline);
    }
  }

  FailureOr<SmallVector<char, 0>>
  moduleToObject(llvm::Module &llvmModule) override {
    FailureOr<llvm::TargetMachine *> machine = getOrCreateTargetMachine();
    if (failed(machine))
      return getOperation().emitError()
             << "google-serialize-kernels: LLVM has no NVPTX target for "
             << triple;
    FailureOr<SmallString<0>> ptx = translateModuleToISA(
        llvmModule, **machine, [&] { return getOperation().emitError(); });
    if (failed(ptx))
      return failure();
    return SmallVector<char, 0>(ptx->begin(), ptx->end());
  }

private:
  std::string libdevice;
};

/// Warns once per process that kernels ship as PTX only.
void warnPtxOnly(StringRef toolkit) {
  static std::atomic<bool> warned{false};
  if (!warned.exchange(true))
    llvm::errs() << "warning: no CUDA toolkit with ptxas and fatbinary in '"
                 << toolkit
                 << "' (set the pipeline's toolkit option or CUDA_HOME): GPU "
                    "kernels are shipped as PTX, which the driver compiles "
                    "when the module loads\n";
}

struct SerializeKernelsPass
    : public google::impl::SerializeKernelsPassBase<SerializeKernelsPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    // Serialization may report an error and still return an object.
    int errors = 0;
    ScopedDiagnosticHandler counter(&getContext(), [&](Diagnostic &diag) {
      if (diag.getSeverity() == DiagnosticSeverity::Error)
        ++errors;
      return failure(); // Let the next handler report it.
    });
    std::optional<SymbolTable> symbolTable;
    auto getSymbolTable = [&]() -> SymbolTable * {
      if (!symbolTable)
        symbolTable.emplace(module);
      return &*symbolTable;
    };
    for (auto gpuModule :
         llvm::make_early_inc_range(module.getOps<gpu::GPUModuleOp>())) {
      ArrayAttr targets = gpuModule.getTargetsAttr();
      if (!targets || targets.empty()) {
        gpuModule.emitError("google-serialize-kernels: the gpu.module has no "
                            "target attribute");
        return signalPassFailure();
      }
      SmallVector<Attribute> objects;
      for (Attribute target : targets) {
        Attribute object = serialize(gpuModule, target, getSymbolTable);
        if (!object || errors) {
          if (!errors)
            gpuModule.emitError("google-serialize-kernels: cannot serialize "
                                "the kernels for ")
                << target;
          return signalPassFailure();
        }
        objects.push_back(object);
      }
      OpBuilder builder(gpuModule);
      gpu::BinaryOp::create(builder, gpuModule.getLoc(), gpuModule.getName(),
                            /*offloadingHandler=*/Attribute(), objects);
      gpuModule.erase();
    }
  }

  Attribute serialize(gpu::GPUModuleOp gpuModule, Attribute targetAttr,
                      function_ref<SymbolTable *()> getSymbolTable) {
    auto target = dyn_cast<gpu::TargetAttrInterface>(targetAttr);
    if (!target) {
      gpuModule.emitError("google-serialize-kernels: ")
          << targetAttr << " is not a GPU target";
      return {};
    }
    if (isa<NVVM::NVVMTargetAttr>(targetAttr))
      return serializeNvvm(gpuModule, cast<NVVM::NVVMTargetAttr>(targetAttr),
                           target, getSymbolTable);
    if (isa<ROCDL::ROCDLTargetAttr>(targetAttr)) {
      gpu::TargetOptions options(findRocmToolkit(toolkit), {}, "", "",
                                 gpu::CompilationTarget::Binary,
                                 getSymbolTable);
      std::optional<SmallVector<char, 0>> object =
          target.serializeToObject(gpuModule, options);
      return object ? target.createObject(gpuModule, *object, options)
                    : Attribute();
    }
    gpuModule.emitError("google-serialize-kernels: unsupported target ")
        << targetAttr;
    return {};
  }

  /// A fatbin with the cubin and the PTX, or the PTX alone without the
  /// toolkit's compilers.
  Attribute serializeNvvm(gpu::GPUModuleOp gpuModule,
                          NVVM::NVVMTargetAttr nvvm,
                          gpu::TargetAttrInterface target,
                          function_ref<SymbolTable *()> getSymbolTable) {
    std::string cuda = findCudaToolkit(toolkit);
    if (!hasCudaCompilers(cuda)) {
      warnPtxOnly(cuda);
      PtxSerializer serializer(gpuModule, nvvm, findLibdevice(cuda));
      std::optional<SmallVector<char, 0>> ptx = serializer.run();
      if (!ptx)
        return {};
      // The driver cannot link a call that libdevice would have defined
      // (CUDA's own __assertfail and vprintf it knows).
      StringRef text(ptx->data(), ptx->size());
      for (size_t external = text.find(".extern .func");
           external != StringRef::npos;
           external = text.find(".extern .func", external + 1)) {
        StringRef declaration = text.substr(external).split('\n').first;
        size_t libdevice = declaration.find("__nv_");
        if (libdevice == StringRef::npos)
          continue;
        StringRef name = declaration.substr(libdevice).take_while(
            [](char c) { return llvm::isAlnum(c) || c == '_'; });
        // The kernel that calls it; not the module's own diagnostic, which
        // would print the module.
        StringRef caller = gpuModule.getSymName();
        gpuModule.walk([&](LLVM::CallOp call) {
          if (call.getCallee() != name)
            return WalkResult::advance();
          if (auto function = call->getParentOfType<LLVM::LLVMFuncOp>())
            caller = function.getSymName();
          return WalkResult::interrupt();
        });
        emitError(gpuModule.getLoc(), "google-serialize-kernels: kernel '")
            << caller << "' calls " << name
            << ", which CUDA's libdevice defines and '" << cuda
            << "' does not have; set the pipeline's toolkit option or "
               "CUDA_HOME to a CUDA toolkit";
        return {};
      }
      gpu::TargetOptions options({}, {}, "", "",
                                 gpu::CompilationTarget::Assembly,
                                 getSymbolTable);
      return target.createObject(gpuModule, *ptx, options);
    }
    std::string ptx;
    // TargetOptions keeps a function_ref: the callback must outlive it.
    auto keepPtx = [&](StringRef isa) { ptx = isa.str(); };
    gpu::TargetOptions binaryOptions(cuda, {}, "", "",
                                     gpu::CompilationTarget::Binary,
                                     getSymbolTable, {}, {}, {}, keepPtx);
    std::optional<SmallVector<char, 0>> cubin =
        target.serializeToObject(gpuModule, binaryOptions);
    if (!cubin)
      return {};
    if (ptx.empty()) {
      gpuModule.emitError("google-serialize-kernels: the NVVM target did not "
                          "report its PTX");
      return {};
    }
    TemporaryFiles files;
    FailureOr<std::string> cubinPath =
        files.create("cubin", StringRef(cubin->data(), cubin->size()));
    FailureOr<std::string> ptxPath = files.create("ptx", ptx);
    FailureOr<std::string> fatbinPath = files.create("fatbin", "");
    if (failed(cubinPath) || failed(ptxPath) || failed(fatbinPath)) {
      gpuModule.emitError("google-serialize-kernels: cannot write temporary "
                          "files");
      return {};
    }
    std::string sm = nvvm.getChip().drop_front(3).str();
    SmallString<128> fatbinary(cuda);
    llvm::sys::path::append(fatbinary, "bin", "fatbinary");
    std::string create = "--create=" + *fatbinPath;
    std::string elf = "--image3=kind=elf,sm=" + sm + ",file=" + *cubinPath;
    std::string ptxImage = "--image3=kind=ptx,sm=" + sm + ",file=" + *ptxPath;
    if (llvm::Error err =
            runTool(fatbinary, {"-64", create, elf, ptxImage}, files)) {
      gpuModule.emitError("google-serialize-kernels: ")
          << llvm::toString(std::move(err));
      return {};
    }
    auto fatbin = llvm::MemoryBuffer::getFile(*fatbinPath);
    if (!fatbin) {
      gpuModule.emitError("google-serialize-kernels: cannot read the fatbin");
      return {};
    }
    StringRef bytes = (*fatbin)->getBuffer();
    gpu::TargetOptions fatbinOptions(cuda, {}, "", "",
                                     gpu::CompilationTarget::Fatbin,
                                     getSymbolTable);
    return target.createObject(gpuModule,
                               SmallVector<char, 0>(bytes.begin(), bytes.end()),
                               fatbinOptions);
  }
};

} // namespace
