//===- Passes.h - conversion passes -----------------------------*- C++ -*-===//

#ifndef GOOGLE_CONVERSION_PASSES_H
#define GOOGLE_CONVERSION_PASSES_H

#include "Conversion/GoogleToLinalg/GoogleToLinalg.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Pass/Pass.h"

namespace mlir::google {

#define GEN_PASS_DECL
#include "Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "Conversion/Passes.h.inc"

} // namespace mlir::google

#endif // GOOGLE_CONVERSION_PASSES_H
