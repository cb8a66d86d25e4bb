//===- Passes.td - google dialect optimization passes -----*- tablegen -*-===//
//
// Passes on google ops (and func): what the dialect itself can rewrite.
// Everything after the lowering to linalg is in Codegen/.
//

#ifndef GOOGLE_DIALECT_GOOGLE_TRANSFORMS_PASSES_TD
#define GOOGLE_DIALECT_GOOGLE_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def FoldConstantsPass : Pass<"google-fold-constants"> {
  let summary = "Evaluate google ops on constants and apply safe identities";
  let description = [{
    Replaces every google op whose operands are all `google.constant` with
    one `google.constant` holding its value (elementwise with broadcasting,
    unary math, matmul, the fused op, transpose, reshape, reductions,
    softmax, cast), computed in the op's element type:

    ```mlir
    %0 = google.add %c1, %c2 : tensor<2xf32>, tensor<2xf32> -> tensor<2xf32>
    => %0 = google.constant dense<[4.0, 6.0]> : tensor<2xf32>
    ```

    It also applies the ops' folds: x+(-0), (-0)+x, x-(+0), x*1, 1*x, x/1
    (also with a broadcast 0 or 1; for integers any 0) when the result type
    equals x's type, relu(relu(x)) (x + +0 is not x: it is +0 for x = -0),
    transpose of transpose (composed, or removed when the identity) and
    reshape of reshape.

    It does not evaluate an op when an operand or the result has more than
    `max-elements` elements, or a matmul needs more than 16x that many
    multiply-adds, so huge constants cost neither time nor memory. It does
    not fold float-to-int casts of NaN or out-of-range values (undefined),
    nor operands given as non-dense attributes.
  }];
  let options = [
    Option<"maxElements", "max-elements", "int64_t", /*default=*/"1 << 20",
           "Largest operand or result, in elements, that is evaluated">,
  ];
  let statistics = [
    Statistic<"numEvaluated", "num-evaluated", "Ops evaluated into constants">,
    Statistic<"numSkippedTooLarge", "num-skipped-too-large",
              "Constant ops left alone because of max-elements">,
  ];
}

def CSEPass : Pass<"google-cse"> {
  let summary = "Eliminate duplicate google ops";
  let description = [{
    Two ops with the same name, operands, attributes and result types
    compute the same value because every google op is pure; the later one is
    replaced by the earlier one when the earlier dominates it:

    ```mlir
    %0 = google.relu %x : tensor<4xf32>
    %1 = google.relu %x : tensor<4xf32>
    => %0 is used for both.
    ```

    Runs MLIR's CSE utility, so other pure ops in the same regions (arith,
    tensor) are de-duplicated as well. Ops with different attributes (a
    different perm or axes) are not merged.
  }];
  let statistics = [
    Statistic<"numCSE", "num-cse'd", "Duplicate ops eliminated">,
  ];
}

def DCEPass : Pass<"google-dce", "::mlir::ModuleOp"> {
  let summary = "Remove unused google ops and unused private functions";
  let description = [{
    Erases google ops whose results have no uses (transitively), then
    private `func.func`s that nothing references (also transitively: a
    private function used only by another dead one goes too). Public
    functions are kept, as are ops of other dialects.
  }];
  let statistics = [
    Statistic<"numErasedOps", "num-erased-ops", "Unused google ops erased">,
    Statistic<"numErasedFuncs", "num-erased-funcs",
              "Unused private functions erased">,
  ];
  let dependentDialects = ["::mlir::func::FuncDialect"];
}

def FuseMatmulBiasReluPass : Pass<"google-fuse-matmul-bias-relu"> {
  let summary = "Fuse relu(add(matmul(a, b), bias)) into matmul_bias_relu";
  let description = [{
    ```mlir
    %m = google.matmul %a, %b : tensor<4x8xf32>, tensor<8x16xf32> -> tensor<4x16xf32>
    %s = google.add %m, %bias : tensor<4x16xf32>, tensor<16xf32> -> tensor<4x16xf32>
    %r = google.relu %s : tensor<4x16xf32>
    => %r = google.matmul_bias_relu %a, %b, %bias : ... -> tensor<4x16xf32>
    ```

    Fires for a rank-2 matmul, either add operand order, and a bias of
    shape [N] or [1, N] (the latter is reshaped to [N]). It does not fire
    when the matmul or the add result has another user (the intermediate
    value is still needed), when the addend is not such a bias (e.g. [M, N]),
    when the add broadcasts the matmul result to a bigger shape, or when the
    bias is a static [1] that the add stretches over N (the fused op never
    stretches its bias).
  }];
  let statistics = [
    Statistic<"numFused", "num-fused", "matmul+bias+relu chains fused">,
  ];
}

def SwapMatmulTransposesPass : Pass<"google-swap-matmul-transposes"> {
  let summary = "Rewrite transpose(a @ b) as b^T @ a^T where a transpose "
                "cancels";
  let description = [{
    The transpose of a matrix product (of its last two dimensions, batched
    or not) is the product of the operands' transposes, swapped. Where an
    operand is itself such a transpose, its transpose cancels: reverse-mode
    autodiff of `x @ w.T` gives `dw = (x.T @ dy).T`, which becomes
    `dy.T @ x`, one transpose fewer (and on GPUs, whose matmul kernels read
    a transposed operand where it lies, no transpose kernel at all).

    ```mlir
    %xt = google.transpose %x {perm = array<i64: 1, 0>} : tensor<64x784xf32> -> tensor<784x64xf32>
    %m = google.matmul %xt, %dy : tensor<784x64xf32>, tensor<64x256xf32> -> tensor<784x256xf32>
    %t = google.transpose %m {perm = array<i64: 1, 0>} : tensor<784x256xf32> -> tensor<256x784xf32>
    => %dyt = google.transpose %dy {perm = array<i64: 1, 0>} : tensor<64x256xf32> -> tensor<256x64xf32>
       %t = google.matmul %dyt, %x : tensor<256x64xf32>, tensor<64x784xf32> -> tensor<256x784xf32>
    ```

    Fires only where the transpose is the product's one user, and K and
    the batch are static (a run-time check of either would name the
    operands the other way round). With one operand transposed, the other
    gets a transpose: only for static shapes and when it is no larger than
    the transposes that go (the result's, and the operand's unless
    something else reads it). The products are the same numbers, summed in
    the same order.
  }];
  let statistics = [
    Statistic<"numSwapped", "num-swapped", "Transposed products swapped">,
  ];
}

def InlineSingleCallsPass
    : Pass<"google-inline-single-calls", "::mlir::ModuleOp"> {
  let summary = "Inline private functions called from one place";
  let description = [{
    A private `func.func` with a body of one block whose only use is one
    `func.call` is inlined there and erased: the VJP a jitted gradient
    calls, a traced helper used once. Its results then flow into the
    caller's ops, so that the caller's results are computed in place (a
    returned call result was copied into the caller's result buffer) and
    fusion and CSE see across the call. Functions called from several
    places stay calls.

    ```mlir
    func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
      %r = call @g(%x) : (tensor<4xf32>) -> tensor<4xf32>
      return %r : tensor<4xf32>
    }
    func.func private @g(%y: tensor<4xf32>) -> tensor<4xf32> {
      %e = google.exp %y : tensor<4xf32>
      return %e : tensor<4xf32>
    }
    =>
    func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
      %e = google.exp %x : tensor<4xf32>
      return %e : tensor<4xf32>
    }
    ```
  }];
  let statistics = [
    Statistic<"numInlined", "num-inlined", "Calls inlined">,
  ];
  let dependentDialects = ["::mlir::func::FuncDialect"];
}

def DifferentiatePass : Pass<"google-differentiate", "::mlir::ModuleOp"> {
  let summary = "Reverse-mode autodiff of google-dialect functions";
  let description = [{
    Builds vector-Jacobian products of functions made of google ops by
    reverse accumulation: the function's ops are cloned (their values are
    kept for the backward pass, not recomputed), then each op, last to
    first, turns its results' cotangents into its operands' with its
    adjoint rule (lib/Dialect/Google/Transforms/Adjoints.cpp), written with
    google ops, so a gradient is itself a google program that every pass,
    the interpreter and every target take. A broadcast operand's cotangent
    is summed over the dimensions it was broadcast along.

    With `function=f` (and `wrt`, argument positions, default 0) it adds
    `@f_vjp(args..., cotangents of the results...) -> (results...,
    cotangents of the wrt arguments...)` and, when `f` returns one rank-0
    float, `@f_grad(args...) -> (gradients of the wrt arguments...)`:

    ```mlir
    func.func @f(%x: tensor<3xf32>) -> tensor<f32> {
      %e = google.exp %x : tensor<3xf32>
      %s = google.reduce_sum %e {axes = array<i64: 0>, keep_dims = false} : tensor<3xf32> -> tensor<f32>
      return %s : tensor<f32>
    }
    => func.func @f_grad(%x: tensor<3xf32>) -> tensor<3xf32>   // exp(x)
    ```

    It also fills in every body-less function with a `google.vjp = {of =
    @f, wrt = array<i64: ...>}` attribute and the VJP's signature (how the
    Python front end asks for gradients inside a traced program).

    Integer and boolean values get no cotangents (comparisons, argmax,
    iota, casts from integers are constants to the gradient); an argument
    that nothing differentiable depends on gets zeros. Ops without a rule
    yet (grouped conv2d, convolutions or pools with a dynamic batch) are an
    error naming the op. A gather's adjoint is a google.scatter_add of the
    cotangent into zeros.
  }];
  let options = [
    Option<"function", "function", "std::string", /*default=*/"\"\"",
           "Add @<function>_vjp and @<function>_grad">,
    ListOption<"wrt", "wrt", "int64_t",
               "The arguments to differentiate with respect to (default 0)">,
  ];
  let statistics = [
    Statistic<"numFunctions", "num-functions", "VJP functions built">,
  ];
}

#endif // GOOGLE_DIALECT_GOOGLE_TRANSFORMS_PASSES_TD
