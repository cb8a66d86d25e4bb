//===- GoogleBase.td - google dialect definition and types -*- tablegen -*-===//
//
// The dialect, its op base class and the tensor type constraints shared by
// every op.
//
//===----------------------------------------------------------------------===//

#ifndef GOOGLE_DIALECT_GOOGLEBASE_TD
#define GOOGLE_DIALECT_GOOGLEBASE_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/CommonTypeConstraints.td"
include "mlir/IR/CommonAttrConstraints.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def Google_Dialect : Dialect {
  let name = "google";
  let cppNamespace = "::mlir::google";
  let summary = "A tensor dialect with value semantics for ML models";
  let description = [{
    The `google` dialect describes ML computations on ranked tensors:
    elementwise arithmetic with NumPy broadcasting, unary math, matrix
    products, a fused matmul+bias+relu, layout ops, reductions, softmax and
    element type casts. Every op is pure; dimensions may be dynamic.
  }];
  let hasConstantMaterializer = 1;
  let extraClassDeclaration = [{
    /// Attribute recording a public function's tensor signature (a
    /// FunctionType); it survives the lowering to the LLVM dialect.
    static constexpr ::llvm::StringLiteral kSignatureAttrName =
        "google.signature";
    /// The name a renamed public function is called by (its symbol would
    /// capture calls to a C library function of the same name).
    static constexpr ::llvm::StringLiteral kExportNameAttrName =
        "google.export_name";
    /// Weak C-library stand-ins for runtime hooks; dropped when an object
    /// is built for libgoogle_runtime.
    static constexpr ::llvm::StringLiteral kRuntimeFallbackAttrName =
        "google.runtime_fallback";
    /// Unit attribute on functions whose results are out-parameters.
    static constexpr ::llvm::StringLiteral kResultsOutAttrName =
        "google.results_out";
    /// Unit attribute on a cf.assert after which the code stays memory-safe
    /// when it fails (it clamps what the check guards): the check may be
    /// made later (--google-defer-checks).
    static constexpr ::llvm::StringLiteral kDeferrableCheckAttrName =
        "google.deferrable_check";
  }];
}

class Google_Op<string mnemonic, list<Trait> traits = []>
    : Op<Google_Dialect, mnemonic, !listconcat([Pure], traits)> {
  // The Python front end (python/google_mlir/_op_table.py is generated from
  // these records by python/gen_op_table.py): the gm.<pythonName> function
  // ("" for none), the numpy ufunc np.<ufunc> that records this op on
  // traced arrays ("" for none), and the numpy expression of `x` (and `y`)
  // that computes it outside a trace ("" for none).
  string pythonName = "";
  string ufunc = "";
  string numpyEager = "";
}

// Computed element by element with NumPy broadcasting; see GoogleTraits.h.
def Google_Elementwise : NativeOpTrait<"Elementwise"> {
  let cppNamespace = "::mlir::OpTrait::google";
}

//===----------------------------------------------------------------------===//
// Type constraints
//===----------------------------------------------------------------------===//

def Google_FloatElement : AnyTypeOf<[F16, BF16, F32, F64],
    "floating-point type (f16, bf16, f32, f64)">;
def Google_Element : AnyTypeOf<[F16, BF16, F32, F64, I32, I64],
    "f16, bf16, f32, f64, i32 or i64">;

def Google_Tensor : RankedTensorOf<[Google_Element]>;
// Booleans (NumPy's bool): comparisons give them, select and the logical
// ops take them, and the layout ops, constants and casts move them.
def Google_BoolElement : AnyTypeOf<[I1], "i1 (bool)">;
def Google_AnyElement : AnyTypeOf<[F16, BF16, F32, F64, I32, I64, I1],
    "f16, bf16, f32, f64, i32, i64 or i1">;
def Google_BoolTensor : RankedTensorOf<[Google_BoolElement]>;
def Google_AnyTensor : RankedTensorOf<[Google_AnyElement]>;
def Google_FloatTensor : RankedTensorOf<[Google_FloatElement]>;

#endif // GOOGLE_DIALECT_GOOGLEBASE_TD
