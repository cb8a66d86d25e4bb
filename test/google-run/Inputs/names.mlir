// Public functions whose names are not plain identifiers, or collide with
// the compiled object's own symbols or with the C library.
func.func @"a b"(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = google.neg %x : tensor<2xf32>
  return %0 : tensor<2xf32>
}
func.func @"tab\09and%25"(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = google.add %x, %x : tensor<2xf32>, tensor<2xf32> -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
func.func @google_mlir_manifest(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = google.mul %x, %x : tensor<2xf32>, tensor<2xf32> -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
func.func @foo(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = google.relu %x : tensor<2xf32>
  return %0 : tensor<2xf32>
}
func.func @_mlir_ciface_foo(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = google.exp %x : tensor<2xf32>
  return %0 : tensor<2xf32>
}
func.func @_google_packed_foo(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = google.sub %x, %x : tensor<2xf32>, tensor<2xf32> -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
func.func @malloc(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = google.sqrt %x : tensor<2xf32>
  return %0 : tensor<2xf32>
}
