// Reads t[i] for an index i given as an argument: nothing bounds it.
func.func @main(%t: tensor<4xf32>, %i: tensor<i64>) -> tensor<f32> {
  %j = tensor.extract %i[] : tensor<i64>
  %k = arith.index_cast %j : i64 to index
  %v = tensor.extract %t[%k] : tensor<4xf32>
  %r = tensor.from_elements %v : tensor<f32>
  return %r : tensor<f32>
}
