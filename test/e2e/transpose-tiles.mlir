// RUN: %python %e2e run %s google-run | FileCheck %s
// CHECK: e2e: 20 cases match numpy

// Transposes that move the innermost dimension go in 16 x 16 (AVX-512) or
// 8 x 8 tiles of masked vector loads, a register transpose and masked
// stores: partial tiles on either side, tiles wider than the tensor
// (@dynamic), higher ranks, 32-bit integers, dynamic extents and threads'
// chunks.
// E2E: @partial(x: 250x256xf32) -> x.T
// E2E: @whole(x: 64x96xf32) -> x.T
// Static transposes of at most 4096 elements are scalar loops instead,
// of any element type (@narrow too).
// E2E: @small(x: 5x7xf32) -> x.T
// E2E: @scalar_loops(a: 64x64xf32, b: 32x40xf64, c: 3x7x5xi64) -> a.T, b.T, np.transpose(c, (2, 0, 1))
// E2E: @rank3_outer(x: 17x5x60xi32) -> np.transpose(x, (2, 0, 1))
// E2E: @rank3_inner(x: 4x19x65xf32) -> np.transpose(x, (0, 2, 1))
// E2E: @rank4(x: 6x2x3x121xf32) -> np.transpose(x, (3, 1, 2, 0))
// E2E: @dynamic(x: 45x37xf32) -> x.T
// E2E: @dynamic(x: 1x37xf32) -> x.T
// E2E: @chunked(x: 300x320xf32) -> (x * 2).T
// E2E: @narrow(x: 3x100xf32) -> x.T
// Unit dimensions dropped and dimensions that move together merged first
// (a 256x100 matrix's transpose; a ?x24 one; a reshape).
// E2E: @unit_dims(x: 256x10x10x1xf32) -> np.transpose(x, (3, 1, 2, 0))
// E2E: @merged(x: 9x4x6xf32) -> np.transpose(x, (1, 2, 0))
// E2E: @merged(x: 1x4x6xf32) -> np.transpose(x, (1, 2, 0))
// E2E: @merged(x: 0x4x6xf32) -> np.transpose(x, (1, 2, 0))
// E2E: @reshape_only(x: 1x5x1x7xf32) -> np.transpose(x, (1, 0, 3, 2))
// Two dynamic extents are not merged (an upstream crash on such reshapes).
// E2E: @two_dynamic(x: 6x7x5xf32) -> np.transpose(x, (2, 0, 1))
// E2E: @two_dynamic(x: 1x9x5xf32) -> np.transpose(x, (2, 0, 1))
// E2E: @empty(x: 3x0x7x4xf16) -> np.transpose(x, (0, 1, 3, 2))
// E2E: @empty_after_op(a: 0x7x4xf16, b: 4x0x7x4xf16[1:2]) -> np.transpose(np.floor_divide(a, b), (0, 1, 3, 2))

func.func @partial(%x: tensor<250x256xf32>) -> tensor<256x250xf32> {
  %0 = google.transpose %x {perm = array<i64: 1, 0>} : tensor<250x256xf32> -> tensor<256x250xf32>
  return %0 : tensor<256x250xf32>
}
func.func @whole(%x: tensor<64x96xf32>) -> tensor<96x64xf32> {
  %0 = google.transpose %x {perm = array<i64: 1, 0>} : tensor<64x96xf32> -> tensor<96x64xf32>
  return %0 : tensor<96x64xf32>
}
func.func @small(%x: tensor<5x7xf32>) -> tensor<7x5xf32> {
  %0 = google.transpose %x {perm = array<i64: 1, 0>} : tensor<5x7xf32> -> tensor<7x5xf32>
  return %0 : tensor<7x5xf32>
}
func.func @rank3_outer(%x: tensor<17x5x60xi32>) -> tensor<60x17x5xi32> {
  %0 = google.transpose %x {perm = array<i64: 2, 0, 1>} : tensor<17x5x60xi32> -> tensor<60x17x5xi32>
  return %0 : tensor<60x17x5xi32>
}
func.func @rank3_inner(%x: tensor<4x19x65xf32>) -> tensor<4x65x19xf32> {
  %0 = google.transpose %x {perm = array<i64: 0, 2, 1>} : tensor<4x19x65xf32> -> tensor<4x65x19xf32>
  return %0 : tensor<4x65x19xf32>
}
func.func @rank4(%x: tensor<6x2x3x121xf32>) -> tensor<121x2x3x6xf32> {
  %0 = google.transpose %x {perm = array<i64: 3, 1, 2, 0>} : tensor<6x2x3x121xf32> -> tensor<121x2x3x6xf32>
  return %0 : tensor<121x2x3x6xf32>
}
func.func @dynamic(%x: tensor<?x37xf32>) -> tensor<37x?xf32> {
  %0 = google.transpose %x {perm = array<i64: 1, 0>} : tensor<?x37xf32> -> tensor<37x?xf32>
  return %0 : tensor<37x?xf32>
}
func.func @chunked(%x: tensor<300x320xf32>) -> tensor<320x300xf32> {
  %c = google.constant dense<2.0> : tensor<f32>
  %0 = google.mul %x, %c : tensor<300x320xf32>, tensor<f32> -> tensor<300x320xf32>
  %1 = google.transpose %0 {perm = array<i64: 1, 0>} : tensor<300x320xf32> -> tensor<320x300xf32>
  return %1 : tensor<320x300xf32>
}
func.func @narrow(%x: tensor<3x100xf32>) -> tensor<100x3xf32> {
  %0 = google.transpose %x {perm = array<i64: 1, 0>} : tensor<3x100xf32> -> tensor<100x3xf32>
  return %0 : tensor<100x3xf32>
}

func.func @unit_dims(%x: tensor<256x10x10x1xf32>) -> tensor<1x10x10x256xf32> {
  %0 = google.transpose %x {perm = array<i64: 3, 1, 2, 0>} : tensor<256x10x10x1xf32> -> tensor<1x10x10x256xf32>
  return %0 : tensor<1x10x10x256xf32>
}

func.func @merged(%x: tensor<?x4x6xf32>) -> tensor<4x6x?xf32> {
  %0 = google.transpose %x {perm = array<i64: 1, 2, 0>} : tensor<?x4x6xf32> -> tensor<4x6x?xf32>
  return %0 : tensor<4x6x?xf32>
}

func.func @reshape_only(%x: tensor<1x5x1x7xf32>) -> tensor<5x1x7x1xf32> {
  %0 = google.transpose %x {perm = array<i64: 1, 0, 3, 2>} : tensor<1x5x1x7xf32> -> tensor<5x1x7x1xf32>
  return %0 : tensor<5x1x7x1xf32>
}

func.func @two_dynamic(%x: tensor<?x?x5xf32>) -> tensor<5x?x?xf32> {
  %0 = google.transpose %x {perm = array<i64: 2, 0, 1>} : tensor<?x?x5xf32> -> tensor<5x?x?xf32>
  return %0 : tensor<5x?x?xf32>
}

func.func @empty(%x: tensor<?x0x7x?xf16>) -> tensor<?x0x?x7xf16> {
  %0 = google.transpose %x {perm = array<i64: 0, 1, 3, 2>} : tensor<?x0x7x?xf16> -> tensor<?x0x?x7xf16>
  return %0 : tensor<?x0x?x7xf16>
}

func.func @empty_after_op(%a: tensor<?x7x?xf16>, %b: tensor<?x?x7x?xf16>) -> tensor<?x0x?x7xf16> {
  %0 = google.floor_div %a, %b : tensor<?x7x?xf16>, tensor<?x?x7x?xf16> -> tensor<?x0x7x?xf16>
  %1 = google.transpose %0 {perm = array<i64: 0, 1, 3, 2>} : tensor<?x0x7x?xf16> -> tensor<?x0x?x7xf16>
  return %1 : tensor<?x0x?x7xf16>
}
func.func @scalar_loops(%a: tensor<64x64xf32>, %b: tensor<32x40xf64>, %c: tensor<3x7x5xi64>) -> (tensor<64x64xf32>, tensor<40x32xf64>, tensor<5x3x7xi64>) {
  %0 = google.transpose %a {perm = array<i64: 1, 0>} : tensor<64x64xf32> -> tensor<64x64xf32>
  %1 = google.transpose %b {perm = array<i64: 1, 0>} : tensor<32x40xf64> -> tensor<40x32xf64>
  %2 = google.transpose %c {perm = array<i64: 2, 0, 1>} : tensor<3x7x5xi64> -> tensor<5x3x7xi64>
  return %0, %1, %2 : tensor<64x64xf32>, tensor<40x32xf64>, tensor<5x3x7xi64>
}
