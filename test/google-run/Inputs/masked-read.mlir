// Reads the first n of 4 elements of t from index i (a masked read that
// must stay in bounds where its mask is set, as a transposed tile's
// partial edge reads), i and n taken from arguments.
func.func @main(%t: tensor<8xf32>, %i: tensor<i64>, %n: tensor<i64>) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0.0 : f32
  %i64 = tensor.extract %i[] : tensor<i64>
  %n64 = tensor.extract %n[] : tensor<i64>
  %first = arith.index_cast %i64 : i64 to index
  %count = arith.index_cast %n64 : i64 to index
  %mask = vector.create_mask %count : vector<4xi1>
  %v = vector.transfer_read %t[%first], %pad, %mask {in_bounds = [true]} : tensor<8xf32>, vector<4xf32>
  %e = tensor.empty() : tensor<4xf32>
  %r = vector.transfer_write %v, %e[%c0] {in_bounds = [true]} : vector<4xf32>, tensor<4xf32>
  return %r : tensor<4xf32>
}
