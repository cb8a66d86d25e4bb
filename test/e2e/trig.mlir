// RUN: %python %e2e run %s google-run | FileCheck %s
// CHECK: e2e: 3 cases match numpy
// (Kept apart from unary.mlir: NVVM kernels need CUDA's libdevice for sin
// and cos, see Codegen/GPU/no-cuda-toolkit.test.)

// E2E: @trig(x: 5x33xf32[-20:20]) -> np.sin(x), np.cos(x)
// E2E: @trig_narrow(x: 40xf16[-8:8], y: 40xbf16[-8:8]) -> np.sin(x), np.cos(y)
// E2E: @rsqrt(x: 3x17xf32[0.001:1000], y: 9xf16[0.01:100]) -> 1 / np.sqrt(x), 1 / np.sqrt(y)

func.func @trig(%x: tensor<5x33xf32>) -> (tensor<5x33xf32>, tensor<5x33xf32>) {
  %0 = google.sin %x : tensor<5x33xf32>
  %1 = google.cos %x : tensor<5x33xf32>
  return %0, %1 : tensor<5x33xf32>, tensor<5x33xf32>
}
func.func @trig_narrow(%x: tensor<40xf16>, %y: tensor<40xbf16>) -> (tensor<40xf16>, tensor<40xbf16>) {
  %0 = google.sin %x : tensor<40xf16>
  %1 = google.cos %y : tensor<40xbf16>
  return %0, %1 : tensor<40xf16>, tensor<40xbf16>
}
func.func @rsqrt(%x: tensor<3x17xf32>, %y: tensor<9xf16>) -> (tensor<3x17xf32>, tensor<9xf16>) {
  %0 = google.rsqrt %x : tensor<3x17xf32>
  %1 = google.rsqrt %y : tensor<9xf16>
  return %0, %1 : tensor<3x17xf32>, tensor<9xf16>
}
