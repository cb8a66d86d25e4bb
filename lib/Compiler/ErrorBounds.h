//===- ErrorBounds.h - what rounding may do to a google function -*- C++ -*-===//
//
// google-run --check compares compiled results with the value each result
// has when every op computes in f64, within a bound on the error that
// rounding to the program's types may cause, reassociated sums included
// (SPEC section 2: the bound grows with the number of summed terms). Both
// are computed by a google-dialect function built from the checked one and
// run by the reference interpreter, which handles every shape rule.
//
//===----------------------------------------------------------------------===//

#ifndef GOOGLE_LIB_RUNNER_ERRORBOUNDS_H
#define GOOGLE_LIB_RUNNER_ERRORBOUNDS_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/Support/Error.h"

#include <string>

namespace mlir::google {

/// Adds to `function`'s module a function with `function`'s arguments
/// that returns, for each float result of `function`, its value computed
/// in f64 and then a bound on |computed - that value| (f64 tensors, in
/// this order); integer results are left out. An error for a function
/// that calls others or has ops the bounds do not cover.
llvm::Expected<func::FuncOp> buildErrorBoundFunction(func::FuncOp function);

/// The unit roundoff of a float element type (2^-24 for f32).
double getUnitRoundoff(Type elementType);

} // namespace mlir::google

#endif // GOOGLE_LIB_RUNNER_ERRORBOUNDS_H
