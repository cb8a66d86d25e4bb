// A dynamic-batch layer whose matmul takes the shared-memory kernel and
// whose softmax rows (512 long) are reduced by a block each.
func.func @layer(%x: tensor<?x256xf32>, %w: tensor<256x512xf32>, %b: tensor<512xf32>) -> tensor<?x512xf32> {
  %0 = google.matmul %x, %w : tensor<?x256xf32>, tensor<256x512xf32> -> tensor<?x512xf32>
  %1 = google.add %0, %b : tensor<?x512xf32>, tensor<512xf32> -> tensor<?x512xf32>
  %2 = google.relu %1 : tensor<?x512xf32>
  %3 = google.softmax %2 {axis = 1 : i64} : tensor<?x512xf32>
  return %3 : tensor<?x512xf32>
}
