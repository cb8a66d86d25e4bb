// Well-formed uses of the ops ParserGuard scans for: they must still parse.
// linalg.reduce dimensions = [ in a comment is no hazard.
func.func @ops(%x: tensor<4x8xf32>, %r: tensor<4xf32>, %v: tensor<8xf32>,
               %b: tensor<4x8xf32>, %t: tensor<8x4xf32>)
    -> (tensor<4xf32>, tensor<4x8xf32>, tensor<8x4xf32>) {
  %dimensions = linalg.reduce { arith.addf } ins(%x : tensor<4x8xf32>)
      outs(%r : tensor<4xf32>) dimensions = [ // the reduced axis
        0x1 ]
  %0 = linalg.broadcast ins(%v : tensor<8xf32>) outs(%b : tensor<4x8xf32>)
      dimensions = [0]
  %1 = linalg.transpose ins(%x : tensor<4x8xf32>) outs(%t : tensor<8x4xf32>)
      permutation = [1, 0]
  return %dimensions, %0, %1 : tensor<4xf32>, tensor<4x8xf32>, tensor<8x4xf32>
}
func.func private @g() attributes {note = "permutation = [oops"}
