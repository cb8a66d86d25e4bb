//===- EmitRuntimeInterface.cpp - --google-emit-runtime-interface ---------===//

#include "Dialect/Google/IR/GoogleDialect.h"
#include "Codegen/Passes.h"
#include "google_runtime_abi.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/StringExtras.h"

namespace mlir::google {
#define GEN_PASS_DEF_EMITRUNTIMEINTERFACEPASS
#include "Codegen/Passes.h.inc"
} // namespace mlir::google

using namespace mlir;
using namespace mlir::google;

namespace {

constexpr StringLiteral kManifestSymbol = GOOGLE_RT_MANIFEST_SYMBOL;
constexpr StringLiteral kPackedPrefix = GOOGLE_RT_PACKED_PREFIX;
constexpr StringLiteral kCInterfacePrefix = GOOGLE_RT_C_INTERFACE_PREFIX;

bool isRuntimeElementType(Type type) {
  return type.isF16() || type.isBF16() || type.isF32() || type.isF64() ||
         type.isSignlessInteger(1) || type.isSignlessInteger(8) ||
         type.isSignlessInteger(32) || type.isSignlessInteger(64);
}

/// `name` as one manifest token: bytes that would split or end it (spaces,
/// controls, non-ASCII) and `%` itself become `%XX`.
std::string encodeManifestName(StringRef name) {
  std::string token;
  for (unsigned char c : name) {
    if (c > ' ' && c < 0x7f && c != '%')
      token += static_cast<char>(c);
    else
      token += {'%', llvm::hexdigit(c >> 4), llvm::hexdigit(c & 15)};
  }
  return token;
}

/// Appends ` <count> <type>...` to `manifest`; fails on unsupported types.
LogicalResult appendTypes(Operation *op, TypeRange types,
                          llvm::raw_string_ostream &manifest) {
  manifest << " " << types.size();
  for (Type type : types) {
    auto tensor = dyn_cast<RankedTensorType>(type);
    if (!tensor || !isRuntimeElementType(tensor.getElementType()))
      return op->emitError("google-emit-runtime-interface: the runtime cannot "
                           "pass ")
             << type << "; expected a ranked tensor of f16, bf16, f32, f64, "
             << "i1, i8, i32 or i64";
    manifest << " " << type;
  }
  return success();
}

/// Declares `name` (if it is not yet) and returns it.
LLVM::LLVMFuncOp getOrDeclare(ModuleOp module, OpBuilder &builder,
                              StringRef name, LLVM::LLVMFunctionType type) {
  if (auto func = module.lookupSymbol<LLVM::LLVMFuncOp>(name))
    return func;
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(module.getBody());
  return LLVM::LLVMFuncOp::create(builder, module.getLoc(), name, type);
}

/// Gives the runtime hooks the module calls weak definitions over the C
/// library, so that the module also runs without libgoogle_runtime (under
/// mlir-runner, say). Objects built for the runtime drop them again.
void addRuntimeFallbacks(ModuleOp module) {
  MLIRContext *context = module.getContext();
  auto ptr = LLVM::LLVMPointerType::get(context);
  auto voidType = LLVM::LLVMVoidType::get(context);
  OpBuilder builder(context);
  // Each hook forwards to a C function of the same signature, except the
  // failed-check hooks, which print and abort.
  struct Fallback {
    StringRef hook, target;
  };
  for (Fallback fallback :
       {Fallback{GOOGLE_RT_ALLOC_HOOK, "malloc"},
        Fallback{GOOGLE_RT_ALIGNED_ALLOC_HOOK, "aligned_alloc"},
        Fallback{GOOGLE_RT_FREE_HOOK, "free"},
        Fallback{GOOGLE_RT_CHECK_FAILED_HOOK, "puts"},
        Fallback{GOOGLE_RT_ABORT_HOOK, "puts"}}) {
    auto hook = module.lookupSymbol<LLVM::LLVMFuncOp>(fallback.hook);
    if (!hook || !hook.isExternal())
      continue;
    LLVM::LLVMFunctionType type = hook.getFunctionType();
    bool isCheck = fallback.hook == GOOGLE_RT_CHECK_FAILED_HOOK ||
                   fallback.hook == GOOGLE_RT_ABORT_HOOK;
    LLVM::LLVMFuncOp target = getOrDeclare(
        module, builder, fallback.target,
        isCheck ? LLVM::LLVMFunctionType::get(IntegerType::get(context, 32),
                                              {ptr})
                : type);
    hook.setLinkage(LLVM::Linkage::Weak);
    hook->setAttr(GoogleDialect::kRuntimeFallbackAttrName,
                  UnitAttr::get(context));
    Block *entry = hook.addEntryBlock(builder);
    builder.setInsertionPointToStart(entry);
    Location loc = hook.getLoc();
    // puts(message): the extents are not printed.
    auto call = LLVM::CallOp::create(
        builder, loc, target,
        isCheck ? ValueRange{entry->getArgument(0)} : entry->getArguments());
    if (isCheck) {
      LLVM::CallOp::create(
          builder, loc,
          getOrDeclare(module, builder, "abort",
                       LLVM::LLVMFunctionType::get(voidType, {})),
          ValueRange{});
      LLVM::UnreachableOp::create(builder, loc);
    } else if (isa<LLVM::LLVMVoidType>(type.getReturnType())) {
      LLVM::ReturnOp::create(builder, loc, ValueRange{});
    } else {
      LLVM::ReturnOp::create(builder, loc, call.getResult());
    }
  }
}

/// "cuda" or "rocm" when the module's kernels are in device binaries for
/// NVIDIA or AMD GPUs, "" when it has none; fails on a mix.
FailureOr<StringRef> getBinariesDevice(ModuleOp module) {
  StringRef device;
  for (auto binary : module.getOps<gpu::BinaryOp>()) {
    for (auto object : binary.getObjects().getAsRange<gpu::ObjectAttr>()) {
      StringRef kind = isa<NVVM::NVVMTargetAttr>(object.getTarget())
                           ? "cuda"
                           : isa<ROCDL::ROCDLTargetAttr>(object.getTarget())
                                 ? "rocm"
                                 : "";
      if (kind.empty() || (!device.empty() && device != kind))
        return binary.emitError("google-emit-runtime-interface: the runtime "
                                "runs device binaries for one NVVM or ROCDL "
                                "target per module, got ")
               << object.getTarget();
      device = kind;
    }
  }
  return device;
}

struct EmitRuntimeInterfacePass
    : public google::impl::EmitRuntimeInterfacePassBase<
          EmitRuntimeInterfacePass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (module.lookupSymbol(kManifestSymbol))
      return;
    MLIRContext *context = &getContext();
    auto ptrType = LLVM::LLVMPointerType::get(context);
    auto voidType = LLVM::LLVMVoidType::get(context);
    std::string manifest = "google-mlir-manifest 1\n";
    llvm::raw_string_ostream os(manifest);
    FailureOr<StringRef> binaries = getBinariesDevice(module);
    if (failed(binaries))
      return signalPassFailure();
    StringRef where = device.empty() ? *binaries : StringRef(device);
    if (!llvm::is_contained({"", "cpu", "cuda", "rocm"}, where) ||
        (!binaries->empty() && where != *binaries)) {
      module.emitError("google-emit-runtime-interface: device '")
          << where << "' does not fit the module's device binaries (for '"
          << *binaries << "'); expected cpu, cuda or rocm";
      return signalPassFailure();
    }
    if (where == "cuda" || where == "rocm")
      os << "device " << where << "\n";
    if (!cpuFeatures.empty()) {
      os << "cpu";
      for (const std::string &feature : cpuFeatures)
        os << " " << feature;
      os << "\n";
    }
    OpBuilder builder = OpBuilder::atBlockEnd(module.getBody());

    SmallVector<LLVM::LLVMFuncOp> exported;
    // The C interface wrapper inherits the attributes: skip it.
    for (auto func : module.getOps<LLVM::LLVMFuncOp>())
      if (func->hasAttr(GoogleDialect::kSignatureAttrName) &&
          !func.getSymName().starts_with(kCInterfacePrefix))
        exported.push_back(func);
    for (LLVM::LLVMFuncOp func : exported) {
      auto signature = dyn_cast<TypeAttr>(
          func->getAttr(GoogleDialect::kSignatureAttrName));
      auto functionType =
          signature ? dyn_cast<FunctionType>(signature.getValue()) : nullptr;
      if (!functionType) {
        func.emitError("google.signature must be a function type");
        return signalPassFailure();
      }
      StringRef symbol = func.getSymName();
      StringRef name = symbol;
      if (auto exportName = func->getAttrOfType<StringAttr>(
              GoogleDialect::kExportNameAttrName))
        name = exportName.getValue();
      auto cInterface = module.lookupSymbol<LLVM::LLVMFuncOp>(
          (kCInterfacePrefix + symbol).str());
      if (!cInterface) {
        func.emitError("google-emit-runtime-interface: @")
            << name << " has no C interface (_mlir_ciface_" << symbol << ")";
        return signalPassFailure();
      }
      // The wrappers call the function's one copy: LLVM inlined a small
      // function into both, and compiled its body three times.
      cInterface.walk([&](LLVM::CallOp call) {
        if (call.getCallee() == symbol)
          call.setNoInline(true);
      });
      LLVM::LLVMFunctionType cType = cInterface.getFunctionType();
      bool resultsOut = func->hasAttr(GoogleDialect::kResultsOutAttrName);
      size_t numArgs = functionType.getNumInputs();
      size_t numResults = functionType.getNumResults();
      size_t expected =
          numArgs + (resultsOut ? numResults : (numResults ? 1 : 0));
      if (cType.getNumParams() != expected ||
          !llvm::all_of(cType.getParams(),
                        [](Type t) { return isa<LLVM::LLVMPointerType>(t); })) {
        func.emitError("google-emit-runtime-interface: the C interface of @")
            << name << " does not take one memref descriptor per tensor";
        return signalPassFailure();
      }

      os << "func " << encodeManifestName(name)
         << (resultsOut ? " out" : " ret");
      if (failed(appendTypes(func, functionType.getInputs(), os)) ||
          failed(appendTypes(func, functionType.getResults(), os)))
        return signalPassFailure();
      os << "\n";

      // void _google_packed_<name>(ptr %args): load each pointer, call.
      Location loc = func.getLoc();
      auto packed = LLVM::LLVMFuncOp::create(
          builder, loc, (kPackedPrefix + name).str(),
          LLVM::LLVMFunctionType::get(voidType, {ptrType}));
      Block *entry = packed.addEntryBlock(builder);
      OpBuilder body = OpBuilder::atBlockEnd(entry);
      SmallVector<Value> operands;
      for (unsigned i = 0; i < cType.getNumParams(); ++i) {
        Value slot = LLVM::GEPOp::create(
            body, loc, ptrType, ptrType, entry->getArgument(0),
            ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(i)});
        operands.push_back(LLVM::LoadOp::create(body, loc, ptrType, slot));
      }
      LLVM::CallOp::create(body, loc, cInterface, operands);
      LLVM::ReturnOp::create(body, loc, ValueRange{});
    }

    addRuntimeFallbacks(module);

    manifest.push_back('\0');
    auto i8 = IntegerType::get(context, 8);
    LLVM::GlobalOp::create(builder, module.getLoc(),
                           LLVM::LLVMArrayType::get(i8, manifest.size()),
                           /*isConstant=*/true, LLVM::Linkage::External,
                           kManifestSymbol, builder.getStringAttr(manifest));
  }
};

} // namespace
