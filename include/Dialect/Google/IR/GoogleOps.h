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

#define GET_OP_CLASSES
#include "Dialect/Google/IR/GoogleOps.h.inc"

#endif // GOOGLE_DIALECT_GOOGLE_IR_GOOGLEOPS_H
