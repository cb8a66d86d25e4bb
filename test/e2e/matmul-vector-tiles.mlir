// Static f32 matmuls whose M and N are multiples of 64 (on the GPU, vector
// tile kernels: blocks own 64x64 tiles of C, or 128x128 with at least 512
// of them, A's and B's slices staged through registers as vectors of 4):
// a layer with its fused bias + relu, a batch, a K of one slice, an
// epilogue into a new buffer, and a wide product of 512 128x128 tiles.
// RUN: %python %e2e run %s google-run | FileCheck %s
// CHECK: e2e: 5 cases match numpy

// E2E: @layer(x: 512x96xf32, w: 96x384xf32, b: 384xf32) -> np.maximum(x @ w + b, 0)
func.func @layer(%x: tensor<512x96xf32>, %w: tensor<96x384xf32>, %b: tensor<384xf32>) -> tensor<512x384xf32> {
  %0 = google.matmul_bias_relu %x, %w, %b : tensor<512x96xf32>, tensor<96x384xf32>, tensor<384xf32> -> tensor<512x384xf32>
  return %0 : tensor<512x384xf32>
}

// E2E: @batch(a: 3x256x48xf32, b: 3x48x320xf32) -> a @ b
func.func @batch(%a: tensor<3x256x48xf32>, %b: tensor<3x48x320xf32>) -> tensor<3x256x320xf32> {
  %0 = google.matmul %a, %b : tensor<3x256x48xf32>, tensor<3x48x320xf32> -> tensor<3x256x320xf32>
  return %0 : tensor<3x256x320xf32>
}

// E2E: @one_slice(a: 320x16xf32, b: 16x256xf32) -> a @ b
func.func @one_slice(%a: tensor<320x16xf32>, %b: tensor<16x256xf32>) -> tensor<320x256xf32> {
  %0 = google.matmul %a, %b : tensor<320x16xf32>, tensor<16x256xf32> -> tensor<320x256xf32>
  return %0 : tensor<320x256xf32>
}

// E2E: @scaled(a: 256x64xf32, b: 64x512xf32) -> np.tanh(a @ b * 0.1)
func.func @scaled(%a: tensor<256x64xf32>, %b: tensor<64x512xf32>) -> tensor<256x512xf32> {
  %0 = google.matmul %a, %b : tensor<256x64xf32>, tensor<64x512xf32> -> tensor<256x512xf32>
  %c = google.constant dense<0.1> : tensor<f32>
  %1 = google.mul %0, %c : tensor<256x512xf32>, tensor<f32> -> tensor<256x512xf32>
  %2 = google.tanh %1 : tensor<256x512xf32>
  return %2 : tensor<256x512xf32>
}

// E2E: @wide(a: 2048x8xf32, b: 8x4096xf32) -> a @ b
func.func @wide(%a: tensor<2048x8xf32>, %b: tensor<8x4096xf32>) -> tensor<2048x4096xf32> {
  %0 = google.matmul %a, %b : tensor<2048x8xf32>, tensor<8x4096xf32> -> tensor<2048x4096xf32>
  return %0 : tensor<2048x4096xf32>
}
