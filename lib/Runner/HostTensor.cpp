//===- HostTensor.cpp - host tensors: values, text forms, comparison ------===//

#include "Runner/HostTensor.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

using namespace mlir;
using namespace mlir::google;

HostTensor::HostTensor(google_rt_dtype dtype, ArrayRef<int64_t> shape)
    : type(dtype), dims(shape.begin(), shape.end()) {
  // calloc fails cleanly on sizes the machine cannot provide.
  storage.reset(static_cast<char *>(std::calloc(numBytes() + 1, 1)));
}

HostTensor::HostTensor(const HostTensor &other)
    : HostTensor(other.type, other.dims) {
  if (storage)
    std::memcpy(data(), other.data(), numBytes());
}

HostTensor &HostTensor::operator=(const HostTensor &other) {
  if (this != &other)
    *this = HostTensor(other);
  return *this;
}

int64_t HostTensor::numElements() const {
  int64_t count = 1;
  for (int64_t dim : dims)
    count *= dim;
  return count;
}

static const llvm::fltSemantics &halfSemantics(google_rt_dtype dtype) {
  return dtype == GOOGLE_RT_F16 ? llvm::APFloat::IEEEhalf()
                                : llvm::APFloat::BFloat();
}

double HostTensor::getDouble(int64_t i) const {
  const char *p = data() + i * google_rt_dtype_size(type);
  switch (type) {
  case GOOGLE_RT_F32: {
    float v;
    std::memcpy(&v, p, 4);
    return v;
  }
  case GOOGLE_RT_F64: {
    double v;
    std::memcpy(&v, p, 8);
    return v;
  }
  case GOOGLE_RT_F16:
  case GOOGLE_RT_BF16: {
    uint16_t bits;
    std::memcpy(&bits, p, 2);
    llvm::APFloat value(halfSemantics(type), llvm::APInt(16, bits));
    bool losesInfo;
    value.convert(llvm::APFloat::IEEEdouble(),
                  llvm::APFloat::rmNearestTiesToEven, &losesInfo);
    return value.convertToDouble();
  }
  case GOOGLE_RT_I32: {
    int32_t v;
    std::memcpy(&v, p, 4);
    return v;
  }
  case GOOGLE_RT_I64: {
    int64_t v;
    std::memcpy(&v, p, 8);
    return static_cast<double>(v);
  }
  case GOOGLE_RT_I1:
  case GOOGLE_RT_I8:
    return static_cast<int8_t>(*p);
  }
  return 0;
}

void HostTensor::setDouble(int64_t i, double value) {
  char *p = data() + i * google_rt_dtype_size(type);
  switch (type) {
  case GOOGLE_RT_F32: {
    float v = static_cast<float>(value);
    std::memcpy(p, &v, 4);
    return;
  }
  case GOOGLE_RT_F64:
    std::memcpy(p, &value, 8);
    return;
  case GOOGLE_RT_F16:
  case GOOGLE_RT_BF16: {
    llvm::APFloat v(value);
    bool losesInfo;
    v.convert(halfSemantics(type), llvm::APFloat::rmNearestTiesToEven,
              &losesInfo);
    uint16_t bits = static_cast<uint16_t>(v.bitcastToAPInt().getZExtValue());
    std::memcpy(p, &bits, 2);
    return;
  }
  case GOOGLE_RT_I32: {
    int32_t v = static_cast<int32_t>(value);
    std::memcpy(p, &v, 4);
    return;
  }
  case GOOGLE_RT_I64: {
    int64_t v = static_cast<int64_t>(value);
    std::memcpy(p, &v, 8);
    return;
  }
  case GOOGLE_RT_I1:
    *p = value != 0;
    return;
  case GOOGLE_RT_I8:
    *p = static_cast<int8_t>(value);
    return;
  }
}

google_rt_tensor HostTensor::view() {
  google_rt_tensor tensor;
  google_rt_tensor_view(type, static_cast<int32_t>(dims.size()), dims.data(),
                        data(), &tensor);
  return tensor;
}

HostTensor HostTensor::copyOf(const google_rt_tensor &tensor) {
  HostTensor copy(tensor.dtype, ArrayRef<int64_t>(tensor.shape, tensor.rank));
  int64_t count = copy.numElements();
  size_t size = google_rt_dtype_size(tensor.dtype);
  SmallVector<int64_t> index(tensor.rank, 0);
  for (int64_t n = 0; n < count; ++n) {
    int64_t offset = 0;
    for (int32_t d = 0; d < tensor.rank; ++d)
      offset += index[d] * tensor.strides[d];
    std::memcpy(copy.data() + n * size,
                static_cast<const char *>(tensor.data) + offset * size, size);
    for (int32_t d = tensor.rank - 1; d >= 0; --d) {
      if (++index[d] < tensor.shape[d])
        break;
      index[d] = 0;
    }
  }
  return copy;
}

static bool isInteger(google_rt_dtype dtype) {
  return dtype == GOOGLE_RT_I32 || dtype == GOOGLE_RT_I64 ||
         dtype == GOOGLE_RT_I1 || dtype == GOOGLE_RT_I8;
}

int64_t HostTensor::getInt(int64_t i) const {
  if (type == GOOGLE_RT_I64) {
    int64_t v;
    std::memcpy(&v, data() + i * 8, 8);
    return v;
  }
  return static_cast<int64_t>(getDouble(i));
}

void HostTensor::setInt(int64_t i, int64_t value) {
  if (type == GOOGLE_RT_I64) {
    std::memcpy(data() + i * 8, &value, 8);
    return;
  }
  if (type == GOOGLE_RT_I32) {
    // Wraps, as numpy's astype does.
    int32_t v = static_cast<int32_t>(static_cast<uint32_t>(value));
    std::memcpy(data() + i * 4, &v, 4);
    return;
  }
  setDouble(i, static_cast<double>(value));
}

HostTensor HostTensor::convertTo(google_rt_dtype dtype) const {
  if (dtype == type)
    return *this;
  HostTensor result(dtype, dims);
  bool integers = isInteger(type) && isInteger(dtype);
  for (int64_t i = 0, e = numElements(); i < e; ++i) {
    if (integers)
      result.setInt(i, getInt(i));
    else
      result.setDouble(i, getDouble(i));
  }
  return result;
}

bool google::parseDType(StringRef name, google_rt_dtype &dtype) {
  for (int i = 0; i <= GOOGLE_RT_I8; ++i) {
    if (name == google_rt_dtype_name(static_cast<google_rt_dtype>(i))) {
      dtype = static_cast<google_rt_dtype>(i);
      return true;
    }
  }
  return false;
}

std::string google::formatTensorType(ArrayRef<int64_t> shape,
                                     google_rt_dtype dtype) {
  std::string text = "tensor<";
  for (int64_t dim : shape)
    text += (dim < 0 ? std::string("?") : std::to_string(dim)) + "x";
  return text + google_rt_dtype_name(dtype) + ">";
}

//===----------------------------------------------------------------------===//
// Inline specs: `2x3xf32=1 2 3 4 5 6`
//===----------------------------------------------------------------------===//

static bool parseNumber(StringRef text, double &value) {
  if (text == "true" || text == "True") {
    value = 1;
    return true;
  }
  if (text == "false" || text == "False") {
    value = 0;
    return true;
  }
  std::string copy = text.str();
  char *end = nullptr;
  value = std::strtod(copy.c_str(), &end);
  return end && *end == '\0' && !copy.empty();
}

LogicalResult google::parseTensorSpec(StringRef spec, HostTensor &tensor,
                                      std::string &error) {
  spec = spec.trim();
  if (spec.consume_front("@"))
    return readNpy(spec, tensor, error);
  auto [typeText, valuesText] = spec.split('=');
  bool hasValues = spec.contains('=');
  // `2x3xf32`: the last component is the element type.
  SmallVector<StringRef> parts;
  typeText.trim().split(parts, 'x');
  google_rt_dtype dtype;
  if (parts.empty() || !parseDType(parts.back(), dtype)) {
    error = "cannot parse '" + spec.str() +
            "': expected SHAPExTYPE=VALUES (e.g. 2x3xf32=1 2 3 4 5 6) or "
            "@file.npy";
    return failure();
  }
  SmallVector<int64_t> shape;
  for (StringRef dim : ArrayRef<StringRef>(parts).drop_back()) {
    int64_t value;
    if (dim.getAsInteger(10, value) || value < 0 || value > (1LL << 40)) {
      error = "cannot parse '" + spec.str() + "': bad dimension '" +
              dim.str() + "'";
      return failure();
    }
    shape.push_back(value);
  }
  // Refuse shapes whose element count overflows or is absurdly large.
  int64_t count = 1;
  for (int64_t dim : shape) {
    if (dim && count > (1LL << 40) / dim) {
      error = "cannot parse '" + spec.str() + "': tensor too large";
      return failure();
    }
    count *= dim;
  }
  SmallVector<double> values;
  for (StringRef token : llvm::split(valuesText, ' ')) {
    SmallVector<StringRef> pieces;
    token.split(pieces, ',', -1, /*KeepEmpty=*/false);
    for (StringRef piece : pieces) {
      piece = piece.trim(" []\t\n");
      if (piece.empty())
        continue;
      double value;
      if (!parseNumber(piece, value)) {
        error = "cannot parse '" + spec.str() + "': bad value '" +
                piece.str() + "'";
        return failure();
      }
      values.push_back(value);
    }
  }
  if (hasValues && values.size() != 1 &&
      static_cast<int64_t>(values.size()) != count) {
    error = "'" + spec.str() + "' has " + std::to_string(values.size()) +
            " values; " + formatTensorType(shape, dtype) + " needs " +
            std::to_string(count) + " (or one to fill it)";
    return failure();
  }
  tensor = HostTensor(dtype, shape);
  if (!tensor.isAllocated()) {
    error = "cannot allocate " + formatTensorType(shape, dtype);
    return failure();
  }
  for (int64_t i = 0; i < count && !values.empty(); ++i)
    tensor.setDouble(i, values.size() == 1 ? values[0] : values[i]);
  return success();
}

//===----------------------------------------------------------------------===//
// Printing
//===----------------------------------------------------------------------===//

/// The shortest decimal text that reads back to the same element value.
static std::string formatElement(const HostTensor &tensor, int64_t i) {
  google_rt_dtype dtype = tensor.dtype();
  double value = tensor.getDouble(i);
  if (isInteger(dtype))
    return std::to_string(tensor.getInt(i));
  if (std::isnan(value))
    return "nan";
  if (std::isinf(value))
    return value > 0 ? "inf" : "-inf";
  HostTensor probe(dtype, {1});
  char buffer[64];
  for (int precision = 1; precision <= 17; ++precision) {
    std::snprintf(buffer, sizeof(buffer), "%.*g", precision, value);
    probe.setDouble(0, std::strtod(buffer, nullptr));
    if (probe.getDouble(0) == value)
      break;
  }
  return buffer;
}

std::string google::formatTensor(const HostTensor &input) {
  // bf16 values are shown as the f32 values they are.
  if (input.dtype() == GOOGLE_RT_BF16)
    return formatTensor(input.convertTo(GOOGLE_RT_F32));
  const HostTensor &tensor = input;
  std::string text;
  llvm::raw_string_ostream os(text);
  for (int64_t dim : tensor.shape())
    os << dim << "x";
  os << google_rt_dtype_name(tensor.dtype()) << "=";
  ArrayRef<int64_t> shape = tensor.shape();
  int64_t count = tensor.numElements();
  if (count == 0)
    return text;
  if (shape.empty())
    return text + formatElement(tensor, 0);
  // Rows of the last dimension in brackets, one bracket level per outer dim
  // except the outermost: [[1 2][3 4]][[5 6][7 8]].
  int64_t rank = shape.size();
  SmallVector<int64_t> index(rank, 0);
  for (int64_t n = 0; n < count; ++n) {
    int64_t opening = 0;
    for (int64_t d = rank - 1; d >= 1 && index[d] == 0; --d)
      ++opening;
    os << std::string(opening, '[');
    if (index[rank - 1] != 0)
      os << " ";
    os << formatElement(tensor, n);
    int64_t closing = 0;
    for (int64_t d = rank - 1; d >= 0; --d) {
      if (++index[d] < shape[d])
        break;
      index[d] = 0;
      if (d >= 1)
        ++closing;
    }
    os << std::string(closing, ']');
  }
  return text;
}

//===----------------------------------------------------------------------===//
// Comparison
//===----------------------------------------------------------------------===//

LogicalResult google::compareTensors(const HostTensor &actual,
                                     const HostTensor &expected,
                                     std::string &error) {
  if (actual.shape() != expected.shape()) {
    error = "expected " + formatTensorType(expected.shape(), expected.dtype()) +
            ", got " + formatTensorType(actual.shape(), actual.dtype());
    return failure();
  }
  double atol = 0, rtol = 0;
  switch (actual.dtype()) {
  case GOOGLE_RT_F32:
    atol = 1e-4;
    rtol = 1e-5;
    break;
  case GOOGLE_RT_F16:
    atol = 1e-2;
    rtol = 1e-3;
    break;
  case GOOGLE_RT_BF16:
    atol = 1e-2;
    rtol = 1e-2;
    break;
  case GOOGLE_RT_F64:
    atol = 1e-10;
    rtol = 1e-9;
    break;
  default:
    break;
  }
  bool isFloat = actual.dtype() == GOOGLE_RT_F32 ||
                 actual.dtype() == GOOGLE_RT_F16 ||
                 actual.dtype() == GOOGLE_RT_BF16 ||
                 actual.dtype() == GOOGLE_RT_F64;
  if (!isFloat && actual.dtype() != expected.dtype() &&
      !(expected.dtype() == GOOGLE_RT_I64 || expected.dtype() == GOOGLE_RT_I32)) {
    error = "expected " + formatTensorType(expected.shape(), expected.dtype()) +
            ", got " + formatTensorType(actual.shape(), actual.dtype());
    return failure();
  }
  for (int64_t i = 0, e = actual.numElements(); i < e; ++i) {
    double a = actual.getDouble(i), b = expected.getDouble(i);
    bool same = std::isnan(a) ? std::isnan(b)
                              : (a == b || std::fabs(a - b) <=
                                               atol + rtol * std::fabs(b));
    if (same)
      continue;
    std::string where = "[";
    int64_t rest = i;
    SmallVector<int64_t> index(actual.shape().size());
    for (int64_t d = actual.shape().size() - 1; d >= 0; --d) {
      index[d] = rest % actual.shape()[d];
      rest /= actual.shape()[d];
    }
    for (auto [k, v] : llvm::enumerate(index))
      where += (k ? ", " : "") + std::to_string(v);
    where += "]";
    HostTensor one(actual.dtype(), {1}), other(expected.dtype(), {1});
    one.setDouble(0, a);
    other.setDouble(0, b);
    error = "element " + where + " is " + formatElement(one, 0) +
            ", expected " + formatElement(other, 0);
    if (isFloat) {
      char tolerance[96];
      std::snprintf(tolerance, sizeof(tolerance),
                    " (tolerance %g + %g * |expected|)", atol, rtol);
      error += tolerance;
    }
    return failure();
  }
  return success();
}
