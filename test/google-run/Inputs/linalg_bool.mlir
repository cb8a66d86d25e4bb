// linalg on tensors, with a bool tensor: google-run runs the pipeline.
#id = affine_map<(d0) -> (d0)>
func.func @logical_not(%x: tensor<4xi1>) -> tensor<4xi1> {
  %true = arith.constant true
  %e = tensor.empty() : tensor<4xi1>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%x : tensor<4xi1>) outs(%e : tensor<4xi1>) {
  ^bb0(%a: i1, %b: i1):
    %n = arith.xori %a, %true : i1
    linalg.yield %n : i1
  } -> tensor<4xi1>
  return %r : tensor<4xi1>
}
