// f16 and bf16 matmuls accumulating in f32, M and N multiples of 128
// and K of 64: with wgmma=true (chip=sm_90a), sm_90's warpgroup tensor
// cores (TMA loads into three swizzled stages, one mbarrier each,
// nvgpu.warpgroup.mma); without it, the mma.sync kernel. One slice of K,
// more slices than stages, a fused bias + relu, bf16, a batch (whose
// matrices the tensor maps see as one tall matrix).
// Run on the host by mapping-on-host-wgmma.test.
// RUN: %python %e2e run %s google-run | FileCheck %s
// CHECK: e2e: 5 cases match numpy

// E2E: @one_slice(a: 512x64xf16[-1:1], b: 64x256xf16[-1:1]) -> a @ b
func.func @one_slice(%a: tensor<512x64xf16>, %b: tensor<64x256xf16>) -> tensor<512x256xf16> {
  %0 = google.matmul %a, %b : tensor<512x64xf16>, tensor<64x256xf16> -> tensor<512x256xf16>
  return %0 : tensor<512x256xf16>
}

// E2E: @deep(a: 256x512xf16[-0.25:0.25], b: 512x384xf16[-1:1]) -> a @ b
func.func @deep(%a: tensor<256x512xf16>, %b: tensor<512x384xf16>) -> tensor<256x384xf16> {
  %0 = google.matmul %a, %b : tensor<256x512xf16>, tensor<512x384xf16> -> tensor<256x384xf16>
  return %0 : tensor<256x384xf16>
}

// E2E: @layer(x: 256x256xf16[-1:1], w: 256x384xf16[-1:1], b: 384xf16[-1:1]) -> np.maximum(x @ w + b, 0)
func.func @layer(%x: tensor<256x256xf16>, %w: tensor<256x384xf16>, %b: tensor<384xf16>) -> tensor<256x384xf16> {
  %0 = google.matmul_bias_relu %x, %w, %b : tensor<256x256xf16>, tensor<256x384xf16>, tensor<384xf16> -> tensor<256x384xf16>
  return %0 : tensor<256x384xf16>
}

// E2E: @bf16(a: 384x192xbf16[-1:1], b: 192x256xbf16[-1:1]) -> a @ b
func.func @bf16(%a: tensor<384x192xbf16>, %b: tensor<192x256xbf16>) -> tensor<384x256xbf16> {
  %0 = google.matmul %a, %b : tensor<384x192xbf16>, tensor<192x256xbf16> -> tensor<384x256xbf16>
  return %0 : tensor<384x256xbf16>
}

// E2E: @batched(a: 3x256x256xf16[-0.5:0.5], b: 3x256x128xf16[-1:1]) -> a @ b
func.func @batched(%a: tensor<3x256x256xf16>, %b: tensor<3x256x128xf16>) -> tensor<3x256x128xf16> {
  %0 = google.matmul %a, %b : tensor<3x256x256xf16>, tensor<3x256x128xf16> -> tensor<3x256x128xf16>
  return %0 : tensor<3x256x128xf16>
}
