// Every op family compiles for NVIDIA and AMD GPUs: kernels outlined into
// one device binary per module, host code in the LLVM dialect that launches
// them, and a manifest that says which device runs the module.
// REQUIRES: cuda-toolkit
// RUN: google-opt %s -split-input-file --google-extreme-pipeline="target=nvvm" | FileCheck %s --check-prefixes=CHECK,NVVM
// RUN: google-opt %s -split-input-file --google-extreme-pipeline="target=rocdl" | FileCheck %s --check-prefixes=CHECK,ROCDL
// RUN: google-opt %s -split-input-file --google-extreme-pipeline="target=nvvm chip=sm_80 opt-level=0" | FileCheck %s --check-prefix=SM80
// RUN: google-opt %s -split-input-file --google-extreme-pipeline="target=rocdl chip=gfx1100" | FileCheck %s --check-prefix=GFX1100

// CHECK-LABEL: llvm.func @mlp(
// CHECK: gpu.launch_func
// CHECK-NOT: linalg.
// NVVM: gpu.binary @mlp_kernel [#gpu.object<#nvvm.target<O = 3, chip = "sm_90", features = "+ptx80">
// ROCDL: gpu.binary @mlp_kernel [#gpu.object<#rocdl.target<O = 3, chip = "gfx942">
// SM80: gpu.binary @mlp_kernel [#gpu.object<#nvvm.target<O = 0, chip = "sm_80", features = "+ptx80">
// GFX1100: gpu.binary @mlp_kernel [#gpu.object<#rocdl.target<O = 3, chip = "gfx1100", flags = {no_wave64}>
// CHECK-NOT: gpu.binary
// NVVM: @google_mlir_manifest("google-mlir-manifest 1\0Adevice cuda\0Afunc mlp ret 4 tensor<?x784xf32> tensor<784x256xf32> tensor<256xf32> tensor<256x10xf32> 1 tensor<?x10xf32>\0A\00")
// ROCDL: @google_mlir_manifest("google-mlir-manifest 1\0Adevice rocm\0Afunc mlp ret
func.func @mlp(%x: tensor<?x784xf32>, %w1: tensor<784x256xf32>, %b1: tensor<256xf32>, %w2: tensor<256x10xf32>) -> tensor<?x10xf32> {
  %0 = google.matmul %x, %w1 : tensor<?x784xf32>, tensor<784x256xf32> -> tensor<?x256xf32>
  %1 = google.add %0, %b1 : tensor<?x256xf32>, tensor<256xf32> -> tensor<?x256xf32>
  %2 = google.relu %1 : tensor<?x256xf32>
  %3 = google.matmul %2, %w2 : tensor<?x256xf32>, tensor<256x10xf32> -> tensor<?x10xf32>
  %4 = google.softmax %3 {axis = 1 : i64} : tensor<?x10xf32>
  return %4 : tensor<?x10xf32>
}

// -----

// CHECK-LABEL: llvm.func @batched_matmul(
// CHECK: gpu.launch_func
// CHECK: gpu.binary
func.func @batched_matmul(%a: tensor<4x16x32xf32>, %b: tensor<4x32x8xf32>) -> tensor<4x16x8xf32> {
  %0 = google.matmul %a, %b : tensor<4x16x32xf32>, tensor<4x32x8xf32> -> tensor<4x16x8xf32>
  return %0 : tensor<4x16x8xf32>
}

// -----

// A reduction over every axis runs on one thread; the others over the kept
// axes.
// CHECK-LABEL: llvm.func @reductions(
// CHECK-COUNT-2: gpu.launch_func
// CHECK: gpu.binary
func.func @reductions(%x: tensor<?x8xf32>) -> (tensor<8xf32>, tensor<f32>) {
  %0 = google.reduce_sum %x {axes = array<i64: 0>, keep_dims = false} : tensor<?x8xf32> -> tensor<8xf32>
  %1 = google.reduce_max %x {axes = array<i64: 0, 1>, keep_dims = false} : tensor<?x8xf32> -> tensor<f32>
  return %0, %1 : tensor<8xf32>, tensor<f32>
}

// -----

// CHECK-LABEL: llvm.func @layout_and_casts(
// CHECK: gpu.launch_func
// CHECK: gpu.binary
func.func @layout_and_casts(%x: tensor<4x6xf32>, %i: tensor<4x6xi64>) -> (tensor<6x4xf16>, tensor<24xbf16>, tensor<4x6xi64>, tensor<4x6xf64>) {
  %0 = google.transpose %x {perm = array<i64: 1, 0>} : tensor<4x6xf32> -> tensor<6x4xf32>
  %1 = google.cast %0 : tensor<6x4xf32> -> tensor<6x4xf16>
  %2 = google.reshape %x : tensor<4x6xf32> -> tensor<24xf32>
  %3 = google.cast %2 : tensor<24xf32> -> tensor<24xbf16>
  %4 = google.add %i, %i : tensor<4x6xi64>, tensor<4x6xi64> -> tensor<4x6xi64>
  %5 = google.cast %x : tensor<4x6xf32> -> tensor<4x6xf64>
  %6 = google.tanh %5 : tensor<4x6xf64>
  return %1, %3, %4, %6 : tensor<6x4xf16>, tensor<24xbf16>, tensor<4x6xi64>, tensor<4x6xf64>
}

// -----

// A constant is copied from the host into device memory for the kernels.
// CHECK-LABEL: llvm.func @constant_to_device(
// CHECK: llvm.call @mgpuMemAlloc
// CHECK: llvm.call @mgpuMemcpy
// CHECK: gpu.launch_func
func.func @constant_to_device(%x: tensor<3xf32>) -> tensor<3xf32> {
  %c = google.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %0 = google.mul %x, %c : tensor<3xf32>, tensor<3xf32> -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

// A returned argument is copied on the device, without a kernel.
// CHECK-LABEL: llvm.func @identity(
// CHECK: llvm.call @mgpuMemAlloc
// CHECK: llvm.call @mgpuMemcpy
// CHECK-NOT: gpu.launch_func
// CHECK-NOT: gpu.binary
// NVVM: "google-mlir-manifest 1\0Adevice cuda\0Afunc identity ret 1 tensor<?xf32> 1 tensor<?xf32>\0A\00"
func.func @identity(%x: tensor<?xf32>) -> tensor<?xf32> {
  return %x : tensor<?xf32>
}
