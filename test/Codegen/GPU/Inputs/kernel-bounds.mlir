// Reads t[idx[i]] in a kernel for indices given as an argument: nothing
// bounds them but check-bounds=true (kernel-bounds.test).

// E2E: @gather(t: 4xf32, idx: 3xi64[0:3]) -> t[idx]
// E2E-ERROR: @gather(t: 4xf32, idx: 3xi64[4:9]) -> out-of-bounds access

#id = affine_map<(d0) -> (d0)>
func.func @gather(%t: tensor<4xf32>, %idx: tensor<3xi64>) -> tensor<3xf32> {
  %e = tensor.empty() : tensor<3xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%idx : tensor<3xi64>) outs(%e : tensor<3xf32>) {
  ^bb0(%i: i64, %o: f32):
    %k = arith.index_cast %i : i64 to index
    %v = tensor.extract %t[%k] : tensor<4xf32>
    linalg.yield %v : f32
  } -> tensor<3xf32>
  return %r : tensor<3xf32>
}
