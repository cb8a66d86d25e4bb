// A kernel's lowering does not depend on which dialects the context has
// loaded: the GPU targets' conversions take the patterns of the dialects
// kernels hold, not of every loaded one. Before, a ROCDL compile in a
// context where NVVM was loaded (here by an attribute) kept math.tanh as an
// LLVM intrinsic, which the AMDGPU backend cannot select ("no libcall
// available for ftanh").
// RUN: google-opt %s --google-extreme-pipeline="target=rocdl chip=gfx942" | FileCheck %s --check-prefix=ROCDL
// RUN: google-opt %s --google-extreme-pipeline="target=nvvm chip=sm_90" 2>/dev/null | FileCheck %s --check-prefix=NVVM

// ROCDL: gpu.binary @activation_kernel [#gpu.object<#rocdl.target<O = 3, chip = "gfx942">
// NVVM: gpu.binary @activation_kernel [#gpu.object<#nvvm.target<O = 3, chip = "sm_90"
module attributes {test.targets = [#nvvm.target<chip = "sm_90">, #rocdl.target<chip = "gfx942">]} {
  func.func @activation(%x: tensor<1024xf32>) -> tensor<1024xf32> {
    %0 = google.tanh %x : tensor<1024xf32>
    return %0 : tensor<1024xf32>
  }
}
