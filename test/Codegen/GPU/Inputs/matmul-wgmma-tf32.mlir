// f32 matmuls for sm_90a's TF32 wgmma kernel (the pipeline's tf32=true
// wgmma=true): --google-gpu-tf32-operands rounds A and B to TF32 in
// kernels of their own, B transposed to K-major (wgmma reads TF32
// K-major only), and the wgmma kernel reads them by TMA in slices of 32.
// One slice; ragged M, N and K (K a multiple of 4, a last partial slice)
// with the fused bias + relu; A @ B^T, whose B is K-major already (only
// rounded); A^T @ B (a weight gradient: A rounded as it is transposed);
// a batch with partial rows; large magnitudes (the rounding
// keeps the exponent's range). The references round the inputs to TF32
// (tf32(x): 10-bit mantissas, to nearest, ties away from zero), so the
// file only holds with tf32=true; mapping-on-host-wgmma.test runs it on
// the host, bench/gpu/build_bundle.py compiles it for a GPU.
// CHECK: e2e: 6 cases match numpy

// E2E: @one_slice(a: 128x32xf32[-1:1], b: 32x128xf32[-1:1]) -> tf32(a) @ tf32(b)
func.func @one_slice(%a: tensor<128x32xf32>, %b: tensor<32x128xf32>) -> tensor<128x128xf32> {
  %0 = google.matmul %a, %b : tensor<128x32xf32>, tensor<32x128xf32> -> tensor<128x128xf32>
  return %0 : tensor<128x128xf32>
}

// E2E: @layer(x: 300x100xf32[-1:1], w: 100x264xf32[-1:1], b: 264xf32[-1:1]) -> np.maximum(tf32(x) @ tf32(w) + b, 0)
func.func @layer(%x: tensor<300x100xf32>, %w: tensor<100x264xf32>, %b: tensor<264xf32>) -> tensor<300x264xf32> {
  %0 = google.matmul_bias_relu %x, %w, %b : tensor<300x100xf32>, tensor<100x264xf32>, tensor<264xf32> -> tensor<300x264xf32>
  return %0 : tensor<300x264xf32>
}

// E2E: @transposed_b(a: 256x64xf32[-1:1], w: 136x64xf32[-1:1]) -> tf32(a) @ tf32(w).T
func.func @transposed_b(%a: tensor<256x64xf32>, %w: tensor<136x64xf32>) -> tensor<256x136xf32> {
  %t = google.transpose %w {perm = array<i64: 1, 0>} : tensor<136x64xf32> -> tensor<64x136xf32>
  %0 = google.matmul %a, %t : tensor<256x64xf32>, tensor<64x136xf32> -> tensor<256x136xf32>
  return %0 : tensor<256x136xf32>
}

// E2E: @weight_grad(x: 200x256xf32[-1:1], dy: 200x264xf32[-1:1]) -> tf32(x).T @ tf32(dy)
func.func @weight_grad(%x: tensor<200x256xf32>, %dy: tensor<200x264xf32>) -> tensor<256x264xf32> {
  %t = google.transpose %x {perm = array<i64: 1, 0>} : tensor<200x256xf32> -> tensor<256x200xf32>
  %0 = google.matmul %t, %dy : tensor<256x200xf32>, tensor<200x264xf32> -> tensor<256x264xf32>
  return %0 : tensor<256x264xf32>
}

// E2E: @batched(a: 2x130x72xf32[-1:1], b: 2x72x128xf32[-1:1]) -> tf32(a) @ tf32(b)
func.func @batched(%a: tensor<2x130x72xf32>, %b: tensor<2x72x128xf32>) -> tensor<2x130x128xf32> {
  %0 = google.matmul %a, %b : tensor<2x130x72xf32>, tensor<2x72x128xf32> -> tensor<2x130x128xf32>
  return %0 : tensor<2x130x128xf32>
}

// E2E: @wide_range(a: 128x64xf32[-30000:30000], b: 64x128xf32[-0.001:0.001]) -> tf32(a) @ tf32(b)
func.func @wide_range(%a: tensor<128x64xf32>, %b: tensor<64x128xf32>) -> tensor<128x128xf32> {
  %0 = google.matmul %a, %b : tensor<128x64xf32>, tensor<64x128xf32> -> tensor<128x128xf32>
  return %0 : tensor<128x128xf32>
}
