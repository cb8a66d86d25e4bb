//===- GoogleOps.td - google dialect operations ------------*- tablegen -*-===//
//
// Op families: constant, elementwise binary (broadcasting), elementwise
// unary (each with its scalar semantics, `computeScalar`), matrix products,
// layout, reductions, softmax and cast.
//
//===----------------------------------------------------------------------===//

#ifndef GOOGLE_DIALECT_GOOGLEOPS_TD
#define GOOGLE_DIALECT_GOOGLEOPS_TD

include "Dialect/Google/IR/GoogleBase.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"

//===----------------------------------------------------------------------===//
// Constant
//===----------------------------------------------------------------------===//

def Google_ConstantOp : Google_Op<"constant",
    [ConstantLike, AllTypesMatch<["value", "result"]>]> {
  let summary = "A tensor constant";
  let description = [{
    Produces a tensor from an elements attribute whose type is the result
    type.

    ```mlir
    %c = google.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
    ```
  }];
  let arguments = (ins ElementsAttr:$value);
  let results = (outs Google_AnyTensor:$result);
  let assemblyFormat = "attr-dict $value";
  let hasFolder = 1;
  let builders = [
    OpBuilder<(ins "::mlir::ElementsAttr":$value), [{
      build($_builder, $_state, value.getType(), value);
    }]>
  ];
}

//===----------------------------------------------------------------------===//
// Elementwise binary ops (NumPy broadcasting)
//===----------------------------------------------------------------------===//

// `scalar` is the op's value for elements `x` and `y` in the algebra `a`
// (ScalarSemantics.h).
class Google_BinaryOp<string mnemonic, TypeConstraint tensorType,
                      string numpyName, code scalar, list<Trait> traits = []>
    : Google_Op<mnemonic,
        !listconcat([AllElementTypesMatch<["lhs", "rhs", "result"]>,
                     Google_Elementwise], traits)> {
  let summary = "Elementwise " # numpyName # " with NumPy broadcasting";
  let description = [{
    Computes `numpy.}] # numpyName # [{(lhs, rhs)`. Shapes are aligned on
    their trailing dimensions; a dimension of 1 stretches to the other
    operand's extent. The result type is written out and must equal the
    broadcast shape (a dynamic result dimension is also accepted). A dynamic
    operand dimension is assumed to equal the result extent at run time.

    ```mlir
    %s = google.}] # mnemonic # [{ %a, %b : tensor<4x8xf32>, tensor<8xf32> -> tensor<4x8xf32>
    ```
  }];
  let arguments = (ins tensorType:$lhs, tensorType:$rhs);
  let results = (outs tensorType:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:` type($lhs) `,` type($rhs) `->` type($result)
  }];
  let hasVerifier = 1;
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::verify() {
      return verifyBroadcastingOp(*this);
    }
  }];
  let ufunc = numpyName;
  let numpyEager = "np." # numpyName # "(x, y)";
  let extraClassDeclaration = [{
    template <typename A, typename V = typename A::Value>
    V computeScalar(A &a, ::llvm::ArrayRef<V> args) {
      [[maybe_unused]] V x = args[0], y = args[1];
      return }] # scalar # [{;
    }
  }];
}

def Google_AddOp
    : Google_BinaryOp<"add", Google_Tensor, "add", [{ a.add(x, y) }]> {
  let hasFolder = 1;
}
def Google_SubOp
    : Google_BinaryOp<"sub", Google_Tensor, "subtract", [{ a.sub(x, y) }]> {
  let hasFolder = 1;
}
def Google_MulOp
    : Google_BinaryOp<"mul", Google_Tensor, "multiply", [{ a.mul(x, y) }]> {
  let hasFolder = 1;
}
def Google_DivOp : Google_BinaryOp<"div", Google_FloatTensor, "true_divide",
                                   [{ a.div(x, y) }]> {
  let hasFolder = 1;
}
def Google_MaxOp : Google_BinaryOp<"max", Google_Tensor, "maximum",
                                   [{ a.maximum(x, y) }]> {
  let pythonName = "maximum";
}
def Google_MinOp : Google_BinaryOp<"min", Google_Tensor, "minimum",
                                   [{ a.minimum(x, y) }]> {
  let pythonName = "minimum";
}
def Google_PowOp : Google_BinaryOp<"pow", Google_FloatTensor, "power",
                                   [{ semantics::pow(a, x, y) }]>;
def Google_FloorDivOp
    : Google_BinaryOp<"floor_div", Google_Tensor, "floor_divide",
                      [{ semantics::floorDivide(a, x, y) }]>;
def Google_RemOp : Google_BinaryOp<"rem", Google_Tensor, "remainder",
                                   [{ semantics::remainder(a, x, y) }]>;

//===----------------------------------------------------------------------===//
// Comparisons and booleans (NumPy broadcasting)
//===----------------------------------------------------------------------===//

// `comparison` names a semantics::Comparison: floats compare as NumPy's
// (IEEE) do, false with a NaN but for `ne`.
class Google_CompareOp<string mnemonic, string numpyName, string comparison>
    : Google_Op<mnemonic, [AllElementTypesMatch<["lhs", "rhs"]>,
                           Google_Elementwise]> {
  let summary = "Elementwise " # numpyName # " with NumPy broadcasting";
  let description = [{
    Computes `numpy.}] # numpyName # [{(lhs, rhs)`: booleans (`i1`), with
    the broadcasting of the binary ops.

    ```mlir
    %m = google.}] # mnemonic # [{ %a, %b : tensor<4x8xf32>, tensor<8xf32> -> tensor<4x8xi1>
    ```
  }];
  let arguments = (ins Google_Tensor:$lhs, Google_Tensor:$rhs);
  let results = (outs Google_BoolTensor:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:` type($lhs) `,` type($rhs) `->` type($result)
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::verify() {
      return verifyBroadcastingOp(*this);
    }
    ::mlir::OpFoldResult $cppClass::fold(FoldAdaptor) {
      return foldSelfComparison(getLhs(), getRhs(), getType(),
                                semantics::Comparison::}] # comparison # [{);
    }
  }];
  let ufunc = numpyName;
  let numpyEager = "np." # numpyName # "(x, y)";
  let extraClassDeclaration = [{
    template <typename A, typename V = typename A::Value>
    V computeScalar(A &a, ::llvm::ArrayRef<V> args) {
      return a.compare(semantics::Comparison::}] # comparison # [{, args[0],
                       args[1]);
    }
  }];
}

def Google_EqOp : Google_CompareOp<"eq", "equal", "EQ">;
def Google_NeOp : Google_CompareOp<"ne", "not_equal", "NE">;
def Google_LtOp : Google_CompareOp<"lt", "less", "LT">;
def Google_LeOp : Google_CompareOp<"le", "less_equal", "LE">;
def Google_GtOp : Google_CompareOp<"gt", "greater", "GT">;
def Google_GeOp : Google_CompareOp<"ge", "greater_equal", "GE">;

def Google_AndOp : Google_BinaryOp<"and", Google_BoolTensor, "logical_and",
                                   [{ a.logicalAnd(x, y) }]>;
def Google_OrOp : Google_BinaryOp<"or", Google_BoolTensor, "logical_or",
                                  [{ a.logicalOr(x, y) }]>;
def Google_XorOp : Google_BinaryOp<"xor", Google_BoolTensor, "logical_xor",
                                   [{ a.logicalXor(x, y) }]>;

def Google_SelectOp : Google_Op<"select",
    [AllElementTypesMatch<["on_true", "on_false", "result"]>,
     Google_Elementwise]> {
  let summary = "Picks elements by a boolean condition, with broadcasting";
  let description = [{
    Computes `numpy.where(condition, on_true, on_false)`: the three
    operands broadcast to the result's shape as the binary ops' do.

    ```mlir
    %r = google.select %c, %x, %y : tensor<4x8xi1>, tensor<4x8xf32>, tensor<f32> -> tensor<4x8xf32>
    ```
  }];
  let arguments = (ins Google_BoolTensor:$condition,
                       Google_AnyTensor:$on_true, Google_AnyTensor:$on_false);
  let results = (outs Google_AnyTensor:$result);
  let assemblyFormat = [{
    $condition `,` $on_true `,` $on_false attr-dict `:` type($condition) `,`
    type($on_true) `,` type($on_false) `->` type($result)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    template <typename A, typename V = typename A::Value>
    V computeScalar(A &a, ::llvm::ArrayRef<V> args) {
      return a.select(args[0], args[1], args[2]);
    }
  }];
}

//===----------------------------------------------------------------------===//
// Elementwise unary ops
//===----------------------------------------------------------------------===//

// `scalar` is the op's value for an element `x` in the algebra `a`
// (ScalarSemantics.h). The op is gm.<mnemonic> in Python, and np.<mnemonic>
// records it where numpy has that ufunc.
class Google_UnaryOp<string mnemonic, TypeConstraint tensorType,
                     string formula, code scalar, list<Trait> traits = []>
    : Google_Op<mnemonic, !listconcat([SameOperandsAndResultType,
                                       Google_Elementwise], traits)> {
  let summary = "Elementwise " # formula;
  let description = [{
    Computes `}] # formula # [{` for every element. Operand and result have
    the same type.

    ```mlir
    %r = google.}] # mnemonic # [{ %x : tensor<4x8xf32>
    ```
  }];
  let arguments = (ins tensorType:$input);
  let results = (outs tensorType:$result);
  let assemblyFormat = "$input attr-dict `:` type($result)";
  let pythonName = mnemonic;
  let ufunc = mnemonic;
  let numpyEager = "np." # mnemonic # "(x)";
  let extraClassDeclaration = [{
    template <typename A, typename V = typename A::Value>
    V computeScalar(A &a, ::llvm::ArrayRef<V> args) {
      [[maybe_unused]] V x = args[0];
      return }] # scalar # [{;
    }
  }];
}

def Google_ReluOp : Google_UnaryOp<"relu", Google_Tensor, "max(x, 0)",
                                   [{ semantics::relu(a, x) }]> {
  let hasFolder = 1;
  let ufunc = "";
  let numpyEager = "np.maximum(x, np.zeros((), x.dtype))";
}
def Google_NegOp
    : Google_UnaryOp<"neg", Google_Tensor, "-x", [{ a.neg(x) }]> {
  let pythonName = "";  // -x
  let ufunc = "";  // np.negative is -x
  let numpyEager = "np.negative(x)";
}
def Google_AbsOp
    : Google_UnaryOp<"abs", Google_Tensor, "|x|", [{ a.abs(x) }]> {
  let ufunc = "absolute";
}
def Google_ExpOp : Google_UnaryOp<"exp", Google_FloatTensor, "exp(x)",
                                  [{ semantics::exp(a, x) }]>;
def Google_LogOp : Google_UnaryOp<"log", Google_FloatTensor, "log(x)",
                                  [{ semantics::log(a, x) }]>;
def Google_TanhOp : Google_UnaryOp<"tanh", Google_FloatTensor, "tanh(x)",
                                   [{ semantics::tanh(a, x) }]>;
def Google_SigmoidOp
    : Google_UnaryOp<"sigmoid", Google_FloatTensor, "1 / (1 + exp(-x))",
                     [{ semantics::sigmoid(a, x) }]> {
  let ufunc = "";
  let numpyEager = "np.ones((), x.dtype) / (np.ones((), x.dtype) + np.exp(-x))";
}
def Google_SqrtOp : Google_UnaryOp<"sqrt", Google_FloatTensor, "sqrt(x)",
                                   [{ semantics::sqrt(a, x) }]>;
def Google_SinOp : Google_UnaryOp<"sin", Google_FloatTensor, "sin(x)",
                                  [{ semantics::sin(a, x) }]>;
def Google_CosOp : Google_UnaryOp<"cos", Google_FloatTensor, "cos(x)",
                                  [{ semantics::cos(a, x) }]>;
def Google_RsqrtOp : Google_UnaryOp<"rsqrt", Google_FloatTensor,
                                    "1 / sqrt(x)",
                                    [{ semantics::rsqrt(a, x) }]> {
  let ufunc = "";  // numpy has no rsqrt
  let numpyEager = "np.ones((), x.dtype) / np.sqrt(x)";
}
def Google_NotOp : Google_UnaryOp<"not", Google_BoolTensor, "not x",
                                  [{ a.logicalNot(x) }]> {
  let pythonName = "";
  let ufunc = "logical_not";
  let numpyEager = "np.logical_not(x)";
}
def Google_ErfOp : Google_UnaryOp<"erf", Google_FloatTensor,
                                  "erf(x), the error function",
                                  [{ semantics::erf(a, x) }]> {
  let ufunc = "";  // numpy has no erf
  let numpyEager = "np.vectorize(math.erf, otypes=[np.float64])(x)";
}

//===----------------------------------------------------------------------===//
// Matrix products
//===----------------------------------------------------------------------===//

def Google_MatmulOp : Google_Op<"matmul",
    [AllElementTypesMatch<["lhs", "rhs", "result"]>]> {
  let summary = "Matrix product, plain or batched";
  let description = [{
    Rank 2: `MxK` times `KxN` gives `MxN`. Rank 3: `BxMxK` times `BxKxN`
    gives `BxMxN` (the batch dimensions must agree; they do not broadcast).

    ```mlir
    %m = google.matmul %a, %b : tensor<128x512xf32>, tensor<512x256xf32> -> tensor<128x256xf32>
    ```
  }];
  let arguments = (ins Google_Tensor:$lhs, Google_Tensor:$rhs);
  let results = (outs Google_Tensor:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:` type($lhs) `,` type($rhs) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Google_MatmulBiasReluOp : Google_Op<"matmul_bias_relu",
    [AllElementTypesMatch<["lhs", "rhs", "bias", "result"]>]> {
  let summary = "relu(lhs @ rhs + bias), the fused dense layer";
  let description = [{
    `MxK` times `KxN`, plus a bias of shape `[N]` added to every row, then
    `max(x, 0)`. `--google-fuse-matmul-bias-relu` produces it; it may also
    be written by hand.

    ```mlir
    %f = google.matmul_bias_relu %a, %b, %bias : tensor<128x512xf32>, tensor<512x256xf32>, tensor<256xf32> -> tensor<128x256xf32>
    ```
  }];
  let arguments = (ins Google_Tensor:$lhs, Google_Tensor:$rhs,
                       Google_Tensor:$bias);
  let results = (outs Google_Tensor:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs `,` $bias attr-dict `:` type($lhs) `,` type($rhs) `,`
    type($bias) `->` type($result)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Convolution and pooling
//===----------------------------------------------------------------------===//

def Google_Conv2DOp : Google_Op<"conv2d",
    [AllElementTypesMatch<["input", "filter", "result"]>]> {
  let summary = "2-D convolution, NHWC input and HWIO filter";
  let description = [{
    `result[n, y, x, o] = sum over i, j, c of input'[n, y * strides[0] + i
    * dilations[0], x * strides[1] + j * dilations[1], g * C/groups + c] *
    filter[i, j, c, o]`, where `input'` is the input with `padding` (top,
    bottom, left, right) zeros around its spatial dimensions and `g` is
    output channel o's group (`o / (Cout / groups)`). The filter is
    `kh x kw x C/groups x Cout`; C and Cout are multiples of `groups`
    (groups = C is a depthwise convolution). The input's H, W and C and the
    whole filter are static; f16 and bf16 accumulate in f32.

    ```mlir
    %y = google.conv2d %x, %w {strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, padding = array<i64: 1, 1, 1, 1>, groups = 1 : i64} : tensor<?x28x28x1xf32>, tensor<3x3x1x8xf32> -> tensor<?x28x28x8xf32>
    ```
  }];
  let arguments = (ins Google_Tensor:$input, Google_Tensor:$filter,
                       DenseI64ArrayAttr:$strides,
                       DenseI64ArrayAttr:$dilations,
                       DenseI64ArrayAttr:$padding, I64Attr:$groups);
  let results = (outs Google_Tensor:$result);
  let assemblyFormat = [{
    $input `,` $filter attr-dict `:` type($input) `,` type($filter) `->`
    type($result)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The result's static extents (N as the input's); valid after
    /// verification.
    ::llvm::SmallVector<int64_t> getOutputShape();
  }];
}

class Google_Pool2DOp<string mnemonic, TypeConstraint tensorType,
                      string what>
    : Google_Op<mnemonic, [AllElementTypesMatch<["input", "result"]>]> {
  let summary = "2-D " # what # " pooling over NHWC";
  let description = [{
    The }] # what # [{ of each `window[0] x window[1]` window of every
    channel, the windows `strides` apart. `padding` (top, bottom, left,
    right) extends the spatial dimensions; padded positions never count
    (each pad is smaller than the window, so every window holds an input
    element; an average divides by the number of input elements in its
    window). The input's H and W are static.

    ```mlir
    %p = google.}] # mnemonic # [{ %x {window = array<i64: 2, 2>, strides = array<i64: 2, 2>, padding = array<i64: 0, 0, 0, 0>} : tensor<?x28x28x8xf32> -> tensor<?x14x14x8xf32>
    ```
  }];
  let arguments = (ins tensorType:$input, DenseI64ArrayAttr:$window,
                       DenseI64ArrayAttr:$strides,
                       DenseI64ArrayAttr:$padding);
  let results = (outs tensorType:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The result's static extents (N and C as the input's); valid after
    /// verification.
    ::llvm::SmallVector<int64_t> getOutputShape();
  }];
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::verify() { return verifyPoolOp(*this); }
    ::llvm::SmallVector<int64_t> $cppClass::getOutputShape() {
      return poolOutputShape(*this);
    }
  }];
}

def Google_MaxPool2DOp : Google_Pool2DOp<"max_pool2d", Google_Tensor, "max">;
def Google_AvgPool2DOp
    : Google_Pool2DOp<"avg_pool2d", Google_FloatTensor, "average">;

//===----------------------------------------------------------------------===//
// Layout
//===----------------------------------------------------------------------===//

def Google_TransposeOp : Google_Op<"transpose",
    [AllElementTypesMatch<["input", "result"]>]> {
  let summary = "Permutes the dimensions of a tensor";
  let description = [{
    Result dimension `i` is input dimension `perm[i]`, as in
    `numpy.transpose(x, perm)`.

    ```mlir
    %t = google.transpose %x {perm = array<i64: 1, 0>} : tensor<4x8xf32> -> tensor<8x4xf32>
    ```
  }];
  let arguments = (ins Google_AnyTensor:$input, DenseI64ArrayAttr:$perm);
  let results = (outs Google_AnyTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Google_ReshapeOp : Google_Op<"reshape",
    [AllElementTypesMatch<["input", "result"]>]> {
  let summary = "Reinterprets a tensor with a new shape, row-major";
  let description = [{
    Same elements in row-major order, new shape. Static shapes must have the
    same number of elements; the result may have at most one dynamic
    dimension, whose extent is computed from the element count.

    ```mlir
    %v = google.reshape %x : tensor<4x8xf32> -> tensor<32xf32>
    ```
  }];
  let arguments = (ins Google_AnyTensor:$input);
  let results = (outs Google_AnyTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Google_SliceOp : Google_Op<"slice",
    [AllElementTypesMatch<["input", "result"]>]> {
  let summary = "A strided window of a tensor (NumPy's basic slicing)";
  let description = [{
    `result[i, j, ...] = input[starts[0] + i * strides[0], starts[1] + j *
    strides[1], ...]`: per dimension the indices of Python's
    `range(start, limit, stride)`, so the result extent is
    `max(0, ceil((limit - start) / stride))` and a negative stride walks
    backwards (`x[::-1]` is start n-1, limit -1, stride -1). Strides are
    nonzero and every index read lies in the input, whose shape is static.

    ```mlir
    %s = google.slice %x {starts = array<i64: 1, 0>, limits = array<i64: 3, 8>, strides = array<i64: 1, 2>} : tensor<4x8xf32> -> tensor<2x4xf32>
    ```
  }];
  let arguments = (ins Google_AnyTensor:$input, DenseI64ArrayAttr:$starts,
                       DenseI64ArrayAttr:$limits, DenseI64ArrayAttr:$strides);
  let results = (outs Google_AnyTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The window's extents (the result's shape, static even where the
    /// result type relaxes it); valid after verification.
    ::llvm::SmallVector<int64_t> getWindowShape();
  }];
}

def Google_ConcatOp : Google_Op<"concat"> {
  let summary = "Joins tensors along one axis (numpy.concatenate)";
  let description = [{
    The inputs, at least one, have the same rank and element type and agree
    in every dimension but `axis` (in `[-rank, rank)`); the result's `axis`
    extent is the sum of theirs. Dynamic extents that must agree are checked
    at run time.

    ```mlir
    %c = google.concat %a, %b {axis = 1 : i64} : tensor<2x3xf32>, tensor<2x?xf32> -> tensor<2x?xf32>
    ```
  }];
  let arguments = (ins Variadic<Google_AnyTensor>:$inputs, I64Attr:$axis);
  let results = (outs Google_AnyTensor:$result);
  let assemblyFormat =
      "$inputs attr-dict `:` type($inputs) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
  let extraClassDeclaration = [{
    /// `axis` made non-negative (valid after verification).
    int64_t getNormalizedAxis();
  }];
}

def Google_PadOp : Google_Op<"pad",
    [AllElementTypesMatch<["input", "value", "result"]>]> {
  let summary = "Pads with a constant (numpy.pad, mode='constant')";
  let description = [{
    Adds `low[d]` elements before and `high[d]` after dimension `d`, each
    the rank-0 `value`; both are non-negative.

    ```mlir
    %p = google.pad %x, %zero {low = array<i64: 0, 1>, high = array<i64: 2, 1>} : tensor<4x8xf32>, tensor<f32> -> tensor<6x10xf32>
    ```
  }];
  let arguments = (ins Google_AnyTensor:$input, Google_AnyTensor:$value,
                       DenseI64ArrayAttr:$low, DenseI64ArrayAttr:$high);
  let results = (outs Google_AnyTensor:$result);
  let assemblyFormat = [{
    $input `,` $value attr-dict `:` type($input) `,` type($value) `->`
    type($result)
  }];
  let hasVerifier = 1;
}

def Google_IotaOp : Google_Op<"iota"> {
  let summary = "Counts along one dimension (numpy.arange, broadcast)";
  let description = [{
    `result[i0, i1, ...] = i_dimension`, converted to the element type (an
    integer or float type). The shape is static, or, with a `like`
    operand (any element type, the result's rank), taken from it at run
    time: what gradients along dynamic extents need.

    ```mlir
    %i = google.iota {dimension = 1 : i64} : tensor<4x8xi64>
    %j = google.iota like(%x : tensor<?x8xf32>) {dimension = 0 : i64} : tensor<?x8xi64>
    ```
  }];
  let arguments = (ins Optional<Google_AnyTensor>:$like, I64Attr:$dimension);
  let results = (outs Google_Tensor:$result);
  let assemblyFormat =
      "(`like` `(` $like^ `:` type($like) `)`)? attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def Google_GatherOp : Google_Op<"gather",
    [AllElementTypesMatch<["input", "result"]>]> {
  let summary = "Picks slices along one axis by index (numpy.take)";
  let description = [{
    `numpy.take(input, indices, axis)`: the result's shape is
    `input.shape[:axis] + indices.shape + input.shape[axis+1:]`. Indices
    are i32 or i64 in `[-n, n)` for an axis of extent n (negative ones
    count from the end); any other index is a run-time error of the call,
    never a read outside the input.

    ```mlir
    %e = google.gather %table, %ids {axis = 0 : i64} : tensor<1000x64xf32>, tensor<8x16xi64> -> tensor<8x16x64xf32>
    ```
  }];
  let arguments = (ins Google_AnyTensor:$input,
                       RankedTensorOf<[I32, I64]>:$indices, I64Attr:$axis);
  let results = (outs Google_AnyTensor:$result);
  let assemblyFormat = [{
    $input `,` $indices attr-dict `:` type($input) `,` type($indices) `->`
    type($result)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// `axis` made non-negative (valid after verification).
    int64_t getNormalizedAxis();
  }];
}

def Google_ScatterAddOp : Google_Op<"scatter_add",
    [AllTypesMatch<["base", "result"]>,
     AllElementTypesMatch<["base", "updates"]>]> {
  let summary = "Adds slices into `base` at indices along one axis";
  let description = [{
    The reverse of `google.gather` (its adjoint): `updates` has the shape
    `base.shape[:axis] + indices.shape + base.shape[axis+1:]`, and
    `result[..., indices[k], ...] += updates[..., k, ...]` for every index
    position k in row-major order, starting from `base` (JAX's
    `base.at[...].add(updates)`). Repeated indices accumulate; f16 and bf16
    accumulate in f32 and round once. Indices are i32 or i64 in `[-n, n)`
    (negative ones count from the end); any other index is a run-time error
    of the call.

    ```mlir
    %g = google.scatter_add %zeros, %ids, %rows {axis = 0 : i64} : tensor<1000x64xf32>, tensor<8x16xi64>, tensor<8x16x64xf32> -> tensor<1000x64xf32>
    ```
  }];
  let arguments = (ins Google_Tensor:$base,
                       RankedTensorOf<[I32, I64]>:$indices,
                       Google_Tensor:$updates, I64Attr:$axis);
  let results = (outs Google_Tensor:$result);
  let assemblyFormat = [{
    $base `,` $indices `,` $updates attr-dict `:` type($base) `,`
    type($indices) `,` type($updates) `->` type($result)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// `axis` made non-negative (valid after verification).
    int64_t getNormalizedAxis();
  }];
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

class Google_ReduceOp<string mnemonic, TypeConstraint tensorType,
                      string numpyName>
    : Google_Op<mnemonic, [AllElementTypesMatch<["input", "result"]>]> {
  let summary = "Reduces `axes` with numpy." # numpyName;
  let description = [{
    Computes `numpy.}] # numpyName # [{(x, axis=axes, keepdims=keep_dims)`.
    `axes` is non-empty, unique, each in `[-rank, rank)` (negative counts
    from the end). Without `keep_dims` the reduced dimensions are dropped
    (reducing every axis gives a rank-0 tensor); with it they become 1.

    ```mlir
    %k = google.}] # mnemonic # [{ %x {axes = array<i64: 1>, keep_dims = false} : tensor<4x8xf32> -> tensor<4xf32>
    ```
  }];
  let arguments = (ins tensorType:$input, DenseI64ArrayAttr:$axes,
                       BoolAttr:$keep_dims);
  let results = (outs tensorType:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// `axes` made non-negative and sorted (valid after verification).
    ::llvm::SmallVector<int64_t> getNormalizedAxes();
  }];
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::verify() { return verifyReduceOp(*this); }
    ::llvm::SmallVector<int64_t> $cppClass::getNormalizedAxes() {
      return normalizedAxesOf(*this);
    }
  }];
}

def Google_ReduceSumOp : Google_ReduceOp<"reduce_sum", Google_Tensor, "sum">;
def Google_ReduceMaxOp : Google_ReduceOp<"reduce_max", Google_Tensor, "max">;
def Google_ReduceMinOp : Google_ReduceOp<"reduce_min", Google_Tensor, "min">;
def Google_ReduceProdOp
    : Google_ReduceOp<"reduce_prod", Google_Tensor, "prod">;
def Google_ReduceMeanOp
    : Google_ReduceOp<"reduce_mean", Google_FloatTensor, "mean">;

class Google_ArgReduceOp<string mnemonic, string numpyName>
    : Google_Op<mnemonic> {
  let summary = "The index of the " # numpyName # " along one axis";
  let description = [{
    `numpy.arg}] # numpyName # [{(x, axis, keepdims=keep_dims)` as int64: the
    first index where the extreme value occurs (a NaN counts as the
    extreme, as in NumPy). `axis` is in `[-rank, rank)`; its extent must
    not be 0 (a run-time error when it is dynamic).

    ```mlir
    %i = google.}] # mnemonic # [{ %x {axis = 1 : i64, keep_dims = false} : tensor<4x8xf32> -> tensor<4xi64>
    ```
  }];
  let arguments = (ins Google_AnyTensor:$input, I64Attr:$axis,
                       BoolAttr:$keep_dims);
  let results = (outs RankedTensorOf<[I64]>:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// `axis` made non-negative (valid after verification).
    int64_t getNormalizedAxis();
  }];
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::verify() {
      return verifyArgReduceOp(*this);
    }
    int64_t $cppClass::getNormalizedAxis() {
      // (I64Attr's getter is unsigned.)
      auto axis = static_cast<int64_t>(getAxis());
      return axis < 0 ? axis + getInput().getType().getRank() : axis;
    }
  }];
}

def Google_ArgmaxOp : Google_ArgReduceOp<"argmax", "max">;
def Google_ArgminOp : Google_ArgReduceOp<"argmin", "min">;

//===----------------------------------------------------------------------===//
// Softmax and cast
//===----------------------------------------------------------------------===//

def Google_SoftmaxOp : Google_Op<"softmax", [SameOperandsAndResultType]> {
  let summary = "Softmax along one axis, numerically stable";
  let description = [{
    `exp(x - max(x)) / sum(exp(x - max(x)))` along `axis`, which is in
    `[-rank, rank)`.

    ```mlir
    %p = google.softmax %x {axis = 1 : i64} : tensor<4x8xf32>
    ```
  }];
  let arguments = (ins Google_FloatTensor:$input, I64Attr:$axis);
  let results = (outs Google_FloatTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($result)";
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// `axis` made non-negative (valid after verification).
    int64_t getNormalizedAxis();
  }];
}

def Google_CastOp : Google_Op<"cast", [Google_Elementwise]> {
  let summary = "Converts the element type";
  let description = [{
    Converts every element to the result element type, as
    `numpy.astype`: floats round to nearest even, float to integer
    truncates toward zero, integers sign-extend or wrap; to `i1`, anything
    but zero (NaN included) is true; from `i1`, true is 1. Shapes must
    match.

    ```mlir
    %h = google.cast %x : tensor<4x8xf32> -> tensor<4x8xf16>
    ```
  }];
  let arguments = (ins Google_AnyTensor:$input);
  let results = (outs Google_AnyTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
  let extraClassDeclaration = [{
    template <typename A, typename V = typename A::Value>
    V computeScalar(A &a, ::llvm::ArrayRef<V> args) {
      return a.convert(args[0], getResult().getType().getElementType());
    }
  }];
}

//===----------------------------------------------------------------------===//
// Structured control flow
//===----------------------------------------------------------------------===//

// Ops with regions: not Pure (a loop may not end), their effects are those
// of the ops inside; not in the Python op table (the front end prints
// them itself).
class Google_RegionOp<string mnemonic, list<Trait> traits = []>
    : Op<Google_Dialect, mnemonic,
         !listconcat([RecursiveMemoryEffects], traits)>;

def Google_IfOp : Google_RegionOp<"if", [NoRegionArguments]> {
  let summary = "Runs one of two regions (jax.lax.cond)";
  let description = [{
    Runs `then_region` when the rank-0 boolean `condition` is true, else
    `else_region`; each ends with `google.yield` of values of the result
    types. The regions may use values defined above.

    ```mlir
    %r = google.if %p : tensor<i1> -> (tensor<4xf32>) {
      %e = google.exp %x : tensor<4xf32>
      google.yield %e : tensor<4xf32>
    } else {
      google.yield %x : tensor<4xf32>
    }
    ```
  }];
  let arguments = (ins 0DTensorOf<[I1]>:$condition);
  let results = (outs Variadic<Google_AnyTensor>:$results);
  let regions = (region SizedRegion<1>:$then_region,
                        SizedRegion<1>:$else_region);
  let assemblyFormat = [{
    $condition attr-dict `:` type($condition) (`->` `(` type($results)^ `)`)?
    $then_region `else` $else_region
  }];
  let hasVerifier = 1;
}

def Google_WhileOp : Google_RegionOp<"while"> {
  let summary = "Repeats a region while a condition holds (jax.lax.while_loop)";
  let description = [{
    The loop state starts as `init`. While `cond` (whose block takes the
    state and ends with `google.condition` of a rank-0 boolean) is true,
    `body` (whose block takes the state and ends with `google.yield` of the
    next state) runs. The results are the final state. The regions may use
    values defined above.

    `trip_count`, when the front end knows it (fori_loop with static
    bounds, scan), is how many times the body runs: reverse-mode
    differentiation sizes its record of the states with it (a loop that
    runs longer is then an error of the gradient program). Without it the
    loop is not differentiable, as in JAX.

    ```mlir
    %r:2 = google.while %i0, %x0 : (tensor<i64>, tensor<4xf32>) -> (tensor<i64>, tensor<4xf32>) cond {
    ^bb0(%i: tensor<i64>, %x: tensor<4xf32>):
      %p = google.lt %i, %n : tensor<i64>, tensor<i64> -> tensor<i1>
      google.condition %p : tensor<i1>
    } do {
    ^bb0(%i: tensor<i64>, %x: tensor<4xf32>):
      ...
      google.yield %i1, %x1 : tensor<i64>, tensor<4xf32>
    }
    ```
  }];
  let arguments = (ins Variadic<Google_AnyTensor>:$init,
                       OptionalAttr<ConfinedAttr<I64Attr, [IntNonNegative]>>:$trip_count);
  let results = (outs Variadic<Google_AnyTensor>:$results);
  let regions = (region SizedRegion<1>:$cond, SizedRegion<1>:$body);
  let assemblyFormat = [{
    $init attr-dict `:` functional-type($init, $results) `cond` $cond `do`
    $body
  }];
  let extraClassDeclaration = [{
    /// The constant by which the body steps state value `index`, an integer
    /// scalar other than i1 (its next value is `value + step`, `step + value` or
    /// `value - step`): after j iterations it is init + j * step, wrapping
    /// around as the additions do.
    std::optional<::llvm::APInt> getStateStep(unsigned index);
  }];
  let hasVerifier = 1;
}

def Google_YieldOp : Op<Google_Dialect, "yield",
    [Pure, Terminator, ParentOneOf<["IfOp", "WhileOp"]>]> {
  let summary = "Ends a region of google.if or google.while's body";
  let arguments = (ins Variadic<Google_AnyTensor>:$values);
  let assemblyFormat = "attr-dict ($values^ `:` type($values))?";
}

def Google_ConditionOp : Op<Google_Dialect, "condition",
    [Pure, Terminator, HasParent<"WhileOp">]> {
  let summary = "Ends google.while's cond region: whether to run the body";
  let arguments = (ins 0DTensorOf<[I1]>:$condition);
  let assemblyFormat = "$condition attr-dict `:` type($condition)";
}

#endif // GOOGLE_DIALECT_GOOGLEOPS_TD
