// RUN: %python %e2e run %s google-run | FileCheck %s
// CHECK: e2e: 5 cases match numpy
// NumPy's floored division and remainder: the remainder has the divisor's
// sign; integers divided by 0 give 0, and the minimum // -1 wraps.
// (NVVM kernels need CUDA's libdevice for the floats' fmod, see
// Codegen/GPU/no-cuda-toolkit.test.)

// E2E: @floor_div_rem(x: 4x9xf32[-50:50], y: 9xf32[-7:7]) -> (np.floor_divide(x, y), np.remainder(x, y))
// E2E: @floor_div_rem_f64(x: 33xf64[-1e6:1e6], y: 33xf64[-3:3]) -> (x // y, x % y)
// E2E: @floor_div_rem_narrow(x: 20xf16[-50:50], y: 20xf16[0.5:6], z: 20xbf16[-50:50]) -> (x // y, x % y, z // 3, z % 3)
// E2E: @floor_div_rem_int(x: 5x7xi32[-100:100], y: 7xi32[-6:6]) -> (np.floor_divide(x, y), np.remainder(x, y))
// E2E: @floor_div_rem_i64(x: 40xi64[-1000:1000], y: 40xi64[-3:3]) -> (x // y, x % y)

func.func @floor_div_rem(%x: tensor<4x9xf32>, %y: tensor<9xf32>) -> (tensor<4x9xf32>, tensor<4x9xf32>) {
  %q = google.floor_div %x, %y : tensor<4x9xf32>, tensor<9xf32> -> tensor<4x9xf32>
  %r = google.rem %x, %y : tensor<4x9xf32>, tensor<9xf32> -> tensor<4x9xf32>
  return %q, %r : tensor<4x9xf32>, tensor<4x9xf32>
}
func.func @floor_div_rem_f64(%x: tensor<33xf64>, %y: tensor<33xf64>) -> (tensor<33xf64>, tensor<33xf64>) {
  %q = google.floor_div %x, %y : tensor<33xf64>, tensor<33xf64> -> tensor<33xf64>
  %r = google.rem %x, %y : tensor<33xf64>, tensor<33xf64> -> tensor<33xf64>
  return %q, %r : tensor<33xf64>, tensor<33xf64>
}
func.func @floor_div_rem_narrow(%x: tensor<20xf16>, %y: tensor<20xf16>, %z: tensor<20xbf16>) -> (tensor<20xf16>, tensor<20xf16>, tensor<20xbf16>, tensor<20xbf16>) {
  %q = google.floor_div %x, %y : tensor<20xf16>, tensor<20xf16> -> tensor<20xf16>
  %r = google.rem %x, %y : tensor<20xf16>, tensor<20xf16> -> tensor<20xf16>
  %three = google.constant dense<3.0> : tensor<bf16>
  %zq = google.floor_div %z, %three : tensor<20xbf16>, tensor<bf16> -> tensor<20xbf16>
  %zr = google.rem %z, %three : tensor<20xbf16>, tensor<bf16> -> tensor<20xbf16>
  return %q, %r, %zq, %zr : tensor<20xf16>, tensor<20xf16>, tensor<20xbf16>, tensor<20xbf16>
}
func.func @floor_div_rem_int(%x: tensor<5x7xi32>, %y: tensor<7xi32>) -> (tensor<5x7xi32>, tensor<5x7xi32>) {
  %q = google.floor_div %x, %y : tensor<5x7xi32>, tensor<7xi32> -> tensor<5x7xi32>
  %r = google.rem %x, %y : tensor<5x7xi32>, tensor<7xi32> -> tensor<5x7xi32>
  return %q, %r : tensor<5x7xi32>, tensor<5x7xi32>
}
func.func @floor_div_rem_i64(%x: tensor<40xi64>, %y: tensor<40xi64>) -> (tensor<40xi64>, tensor<40xi64>) {
  %q = google.floor_div %x, %y : tensor<40xi64>, tensor<40xi64> -> tensor<40xi64>
  %r = google.rem %x, %y : tensor<40xi64>, tensor<40xi64> -> tensor<40xi64>
  return %q, %r : tensor<40xi64>, tensor<40xi64>
}
