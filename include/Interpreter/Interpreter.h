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

#include <string>

namespace mlir {
class Operation;
namespace func {
class FuncOp;
} // namespace func

namespace google {

/// The value of the google op `op` given the values of its operands. On
/// failure (extents that disagree, an op that is not a google op) `error`
/// says why, naming the op.
FailureOr<ConcreteTensor> evaluateOp(Operation *op,
                                     ArrayRef<ConcreteTensor> operands,
                                     std::string &error);

/// Checks that `function` and everything it calls is made of google ops,
/// func.call and func.return in one block each, and that no call is
/// recursive.
LogicalResult verifyInterpretable(func::FuncOp function, std::string &error);

/// Sees each google op the interpreter evaluates, with its operands' and
/// its result's values; returning false stops the interpretation (which
/// then fails with `error` empty).
using OpObserver = function_ref<bool(
    Operation *op, ArrayRef<ConcreteTensor> operands,
    const ConcreteTensor &result)>;

/// The results of calling `function` (google ops, func.call and
/// func.return) with `arguments`, which must match its signature.
FailureOr<SmallVector<ConcreteTensor>>
interpretFunction(func::FuncOp function, ArrayRef<ConcreteTensor> arguments,
                  std::string &error, OpObserver observer = {});

} // namespace google
} // namespace mlir

#endif // GOOGLE_INTERPRETER_INTERPRETER_H
