//===- ConcreteTensor.h - tensors of known shape and values -----*- C++ -*-===//
//
// The values the reference interpreter and the constant folder compute on:
// a static shape, an element type of the google dialect and the elements,
// each held exactly (floats as doubles, integers as int64).
//
//===----------------------------------------------------------------------===//

#ifndef GOOGLE_INTERPRETER_CONCRETETENSOR_H
#define GOOGLE_INTERPRETER_CONCRETETENSOR_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/SmallVector.h"

#include <vector>

namespace mlir::google {

/// One element: `f` for float element types (exactly representable in
/// the type), `i` for integer ones (wrapped to the width).
struct Scalar {
  double f = 0;
  int64_t i = 0;
};

class ConcreteTensor {
public:
  ConcreteTensor() = default;
  /// Zero-filled, or one element standing for all when `splat`.
  ConcreteTensor(Type elementType, ArrayRef<int64_t> shape,
                 bool splat = false);

  /// The elements of a dense attribute (a splat stays one element).
  static ConcreteTensor fromAttr(DenseElementsAttr attr);
  /// A dense attribute of type `tensor<shape x elementType>`.
  DenseElementsAttr toAttr() const;

  Type getElementType() const { return elementType; }
  ArrayRef<int64_t> getShape() const { return shape; }
  RankedTensorType getType() const {
    return RankedTensorType::get(shape, elementType);
  }
  int64_t getNumElements() const;
  bool isFloat() const { return isa<FloatType>(elementType); }
  bool isSplat() const { return splat; }

  /// Element `n` in row-major order (any element of a splat).
  Scalar &at(int64_t n) { return data[splat ? 0 : n]; }
  const Scalar &at(int64_t n) const { return data[splat ? 0 : n]; }

  /// Expands a splat to all of its elements.
  void materialize();
  /// The same elements with another shape of as many elements.
  void reshape(ArrayRef<int64_t> newShape) {
    shape.assign(newShape.begin(), newShape.end());
  }

private:
  Type elementType;
  SmallVector<int64_t> shape;
  bool splat = false;
  std::vector<Scalar> data;
};

} // namespace mlir::google

#endif // GOOGLE_INTERPRETER_CONCRETETENSOR_H
