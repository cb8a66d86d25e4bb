// Unsupported or malformed options fail cleanly, naming the problem.
// RUN: not google-opt %s --google-extreme-pipeline="target=nvvm chip=sm_12" 2>&1 | FileCheck %s --check-prefix=NVVM
// RUN: not google-opt %s --google-extreme-pipeline="target=nvvm chip=gfx942" 2>&1 | FileCheck %s --check-prefix=NVVM-AMD
// RUN: not google-opt %s --google-extreme-pipeline="target=rocdl chip=sm_90" 2>&1 | FileCheck %s --check-prefix=ROCDL
// RUN: not google-opt %s --google-extreme-pipeline="target=rocdl chip=gfx9999" 2>&1 | FileCheck %s --check-prefix=ROCDL-BAD
// RUN: not google-opt %s --google-extreme-pipeline="opt-level=7" 2>&1 | FileCheck %s --check-prefix=OPT
// RUN: not google-opt %s --google-extreme-pipeline="target=nvvm mfma=true" 2>&1 | FileCheck %s --check-prefix=MFMA-NVVM
// RUN: not google-opt %s --google-extreme-pipeline="target=rocdl chip=gfx1100 mfma=true" 2>&1 | FileCheck %s --check-prefix=MFMA-RDNA
// RUN: not google-opt %s --google-extreme-pipeline="tf32=true" 2>&1 | FileCheck %s --check-prefix=TF32-CPU
// RUN: not google-opt %s --google-extreme-pipeline="target=nvvm chip=sm_75 tf32=true" 2>&1 | FileCheck %s --check-prefix=TF32-SM75
// RUN: not google-opt %s --google-extreme-pipeline="target=rocdl tf32=true" 2>&1 | FileCheck %s --check-prefix=TF32-ROCDL
// RUN: not google-opt %s --google-extreme-pipeline="target=nvvm chip=sm_75 async-copy=true" 2>&1 | FileCheck %s --check-prefix=ASYNC-SM75
// RUN: not google-opt %s --google-extreme-pipeline="fused-attention=true" 2>&1 | FileCheck %s --check-prefix=FUSED-CPU
// RUN: not google-opt %s --google-extreme-pipeline="target=rocdl fused-attention=true" 2>&1 | FileCheck %s --check-prefix=FUSED-ROCDL
// RUN: not google-opt %s --google-extreme-pipeline="target=nvvm chip=sm_90 wgmma=true" 2>&1 | FileCheck %s --check-prefix=WGMMA-SM90
// RUN: not google-opt %s --google-extreme-pipeline="wgmma=true" 2>&1 | FileCheck %s --check-prefix=WGMMA-CPU
// RUN: not google-opt %s --google-extreme-pipeline="target=nvvm chip=sm_90a wgmma=true wgmma-warpgroups=4" 2>&1 | FileCheck %s --check-prefix=WGMMA-GROUPS
// RUN: not google-opt %s --google-extreme-pipeline="target=nvvm mma-sync-warps=16" 2>&1 | FileCheck %s --check-prefix=MMA-WARPS
// RUN: not google-opt %s --google-extreme-pipeline="target=nvvm mma-sync-blocks-per-sm=0" 2>&1 | FileCheck %s --check-prefix=MMA-BLOCKS
// RUN: not google-opt %s --google-extreme-pipeline="gpu-scatter=segments" 2>&1 | FileCheck %s --check-prefix=SCATTER-CPU
// RUN: not google-opt %s --google-extreme-pipeline="target=nvvm gpu-scatter=sorted" 2>&1 | FileCheck %s --check-prefix=SCATTER --implicit-check-not=Parser --implicit-check-not=google-opt:
// RUN: not google-opt %s --google-extreme-pipeline="target=tpu" 2>&1 | FileCheck %s --check-prefix=TARGET --implicit-check-not=Parser --implicit-check-not=google-opt:
// RUN: not google-opt %s --google-extreme-pipeline="fusion=true" 2>&1 | FileCheck %s --check-prefix=UNKNOWN --implicit-check-not=Parser --implicit-check-not=google-opt:
// RUN: not google-opt %s --google-extreme-pipeline="chip=notacpu" 2>&1 | FileCheck %s --check-prefix=CHIP --implicit-check-not=warning --implicit-check-not=recognized
// RUN: not google-opt %s --google-extreme-pipeline="chip=cortex-a53" 2>&1 | FileCheck %s --check-prefix=ARM
// RUN: not google-opt %s --google-extreme-pipeline="chip=i386" 2>&1 | FileCheck %s --check-prefix=I386

// NVVM: error: google-extreme-pipeline: unknown chip 'sm_12' for target=nvvm: expected an NVIDIA GPU architecture that LLVM's NVPTX backend knows, like sm_80, sm_89, sm_90 or sm_100
// NVVM-AMD: error: google-extreme-pipeline: unknown chip 'gfx942' for target=nvvm
// ROCDL: error: google-extreme-pipeline: unknown chip 'sm_90' for target=rocdl: expected an AMD GPU that LLVM's AMDGPU backend knows, like gfx90a, gfx942 or gfx1100
// ROCDL-BAD: error: google-extreme-pipeline: unknown chip 'gfx9999' for target=rocdl
// OPT: error: google-extreme-pipeline: opt-level must be 0, 1, 2 or 3, got 7
// MFMA-NVVM: error: google-extreme-pipeline: mfma=true needs target=rocdl and an AMD CDNA chip (gfx908, gfx90a, gfx940, gfx941, gfx942 or gfx950), got target=nvvm chip=sm_90
// MFMA-RDNA: error: google-extreme-pipeline: mfma=true needs target=rocdl and an AMD CDNA chip ({{.*}}), got target=rocdl chip=gfx1100
// TF32-CPU: error: google-extreme-pipeline: tf32=true needs target=nvvm and an NVIDIA chip from sm_80 on, got target=cpu chip=host
// TF32-SM75: error: google-extreme-pipeline: tf32=true needs target=nvvm and an NVIDIA chip from sm_80 on, got target=nvvm chip=sm_75
// TF32-ROCDL: error: google-extreme-pipeline: tf32=true needs target=nvvm and an NVIDIA chip from sm_80 on, got target=rocdl chip=gfx942
// ASYNC-SM75: error: google-extreme-pipeline: async-copy=true needs target=nvvm and an NVIDIA chip from sm_80 on, got target=nvvm chip=sm_75
// FUSED-CPU: error: google-extreme-pipeline: fused-attention=true needs target=nvvm, got target=cpu
// FUSED-ROCDL: error: google-extreme-pipeline: fused-attention=true needs target=nvvm, got target=rocdl
// WGMMA-SM90: error: google-extreme-pipeline: wgmma=true needs target=nvvm chip=sm_90a (wgmma and TMA are sm_90a's), got target=nvvm chip=sm_90
// WGMMA-GROUPS: error: google-extreme-pipeline: wgmma-warpgroups must be 1 or 2, got 4
// WGMMA-CPU: error: google-extreme-pipeline: wgmma=true needs target=nvvm chip=sm_90a (wgmma and TMA are sm_90a's), got target=cpu chip=host
// MMA-WARPS: error: google-extreme-pipeline: mma-sync-warps must be 8 or 4, got 16
// MMA-BLOCKS: error: google-extreme-pipeline: mma-sync-blocks-per-sm must be 1 or 2, got 0
// SCATTER-CPU: error: google-extreme-pipeline: gpu-scatter needs target=nvvm or rocdl, got target=cpu (the CPU adds scatter_add's updates in one loop)
// One line each (the option parser's own lines came first).
// SCATTER: error: google-extreme-pipeline: invalid pipeline options 'target=nvvm gpu-scatter=sorted': gpu-scatter=sorted: expected cheapest, segments or reduction
// TARGET: error: google-extreme-pipeline: invalid pipeline options 'target=tpu': target=tpu: expected cpu, nvvm or rocdl
// UNKNOWN: error: google-extreme-pipeline: invalid pipeline options 'fusion=true': no option 'fusion'; expected async-copy, check-bounds, chip, cse, dce, fold, fuse, fused-attention, gpu-scatter, merge-launches, mfma, mma-sync-blocks-per-sm, mma-sync-warps, opt-level, target, tf32, toolkit, warp-dots, wgmma, wgmma-specialized, wgmma-warpgroups
// CHIP: error: google-extreme-pipeline: unknown chip 'notacpu' for x86_64: expected host or a 64-bit CPU name that `llc -mtriple={{.*}} -mcpu=help` lists
// ARM: error: google-extreme-pipeline: unknown chip 'cortex-a53' for x86_64
// I386: error: google-extreme-pipeline: chip 'i386' cannot run x86_64 code (it has no 64-bit mode): expected host or a 64-bit CPU, like x86-64-v3 or znver4

func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
