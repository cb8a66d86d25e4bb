//===- GoogleOps.h - google dialect operations ------------------*- C++ -*-===//

#ifndef GOOGLE_DIALECT_GOOGLE_IR_GOOGLEOPS_H
#define GOOGLE_DIALECT_GOOGLE_IR_GOOGLEOPS_H

#include "Dialect/Google/IR/GoogleDialect.h"
#include "Dialect/Google/IR/GoogleTraits.h"
#include "Dialect/Google/IR/ScalarMath.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::google {
/// A comparison of a value with itself as a constant where its answer does
/// not depend on the value: x < x and x > x are false, NaN included;
/// integers also compare equal to themselves. Null otherwise (a float
/// equals itself unless it is NaN; a dynamic shape has no constant).
OpFoldResult foldSelfComparison(Value lhs, Value rhs, Type resultType,
                                semantics::Comparison comparison);
} // namespace mlir::google

#define GET_OP_CLASSES
#include "Dialect/Google/IR/GoogleOps.h.inc"

#endif // GOOGLE_DIALECT_GOOGLE_IR_GOOGLEOPS_H
