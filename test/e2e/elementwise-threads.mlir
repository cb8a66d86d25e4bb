// Static elementwise ops with enough work (2^16 elements) run in a loop
// over chunks of their outermost non-unit dimension, which goes to
// threads: a fused chain over rows, a long vector, leading unit
// dimensions, broadcasts, a transpose, f64, f16 and i32, a length with
// no divisor that makes a chunk (65537, left whole), and a dynamic number
// of rows (full chunks of 14 rows of 300 and a shorter last one); at 1 and
// 2 threads.
// RUN: %python %e2e run %s google-run | FileCheck %s
// RUN: env GOOGLE_MLIR_NUM_THREADS=1 GOOGLE_E2E_OPT_LEVELS=3 %python %e2e run %s google-run | FileCheck %s
// RUN: env GOOGLE_MLIR_NUM_THREADS=2 GOOGLE_E2E_OPT_LEVELS=3 %python %e2e run %s google-run | FileCheck %s
// CHECK: e2e: 12 cases match numpy

// E2E: @chain(x: 256x300xf32, y: 256x300xf32) -> np.maximum(x * 2 + y, 0) - 0.5
func.func @chain(%x: tensor<256x300xf32>, %y: tensor<256x300xf32>) -> tensor<256x300xf32> {
  %two = google.constant dense<2.0> : tensor<f32>
  %half = google.constant dense<0.5> : tensor<f32>
  %0 = google.mul %x, %two : tensor<256x300xf32>, tensor<f32> -> tensor<256x300xf32>
  %1 = google.add %0, %y : tensor<256x300xf32>, tensor<256x300xf32> -> tensor<256x300xf32>
  %2 = google.relu %1 : tensor<256x300xf32>
  %3 = google.sub %2, %half : tensor<256x300xf32>, tensor<f32> -> tensor<256x300xf32>
  return %3 : tensor<256x300xf32>
}

// E2E: @long(x: 100000xf32[-3:3]) -> np.tanh(x) * x
func.func @long(%x: tensor<100000xf32>) -> tensor<100000xf32> {
  %0 = google.tanh %x : tensor<100000xf32>
  %1 = google.mul %0, %x : tensor<100000xf32>, tensor<100000xf32> -> tensor<100000xf32>
  return %1 : tensor<100000xf32>
}

// E2E: @unit_dims(x: 1x1x70000xf32, b: 70000xf32) -> x + b
func.func @unit_dims(%x: tensor<1x1x70000xf32>, %b: tensor<70000xf32>) -> tensor<1x1x70000xf32> {
  %0 = google.add %x, %b : tensor<1x1x70000xf32>, tensor<70000xf32> -> tensor<1x1x70000xf32>
  return %0 : tensor<1x1x70000xf32>
}

// E2E: @broadcast(x: 4x1x128xf64, y: 1x200x128xf64) -> x * y - y
func.func @broadcast(%x: tensor<4x1x128xf64>, %y: tensor<1x200x128xf64>) -> tensor<4x200x128xf64> {
  %0 = google.mul %x, %y : tensor<4x1x128xf64>, tensor<1x200x128xf64> -> tensor<4x200x128xf64>
  %1 = google.sub %0, %y : tensor<4x200x128xf64>, tensor<1x200x128xf64> -> tensor<4x200x128xf64>
  return %1 : tensor<4x200x128xf64>
}

// E2E: @transpose(x: 300x260xf32) -> np.abs(x).T
func.func @transpose(%x: tensor<300x260xf32>) -> tensor<260x300xf32> {
  %0 = google.abs %x : tensor<300x260xf32>
  %1 = google.transpose %0 {perm = array<i64: 1, 0>} : tensor<300x260xf32> -> tensor<260x300xf32>
  return %1 : tensor<260x300xf32>
}

// E2E: @half(x: 512x130xf16, y: 512x130xf16) -> np.maximum(x, y)
func.func @half(%x: tensor<512x130xf16>, %y: tensor<512x130xf16>) -> tensor<512x130xf16> {
  %0 = google.max %x, %y : tensor<512x130xf16>, tensor<512x130xf16> -> tensor<512x130xf16>
  return %0 : tensor<512x130xf16>
}

// E2E: @ints(x: 300x300xi32[-100:100], y: 300x300xi32[-100:100]) -> x * y + x
func.func @ints(%x: tensor<300x300xi32>, %y: tensor<300x300xi32>) -> tensor<300x300xi32> {
  %0 = google.mul %x, %y : tensor<300x300xi32>, tensor<300x300xi32> -> tensor<300x300xi32>
  %1 = google.add %0, %x : tensor<300x300xi32>, tensor<300x300xi32> -> tensor<300x300xi32>
  return %1 : tensor<300x300xi32>
}

// E2E: @prime(x: 65537xf32) -> np.abs(x) + 1
func.func @prime(%x: tensor<65537xf32>) -> tensor<65537xf32> {
  %one = google.constant dense<1.0> : tensor<f32>
  %0 = google.abs %x : tensor<65537xf32>
  %1 = google.add %0, %one : tensor<65537xf32>, tensor<f32> -> tensor<65537xf32>
  return %1 : tensor<65537xf32>
}

// E2E: @dynamic_rows(x: 0x300xf32, b: 300xf32) -> np.maximum(x - b, 0)
// E2E: @dynamic_rows(x: 1x300xf32, b: 300xf32) -> np.maximum(x - b, 0)
// E2E: @dynamic_rows(x: 300x300xf32, b: 300xf32) -> np.maximum(x - b, 0)
// E2E: @dynamic_rows(x: 301x300xf32, b: 300xf32) -> np.maximum(x - b, 0)
func.func @dynamic_rows(%x: tensor<?x300xf32>, %b: tensor<300xf32>) -> tensor<?x300xf32> {
  %0 = google.sub %x, %b : tensor<?x300xf32>, tensor<300xf32> -> tensor<?x300xf32>
  %1 = google.relu %0 : tensor<?x300xf32>
  return %1 : tensor<?x300xf32>
}
