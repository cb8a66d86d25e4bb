// A reduction whose result extent comes from the input.
func.func @main(%x: tensor<?x?xf32>) -> tensor<?xf32> {
  %0 = google.reduce_sum %x {axes = array<i64: 0>, keep_dims = false} : tensor<?x?xf32> -> tensor<?xf32>
  return %0 : tensor<?xf32>
}
