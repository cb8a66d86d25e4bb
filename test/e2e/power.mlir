// RUN: %python %e2e run %s google-run | FileCheck %s
// CHECK: e2e: 3 cases match numpy
// (Kept apart from the other files: NVVM kernels need CUDA's libdevice for
// pow, see Codegen/GPU/no-cuda-toolkit.test.)

// E2E: @power(x: 4x9xf32[0.01:20], y: 9xf32[-3:3]) -> np.power(x, y)
// E2E: @power_f64(x: 33xf64[-5:5], y: 33xf64[-4:4]) -> x ** np.floor(y + 0.5)
// E2E: @power_narrow(x: 20xf16[0.1:4], y: 20xf16[-2:2], z: 20xbf16[0.1:4]) -> (x ** y, np.power(z, 1.5))

func.func @power(%x: tensor<4x9xf32>, %y: tensor<9xf32>) -> tensor<4x9xf32> {
  %p = google.pow %x, %y : tensor<4x9xf32>, tensor<9xf32> -> tensor<4x9xf32>
  return %p : tensor<4x9xf32>
}
func.func @power_f64(%x: tensor<33xf64>, %y: tensor<33xf64>) -> tensor<33xf64> {
  %half = google.constant dense<0.5> : tensor<f64>
  %shifted = google.add %y, %half : tensor<33xf64>, tensor<f64> -> tensor<33xf64>
  %whole = google.floor_div %shifted, %half : tensor<33xf64>, tensor<f64> -> tensor<33xf64>
  %two = google.constant dense<2.0> : tensor<f64>
  %rounded = google.floor_div %whole, %two : tensor<33xf64>, tensor<f64> -> tensor<33xf64>
  %p = google.pow %x, %rounded : tensor<33xf64>, tensor<33xf64> -> tensor<33xf64>
  return %p : tensor<33xf64>
}
func.func @power_narrow(%x: tensor<20xf16>, %y: tensor<20xf16>, %z: tensor<20xbf16>) -> (tensor<20xf16>, tensor<20xbf16>) {
  %p = google.pow %x, %y : tensor<20xf16>, tensor<20xf16> -> tensor<20xf16>
  %e = google.constant dense<1.5> : tensor<bf16>
  %q = google.pow %z, %e : tensor<20xbf16>, tensor<bf16> -> tensor<20xbf16>
  return %p, %q : tensor<20xf16>, tensor<20xbf16>
}
