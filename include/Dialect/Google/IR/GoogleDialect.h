//===- GoogleDialect.h - google dialect declaration -------------*- C++ -*-===//

#ifndef GOOGLE_DIALECT_GOOGLE_IR_GOOGLEDIALECT_H
#define GOOGLE_DIALECT_GOOGLE_IR_GOOGLEDIALECT_H

#include "mlir/IR/Dialect.h"

#include "Dialect/Google/IR/GoogleDialect.h.inc"

#endif // GOOGLE_DIALECT_GOOGLE_IR_GOOGLEDIALECT_H
