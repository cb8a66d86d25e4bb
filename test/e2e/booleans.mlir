// RUN: %python %e2e run %s google-run | FileCheck %s
// CHECK: e2e: 5 cases match numpy
// Booleans (i1, NumPy's bool) as arguments and results: comparisons,
// np.where, the logical ops and casts, over vectorized extents too.

// E2E: @compare(x: 33x40xf32, y: 40xf32) -> (x == y, x != y, x < y, x <= y, x > y, x >= y)
// E2E: @causal_mask(s: 64x64xf32) -> np.where(np.arange(64)[None, :] <= np.arange(64)[:, None], s, -np.inf)
// E2E: @logical(p: 1000xi1, q: 1000xi1) -> (p & q, p | q, p ^ q, ~p)
// E2E: @casts(x: 257xf64[-2:2], n: 257xi32[-2:2], p: 257xi1) -> (x.astype(bool), n.astype(bool), p.astype(np.float32), p.astype(np.int64))
// E2E: @where_int(c: 5x7xi1, a: 5x7xi64, b: 7xi64) -> (np.where(c, a, b), np.where(c, True, ~c))

func.func @compare(%x: tensor<33x40xf32>, %y: tensor<40xf32>) -> (tensor<33x40xi1>, tensor<33x40xi1>, tensor<33x40xi1>, tensor<33x40xi1>, tensor<33x40xi1>, tensor<33x40xi1>) {
  %0 = google.eq %x, %y : tensor<33x40xf32>, tensor<40xf32> -> tensor<33x40xi1>
  %1 = google.ne %x, %y : tensor<33x40xf32>, tensor<40xf32> -> tensor<33x40xi1>
  %2 = google.lt %x, %y : tensor<33x40xf32>, tensor<40xf32> -> tensor<33x40xi1>
  %3 = google.le %x, %y : tensor<33x40xf32>, tensor<40xf32> -> tensor<33x40xi1>
  %4 = google.gt %x, %y : tensor<33x40xf32>, tensor<40xf32> -> tensor<33x40xi1>
  %5 = google.ge %x, %y : tensor<33x40xf32>, tensor<40xf32> -> tensor<33x40xi1>
  return %0, %1, %2, %3, %4, %5 : tensor<33x40xi1>, tensor<33x40xi1>, tensor<33x40xi1>, tensor<33x40xi1>, tensor<33x40xi1>, tensor<33x40xi1>
}
func.func @causal_mask(%s: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %rows = google.constant dense<[[0], [1], [2], [3], [4], [5], [6], [7], [8], [9], [10], [11], [12], [13], [14], [15], [16], [17], [18], [19], [20], [21], [22], [23], [24], [25], [26], [27], [28], [29], [30], [31], [32], [33], [34], [35], [36], [37], [38], [39], [40], [41], [42], [43], [44], [45], [46], [47], [48], [49], [50], [51], [52], [53], [54], [55], [56], [57], [58], [59], [60], [61], [62], [63]]> : tensor<64x1xi64>
  %cols = google.reshape %rows : tensor<64x1xi64> -> tensor<64xi64>
  %keep = google.le %cols, %rows : tensor<64xi64>, tensor<64x1xi64> -> tensor<64x64xi1>
  %ninf = google.constant dense<0xFF800000> : tensor<f32>
  %0 = google.select %keep, %s, %ninf : tensor<64x64xi1>, tensor<64x64xf32>, tensor<f32> -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}
func.func @logical(%p: tensor<1000xi1>, %q: tensor<1000xi1>) -> (tensor<1000xi1>, tensor<1000xi1>, tensor<1000xi1>, tensor<1000xi1>) {
  %0 = google.and %p, %q : tensor<1000xi1>, tensor<1000xi1> -> tensor<1000xi1>
  %1 = google.or %p, %q : tensor<1000xi1>, tensor<1000xi1> -> tensor<1000xi1>
  %2 = google.xor %p, %q : tensor<1000xi1>, tensor<1000xi1> -> tensor<1000xi1>
  %3 = google.not %p : tensor<1000xi1>
  return %0, %1, %2, %3 : tensor<1000xi1>, tensor<1000xi1>, tensor<1000xi1>, tensor<1000xi1>
}
func.func @casts(%x: tensor<257xf64>, %n: tensor<257xi32>, %p: tensor<257xi1>) -> (tensor<257xi1>, tensor<257xi1>, tensor<257xf32>, tensor<257xi64>) {
  %0 = google.cast %x : tensor<257xf64> -> tensor<257xi1>
  %1 = google.cast %n : tensor<257xi32> -> tensor<257xi1>
  %2 = google.cast %p : tensor<257xi1> -> tensor<257xf32>
  %3 = google.cast %p : tensor<257xi1> -> tensor<257xi64>
  return %0, %1, %2, %3 : tensor<257xi1>, tensor<257xi1>, tensor<257xf32>, tensor<257xi64>
}
func.func @where_int(%c: tensor<5x7xi1>, %a: tensor<5x7xi64>, %b: tensor<7xi64>) -> (tensor<5x7xi64>, tensor<5x7xi1>) {
  %0 = google.select %c, %a, %b : tensor<5x7xi1>, tensor<5x7xi64>, tensor<7xi64> -> tensor<5x7xi64>
  %t = google.constant dense<true> : tensor<i1>
  %n = google.not %c : tensor<5x7xi1>
  %1 = google.select %c, %t, %n : tensor<5x7xi1>, tensor<i1>, tensor<5x7xi1> -> tensor<5x7xi1>
  return %0, %1 : tensor<5x7xi64>, tensor<5x7xi1>
}
