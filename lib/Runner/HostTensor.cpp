//===- HostTensor.cpp - host tensors: values, text forms, comparison ------===//

#include "Runner/HostTensor.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

using namespace mlir;
using namespace mlir::google;
using llvm::APFloat;

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
  // An empty tensor may have huge extents: look for a zero first.
  if (llvm::is_contained(dims, 0))
    return 0;
  int64_t count = 1;
  for (int64_t dim : dims)
    if (llvm::MulOverflow(count, dim, count))
      return INT64_MAX;
  return count;
}

static const llvm::fltSemantics &halfSemantics(google_rt_dtype dtype) {
  return dtype == GOOGLE_RT_F16 ? llvm::APFloat::IEEEhalf()
                                : llvm::APFloat::BFloat();
}

/// The format of a float element type.
static const llvm::fltSemantics &floatSemantics(google_rt_dtype dtype) {
  if (dtype == GOOGLE_RT_F64)
    return llvm::APFloat::IEEEdouble();
  if (dtype == GOOGLE_RT_F32)
    return llvm::APFloat::IEEEsingle();
  return halfSemantics(dtype);
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

/// A decimal number (optional sign, digits, fraction, exponent) rounded
/// to `semantics`; std::nullopt for anything else (hex floats, words).
static std::optional<APFloat> parseDecimal(StringRef text,
                                           const llvm::fltSemantics &semantics,
                                           APFloat::roundingMode rounding) {
  StringRef body = text;
  if (!body.consume_front("-"))
    body.consume_front("+");
  if (body.empty() || !(llvm::isDigit(body[0]) || body[0] == '.'))
    return std::nullopt;
  APFloat value(semantics);
  llvm::Expected<APFloat::opStatus> status =
      value.convertFromString(text, rounding);
  if (!status) {
    llvm::consumeError(status.takeError());
    return std::nullopt;
  }
  return value;
}

/// Parses one inline value into element `i` of `tensor`, as its element
/// type reads it: integers as integers (in range, no fraction), floats
/// rounded once to the element type.
static llvm::Error parseElement(StringRef text, HostTensor &tensor, int64_t i) {
  google_rt_dtype dtype = tensor.dtype();
  std::string typeName = google_rt_dtype_name(dtype);
  if (text == "true" || text == "True" || text == "false" || text == "False") {
    tensor.setInt(i, text[0] == 't' || text[0] == 'T');
    return llvm::Error::success();
  }
  if (isInteger(dtype)) {
    int64_t value;
    StringRef digits = text;
    if (digits.consume_front("+") && digits.starts_with("-"))
      return llvm::createStringError("bad value '" + text.str() + "'");
    if (digits.getAsInteger(10, value)) {
      bool integerLiteral =
          !digits.empty() &&
          llvm::all_of(digits.drop_front(digits[0] == '-'), llvm::isDigit);
      if (integerLiteral && digits != "-")
        return llvm::createStringError(text.str() + " is out of range for " +
                                       typeName);
      if (parseDecimal(text, APFloat::IEEEdouble(), APFloat::rmTowardZero))
        return llvm::createStringError("'" + text.str() +
                                       "' is not an integer (the tensor "
                                       "holds " +
                                       typeName + ")");
      return llvm::createStringError("bad value '" + text.str() + "'");
    }
    int64_t low = INT64_MIN, high = INT64_MAX;
    if (dtype == GOOGLE_RT_I32)
      low = INT32_MIN, high = INT32_MAX;
    else if (dtype == GOOGLE_RT_I8)
      low = INT8_MIN, high = INT8_MAX;
    else if (dtype == GOOGLE_RT_I1)
      low = 0, high = 1;
    if (value < low || value > high)
      return llvm::createStringError(text.str() + " is out of range for " +
                                     typeName);
    tensor.setInt(i, value);
    return llvm::Error::success();
  }
  const llvm::fltSemantics &semantics = floatSemantics(dtype);
  APFloat value(semantics);
  std::string lower = text.lower();
  StringRef special = lower;
  bool negative = special.consume_front("-");
  if (!negative)
    special.consume_front("+");
  if (special == "inf" || special == "infinity") {
    value = APFloat::getInf(semantics, negative);
  } else if (special == "nan") {
    value = APFloat::getNaN(semantics, negative);
  } else {
    std::optional<APFloat> parsed =
        parseDecimal(text, semantics, APFloat::rmNearestTiesToEven);
    if (!parsed)
      return llvm::createStringError("bad value '" + text.str() + "'");
    value = *parsed;
  }
  bool losesInfo;
  value.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven,
                &losesInfo);
  // Already rounded to the element type: storing it is exact.
  tensor.setDouble(i, value.convertToDouble());
  return llvm::Error::success();
}

llvm::Expected<HostTensor> google::parseTensorSpec(StringRef spec) {
  spec = spec.trim();
  if (spec.consume_front("@"))
    return readNpy(spec);
  auto [typeText, valuesText] = spec.split('=');
  bool hasValues = spec.contains('=');
  // `2x3xf32`: the last component is the element type.
  SmallVector<StringRef> parts;
  typeText.trim().split(parts, 'x');
  google_rt_dtype dtype;
  if (parts.empty() || !parseDType(parts.back(), dtype)) {
    return llvm::createStringError(
        "cannot parse '" + spec.str() +
        "': expected SHAPExTYPE=VALUES (e.g. 2x3xf32=1 2 3 4 5 6) or "
        "@file.npy");
  }
  SmallVector<int64_t> shape;
  for (StringRef dim : ArrayRef<StringRef>(parts).drop_back()) {
    int64_t value;
    if (dim.getAsInteger(10, value) || value < 0 || value > (1LL << 40)) {
      return llvm::createStringError("cannot parse '" + spec.str() +
                                     "': bad dimension '" + dim.str() + "'");
    }
    shape.push_back(value);
  }
  // Refuse shapes whose element count overflows or is absurdly large.
  int64_t count = 1;
  for (int64_t dim : shape) {
    if (dim && count > (1LL << 40) / dim) {
      return llvm::createStringError("cannot parse '" + spec.str() +
                                     "': tensor too large");
    }
    count *= dim;
  }
  SmallVector<StringRef> values;
  // Values are separated by spaces, commas or brackets (the printed form,
  // `[1 2][3 4]`, reads back).
  StringRef separators = " ,[]\t\n";
  for (StringRef rest = valuesText; !rest.empty();) {
    size_t end = std::min(rest.find_first_of(separators), rest.size());
    if (end)
      values.push_back(rest.take_front(end));
    rest = rest.drop_front(std::min(end + 1, rest.size()));
  }
  if (!hasValues && count != 0) {
    return llvm::createStringError(
        "'" + spec.str() + "' has no values: expected " +
        typeText.trim().str() + "=VALUES (one value fills the tensor)");
  }
  if (values.size() != 1 && static_cast<int64_t>(values.size()) != count) {
    return llvm::createStringError("'" + spec + "' has " +
                                   Twine(values.size()) + " values; " +
                                   formatTensorType(shape, dtype) + " needs " +
                                   Twine(count) + " (or one to fill it)");
  }
  HostTensor tensor(dtype, shape);
  if (!tensor.isAllocated())
    return llvm::createStringError("cannot allocate " +
                                   formatTensorType(shape, dtype));
  // An empty tensor still has its (one) value checked.
  HostTensor probe(dtype, {1});
  HostTensor &target = count ? tensor : probe;
  for (auto [i, value] : llvm::enumerate(values)) {
    if (llvm::Error err = parseElement(value, target, i))
      return llvm::createStringError("cannot parse '" + spec +
                                     "': " + llvm::toString(std::move(err)));
  }
  if (values.size() == 1 && count > 1) {
    size_t size = google_rt_dtype_size(dtype);
    for (int64_t i = 1; i < count; ++i)
      std::memcpy(tensor.data() + i * size, tensor.data(), size);
  }
  return tensor;
}

//===----------------------------------------------------------------------===//
// Printing
//===----------------------------------------------------------------------===//

/// `digits` (no point) times 10^`exponent` relative to the first digit, as
/// Python's repr writes it: positional for 1e-4 <= |x| < 1e16 (integers
/// without a point), else d.ddde+XX.
static std::string layoutDecimal(bool negative, StringRef digits,
                                 int exponent) {
  std::string text = negative ? "-" : "";
  int count = static_cast<int>(digits.size());
  if (exponent < -4 || exponent >= 16) {
    text += digits.take_front(1).str();
    if (count > 1)
      text += "." + digits.drop_front().str();
    char suffix[16];
    std::snprintf(suffix, sizeof(suffix), "e%c%02d", exponent < 0 ? '-' : '+',
                  std::abs(exponent));
    return text + suffix;
  }
  if (exponent < 0)
    return text + "0." + std::string(-exponent - 1, '0') + digits.str();
  if (exponent + 1 >= count)
    return text + digits.str() + std::string(exponent + 1 - count, '0');
  return text + digits.take_front(exponent + 1).str() + "." +
         digits.drop_front(exponent + 1).str();
}

/// The shortest decimal text that reads back (as parseTensorSpec reads it)
/// to the same element value.
static std::string formatElement(const HostTensor &tensor, int64_t i) {
  google_rt_dtype dtype = tensor.dtype();
  if (isInteger(dtype))
    return std::to_string(tensor.getInt(i));
  double value = tensor.getDouble(i);
  if (std::isnan(value))
    return "nan";
  if (std::isinf(value))
    return value > 0 ? "inf" : "-inf";
  if (value == 0)
    return std::signbit(value) ? "-0" : "0";
  const llvm::fltSemantics &semantics = floatSemantics(dtype);
  char buffer[64];
  for (int precision = 1; precision <= 17; ++precision) {
    std::snprintf(buffer, sizeof(buffer), "%.*e", precision - 1, value);
    std::optional<APFloat> back =
        parseDecimal(buffer, semantics, APFloat::rmNearestTiesToEven);
    bool losesInfo;
    if (back)
      back->convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven,
                    &losesInfo);
    if (back && back->convertToDouble() == value)
      break;
  }
  // buffer: [-]d[.ddd]e[+-]XX
  StringRef text = buffer;
  bool negative = text.consume_front("-");
  auto [mantissa, exponentText] = text.split('e');
  int exponent = 0;
  exponentText.consume_front("+");
  exponentText.getAsInteger(10, exponent);
  std::string digits = mantissa.str();
  llvm::erase(digits, '.');
  StringRef trimmed = StringRef(digits).rtrim('0');
  return layoutDecimal(negative, trimmed.empty() ? "0" : trimmed, exponent);
}

namespace {
/// Prints a tensor iree-run-module style, NumPy-like summarized when large.
struct TensorPrinter {
  const HostTensor &tensor;
  bool summarize;
  llvm::raw_ostream &os;
  /// NumPy's print options: summarize past 1000 elements, 3 at each edge.
  static constexpr int64_t threshold = 1000, edgeItems = 3;

  void print(size_t dim, int64_t offset) {
    ArrayRef<int64_t> shape = tensor.shape();
    int64_t stride = 1;
    for (int64_t extent : shape.drop_front(dim + 1))
      stride *= extent;
    bool last = dim + 1 == shape.size();
    bool elide = summarize && shape[dim] > 2 * edgeItems;
    for (int64_t i = 0; i < shape[dim]; ++i) {
      if (elide && i == edgeItems) {
        os << (last ? " ..." : "...");
        i = shape[dim] - edgeItems;
      }
      if (last) {
        os << (i ? " " : "") << formatElement(tensor, offset + i);
        continue;
      }
      os << "[";
      print(dim + 1, offset + i * stride);
      os << "]";
    }
  }
};
} // namespace

std::string google::formatTensor(const HostTensor &input, bool summarize) {
  // bf16 values are shown as the f32 values they are.
  if (input.dtype() == GOOGLE_RT_BF16)
    return formatTensor(input.convertTo(GOOGLE_RT_F32), summarize);
  std::string text;
  llvm::raw_string_ostream os(text);
  for (int64_t dim : input.shape())
    os << dim << "x";
  os << google_rt_dtype_name(input.dtype()) << "=";
  if (input.numElements() == 0)
    return text;
  if (input.shape().empty())
    return text + formatElement(input, 0);
  // Rows of the last dimension in brackets, one bracket level per outer dim
  // except the outermost: [[1 2][3 4]][[5 6][7 8]].
  TensorPrinter printer{
      input, summarize && input.numElements() > TensorPrinter::threshold, os};
  printer.print(0, 0);
  return text;
}

//===----------------------------------------------------------------------===//
// Comparison
//===----------------------------------------------------------------------===//

llvm::Error google::compareTensors(const HostTensor &actual,
                                   const HostTensor &expected) {
  auto wrongType = [&] {
    return llvm::createStringError(
        "expected " + formatTensorType(expected.shape(), expected.dtype()) +
        ", got " + formatTensorType(actual.shape(), actual.dtype()));
  };
  if (actual.shape() != expected.shape())
    return wrongType();
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
  bool isFloat =
      actual.dtype() == GOOGLE_RT_F32 || actual.dtype() == GOOGLE_RT_F16 ||
      actual.dtype() == GOOGLE_RT_BF16 || actual.dtype() == GOOGLE_RT_F64;
  if (!isFloat && actual.dtype() != expected.dtype() &&
      !(expected.dtype() == GOOGLE_RT_I64 || expected.dtype() == GOOGLE_RT_I32))
    return wrongType();
  for (int64_t i = 0, e = actual.numElements(); i < e; ++i) {
    double a = actual.getDouble(i), b = expected.getDouble(i);
    // An infinity only matches itself (a tolerance relative to it would
    // accept anything).
    bool same =
        std::isnan(a) ? std::isnan(b)
        : std::isinf(b)
            ? a == b
            : (a == b || std::fabs(a - b) <= atol + rtol * std::fabs(b));
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
    std::string message = "element " + where + " is " + formatElement(one, 0) +
                          ", expected " + formatElement(other, 0);
    if (isFloat) {
      char tolerance[96];
      std::snprintf(tolerance, sizeof(tolerance),
                    " (tolerance %g + %g * |expected|)", atol, rtol);
      message += tolerance;
    }
    return llvm::createStringError(message);
  }
  return llvm::Error::success();
}

llvm::Error google::compareWithReference(StringRef function,
                                         ArrayRef<HostTensor> results,
                                         ArrayRef<HostTensor> reference) {
  if (results.size() != reference.size())
    return llvm::createStringError(
        "@" + function + " returned " + Twine(results.size()) +
        " results, the reference interpreter " + Twine(reference.size()));
  for (size_t i = 0; i < results.size(); ++i)
    if (llvm::Error mismatch = compareTensors(results[i], reference[i]))
      return llvm::createStringError(
          "@" + function + " result " + Twine(i) +
          " differs from the reference interpreter: " +
          llvm::toString(std::move(mismatch)));
  return llvm::Error::success();
}
