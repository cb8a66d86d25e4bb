//===- Passes.h - code generation passes shared by targets ------*- C++ -*-===//
//
// Passes on linalg, memref, scf, OpenMP and the LLVM dialect, after the
// lowering of the google dialect: what every target needs
// (lib/Codegen/Common) and the CPU schedules (lib/Codegen/CPU). GPU
// passes: Codegen/GPU/Passes.h.
//
//===----------------------------------------------------------------------===//

#ifndef GOOGLE_CODEGEN_PASSES_H
#define GOOGLE_CODEGEN_PASSES_H

#include "mlir/Pass/Pass.h"

namespace mlir {
class OpBuilder;
namespace func {
class FuncDialect;
} // namespace func
namespace memref {
class MemRefDialect;
} // namespace memref
namespace LLVM {
class LLVMDialect;
} // namespace LLVM
namespace omp {
class OpenMPDialect;
} // namespace omp
namespace bufferization {
class BufferizationDialect;
} // namespace bufferization
namespace cf {
class ControlFlowDialect;
} // namespace cf
namespace arith {
class ArithDialect;
} // namespace arith
namespace affine {
class AffineDialect;
} // namespace affine
namespace linalg {
class LinalgDialect;
} // namespace linalg
namespace scf {
class SCFDialect;
} // namespace scf
namespace tensor {
class TensorDialect;
} // namespace tensor
namespace vector {
class VectorDialect;
} // namespace vector

namespace linalg {
class LinalgOp;
} // namespace linalg

namespace google {

#define GEN_PASS_DECL
#include "Codegen/Passes.h.inc"

/// Marks an scf.for whose iterations write disjoint data and are worth
/// spreading over threads: set by --google-tile-and-vectorize, turned into
/// an OpenMP loop by --google-parallelize-loops.
inline constexpr llvm::StringLiteral kParallelLoopAttrName = "google.parallel";

/// Asserts, in front of `op`, that every operand extent indexed by a loop
/// dimension equals that loop's range (which linalg takes from the first
/// operand indexing it), for tensors and memrefs. Returns the number of
/// checks added; equal or static extents need none.
int64_t checkLinalgExtents(linalg::LinalgOp op);

/// bytes * extent (index values); clears `fits` (an i1) when the product
/// would reach 2^62 bytes, more than any buffer can have.
Value multiplyBufferBytes(OpBuilder &builder, Location loc, Value bytes,
                          Value extent, Value &fits);

/// Innermost steps (one MR x NR block, one k) below which a matmul's block
/// loop stays on the calling thread: starting the others costs about as
/// much.
inline constexpr int64_t kMinParallelSteps = 4096;

/// The elements of a linalg op left in a parallel loop's body that count
/// as one step (a vector of f32 with AVX-512).
inline constexpr int64_t kLanesPerStep = 16;

/// Whether `indices` of `buffer` and the `extents` elements after them
/// along its trailing dimensions (a vector's shape) lie inside it: an i1,
/// or null when nothing is accessed.
Value isInBounds(OpBuilder &builder, Location loc, Value buffer,
                 ValueRange indices, ArrayRef<int64_t> extents);

/// Whether the `count` elements from `indices` along `buffer`'s innermost
/// dimension (none when `count` is 0) lie inside it, and the other
/// indices inside theirs: an i1.
Value isRunInBounds(OpBuilder &builder, Location loc, Value buffer,
                    ValueRange indices, Value count);

/// "<op> at <location>: out-of-bounds access".
std::string describeOutOfBounds(Operation *op);

/// Marks a cf.assert whose failure aborts the process instead of ending
/// the call with an error (--google-lower-checks-to-runtime): a check
/// inside a parallel region cannot end the call cleanly.
inline constexpr llvm::StringLiteral kAbortOnFailureAttrName =
    "google.abort_on_failure";

/// A cf.assert before every memory access under `root` that it stays
/// inside its buffer (see CheckBoundsPass), marked with
/// kAbortOnFailureAttrName when `abortOnFailure`.
void insertBoundsChecks(OpBuilder &builder, Operation *root,
                        bool abortOnFailure);

#define GEN_PASS_REGISTRATION
#include "Codegen/Passes.h.inc"

} // namespace google
} // namespace mlir

#endif // GOOGLE_CODEGEN_PASSES_H
