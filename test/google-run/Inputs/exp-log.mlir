func.func @exp_log(%x: tensor<?xf32>, %y: tensor<?xf64>) -> (tensor<?xf32>, tensor<?xf64>) {
  %0 = google.exp %x : tensor<?xf32>
  %1 = google.log %0 : tensor<?xf32>
  %2 = google.exp %y : tensor<?xf64>
  %3 = google.log %2 : tensor<?xf64>
  return %1, %3 : tensor<?xf32>, tensor<?xf64>
}
