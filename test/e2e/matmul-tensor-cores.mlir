// f16 and bf16 matmuls accumulating in f32 whose M and N are multiples of
// 128 and K of 32 (on NVIDIA GPUs from sm_80 on, tensor-core kernels:
// 128x128 tiles of C per block, 64x32 per warp in mma.sync m16n8k16
// tiles): one slice of K and several, a batch, a fused bias + relu,
// NumPy's product in f32 as the reference, and a K of 1024.
// RUN: %python %e2e run %s google-run | FileCheck %s
// CHECK: e2e: 8 cases match numpy

// E2E: @one_slice(a: 128x32xf16[-1:1], b: 32x128xf16[-1:1]) -> a @ b
func.func @one_slice(%a: tensor<128x32xf16>, %b: tensor<32x128xf16>) -> tensor<128x128xf16> {
  %0 = google.matmul %a, %b : tensor<128x32xf16>, tensor<32x128xf16> -> tensor<128x128xf16>
  return %0 : tensor<128x128xf16>
}

// E2E: @layer(x: 256x96xf16[-1:1], w: 96x384xf16[-1:1], b: 384xf16[-1:1]) -> np.maximum(x @ w + b, 0)
func.func @layer(%x: tensor<256x96xf16>, %w: tensor<96x384xf16>, %b: tensor<384xf16>) -> tensor<256x384xf16> {
  %0 = google.matmul_bias_relu %x, %w, %b : tensor<256x96xf16>, tensor<96x384xf16>, tensor<384xf16> -> tensor<256x384xf16>
  return %0 : tensor<256x384xf16>
}

// E2E: @batch(a: 2x128x64xf16[-1:1], b: 2x64x256xf16[-1:1]) -> a @ b
func.func @batch(%a: tensor<2x128x64xf16>, %b: tensor<2x64x256xf16>) -> tensor<2x128x256xf16> {
  %0 = google.matmul %a, %b : tensor<2x128x64xf16>, tensor<2x64x256xf16> -> tensor<2x128x256xf16>
  return %0 : tensor<2x128x256xf16>
}

// E2E: @f32_reference(a: 128x64xf16[-1:1], b: 64x128xf16[-1:1]) -> (a.astype(np.float32) @ b.astype(np.float32)).astype(np.float16)
func.func @f32_reference(%a: tensor<128x64xf16>, %b: tensor<64x128xf16>) -> tensor<128x128xf16> {
  %0 = google.matmul %a, %b : tensor<128x64xf16>, tensor<64x128xf16> -> tensor<128x128xf16>
  return %0 : tensor<128x128xf16>
}

// E2E: @deep(a: 256x1024xf16[-0.1:0.1], b: 1024x512xf16[-1:1]) -> a @ b
func.func @deep(%a: tensor<256x1024xf16>, %b: tensor<1024x512xf16>) -> tensor<256x512xf16> {
  %0 = google.matmul %a, %b : tensor<256x1024xf16>, tensor<1024x512xf16> -> tensor<256x512xf16>
  return %0 : tensor<256x512xf16>
}

// E2E: @one_slice_bf16(a: 128x32xbf16[-1:1], b: 32x128xbf16[-1:1]) -> a @ b
func.func @one_slice_bf16(%a: tensor<128x32xbf16>, %b: tensor<32x128xbf16>) -> tensor<128x128xbf16> {
  %0 = google.matmul %a, %b : tensor<128x32xbf16>, tensor<32x128xbf16> -> tensor<128x128xbf16>
  return %0 : tensor<128x128xbf16>
}

// E2E: @layer_bf16(x: 256x96xbf16[-1:1], w: 96x384xbf16[-1:1], b: 384xbf16[-1:1]) -> np.maximum(x @ w + b, 0)
func.func @layer_bf16(%x: tensor<256x96xbf16>, %w: tensor<96x384xbf16>, %b: tensor<384xbf16>) -> tensor<256x384xbf16> {
  %0 = google.matmul_bias_relu %x, %w, %b : tensor<256x96xbf16>, tensor<96x384xbf16>, tensor<384xbf16> -> tensor<256x384xbf16>
  return %0 : tensor<256x384xbf16>
}

// E2E: @deep_bf16(a: 2x128x1024xbf16[-0.1:0.1], b: 2x1024x256xbf16[-1:1]) -> a @ b
func.func @deep_bf16(%a: tensor<2x128x1024xbf16>, %b: tensor<2x1024x256xbf16>) -> tensor<2x128x256xbf16> {
  %0 = google.matmul %a, %b : tensor<2x128x1024xbf16>, tensor<2x1024x256xbf16> -> tensor<2x128x256xbf16>
  return %0 : tensor<2x128x256xbf16>
}
