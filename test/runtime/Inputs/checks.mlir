// Functions whose run-time size checks fail for mismatched batch sizes.
func.func @add(%a: tensor<?x8xf32>, %b: tensor<?x8xf32>) -> tensor<?x8xf32> {
  %0 = google.add %a, %b : tensor<?x8xf32>, tensor<?x8xf32> -> tensor<?x8xf32>
  return %0 : tensor<?x8xf32>
}
// Allocates intermediate buffers before the failing check: the extent of a
// call's result is only known after the call.
func.func private @grow(%a: tensor<?x8xf32>) -> tensor<?x8xf32> {
  %e = google.exp %a : tensor<?x8xf32>
  %r = google.reshape %e : tensor<?x8xf32> -> tensor<?x4xf32>
  %t = google.reshape %r : tensor<?x4xf32> -> tensor<?x8xf32>
  %s = google.sub %t, %e : tensor<?x8xf32>, tensor<?x8xf32> -> tensor<?x8xf32>
  return %s : tensor<?x8xf32>
}
func.func @exp_add(%a: tensor<?x8xf32>, %b: tensor<?x8xf32>) -> tensor<?x8xf32> {
  %s = func.call @grow(%a) : (tensor<?x8xf32>) -> tensor<?x8xf32>
  %0 = google.add %s, %b : tensor<?x8xf32>, tensor<?x8xf32> -> tensor<?x8xf32>
  return %0 : tensor<?x8xf32>
}
// Two results whose extents are known only after the call.
func.func @pair(%a: tensor<?x8xf32>) -> (tensor<?x8xf32>, tensor<?x8xf32>) {
  %e = google.exp %a : tensor<?x8xf32>
  %n = google.neg %a : tensor<?x8xf32>
  return %e, %n : tensor<?x8xf32>, tensor<?x8xf32>
}
