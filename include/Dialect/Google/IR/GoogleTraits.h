//===- GoogleTraits.h - what kind of computation a google op is -*- C++ -*-===//
//
// The lowering, the constant folder, the interpreter and the Python front
// end (through the op table generated from GoogleOps.td) ask for these
// traits instead of keeping lists of ops.
//
//===----------------------------------------------------------------------===//

#ifndef GOOGLE_DIALECT_GOOGLE_IR_GOOGLETRAITS_H
#define GOOGLE_DIALECT_GOOGLE_IR_GOOGLETRAITS_H

#include "mlir/IR/OpDefinition.h"

namespace mlir::OpTrait::google {

/// Computed element by element, with NumPy broadcasting: result element `i`
/// is the op's `computeScalar` of the operands' elements at `i`. Every such
/// op defines
///   template <typename A> A::Value computeScalar(A &, ArrayRef<A::Value>)
/// over an algebra of ScalarSemantics.h.
template <typename ConcreteType>
class Elementwise
    : public TraitBase<ConcreteType, Elementwise> {};

} // namespace mlir::OpTrait::google

#endif // GOOGLE_DIALECT_GOOGLE_IR_GOOGLETRAITS_H
