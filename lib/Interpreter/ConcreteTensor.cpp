//===- ConcreteTensor.cpp - tensors of known shape and values -------------===//

#include "Interpreter/ConcreteTensor.h"

#include "llvm/ADT/APFloat.h"

using namespace mlir;
using namespace mlir::google;

ConcreteTensor::ConcreteTensor(Type elementType, ArrayRef<int64_t> shape,
                               bool splat)
    : elementType(elementType), shape(shape), splat(splat) {
  data.resize(splat ? 1 : getNumElements());
}

int64_t ConcreteTensor::getNumElements() const {
  int64_t count = 1;
  for (int64_t dim : shape)
    count *= dim;
  return count;
}

void ConcreteTensor::materialize() {
  if (!splat)
    return;
  data.assign(getNumElements(), data[0]);
  splat = false;
}

static double toDouble(llvm::APFloat value) {
  bool losesInfo;
  value.convert(llvm::APFloat::IEEEdouble(),
                llvm::APFloat::rmNearestTiesToEven, &losesInfo);
  return value.convertToDouble();
}

/// Signed integers; booleans are 0 or 1.
static int64_t toInt(const llvm::APInt &value) {
  return value.getBitWidth() == 1 ? value.getZExtValue()
                                  : value.getSExtValue();
}

ConcreteTensor ConcreteTensor::fromAttr(DenseElementsAttr attr) {
  auto type = cast<RankedTensorType>(attr.getType());
  Type elementType = type.getElementType();
  ConcreteTensor t(elementType, type.getShape(), attr.isSplat());
  bool isFloat = isa<FloatType>(elementType);
  if (attr.isSplat()) {
    if (isFloat)
      t.data[0].f = toDouble(attr.getSplatValue<llvm::APFloat>());
    else
      t.data[0].i = toInt(attr.getSplatValue<llvm::APInt>());
    return t;
  }
  int64_t n = 0;
  if (elementType.isF32()) {
    for (float v : attr.getValues<float>())
      t.data[n++].f = v;
  } else if (elementType.isF64()) {
    for (double v : attr.getValues<double>())
      t.data[n++].f = v;
  } else if (isFloat) {
    for (const llvm::APFloat &v : attr.getValues<llvm::APFloat>())
      t.data[n++].f = toDouble(v);
  } else {
    for (const llvm::APInt &v : attr.getValues<llvm::APInt>())
      t.data[n++].i = toInt(v);
  }
  return t;
}

DenseElementsAttr ConcreteTensor::toAttr() const {
  RankedTensorType type = getType();
  if (splat) {
    if (elementType.isInteger(1))
      return DenseElementsAttr::get(type, data[0].i != 0);
    if (!isFloat())
      return DenseElementsAttr::get(
          type, llvm::APInt(elementType.getIntOrFloatBitWidth(), data[0].i,
                            /*isSigned=*/true));
    llvm::APFloat value(data[0].f);
    bool losesInfo;
    value.convert(cast<FloatType>(elementType).getFloatSemantics(),
                  llvm::APFloat::rmNearestTiesToEven, &losesInfo);
    return DenseElementsAttr::get(type, value);
  }
  if (elementType.isInteger(1)) {
    SmallVector<bool> values;
    values.reserve(data.size());
    for (const Scalar &s : data)
      values.push_back(s.i != 0);
    return DenseElementsAttr::get(type, ArrayRef<bool>(values));
  }
  if (!isFloat()) {
    if (elementType.getIntOrFloatBitWidth() == 32) {
      std::vector<int32_t> values;
      values.reserve(data.size());
      for (const Scalar &s : data)
        values.push_back(static_cast<int32_t>(s.i));
      return DenseElementsAttr::get(type, ArrayRef<int32_t>(values));
    }
    std::vector<int64_t> values;
    values.reserve(data.size());
    for (const Scalar &s : data)
      values.push_back(s.i);
    return DenseElementsAttr::get(type, ArrayRef<int64_t>(values));
  }
  if (elementType.isF32()) {
    std::vector<float> values;
    values.reserve(data.size());
    for (const Scalar &s : data)
      values.push_back(static_cast<float>(s.f));
    return DenseElementsAttr::get(type, ArrayRef<float>(values));
  }
  if (elementType.isF64()) {
    std::vector<double> values;
    values.reserve(data.size());
    for (const Scalar &s : data)
      values.push_back(s.f);
    return DenseElementsAttr::get(type, ArrayRef<double>(values));
  }
  SmallVector<llvm::APFloat> values;
  values.reserve(data.size());
  for (const Scalar &s : data) {
    llvm::APFloat value(s.f);
    bool losesInfo;
    value.convert(cast<FloatType>(elementType).getFloatSemantics(),
                  llvm::APFloat::rmNearestTiesToEven, &losesInfo);
    values.push_back(value);
  }
  return DenseElementsAttr::get(type, values);
}
