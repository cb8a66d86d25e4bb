// f16 and bf16 matmuls accumulating in f32 whose M, N or K leave partial
// tiles: with wgmma=true (chip=sm_90a), sm_90's warpgroup tensor cores
// still take them (M and N at least 128, K at least 64, K and N multiples
// of 8): TMA reads zeros past A's and B's edges, a last slice past K
// adds nothing, and only the elements inside C are stored. Ragged M, N
// and K; a fused bias + relu over a partial slice; bf16; a batch with
// partial rows (its K whole slices: past K, B's rows would be the next
// matrix's); 256-row tiles (wgmma-warpgroups=2) with partial columns; K
// not a multiple of 8, which TMA cannot read (another kernel).
// Run on the host by mapping-on-host-wgmma.test.
// RUN: %python %e2e run %s google-run | FileCheck %s
// CHECK: e2e: 6 cases match numpy

// E2E: @ragged(a: 300x136xf16[-1:1], b: 136x264xf16[-1:1]) -> a @ b
func.func @ragged(%a: tensor<300x136xf16>, %b: tensor<136x264xf16>) -> tensor<300x264xf16> {
  %0 = google.matmul %a, %b : tensor<300x136xf16>, tensor<136x264xf16> -> tensor<300x264xf16>
  return %0 : tensor<300x264xf16>
}

// E2E: @layer(x: 300x96xf16[-1:1], w: 96x136xf16[-1:1], b: 136xf16[-1:1]) -> np.maximum(x @ w + b, 0)
func.func @layer(%x: tensor<300x96xf16>, %w: tensor<96x136xf16>, %b: tensor<136xf16>) -> tensor<300x136xf16> {
  %0 = google.matmul_bias_relu %x, %w, %b : tensor<300x96xf16>, tensor<96x136xf16>, tensor<136xf16> -> tensor<300x136xf16>
  return %0 : tensor<300x136xf16>
}

// E2E: @bf16(a: 130x72xbf16[-1:1], b: 72x128xbf16[-1:1]) -> a @ b
func.func @bf16(%a: tensor<130x72xbf16>, %b: tensor<72x128xbf16>) -> tensor<130x128xbf16> {
  %0 = google.matmul %a, %b : tensor<130x72xbf16>, tensor<72x128xbf16> -> tensor<130x128xbf16>
  return %0 : tensor<130x128xbf16>
}

// E2E: @batched(a: 3x200x128xf16[-0.5:0.5], b: 3x128x144xf16[-1:1]) -> a @ b
func.func @batched(%a: tensor<3x200x128xf16>, %b: tensor<3x128x144xf16>) -> tensor<3x200x144xf16> {
  %0 = google.matmul %a, %b : tensor<3x200x128xf16>, tensor<3x128x144xf16> -> tensor<3x200x144xf16>
  return %0 : tensor<3x200x144xf16>
}

// E2E: @wide(a: 512x64xf16[-1:1], b: 64x200xf16[-1:1]) -> a @ b
func.func @wide(%a: tensor<512x64xf16>, %b: tensor<64x200xf16>) -> tensor<512x200xf16> {
  %0 = google.matmul %a, %b : tensor<512x64xf16>, tensor<64x200xf16> -> tensor<512x200xf16>
  return %0 : tensor<512x200xf16>
}

// E2E: @odd_depth(a: 256x100xf16[-1:1], b: 100x256xf16[-1:1]) -> a @ b
func.func @odd_depth(%a: tensor<256x100xf16>, %b: tensor<100x256xf16>) -> tensor<256x256xf16> {
  %0 = google.matmul %a, %b : tensor<256x100xf16>, tensor<100x256xf16> -> tensor<256x256xf16>
  return %0 : tensor<256x256xf16>
}
