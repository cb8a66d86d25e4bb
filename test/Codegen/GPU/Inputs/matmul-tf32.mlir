// f32 matmuls for the TF32 tensor-core kernels (the pipeline's tf32=true,
// NVIDIA sm_80 on): M and N multiples of 128, K of 32; outputs large enough
// or K short enough not to split K (K up to 96: the slice loop runs three
// times; batches take the f16 kernel's frame, which matmul-tensor-cores.mlir
// checks; each case costs the host emulation seconds of compiling). The
// references round the inputs to TF32 as the kernels do (tf32(x): 10-bit
// mantissas, to nearest, ties away from zero), so the file only holds with
// tf32=true; mapping-on-host.test runs it with the kernels on the host,
// bench/gpu/build_bundle.py compiles it for a GPU.
// CHECK: e2e: 3 cases match numpy

// E2E: @one_slice(a: 128x32xf32[-1:1], b: 32x128xf32[-1:1]) -> tf32(a) @ tf32(b)
func.func @one_slice(%a: tensor<128x32xf32>, %b: tensor<32x128xf32>) -> tensor<128x128xf32> {
  %0 = google.matmul %a, %b : tensor<128x32xf32>, tensor<32x128xf32> -> tensor<128x128xf32>
  return %0 : tensor<128x128xf32>
}

// E2E: @layer(x: 256x96xf32[-1:1], w: 96x384xf32[-1:1], b: 384xf32[-1:1]) -> np.maximum(tf32(x) @ tf32(w) + b, 0)
func.func @layer(%x: tensor<256x96xf32>, %w: tensor<96x384xf32>, %b: tensor<384xf32>) -> tensor<256x384xf32> {
  %0 = google.matmul_bias_relu %x, %w, %b : tensor<256x96xf32>, tensor<96x384xf32>, tensor<384xf32> -> tensor<256x384xf32>
  return %0 : tensor<256x384xf32>
}

// Large magnitudes: the rounding keeps the exponent's range.
// E2E: @wide_range(a: 128x32xf32[-30000:30000], b: 32x128xf32[-0.001:0.001]) -> tf32(a) @ tf32(b)
func.func @wide_range(%a: tensor<128x32xf32>, %b: tensor<32x128xf32>) -> tensor<128x128xf32> {
  %0 = google.matmul %a, %b : tensor<128x32xf32>, tensor<32x128xf32> -> tensor<128x128xf32>
  return %0 : tensor<128x128xf32>
}
