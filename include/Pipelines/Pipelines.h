//===- Pipelines.h - the google extreme pipeline ----------------*- C++ -*-===//
//
// --google-extreme-pipeline, built from one function per stage so that
// google-opt, google-run and Python share it and targets add stages.
//
//===----------------------------------------------------------------------===//

#ifndef GOOGLE_PIPELINES_PIPELINES_H
#define GOOGLE_PIPELINES_PIPELINES_H

#include "Codegen/GPU/Passes.h"
#include "Conversion/GoogleToLinalg/GoogleToLinalg.h"
#include "mlir/Pass/PassOptions.h"
#include "mlir/Support/LLVM.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>

namespace mlir {
class OpPassManager;

namespace google {

enum class Target { CPU, NVVM, ROCDL };

/// The options of SPEC section 2, in its spelling.
struct ExtremePipelineOptions
    : public PassPipelineOptions<ExtremePipelineOptions> {
  PassOptions::Option<Target> target{
      *this, "target", llvm::cl::desc("Code generation target"),
      llvm::cl::init(Target::CPU),
      llvm::cl::values(clEnumValN(Target::CPU, "cpu", "host CPU via LLVM"),
                       clEnumValN(Target::NVVM, "nvvm", "NVIDIA GPUs"),
                       clEnumValN(Target::ROCDL, "rocdl", "AMD GPUs"))};
  PassOptions::Option<std::string> chip{
      *this, "chip",
      llvm::cl::desc("CPU: host or an LLVM CPU name; NVVM: sm_80, sm_90, "
                     "...; ROCDL: gfx90a, gfx942, ... (default: host / "
                     "sm_90 / gfx942)"),
      llvm::cl::init("")};
  PassOptions::Option<bool> fold{*this, "fold",
                                 llvm::cl::desc("Run --google-fold-constants"),
                                 llvm::cl::init(true)};
  PassOptions::Option<bool> cse{*this, "cse",
                                llvm::cl::desc("Run --google-cse"),
                                llvm::cl::init(true)};
  PassOptions::Option<bool> dce{*this, "dce",
                                llvm::cl::desc("Run --google-dce"),
                                llvm::cl::init(true)};
  PassOptions::Option<bool> fuse{
      *this, "fuse", llvm::cl::desc("Run --google-fuse-matmul-bias-relu"),
      llvm::cl::init(true)};
  PassOptions::Option<unsigned> optLevel{
      *this, "opt-level", llvm::cl::desc("Optimization level, 0 to 3"),
      llvm::cl::init(3)};
  PassOptions::Option<std::string> toolkit{
      *this, "toolkit",
      llvm::cl::desc("GPU targets: the CUDA or ROCm directory to compile "
                     "kernels with (default: CUDA_HOME, CUDA_ROOT, CUDA_PATH "
                     "or /usr/local/cuda; ROCM_PATH, ROCM_ROOT, ROCM_HOME, "
                     "/opt/rocm or the one google-mlir's build made)"),
      llvm::cl::init("")};
  PassOptions::Option<bool> mfma{
      *this, "mfma",
      llvm::cl::desc("target=rocdl on AMD CDNA chips (gfx908, gfx90a, "
                     "gfx94x, gfx950): f16 matmuls (and bf16 ones from "
                     "gfx90a on) on matrix cores through amdgpu.mfma (off "
                     "by default: not yet run on an AMD GPU)"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> tf32{
      *this, "tf32",
      llvm::cl::desc("target=nvvm on sm_80 and later: f32 matmuls on tensor "
                     "cores in TF32 (inputs rounded to 10-bit mantissas; "
                     "off by default, an opt-in that changes results)"),
      llvm::cl::init(false)};
  PassOptions::Option<unsigned> mmaSyncWarps{
      *this, "mma-sync-warps",
      llvm::cl::desc("target=nvvm on sm_80 and later: warps per block of "
                     "the mma.sync tensor-core kernels, 8 (each 64x32 of a "
                     "128x128 tile of C) or 4 (each 64x64: fewer fragment "
                     "loads per mma; not yet run on a GPU)"),
      llvm::cl::init(8)};
  PassOptions::Option<unsigned> mmaSyncBlocksPerSM{
      *this, "mma-sync-blocks-per-sm",
      llvm::cl::desc("target=nvvm on sm_80 and later: blocks of the mma.sync "
                     "tensor-core kernels that each SM must hold at once, 1 "
                     "or 2 (the kernel's launch bounds: ptxas caps its "
                     "registers to fit; not yet run on a GPU)"),
      llvm::cl::init(1)};
  PassOptions::Option<bool> wgmma{
      *this, "wgmma",
      llvm::cl::desc("target=nvvm chip=sm_90a: f16 and bf16 matmuls "
                     "(batched or not; M, N >= 128, K >= 64, K and N "
                     "multiples of 8) on the "
                     "warpgroup tensor cores (wgmma, A and B loaded by "
                     "TMA; off by default: not yet run on a GPU); with "
                     "tf32=true, f32 ones too (M, N >= 128, K >= 32 and a "
                     "multiple of 4), their operands rounded and B "
                     "transposed first"),
      llvm::cl::init(false)};
  PassOptions::Option<unsigned> wgmmaWarpgroups{
      *this, "wgmma-warpgroups",
      llvm::cl::desc("With wgmma=true: warpgroups per block, 1 (128x128 "
                     "tiles of C, 3 stages) or 2 (256x128 tiles, 4 stages; "
                     "M a multiple of 256, else 1)"),
      llvm::cl::init(1)};
  PassOptions::Option<bool> wgmmaSpecialized{
      *this, "wgmma-specialized",
      llvm::cl::desc("With wgmma=true: warp-specialized blocks, one more "
                     "warpgroup loading the stages as the MMA warpgroups "
                     "release them (mbarriers instead of a block barrier "
                     "per slice; off by default: not yet run on a GPU)"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> fusedAttention{
      *this, "fused-attention",
      llvm::cl::desc("target=nvvm: attention (softmax(Q K^T) V, f32, static, "
                     "depths 16 to 64) in one kernel with an online softmax "
                     "(off by default: not yet run on a GPU)"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> warpDots{
      *this, "warp-dots",
      llvm::cl::desc("GPU targets: x @ w.T with a small output over a long "
                     "K (nn.Linear at small batches) in one kernel of warp "
                     "dot products reading w's rows, instead of split K "
                     "after a transpose kernel (off by default: not yet "
                     "run on a GPU)"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> mergeLaunches{
      *this, "merge-launches",
      llvm::cl::desc("GPU targets: independent kernels near each other, "
                     "of at most 2112 blocks each and as many threads per "
                     "block, run as one launch "
                     "(--google-gpu-merge-launches)"),
      llvm::cl::init(true)};
  PassOptions::Option<ScatterLowering> gpuScatter{
      *this, "gpu-scatter",
      llvm::cl::desc("GPU targets: how scatter_add runs (the CPU adds its "
                     "updates in one loop)"),
      llvm::cl::init(ScatterLowering::Cheapest),
      llvm::cl::values(
          clEnumValN(ScatterLowering::Cheapest, "cheapest",
                     "reduction or segments, whichever takes fewer steps"),
          clEnumValN(ScatterLowering::Segments, "segments",
                     "the index positions stably sorted by row, each result "
                     "element adding its row's run of updates"),
          clEnumValN(ScatterLowering::Reduction, "reduction",
                     "each result element tests every index"))};
  PassOptions::Option<bool> asyncCopy{
      *this, "async-copy",
      llvm::cl::desc("target=nvvm on sm_80 and later: the 16-bit "
                     "tensor-core kernels copy their slices to shared memory "
                     "by cp.async, in three stages (the default there; "
                     "async-copy=false stages them through registers)"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> checkBounds{
      *this, "check-bounds",
      llvm::cl::desc("check every memory access of the compiled code, "
                     "host and GPU kernels, at run time: one that leaves "
                     "its buffer names its op and location and aborts on "
                     "the host, or fails the call from a kernel (a "
                     "debugging aid: slow; off by default)"),
      llvm::cl::init(false)};

  /// `chip`, or the target's default when it is empty.
  std::string getChip() const;
  /// The CPU that runs the host code: the chip for target=cpu; for GPU
  /// targets, whose host code only launches kernels and copies buffers,
  /// the target's baseline ("generic"), so that objects run on any host.
  std::string getHostChip() const;
};

/// Parses `text` (`key=value ...`) into `options`; the error is one line
/// naming the text and what is wrong with it.
llvm::Error parseOptions(StringRef text, ExtremePipelineOptions &options);

/// Whether NVIDIA chip `chip` (sm_XY) has mma.sync's f16 m16n8k16 with f32
/// accumulation: sm_80 and later.
bool hasMmaSync(StringRef chip);

/// Whether AMD chip `chip` has CDNA's f16 matrix-core instructions
/// (v_mfma_f32_16x16x16f16): gfx908, gfx90a, gfx94x and gfx950.
bool hasMfma(StringRef chip);
/// Whether `chip` has AMD matrix cores for bf16 16x16x16
/// (v_mfma_f32_16x16x16bf16_1k): gfx90a, gfx94x and gfx950.
bool hasMfmaBf16(StringRef chip);

/// The kernels google-map-to-gpu picks for `options`' target and chip.
MapToGpuPassOptions getMapToGpuOptions(const ExtremePipelineOptions &options);

/// Checks option values and combinations; the error says why not.
llvm::Error verifyOptions(const ExtremePipelineOptions &options);

/// An error saying how to list valid names unless `chip` is `host` or a
/// CPU of the host's target that can run 64-bit code.
llvm::Error verifyCpuChip(StringRef chip);

/// An error naming valid chips unless LLVM's NVPTX (for NVVM) or AMDGPU
/// (for ROCDL) backend knows `chip`.
llvm::Error verifyGpuChip(Target target, StringRef chip);

/// The vector register width, in bits, of a CPU (`host` or an LLVM CPU
/// name): 512 with AVX-512, 256 with AVX2 and FMA, else 128.
unsigned getCpuVectorBits(StringRef chip);

/// The features of GOOGLE_RT_X86_FEATURES that code compiled for CPU `chip`
/// may use: the runtime refuses to load it where one is missing.
std::vector<std::string> getRequiredCpuFeatures(StringRef chip);

/// Stage 1: the google-level optimizations the options switch on.
void addGoogleOptimizationPasses(OpPassManager &pm,
                                 const ExtremePipelineOptions &options);
/// Stage 2: C interface and recorded signatures for public functions.
void addExportPasses(OpPassManager &pm);
/// Stage 3: google to linalg on tensors, with elementwise fusion.
void addLinalgLoweringPasses(OpPassManager &pm,
                             const ExtremePipelineOptions &options);
/// Stage 3b (CPU): register blocking and vectorization of matmuls, from
/// opt-level 2.
void addCpuTilingPasses(OpPassManager &pm,
                        const ExtremePipelineOptions &options);
/// Stage 3 to 3b: convolutions as matmuls (opt-level 1 and up), then the
/// CPU's tiling or, for GPU targets, the fills that kernels will absorb
/// duplicated per reader.
void addTensorCodegenPasses(OpPassManager &pm,
                            const ExtremePipelineOptions &options);
/// Stage 4: one-shot bufferization, static results as out-parameters, and
/// buffer deallocation; for GPU targets, the buffers live on the device.
void addBufferizationPasses(OpPassManager &pm,
                            const ExtremePipelineOptions &options);
/// Stage 4b (GPU), first part: the linalg ops on buffers moved next to
/// what they fuse with, then mapped to kernels (gpu.launch ops).
void addGpuMappingPasses(OpPassManager &pm,
                         const ExtremePipelineOptions &options);
/// Stage 4b (GPU): linalg ops to kernels (addGpuMappingPasses), lowered to
/// NVVM or ROCDL and serialized into device binaries.
void addGpuKernelPasses(OpPassManager &pm,
                        const ExtremePipelineOptions &options);
/// bf16 arithmetic in f32, rounded back after each op, and the conversions
/// as integer ops (no bf16 libcall): on the host and in GPU kernels alike.
void addBf16EmulationPasses(OpPassManager &pm);
/// Stage 5: host code (loops, or GPU launches and copies) to the LLVM
/// dialect.
void addHostLoweringPasses(OpPassManager &pm,
                           const ExtremePipelineOptions &options);

/// Stage 6: packed entry points and the manifest the runtime loads.
/// `target` says where the functions' tensors live (none: what the device
/// binaries say); `cpuFeatures` what the host code was compiled for
/// (getRequiredCpuFeatures).
void addRuntimeInterfacePasses(OpPassManager &pm,
                               std::optional<Target> target = std::nullopt,
                               ArrayRef<std::string> cpuFeatures = {});

/// The whole pipeline for `options.target`; an error on invalid or
/// unsupported options.
llvm::Error buildExtremePipeline(OpPassManager &pm,
                                 const ExtremePipelineOptions &options);

/// Registers --google-extreme-pipeline.
void registerExtremePipeline();

} // namespace google
} // namespace mlir

#endif // GOOGLE_PIPELINES_PIPELINES_H
