// RUN: google-opt %s -split-input-file --google-merge-kernel-modules | FileCheck %s

// Kernels that outlining named alike are renamed apart in one module.
// CHECK-LABEL: module attributes {gpu.container_module}
// CHECK: gpu.launch_func @f_kernel::@f_kernel blocks
// CHECK: gpu.launch_func @f_kernel::@f_kernel_0 blocks
// CHECK: gpu.module @f_kernel {
// CHECK: gpu.func @f_kernel() kernel
// CHECK: gpu.func @f_kernel_0() kernel
// CHECK-NOT: gpu.module
module attributes {gpu.container_module} {
  func.func @f() {
    %c1 = arith.constant 1 : index
    gpu.launch_func @f_kernel::@f_kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    gpu.launch_func @f_kernel_0::@f_kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }
  gpu.module @f_kernel {
    gpu.func @f_kernel() kernel { gpu.return }
  }
  gpu.module @f_kernel_0 {
    gpu.func @f_kernel() kernel { gpu.return }
  }
}

// -----

// Names that are not PTX identifiers (a function renamed under `_google_fn.`
// because it shadows libm's exp) are made into ones.
// CHECK-LABEL: module attributes {gpu.container_module}
// CHECK: gpu.launch_func @k::@_google_fn_exp_kernel blocks
// CHECK: gpu.func @_google_fn_exp_kernel() kernel
module attributes {gpu.container_module} {
  func.func @"_google_fn.exp"() {
    %c1 = arith.constant 1 : index
    gpu.launch_func @k::@"_google_fn.exp_kernel" blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }
  gpu.module @k {
    gpu.func @"_google_fn.exp_kernel"() kernel { gpu.return }
  }
}

// -----

// Modules for different targets stay apart.
// CHECK-LABEL: module attributes {gpu.container_module}
// CHECK: gpu.module @negative_a [#nvvm.target<chip = "sm_90">]
// CHECK: gpu.module @negative_b [#nvvm.target<chip = "sm_80">]
module attributes {gpu.container_module} {
  gpu.module @negative_a [#nvvm.target<chip = "sm_90">] {
    gpu.func @a() kernel { gpu.return }
  }
  gpu.module @negative_b [#nvvm.target<chip = "sm_80">] {
    gpu.func @b() kernel { gpu.return }
  }
}
