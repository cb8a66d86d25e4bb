//===- ExtremePipeline.cpp - --google-extreme-pipeline --------------------===//

#include "Pipelines/Pipelines.h"

#include "Conversion/Passes.h"
#include "Codegen/GPU/Passes.h"
#include "Codegen/Passes.h"
#include "Dialect/Google/Transforms/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Conversion/VectorToSCF/VectorToSCF.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/Vector/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/Triple.h"

#include "google_runtime_abi.h"

#include <functional>

using namespace mlir;
using namespace mlir::google;

std::string ExtremePipelineOptions::getChip() const {
  if (!chip.empty())
    return chip;
  switch (target) {
  case Target::CPU:
    return "host";
  case Target::NVVM:
    return "sm_90";
  case Target::ROCDL:
    return "gfx942";
  }
  llvm_unreachable("unknown target");
}

std::string ExtremePipelineOptions::getHostChip() const {
  return target == Target::CPU ? getChip() : "generic";
}

llvm::Error google::parseOptions(StringRef text,
                                 ExtremePipelineOptions &options) {
  // LLVM's option parser prints its complaints to stderr itself: the keys
  // and values are checked here first, for one error line. The keys and
  // their kinds come from the printed defaults ("{chip= cse=true ...}").
  std::string printed;
  llvm::raw_string_ostream defaults(printed);
  ExtremePipelineOptions().print(defaults);
  llvm::StringMap<std::string> known;
  SmallVector<StringRef> pairs;
  StringRef(printed).trim("{} ").split(pairs, ' ', -1, false);
  for (StringRef pair : pairs)
    known[pair.split('=').first] = pair.split('=').second.str();
  auto fail = [&](const Twine &reason) {
    return llvm::createStringError("invalid pipeline options '" + text +
                                   "': " + reason);
  };
  SmallVector<StringRef> given;
  text.split(given, ' ', -1, false);
  for (StringRef pair : given) {
    auto [key, value] = pair.split('=');
    auto it = known.find(key);
    if (it == known.end()) {
      std::vector<std::string> keys;
      for (const auto &entry : known)
        keys.push_back(entry.getKey().str());
      llvm::sort(keys);
      return fail("no option '" + key + "'; expected " +
                  llvm::join(keys, ", "));
    }
    StringRef kind = it->getValue();
    bool isBool = kind == "true" || kind == "false";
    if (isBool && !llvm::is_contained({"true", "false", "1", "0"}, value))
      return fail(key + "=" + value + ": expected true or false");
    unsigned number;
    if (key == "opt-level" && value.getAsInteger(10, number))
      return fail(key + "=" + value + ": expected 0, 1, 2 or 3");
    if (key == "target" && !llvm::is_contained({"cpu", "nvvm", "rocdl"}, value))
      return fail(key + "=" + value + ": expected cpu, nvvm or rocdl");
    if (key == "gpu-scatter" &&
        !llvm::is_contained({"cheapest", "segments", "reduction"}, value))
      return fail(key + "=" + value +
                  ": expected cheapest, segments or reduction");
  }
  std::string messages;
  llvm::raw_string_ostream os(messages);
  if (succeeded(options.parseFromString(text, os)))
    return llvm::Error::success();
  return fail(StringRef(messages).trim().split('\n').first);
}

llvm::Error google::verifyOptions(const ExtremePipelineOptions &options) {
  if (options.optLevel > 3)
    return llvm::createStringError("opt-level must be 0, 1, 2 or 3, got " +
                                   Twine(options.optLevel));
  StringRef target = options.target == Target::CPU    ? "cpu"
                     : options.target == Target::NVVM ? "nvvm"
                                                      : "rocdl";
  if (options.mfma &&
      (options.target != Target::ROCDL || !hasMfma(options.getChip())))
    return llvm::createStringError(
        "mfma=true needs target=rocdl and an AMD CDNA chip (gfx908, gfx90a, "
        "gfx940, gfx941, gfx942 or gfx950), got target=" +
        target + " chip=" + options.getChip());
  // async-copy is on by default and applies where it can; set to true, it
  // must apply.
  for (auto [name, set] :
       {std::pair<StringRef, bool>{"tf32", options.tf32},
        {"async-copy", options.asyncCopy.hasValue() && options.asyncCopy}})
    if (set &&
        (options.target != Target::NVVM || !hasMmaSync(options.getChip())))
      return llvm::createStringError(
          name +
          "=true needs target=nvvm and an NVIDIA chip from sm_80 on, got "
          "target=" +
          target + " chip=" + options.getChip());
  if (options.gpuScatter.hasValue() && options.target == Target::CPU)
    return llvm::createStringError(
        "gpu-scatter needs target=nvvm or rocdl, got target=cpu (the CPU "
        "adds scatter_add's updates in one loop)");
  if (options.wgmma &&
      (options.target != Target::NVVM || options.getChip() != "sm_90a"))
    return llvm::createStringError(
        "wgmma=true needs target=nvvm chip=sm_90a (wgmma and TMA are "
        "sm_90a's), got target=" +
        target + " chip=" + options.getChip());
  if (options.wgmmaWarpgroups != 1 && options.wgmmaWarpgroups != 2)
    return llvm::createStringError("wgmma-warpgroups must be 1 or 2, got " +
                                   Twine(options.wgmmaWarpgroups.getValue()));
  if (options.mmaSyncWarps != 8 && options.mmaSyncWarps != 4)
    return llvm::createStringError("mma-sync-warps must be 8 or 4, got " +
                                   Twine(options.mmaSyncWarps.getValue()));
  if (options.mmaSyncBlocksPerSM != 1 && options.mmaSyncBlocksPerSM != 2)
    return llvm::createStringError(
        "mma-sync-blocks-per-sm must be 1 or 2, got " +
        Twine(options.mmaSyncBlocksPerSM.getValue()));
  if (options.fusedAttention && options.target != Target::NVVM)
    return llvm::createStringError(
        "fused-attention=true needs target=nvvm, got target=" + target);
  if (options.target != Target::CPU)
    return verifyGpuChip(options.target, options.getChip());
  return verifyCpuChip(options.getChip());
}

/// The subtarget of the host's target for CPU `name` ("" for the generic
/// one); null when the target is not linked in.
static std::unique_ptr<llvm::MCSubtargetInfo>
createCpuSubtarget(const llvm::Triple &triple, StringRef name) {
  static bool initialized = [] {
    llvm::InitializeNativeTarget();
    return true;
  }();
  (void)initialized;
  std::string lookupError;
  const llvm::Target *target =
      llvm::TargetRegistry::lookupTarget(triple, lookupError);
  if (!target)
    return nullptr;
  return std::unique_ptr<llvm::MCSubtargetInfo>(
      target->createMCSubtargetInfo(triple, name, ""));
}

llvm::Error google::verifyCpuChip(StringRef chip) {
  if (chip == "host")
    return llvm::Error::success();
  llvm::Triple triple(llvm::sys::getProcessTriple());
  // Asking about an unknown name first: a subtarget made for one warns.
  std::unique_ptr<llvm::MCSubtargetInfo> generic =
      createCpuSubtarget(triple, "");
  if (generic && generic->isCPUStringValid(chip)) {
    // A CPU of the target's family that cannot run this (64-bit) code, like
    // i386 for x86-64, is as wrong as an unknown name.
    std::unique_ptr<llvm::MCSubtargetInfo> subtarget =
        createCpuSubtarget(triple, chip);
    if (!triple.isX86() || subtarget->checkFeatures("+64bit"))
      return llvm::Error::success();
    return llvm::createStringError(
        "chip '" + chip + "' cannot run " + triple.getArchName() +
        " code (it has no 64-bit mode): expected host or a 64-bit CPU, like "
        "x86-64-v3 or znver4");
  }
  return llvm::createStringError(
      "unknown chip '" + chip + "' for " + triple.getArchName() +
      ": expected host or a 64-bit CPU name that `llc -mtriple=" +
      triple.str() + " -mcpu=help` lists");
}

/// Whether CPU `chip` (`host` or an LLVM CPU name) has `feature`.
static std::function<bool(StringRef)> getCpuFeatureTest(StringRef chip) {
  if (chip == "host") {
    llvm::StringMap<bool> features = llvm::sys::getHostCPUFeatures();
    return [features = std::move(features)](StringRef feature) {
      return features.lookup(feature);
    };
  }
  std::shared_ptr<llvm::MCSubtargetInfo> subtarget =
      createCpuSubtarget(llvm::Triple(llvm::sys::getProcessTriple()), chip);
  return [subtarget](StringRef feature) {
    return subtarget && subtarget->checkFeatures(("+" + feature).str());
  };
}

unsigned google::getCpuVectorBits(StringRef chip) {
  std::function<bool(StringRef)> has = getCpuFeatureTest(chip);
  if (has("avx512f"))
    return 512;
  if (has("avx2") && has("fma"))
    return 256;
  return 128;
}

std::vector<std::string> google::getRequiredCpuFeatures(StringRef chip) {
  std::vector<std::string> required;
  if (!llvm::Triple(llvm::sys::getProcessTriple()).isX86())
    return required;
  std::function<bool(StringRef)> has = getCpuFeatureTest(chip);
  SmallVector<StringRef> names;
  StringRef(GOOGLE_RT_X86_FEATURES).split(names, ' ', -1, false);
  for (StringRef name : names)
    if (has(name))
      required.push_back(name.str());
  return required;
}

void google::addGoogleOptimizationPasses(OpPassManager &pm,
                                         const ExtremePipelineOptions &options) {
  // Gradients the module asks for (VJP declarations) first: they are
  // google ops too.
  pm.addPass(createDifferentiatePass());
  // A jitted gradient's VJP (and any function called once) in its caller:
  // results computed in place, fusion across the call.
  pm.addPass(createInlineSingleCallsPass());
  if (options.fold) {
    pm.addPass(createFoldConstantsPass());
    pm.addPass(createSwapMatmulTransposesPass());
  }
  if (options.cse)
    pm.addPass(createCSEPass());
  // Dead users would keep a matmul from fusing: DCE first.
  if (options.dce)
    pm.addPass(createDCEPass());
  if (options.fuse)
    pm.addPass(createFuseMatmulBiasReluPass());
}

void google::addExportPasses(OpPassManager &pm) {
  pm.addPass(createExportFunctionsPass());
}

void google::addLinalgLoweringPasses(OpPassManager &pm,
                                     const ExtremePipelineOptions &options) {
  ConvertGoogleToLinalgPassOptions lowering;
  // GPU kernels come from linalg ops: the scatter stays parallel ones.
  lowering.scatter = options.target == Target::CPU ? ScatterLowering::Loops
                                                   : options.gpuScatter;
  pm.addPass(createConvertGoogleToLinalgPass(lowering));
  // The CPU's reductions take any body; the GPU's kernels know a reduction
  // only by its combiner alone. Fusion through reshapes: the CPU's (not
  // yet run on a GPU).
  if (options.optLevel > 0)
    pm.addNestedPass<func::FuncOp>(createFuseElementwisePass(
        {/*reductions=*/options.target == Target::CPU,
         /*reshapes=*/options.target == Target::CPU, /*epilogues=*/true}));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(mlir::createCSEPass());
  // Index checks read their counts back where the call ends, not in its
  // middle (on GPUs, a copy and a wait).
  pm.addNestedPass<func::FuncOp>(createDeferChecksPass());
  if (options.optLevel > 0)
    pm.addNestedPass<func::FuncOp>(createHoistLoopInvariantsPass());
}

void google::addBf16EmulationPasses(OpPassManager &pm) {
  arith::ArithEmulateUnsupportedFloatsOptions emulateOptions;
  emulateOptions.sourceTypeStrs = {"bf16"};
  emulateOptions.targetTypeStr = "f32";
  pm.addPass(arith::createArithEmulateUnsupportedFloats(emulateOptions));
  arith::ArithExpandOpsPassOptions expandOptions;
  expandOptions.includeBf16 = true;
  pm.addPass(arith::createArithExpandOpsPass(expandOptions));
}

void google::addCpuTilingPasses(OpPassManager &pm,
                                const ExtremePipelineOptions &options) {
  if (options.optLevel < 2)
    return;
  TileAndVectorizePassOptions tileOptions;
  tileOptions.vectorBits = getCpuVectorBits(options.getChip());
  pm.addNestedPass<func::FuncOp>(createTileAndVectorizePass(tileOptions));
}

namespace {

/// The options of a tensor-level GPU pass that chooses contraction kernels
/// as --google-map-to-gpu will (chooseContractionKernel's choices).
template <typename Options>
Options getContractionChoices(const MapToGpuPassOptions &mapping) {
  Options options;
  options.tileSize = mapping.tileSize;
  options.mmaSync = mapping.mmaSync;
  options.mfma = mapping.mfma;
  options.mfmaBf16 = mapping.mfmaBf16;
  options.tf32 = mapping.tf32;
  options.wgmma = mapping.wgmma;
  options.warpDots = mapping.warpDots;
  return options;
}

} // namespace

void google::addTensorCodegenPasses(OpPassManager &pm,
                                    const ExtremePipelineOptions &options) {
  // Convolutions as matmuls: the matmul schedules of both targets take
  // them (at opt-level 0, the convolutions' own loops).
  // On the CPU, wide convolutions go direct and long window runs are
  // copied run by run (the runtime's strided copy), and filter gradients
  // reuse the forward's windows (the GPU's matmul kernels take only
  // linalg's default maps).
  bool cpu = options.target == Target::CPU;
  if (options.optLevel > 0)
    pm.addNestedPass<func::FuncOp>(createConvolutionToMatmulPass(
        {/*directMinWidth=*/cpu ? 16 : 0, /*rowCopyMinRun=*/cpu ? 256 : 0,
         /*filterGradients=*/cpu}));
  if (cpu)
    addCpuTilingPasses(pm, options);
  else {
    pm.addNestedPass<func::FuncOp>(createDuplicateSharedFillsPass());
    MapToGpuPassOptions mapping = getMapToGpuOptions(options);
    if (mapping.wgmma && mapping.tf32)
      pm.addNestedPass<func::FuncOp>(createGpuTf32OperandsPass());
    pm.addNestedPass<func::FuncOp>(createGpuFoldOperandTransposesPass(
        getContractionChoices<GpuFoldOperandTransposesPassOptions>(mapping)));
    auto tiling = getContractionChoices<GpuTileToBlocksPassOptions>(mapping);
    tiling.fusedAttention = mapping.fusedAttention;
    pm.addNestedPass<func::FuncOp>(createGpuTileToBlocksPass(tiling));
  }
}

void google::addBufferizationPasses(OpPassManager &pm,
                                    const ExtremePipelineOptions &options) {
  // A loop's state in buffers of its own iteration, not copies of one
  // buffer from above the loop.
  pm.addNestedPass<func::FuncOp>(createLoopLocalDestinationsPass());
  pm.addPass(bufferization::createEmptyTensorEliminationPass());
  bufferization::OneShotBufferizePassOptions bufferizeOptions;
  bufferizeOptions.bufferizeFunctionBoundaries = true;
  bufferizeOptions.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  // google.while's state may be new tensors each iteration (the
  // deallocation pipeline frees the previous ones).
  bufferizeOptions.allowReturnAllocsFromLoops = true;
  pm.addPass(bufferization::createOneShotBufferizePass(bufferizeOptions));
  // The same program compiles to the same text.
  pm.addPass(createOrderConstantGlobalsPass());
  // Loops that carry a buffer they write in place return it directly, so
  // that a static result is computed in the caller's buffer, not copied.
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createResultsToOutParamsPass());
  // Removes the self-copies bufferization can leave.
  pm.addPass(createCanonicalizerPass());
  pm.addPass(mlir::createCSEPass());
  bool gpu = options.target != Target::CPU;
  if (gpu)
    pm.addNestedPass<func::FuncOp>(createGpuDeviceBuffersPass());
  bufferization::BufferDeallocationPipelineOptions deallocOptions;
  bufferization::buildBufferDeallocationPipeline(pm, deallocOptions);
  // On GPUs, the copies that deallocation adds (bufferization.clone) are
  // made on the device by the kernel stage.
  if (!gpu) {
    pm.addPass(createConvertBufferizationToMemRefPass());
    // Large matmuls' block loops go to OpenMP threads.
    pm.addPass(createParallelizeLoopsPass());
  }
  // Whatever the tensor-level rewrites assumed about dynamic extents is
  // checked at run time.
  pm.addPass(createCheckShapeAssumptionsPass());
}

void google::addHostLoweringPasses(OpPassManager &pm,
                                   const ExtremePipelineOptions &options) {
  bool gpu = options.target != Target::CPU;
  // GPU work goes on streams; the host waits where it needs a result.
  if (gpu)
    pm.addNestedPass<func::FuncOp>(createGpuAsyncRegionPass());
  pm.addNestedPass<func::FuncOp>(createConvertLinalgToLoopsPass());
  // Vector transfers of rank 2 and more become rank-1 loads and stores.
  VectorTransferToSCFOptions vectorToSCFOptions;
  vectorToSCFOptions.enableFullUnroll();
  pm.addNestedPass<func::FuncOp>(createConvertVectorToSCFPass(vectorToSCFOptions));
  // Row reductions become one horizontal reduction per row.
  pm.addNestedPass<func::FuncOp>(vector::createLowerVectorMultiReductionPass(
      vector::VectorMultiReductionLowering::InnerReduction));
  if (options.checkBounds)
    pm.addNestedPass<func::FuncOp>(createCheckBoundsPass());
  pm.addPass(createSCFToControlFlowPass());
  // Failed run-time checks become errors of the runtime call (a failed
  // bounds check aborts: inside an OpenMP region the call cannot end
  // cleanly).
  pm.addPass(createLowerChecksToRuntimePass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  addBf16EmulationPasses(pm);
  // Contractions become broadcasts and FMAs; reductions may reassociate
  // (SPEC, numerics).
  ConvertVectorToLLVMPassOptions vectorOptions;
  vectorOptions.reassociateFPReductions = true;
  vectorOptions.vectorContractLowering =
      vector::VectorContractLowering::OuterProduct;
  pm.addPass(createConvertVectorToLLVMPass(vectorOptions));
  // LLVM has no vector tanh or erf: a vectorized loop expanded them into a
  // call per lane (slow code, and compile time that grew with the square of
  // a chain's length). Their f32 polynomial approximations vectorize.
  if (!gpu) {
    ApproximateMathPassOptions approximate;
    approximate.functions = {"tanh", "erf"};
    pm.addPass(createApproximateMathPass(approximate));
  }
  pm.addPass(createConvertMathToLLVMPass());
  // (Scalar math only: MathToLibm unrolls a vector op into vector.extract
  // and vector.insert, which nothing would lower after this point.)
  pm.addPass(createConvertMathToLibmPass());
  // TMA tensor maps (wgmma) are made by the runtime's
  // mgpuTensorMapEncodeTiledMemref.
  if (options.wgmma)
    pm.addPass(createConvertNVGPUToNVVMPass());
  // Allocations go through the runtime's pooled allocator.
  FinalizeMemRefToLLVMConversionPassOptions memrefOptions;
  memrefOptions.useGenericFunctions = true;
  pm.addPass(createFinalizeMemRefToLLVMConversionPass(memrefOptions));
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(createConvertIndexToLLVMPass());
  pm.addPass(createConvertOpenMPToLLVMPass());
  // Kernel launches, device buffers and streams call the runtime's mgpu*
  // functions.
  if (gpu)
    pm.addPass(createGpuToLLVMConversionPass());
  pm.addPass(createUBToLLVMConversionPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  pm.addPass(createCanonicalizerPass());
}

void google::addRuntimeInterfacePasses(OpPassManager &pm,
                                       std::optional<Target> target,
                                       ArrayRef<std::string> cpuFeatures) {
  EmitRuntimeInterfacePassOptions interfaceOptions;
  interfaceOptions.cpuFeatures = llvm::to_vector(cpuFeatures);
  if (target)
    interfaceOptions.device = *target == Target::NVVM    ? "cuda"
                              : *target == Target::ROCDL ? "rocm"
                                                         : "cpu";
  pm.addPass(createEmitRuntimeInterfacePass(interfaceOptions));
}

llvm::Error
google::buildExtremePipeline(OpPassManager &pm,
                             const ExtremePipelineOptions &options) {
  if (llvm::Error err = verifyOptions(options))
    return err;
  addGoogleOptimizationPasses(pm, options);
  addExportPasses(pm);
  addLinalgLoweringPasses(pm, options);
  addTensorCodegenPasses(pm, options);
  addBufferizationPasses(pm, options);
  if (options.target != Target::CPU)
    addGpuKernelPasses(pm, options);
  addHostLoweringPasses(pm, options);
  addRuntimeInterfacePasses(pm, options.target,
                            getRequiredCpuFeatures(options.getHostChip()));
  return llvm::Error::success();
}

void google::registerExtremePipeline() {
  registerPassPipeline(
      "google-extreme-pipeline",
      "The whole way down: google optimizations, linalg, bufferization and "
      "the LLVM dialect, with GPU kernels in device binaries for "
      "target=nvvm and target=rocdl",
      [](OpPassManager &pm, StringRef text,
         function_ref<LogicalResult(const Twine &)> errorHandler) {
        ExtremePipelineOptions options;
        llvm::Error err = parseOptions(text, options);
        if (!err)
          err = buildExtremePipeline(pm, options);
        if (err)
          return errorHandler("google-extreme-pipeline: " +
                              llvm::toString(std::move(err)));
        return success();
      },
      [](function_ref<void(const detail::PassOptions &)> optionsHandler) {
        optionsHandler(ExtremePipelineOptions());
      });
}
