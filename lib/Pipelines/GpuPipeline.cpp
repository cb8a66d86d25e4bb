//===- GpuPipeline.cpp - the extreme pipeline's NVVM and ROCDL stages -----===//

#include "Pipelines/Pipelines.h"

#include "Codegen/GPU/Passes.h"
#include "Codegen/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace mlir::google;

llvm::Error google::verifyGpuChip(Target target, StringRef chip) {
  if (target == Target::NVVM) {
    if (getPtxFeatures(chip))
      return llvm::Error::success();
    return llvm::createStringError(
        "unknown chip '" + chip +
        "' for target=nvvm: expected an NVIDIA GPU architecture that LLVM's "
        "NVPTX backend knows, like sm_80, sm_89, sm_90 or sm_100");
  }
  if (isKnownAmdgpuChip(chip))
    return llvm::Error::success();
  return llvm::createStringError(
      "unknown chip '" + chip +
      "' for target=rocdl: expected an AMD GPU that LLVM's AMDGPU backend "
      "knows, like gfx90a, gfx942 or gfx1100");
}

bool google::hasMmaSync(StringRef chip) {
  unsigned version = 0;
  return chip.consume_front("sm_") &&
         !chip.take_while(llvm::isDigit).getAsInteger(10, version) &&
         version >= 80;
}

bool google::hasMfmaBf16(StringRef chip) {
  return hasMfma(chip) && chip != "gfx908";
}

bool google::hasMfma(StringRef chip) {
  return llvm::is_contained(
      {"gfx908", "gfx90a", "gfx940", "gfx941", "gfx942", "gfx950"}, chip);
}

MapToGpuPassOptions
google::getMapToGpuOptions(const ExtremePipelineOptions &options) {
  MapToGpuPassOptions mapping;
  bool nvidia = options.target == Target::NVVM;
  mapping.mmaSync = nvidia && hasMmaSync(options.getChip());
  mapping.mfma = options.mfma;
  mapping.mfmaBf16 = options.mfma && hasMfmaBf16(options.getChip());
  mapping.tf32 = options.tf32;
  mapping.asyncCopy = options.asyncCopy && mapping.mmaSync;
  mapping.mmaSyncWarps = options.mmaSyncWarps;
  mapping.mmaSyncBlocksPerSM = options.mmaSyncBlocksPerSM;
  mapping.wgmma = options.wgmma && mapping.mmaSync;
  mapping.wgmmaWarpgroups = options.wgmmaWarpgroups;
  mapping.wgmmaSpecialized = mapping.wgmma && options.wgmmaSpecialized;
  mapping.warpShuffles = nvidia;
  mapping.warpDots = options.warpDots;
  mapping.fusedAttention = nvidia && options.fusedAttention;
  return mapping;
}

namespace {

/// The dialects whose ops kernels hold when they are lowered to NVVM or
/// ROCDL. Their conversions take these dialects' patterns only: with every
/// loaded dialect's (upstream's default), a ROCDL compile in a context where
/// NVVM is loaded keeps math.tanh as an intrinsic AMDGPU cannot select.
const SmallVector<std::string> kKernelDialects = {"arith",  "cf", "math",
                                                  "memref", "ub", "vector"};

} // namespace

void google::addGpuMappingPasses(OpPassManager &pm,
                                 const ExtremePipelineOptions &options) {
  pm.addNestedPass<func::FuncOp>(createGpuHoistEpiloguesPass());
  pm.addNestedPass<func::FuncOp>(
      createMapToGpuPass(getMapToGpuOptions(options)));
  if (options.mergeLaunches)
    pm.addNestedPass<func::FuncOp>(createGpuMergeLaunchesPass());
}

void google::addGpuKernelPasses(OpPassManager &pm,
                                const ExtremePipelineOptions &options) {
  addGpuMappingPasses(pm, options);
  if (options.checkBounds)
    pm.addNestedPass<func::FuncOp>(createCheckKernelBoundsPass());
  pm.addPass(createConvertBufferizationToMemRefPass());
  pm.addPass(createOutlineKernelsPass());
  pm.addPass(createMergeKernelModulesPass());
  if (options.wgmma)
    pm.addPass(createPassTensorMapsAsPointersPass());

  std::string chip = options.getChip();
  unsigned optLevel = options.optLevel;
  if (options.target == Target::NVVM) {
    GpuNVVMAttachTargetOptions attach;
    attach.chip = chip;
    attach.features = *getPtxFeatures(chip);
    attach.optLevel = optLevel;
    pm.addPass(createGpuNVVMAttachTarget(attach));
  } else {
    GpuROCDLAttachTargetOptions attach;
    attach.chip = chip;
    attach.optLevel = optLevel;
    // RDNA (gfx10, gfx11, gfx12) runs 32-wide waves natively.
    attach.wave64Flag = !StringRef(chip).starts_with("gfx1");
    pm.addPass(createGpuROCDLAttachTarget(attach));
  }

  OpPassManager &kernels = pm.nest<gpu::GPUModuleOp>();
  kernels.addPass(createStripDebugInfoPass());
  kernels.addPass(createLowerAffinePass());
  // wgmma's accumulators are loop-carried: NVGPU's lowering converts them in
  // scf.for, not in the blocks of control flow.
  if (options.wgmma) {
    kernels.addPass(createLowerBf16MmaSyncPass());
    kernels.addPass(createLowerKMajorWgmmaPass());
    kernels.addPass(createConvertNVGPUToNVVMPass());
  }
  kernels.addPass(createSCFToControlFlowPass());
  // Failed checks: NVVM's cf.assert calls CUDA's __assertfail; ROCDL's
  // cannot be lowered upstream.
  if (options.target == Target::ROCDL)
    kernels.addPass(createLowerKernelAssertsPass());
  kernels.addPass(memref::createExpandStridedMetadataPass());
  kernels.addPass(createLowerAffinePass());
  // bf16 arithmetic in f32, rounded after each op, as on the CPU.
  addBf16EmulationPasses(kernels);
  if (options.target == Target::NVVM) {
    // Without libdevice (no CUDA toolkit), exp, log, tanh, ... become
    // polynomials; the serializer defines the few libdevice functions
    // left (sqrt, floor, ...) with LLVM intrinsics.
    if (findLibdevice(findCudaToolkit(options.toolkit)).empty()) {
      // Only the functions whose approximations approximate-math.test
      // measured within the error bounds: MLIR's sin and cos are 80 ulp
      // off at |x| = 100, so kernels calling them need libdevice.
      ApproximateMathPassOptions approximate;
      approximate.functions = {"exp", "log", "tanh", "erf"};
      kernels.addPass(createApproximateMathPass(approximate));
    }
    kernels.addPass(createLowerBf16MmaSyncPass());
    kernels.addPass(createConvertNVGPUToNVVMPass());
    ConvertGpuOpsToNVVMOpsOptions lowering;
    lowering.indexBitwidth = 64;
    lowering.allowedDialects = kKernelDialects;
    kernels.addPass(createConvertGpuOpsToNVVMOps(lowering));
    // wgmma's, TMA's and mbarriers' NVVM ops are PTX (inline assembly).
    if (options.wgmma)
      kernels.addPass(createConvertNVVMToLLVMPass());
    // What libdevice does not cover (math.ctlz) has an LLVM intrinsic.
    kernels.addPass(createConvertMathToLLVMPass());
  } else {
    ConvertAMDGPUToROCDLPassOptions matrixCores;
    matrixCores.chipset = chip;
    kernels.addPass(createConvertAMDGPUToROCDLPass(matrixCores));
    ConvertGpuOpsToROCDLOpsOptions lowering;
    lowering.chipset = chip;
    lowering.indexBitwidth = 64;
    lowering.runtime = gpu::amd::Runtime::HIP;
    lowering.allowedDialects = kKernelDialects;
    kernels.addPass(createConvertGpuOpsToROCDLOps(lowering));
  }
  kernels.addPass(createCanonicalizerPass());
  kernels.addPass(createCSEPass());
  kernels.addPass(createReconcileUnrealizedCastsPass());

  SerializeKernelsPassOptions serialize;
  serialize.toolkit = options.toolkit;
  pm.addPass(createSerializeKernelsPass(serialize));
}
