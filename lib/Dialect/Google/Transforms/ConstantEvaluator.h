//===- ConstantEvaluator.h - evaluate google ops on constants ---*- C++ -*-===//

#ifndef GOOGLE_LIB_DIALECT_GOOGLE_TRANSFORMS_CONSTANTEVALUATOR_H
#define GOOGLE_LIB_DIALECT_GOOGLE_TRANSFORMS_CONSTANTEVALUATOR_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Operation.h"

namespace mlir::google {

enum class EvaluationStatus {
  Evaluated,
  /// An operand or the result exceeds the element limit.
  TooLarge,
  /// The op or one of its values cannot be evaluated (dynamic result type,
  /// float-to-int cast of NaN or an out-of-range value, ...).
  Unsupported,
};

struct EvaluationResult {
  EvaluationStatus status;
  DenseElementsAttr value;
};

/// Computes the value of the google op `op` whose operands have the
/// constant values `operands`, in the op's element type. Tensors of more
/// than `maxElements` elements (splats count as one), or a matmul of more
/// than 16 * `maxElements` multiply-adds, are not evaluated.
EvaluationResult evaluateConstantOp(Operation *op,
                                    ArrayRef<DenseElementsAttr> operands,
                                    int64_t maxElements);

} // namespace mlir::google

#endif // GOOGLE_LIB_DIALECT_GOOGLE_TRANSFORMS_CONSTANTEVALUATOR_H
