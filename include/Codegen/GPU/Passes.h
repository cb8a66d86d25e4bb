//===- Passes.h - GPU code generation passes --------------------*- C++ -*-===//

#ifndef GOOGLE_CODEGEN_GPU_PASSES_H
#define GOOGLE_CODEGEN_GPU_PASSES_H

#include "mlir/Pass/Pass.h"

#include <optional>
#include <string>

namespace mlir {
class OpBuilder;
namespace affine {
class AffineDialect;
} // namespace affine
namespace amdgpu {
class AMDGPUDialect;
} // namespace amdgpu
namespace arith {
class ArithDialect;
} // namespace arith
namespace cf {
class ControlFlowDialect;
} // namespace cf
namespace func {
class FuncOp;
} // namespace func
namespace gpu {
class GPUDialect;
class GPUModuleOp;
class LaunchOp;
} // namespace gpu
namespace linalg {
class LinalgDialect;
} // namespace linalg
namespace LLVM {
class LLVMDialect;
} // namespace LLVM
namespace NVVM {
class NVVMDialect;
} // namespace NVVM
namespace memref {
class MemRefDialect;
} // namespace memref
namespace nvgpu {
class NVGPUDialect;
} // namespace nvgpu
namespace scf {
class SCFDialect;
} // namespace scf
namespace tensor {
class TensorDialect;
} // namespace tensor
namespace vector {
class VectorDialect;
} // namespace vector

namespace google {

#define GEN_PASS_DECL
#include "Codegen/GPU/Passes.h.inc"

/// The CUDA toolkit to compile kernels with: `option` when it is not
/// empty, else CUDA_HOME, CUDA_ROOT or CUDA_PATH, else /usr/local/cuda.
std::string findCudaToolkit(StringRef option);

/// The ROCm directory whose llvm/bin/ld.lld links code objects and whose
/// amdgcn/bitcode holds the device libraries: `option` when it is not
/// empty, else ROCM_PATH, ROCM_ROOT or ROCM_HOME, else /opt/rocm when it
/// exists, else the directory google-mlir's build made from Debian's
/// lld-22 and rocm-device-libs.
std::string findRocmToolkit(StringRef option);

/// Whether `toolkit` has the ptxas and fatbinary that a cubin in a fatbin
/// needs (else kernels are shipped as PTX).
bool hasCudaCompilers(StringRef toolkit);

/// CUDA's libdevice (the device math library) in `toolkit`, or "" when
/// there is none.
std::string findLibdevice(StringRef toolkit);

/// The PTX ISA feature (e.g. "+ptx80") that an NVVM chip needs, or
/// std::nullopt when `chip` is not an sm_XX name LLVM's NVPTX backend
/// knows.
std::optional<std::string> getPtxFeatures(StringRef chip);

/// Whether LLVM's AMDGPU backend knows `chip` (gfx90a, gfx942, ...).
bool isKnownAmdgpuChip(StringRef chip);

/// A cf.assert before every memory access in `launch`'s body that it stays
/// inside its buffer (see CheckKernelBoundsPass).
void insertKernelBoundsChecks(OpBuilder &builder, gpu::LaunchOp launch);

/// Marks the TF32 wgmma kernel's nvgpu.warpgroup.mma, whose 16-bit
/// operand tiles hold f32 (see LowerKMajorWgmmaPass).
constexpr llvm::StringLiteral kTf32WgmmaAttr = "google.tf32";

/// A gpu.launch's dictionary of attributes for the kernel outlined from it
/// (see OutlineKernelsPass).
constexpr llvm::StringLiteral kKernelAttrsAttr = "google.kernel_attrs";

#define GEN_PASS_REGISTRATION
#include "Codegen/GPU/Passes.h.inc"

} // namespace google
} // namespace mlir

#endif // GOOGLE_CODEGEN_GPU_PASSES_H
