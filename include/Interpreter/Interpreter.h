//===- Interpreter.h - the reference interpreter of the google dialect -*- C++ -*-===//
//
// Evaluates google ops, and functions made of them, directly on concrete
// tensors, op by op in the element type, with the scalar semantics the
// lowering uses (Dialect/Google/IR/ScalarSemantics.h). It is the oracle
// compiled code is checked against (google-run --check, the differential
// tester) and the engine of --google-fold-constants. Dynamic extents take
// the operands' run-time extents, and extents that must agree are checked
// as compiled code checks them, with the same messages.
//
//===----------------------------------------------------------------------===//

#ifndef GOOGLE_INTERPRETER_INTERPRETER_H
#define GOOGLE_INTERPRETER_INTERPRETER_H

#include "Interpreter/ConcreteTensor.h"

#include "mlir/Support/LLVM.h"
#include "llvm/Support/Error.h"

#include <string>

namespace mlir {
class Operation;
namespace func {
class FuncOp;
} // namespace func

namespace google {

/// The value of the google op `op` given the values of its operands, or
/// an error naming the op (extents that disagree, not a google op).
llvm::Expected<ConcreteTensor> evaluateOp(Operation *op,
                                          ArrayRef<ConcreteTensor> operands);

/// Checks that `function` and everything it calls is made of google ops,
/// func.call and func.return in one block each, and that no call is
/// recursive.
llvm::Error verifyInterpretable(func::FuncOp function);

/// Sees each google op the interpreter evaluates, with its operands' and
/// its result's values; returning false stops the interpretation (which
/// then fails with an error the caller consumes).
using OpObserver = function_ref<bool(
    Operation *op, ArrayRef<ConcreteTensor> operands,
    const ConcreteTensor &result)>;

/// The results of calling `function` (google ops, func.call and
/// func.return) with `arguments`, which must match its signature.
llvm::Expected<SmallVector<ConcreteTensor>>
interpretFunction(func::FuncOp function, ArrayRef<ConcreteTensor> arguments,
                  OpObserver observer = {});

} // namespace google
} // namespace mlir

#endif // GOOGLE_INTERPRETER_INTERPRETER_H
