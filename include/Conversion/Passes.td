//===- Passes.td - conversion passes ----------------------*- tablegen -*-===//

#ifndef GOOGLE_CONVERSION_PASSES_TD
#define GOOGLE_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertGoogleToLinalgPass : Pass<"convert-google-to-linalg"> {
  let summary = "Lower every google op to linalg/tensor/arith/math on tensors";
  let description = [{
    Dialect conversion with the google dialect illegal, so the pass fails
    with `failed to legalize operation 'google.<op>'` if any op survives.

    - constant => arith.constant
    - add/sub/mul/div/max/min and unary ops => one linalg.generic whose
      indexing maps implement NumPy broadcasting (a static 1 that stretches
      reads index 0)
    - matmul => linalg.fill + linalg.matmul / linalg.batch_matmul
    - matmul_bias_relu => linalg.matmul + an in-place linalg.generic
      epilogue (add the broadcast bias, max with 0)
    - transpose => linalg.transpose
    - reshape => tensor.collapse_shape / tensor.expand_shape (through a 1-D
      tensor when the shapes are not a plain collapse or expansion)
    - reduce_sum/max/mean => linalg.reduce (+ a divide for the mean,
      + tensor.expand_shape for keep_dims)
    - softmax => max, exp(x - max), sum and divide: numerically stable
    - cast => linalg.generic with arith.extf/truncf/sitofp/fptosi/extsi/trunci

    A dynamic operand dimension is not stretched at run time: where it must
    equal another extent (broadcasting, contraction, batch, bias, reshape
    element count) a `cf.assert` checks it, so a mismatch stops with a
    message instead of reading out of bounds.

    ```mlir
    %r = google.relu %x : tensor<4xf32>
    => %r = linalg.generic {...} ins(%x) outs(%empty) { arith.maximumf }
    ```
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::cf::ControlFlowDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::math::MathDialect",
    "::mlir::tensor::TensorDialect",
  ];
}

#endif // GOOGLE_CONVERSION_PASSES_TD
