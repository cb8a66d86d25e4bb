// exp and log in loops that LLVM vectorizes call glibc's vector math
// (libmvec): 16 lanes in f32 and 8 in f64 with AVX-512, also on chips that
// prefer 256-bit vectors by default; 8 and 4 with AVX2 (chip=haswell). The
// lengths reach both sides of those widths (scalar remainders); the
// softmax's rows are long ones.
// RUN: %python %e2e run %s google-run | FileCheck %s
// RUN: env GOOGLE_E2E_OPT_LEVELS=3 GOOGLE_E2E_PIPELINE_OPTIONS=chip=haswell %python %e2e run %s google-run | FileCheck %s
// CHECK: e2e: 21 cases match numpy

// E2E: @exp32(x: 1xf32[-80:80]) -> np.exp(x)
// E2E: @log32(x: 1xf32[0.001:1000]) -> np.log(x)
// E2E: @exp32(x: 15xf32[-80:80]) -> np.exp(x)
// E2E: @log32(x: 15xf32[0.001:1000]) -> np.log(x)
// E2E: @exp32(x: 16xf32[-80:80]) -> np.exp(x)
// E2E: @log32(x: 16xf32[0.001:1000]) -> np.log(x)
// E2E: @exp32(x: 17xf32[-80:80]) -> np.exp(x)
// E2E: @log32(x: 17xf32[0.001:1000]) -> np.log(x)
// E2E: @exp32(x: 1000xf32[-80:80]) -> np.exp(x)
// E2E: @log32(x: 1000xf32[0.001:1000]) -> np.log(x)
// E2E: @exp64(x: 1xf64[-700:700]) -> np.exp(x)
// E2E: @log64(x: 1xf64[0.001:1000]) -> np.log(x)
// E2E: @exp64(x: 7xf64[-700:700]) -> np.exp(x)
// E2E: @log64(x: 7xf64[0.001:1000]) -> np.log(x)
// E2E: @exp64(x: 8xf64[-700:700]) -> np.exp(x)
// E2E: @log64(x: 8xf64[0.001:1000]) -> np.log(x)
// E2E: @exp64(x: 9xf64[-700:700]) -> np.exp(x)
// E2E: @log64(x: 9xf64[0.001:1000]) -> np.log(x)
// E2E: @exp64(x: 1000xf64[-700:700]) -> np.exp(x)
// E2E: @log64(x: 1000xf64[0.001:1000]) -> np.log(x)
// E2E: @softmax(x: 33x2048xf32[-30:30]) -> softmax(x)

func.func @exp32(%x: tensor<?xf32>) -> tensor<?xf32> {
  %0 = google.exp %x : tensor<?xf32>
  return %0 : tensor<?xf32>
}
func.func @log32(%x: tensor<?xf32>) -> tensor<?xf32> {
  %0 = google.log %x : tensor<?xf32>
  return %0 : tensor<?xf32>
}
func.func @exp64(%x: tensor<?xf64>) -> tensor<?xf64> {
  %0 = google.exp %x : tensor<?xf64>
  return %0 : tensor<?xf64>
}
func.func @log64(%x: tensor<?xf64>) -> tensor<?xf64> {
  %0 = google.log %x : tensor<?xf64>
  return %0 : tensor<?xf64>
}
func.func @softmax(%x: tensor<?x2048xf32>) -> tensor<?x2048xf32> {
  %0 = google.softmax %x {axis = 1 : i64} : tensor<?x2048xf32>
  return %0 : tensor<?x2048xf32>
}
