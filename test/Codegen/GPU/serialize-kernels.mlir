// REQUIRES: cuda-toolkit
// RUN: google-opt %s -split-input-file --google-serialize-kernels -verify-diagnostics | FileCheck %s

// NVVM: a fatbin (its magic 0xBA55ED50, little-endian) with the cubin and
// the PTX.
// CHECK-LABEL: module attributes {gpu.container_module}
// CHECK: gpu.binary @nvvm_kernels [#gpu.object<#nvvm.target<chip = "sm_90", features = "+ptx80">, properties = {{.*}}, "P\EDU\BA
// CHECK-NOT: gpu.module
module attributes {gpu.container_module} {
  gpu.module @nvvm_kernels [#nvvm.target<chip = "sm_90", features = "+ptx80">] {
    llvm.func @scale(%p: !llvm.ptr<1>, %f: f32) attributes {gpu.kernel, nvvm.kernel} {
      %v = llvm.load %p : !llvm.ptr<1> -> f32
      %r = llvm.fmul %v, %f : f32
      llvm.store %r, %p : f32, !llvm.ptr<1>
      llvm.return
    }
  }
}

// -----

// ROCDL: an AMDGPU ELF code object, linked by the bundled ld.lld.
// CHECK-LABEL: module attributes {gpu.container_module}
// CHECK: gpu.binary @rocdl_kernels [#gpu.object<#rocdl.target<chip = "gfx942">, {{.*}}"\7FELF
module attributes {gpu.container_module} {
  gpu.module @rocdl_kernels [#rocdl.target<chip = "gfx942">] {
    llvm.func @scale(%p: !llvm.ptr<1>, %f: f32) attributes {gpu.kernel, rocdl.kernel} {
      %v = llvm.load %p : !llvm.ptr<1> -> f32
      %r = llvm.fmul %v, %f : f32
      llvm.store %r, %p : f32, !llvm.ptr<1>
      llvm.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  // expected-error@+1 {{google-serialize-kernels: the gpu.module has no target attribute}}
  gpu.module @no_target {
    llvm.func @k() attributes {gpu.kernel} {
      llvm.return
    }
  }
}
