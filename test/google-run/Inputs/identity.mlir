// Returns its argument: what google-run reads is what it prints.
func.func @f32(%x: tensor<?xf32>) -> tensor<?xf32> {
  return %x : tensor<?xf32>
}
func.func @f16(%x: tensor<?xf16>) -> tensor<?xf16> {
  return %x : tensor<?xf16>
}
func.func @f64(%x: tensor<?xf64>) -> tensor<?xf64> {
  return %x : tensor<?xf64>
}
func.func @i32(%x: tensor<?xi32>) -> tensor<?xi32> {
  return %x : tensor<?xi32>
}
func.func @i64(%x: tensor<?xi64>) -> tensor<?xi64> {
  return %x : tensor<?xi64>
}
func.func @grid(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %0 = google.neg %x : tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}
