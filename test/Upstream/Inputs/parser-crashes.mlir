// Malformed lists after `dimensions =` / `permutation =`: MLIR 22's parsers
// of these three linalg ops crash on them (a seed for the parse fuzzer too).
func.func @reduce(%x: tensor<4x8xf32>, %init: tensor<4xf32>) -> tensor<4xf32> {
  %0 = linalg.reduce { arith.addf } ins(%x : tensor<4x8xf32>) outs(%init : tensor<4xf32>) dimensions = [5
  return %0 : tensor<4xf32>
}
