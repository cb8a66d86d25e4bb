// A gather of no rows, summed with keep_dims: its result's reshape has a
// group of extent 0 (upstream's check of memref.expand_shape divides by
// it, so check-bounds=true leaves reshapes unchecked).
func.func @main(%a0: tensor<?xi32>, %a1: tensor<?x?xi64>) -> (tensor<0x?xi32>) {
  %v0 = google.gather %a0, %a1 {axis = 0 : i64} : tensor<?xi32>, tensor<?x?xi64> -> tensor<0x?xi32>
  %v1 = google.reduce_sum %v0 {axes = array<i64: 1>, keep_dims = true} : tensor<0x?xi32> -> tensor<0x?xi32>
  return %v1 : tensor<0x?xi32>
}
