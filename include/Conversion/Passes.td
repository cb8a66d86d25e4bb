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
    - matmul_bias_relu => linalg.matmul + a linalg.generic epilogue reading
      the product and the bias broadcast by column (max(p + bias, 0))
    - transpose => linalg.transpose
    - reshape => tensor.collapse_shape / tensor.expand_shape (through a 1-D
      tensor when the shapes are not a plain collapse or expansion)
    - reduce_sum/max/mean => linalg.reduce (+ a divide for the mean,
      + tensor.expand_shape for keep_dims)
    - softmax => max, exp(x - max), sum and divide: numerically stable
    - cast => linalg.generic with the conversions of SPEC section 1
    - gather => a linalg.generic reading with tensor.extract (indices
      checked); scatter_add => with `scatter=loops`, a loop nest of
      tensor.extract/insert over the updates (linear work: the CPU
      pipeline's choice); otherwise parallel linalg.generics (any target):
      `reduction`, one over the result reducing the index dimensions, or
      `segments`, the index positions stably sorted by row, then each
      result element adding its row's run; `cheapest` (the default) picks
      the one of these two that takes fewer steps
    - if / while => scf.if / scf.while on the extracted rank-0 condition,
      their regions moved (google.yield => scf.yield, google.condition =>
      scf.condition forwarding the loop state)

    The scalar body of every op comes from ScalarSemantics.h, which the
    constant folder and the interpreter share. Apart from linalg.reduce, no
    generic reads its `outs` operand: each writes a new tensor (upstream
    elementwise fusion miscompiles generics that compute from their outs).

    A dynamic operand dimension is not stretched at run time: where it must
    equal another extent (broadcasting, contraction, batch, bias, reshape
    element count, a static result extent) a `cf.assert` checks it; an
    operand whose dynamic extent is known statically elsewhere is then cast
    to that static type, so every linalg op built is shape-consistent.
    Afterwards, extents are expressed in terms of the values they come from
    and the checks move to the first point they can run (the function entry
    for argument extents), where no later rewrite can fold them away.

    ```mlir
    %r = google.relu %x : tensor<4xf32>
    => %r = linalg.generic {...} ins(%x) outs(%empty) { arith.maximumf }
    ```
  }];
  let options = [
    Option<"scatter", "scatter", "::mlir::google::ScatterLowering",
           /*default=*/"::mlir::google::ScatterLowering::Cheapest",
           "How scatter_add lowers",
           [{::llvm::cl::values(
             clEnumValN(::mlir::google::ScatterLowering::Loops, "loops",
                        "a loop nest over the updates (linear, sequential)"),
             clEnumValN(::mlir::google::ScatterLowering::Reduction,
                        "reduction", "a reduction over the result"),
             clEnumValN(::mlir::google::ScatterLowering::Segments, "segments",
                        "rows' runs of the stably sorted indices"),
             clEnumValN(::mlir::google::ScatterLowering::Cheapest, "cheapest",
                        "reduction or segments, by their steps"))}]>,
  ];
  let dependentDialects = [
    "::mlir::affine::AffineDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::cf::ControlFlowDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::math::MathDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect",
  ];
}

#endif // GOOGLE_CONVERSION_PASSES_TD
