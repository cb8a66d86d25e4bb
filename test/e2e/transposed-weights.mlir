// RUN: %python %e2e run %s google-run | FileCheck %s
// RUN: google-opt %s --google-extreme-pipeline="opt-level=3" --mlir-disable-threading --mlir-print-ir-after=google-tile-and-vectorize -o /dev/null 2>&1 | FileCheck %s --check-prefix=PACKED
// CHECK: e2e: 8 cases match numpy
// nn.Linear's x @ w.T, w stored N x K: on the CPU, where the matmul packs
// B's panels, each panel is a slice of w transposed in registers (no
// transposed copy of w). A K that the transposes' register tiles do not
// divide, a dynamic batch (panels from w when the batch is large at run
// time, w.T read in place when small), w.T also returned (its copy
// stays), a batch too small to pack, a layer with bias + relu, and 264
// outputs (not a multiple of the block's columns: the last panel is
// narrower), static and dynamic.
// E2E: @packed_odd(x: 64x196xf32, w: 256x196xf32) -> x @ w.T
// E2E: @linear(x: 64x300xf32, w: 264x300xf32, b: 264xf32) -> np.maximum(x @ w.T + b, 0)
// E2E: @dynamic_batch(x: 70x128xf32, w: 256x128xf32) -> x @ w.T
// E2E: @dynamic_batch(x: 5x128xf32, w: 256x128xf32) -> x @ w.T
// E2E: @also_returned(x: 64x128xf32, w: 256x128xf32) -> (x @ w.T, w.T)
// E2E: @small_batch(x: 3x128xf32, w: 256x128xf32) -> x @ w.T
// E2E: @dynamic_odd(x: 70x300xf32, w: 264x300xf32) -> x @ w.T
// E2E: @dynamic_odd(x: 9x300xf32, w: 264x300xf32) -> x @ w.T
// PACKED-LABEL: func.func @packed_odd
// PACKED-NOT: tensor<196x256xf32>
// PACKED: scf.for %{{.*}} = %c0 to %c256 step
// PACKED: tensor.extract_slice %arg1
// PACKED: vector.shuffle
// PACKED: vector.transfer_write {{.*}} : vector<{{[0-9]+}}x{{[0-9]+}}xf32>, tensor<196x{{[0-9]+}}xf32>
// PACKED-LABEL: func.func @linear
// PACKED-NOT: tensor<300x264xf32>
// PACKED: vector.transfer_write {{.*}} : vector<{{[0-9]+}}x{{[0-9]+}}xf32>, tensor<300x{{[0-9]+|\?}}xf32>
// PACKED-NOT: tensor<300x264xf32>
// PACKED: vector.transfer_write {{.*}} : vector<{{[0-9]+}}x{{[0-9]+}}xf32>, tensor<300x{{[0-9]+|\?}}xf32>
// PACKED-LABEL: func.func @dynamic_batch
// PACKED: vector.transfer_write {{.*}} : vector<{{[0-9]+}}x{{[0-9]+}}xf32>, tensor<128x256xf32>
// PACKED: vector.shuffle
// PACKED: vector.transfer_write {{.*}} : vector<{{[0-9]+}}x{{[0-9]+}}xf32>, tensor<128x{{[0-9]+}}xf32>
// PACKED-LABEL: func.func @also_returned
// PACKED: vector.transfer_write {{.*}} : vector<{{[0-9]+}}x{{[0-9]+}}xf32>, tensor<128x256xf32>
// PACKED-LABEL: func.func @small_batch
// PACKED: vector.transfer_write {{.*}} : vector<{{[0-9]+}}x{{[0-9]+}}xf32>, tensor<128x256xf32>
// PACKED-LABEL: func.func @dynamic_odd
// PACKED: scf.if
// PACKED: vector.shuffle
// PACKED: vector.transfer_write {{.*}} : vector<{{[0-9]+}}x{{[0-9]+}}xf32>, tensor<300x{{[0-9]+}}xf32>
// PACKED: scf.if
// PACKED: vector.shuffle
// PACKED: vector.transfer_write {{.*}} : vector<{{[0-9]+}}x{{[0-9]+}}xf32>, tensor<300x{{[0-9]+}}xf32>

func.func @packed_odd(%x: tensor<64x196xf32>, %w: tensor<256x196xf32>) -> tensor<64x256xf32> {
  %wt = google.transpose %w {perm = array<i64: 1, 0>} : tensor<256x196xf32> -> tensor<196x256xf32>
  %0 = google.matmul %x, %wt : tensor<64x196xf32>, tensor<196x256xf32> -> tensor<64x256xf32>
  return %0 : tensor<64x256xf32>
}

func.func @linear(%x: tensor<64x300xf32>, %w: tensor<264x300xf32>, %b: tensor<264xf32>) -> tensor<64x264xf32> {
  %wt = google.transpose %w {perm = array<i64: 1, 0>} : tensor<264x300xf32> -> tensor<300x264xf32>
  %0 = google.matmul_bias_relu %x, %wt, %b : tensor<64x300xf32>, tensor<300x264xf32>, tensor<264xf32> -> tensor<64x264xf32>
  return %0 : tensor<64x264xf32>
}

func.func @dynamic_batch(%x: tensor<?x128xf32>, %w: tensor<256x128xf32>) -> tensor<?x256xf32> {
  %wt = google.transpose %w {perm = array<i64: 1, 0>} : tensor<256x128xf32> -> tensor<128x256xf32>
  %0 = google.matmul %x, %wt : tensor<?x128xf32>, tensor<128x256xf32> -> tensor<?x256xf32>
  return %0 : tensor<?x256xf32>
}

func.func @also_returned(%x: tensor<64x128xf32>, %w: tensor<256x128xf32>) -> (tensor<64x256xf32>, tensor<128x256xf32>) {
  %wt = google.transpose %w {perm = array<i64: 1, 0>} : tensor<256x128xf32> -> tensor<128x256xf32>
  %0 = google.matmul %x, %wt : tensor<64x128xf32>, tensor<128x256xf32> -> tensor<64x256xf32>
  return %0, %wt : tensor<64x256xf32>, tensor<128x256xf32>
}

func.func @small_batch(%x: tensor<3x128xf32>, %w: tensor<256x128xf32>) -> tensor<3x256xf32> {
  %wt = google.transpose %w {perm = array<i64: 1, 0>} : tensor<256x128xf32> -> tensor<128x256xf32>
  %0 = google.matmul %x, %wt : tensor<3x128xf32>, tensor<128x256xf32> -> tensor<3x256xf32>
  return %0 : tensor<3x256xf32>
}

func.func @dynamic_odd(%x: tensor<?x300xf32>, %w: tensor<264x300xf32>) -> tensor<?x264xf32> {
  %wt = google.transpose %w {perm = array<i64: 1, 0>} : tensor<264x300xf32> -> tensor<300x264xf32>
  %0 = google.matmul %x, %wt : tensor<?x300xf32>, tensor<300x264xf32> -> tensor<?x264xf32>
  return %0 : tensor<?x264xf32>
}
