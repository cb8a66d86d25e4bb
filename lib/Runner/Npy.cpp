//===- Npy.cpp - reading and writing NumPy .npy files ---------------------===//
//
// https://numpy.org/doc/stable/reference/generated/numpy.lib.format.html
// Every length read from the file is bounded before it is used.
//
//===----------------------------------------------------------------------===//

#include "Runner/HostTensor.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>

using namespace mlir;
using namespace mlir::google;

namespace {

constexpr char kMagic[] = "\x93NUMPY";
constexpr size_t kMaxHeaderLength = 1 << 16;

/// The value text of `'key': value` in the header dictionary.
std::optional<StringRef> findValue(StringRef header, StringRef key) {
  std::string quoted = "'" + key.str() + "'";
  size_t at = header.find(quoted);
  if (at == StringRef::npos) {
    quoted = "\"" + key.str() + "\"";
    at = header.find(quoted);
  }
  if (at == StringRef::npos)
    return std::nullopt;
  StringRef rest = header.drop_front(at + quoted.size()).ltrim();
  if (!rest.consume_front(":"))
    return std::nullopt;
  return rest.ltrim();
}

bool parseDescr(StringRef descr, google_rt_dtype &dtype, bool &swap) {
  if (descr.size() < 3)
    return false;
  char order = descr[0];
  StringRef kind = descr.drop_front();
  swap = order == '>';
  if (order != '<' && order != '>' && order != '|' && order != '=')
    return false;
  if (kind == "f4")
    dtype = GOOGLE_RT_F32;
  else if (kind == "f2")
    dtype = GOOGLE_RT_F16;
  else if (kind == "f8")
    dtype = GOOGLE_RT_F64;
  else if (kind == "i4")
    dtype = GOOGLE_RT_I32;
  else if (kind == "i8")
    dtype = GOOGLE_RT_I64;
  else if (kind == "b1")
    dtype = GOOGLE_RT_I1;
  else if (kind == "i1")
    dtype = GOOGLE_RT_I8;
  else
    return false;
  return true;
}

} // namespace

llvm::Expected<HostTensor> google::readNpy(StringRef path) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                  /*RequiresNullTerminator=*/false);
  if (!buffer)
    return llvm::createStringError("cannot read '" + path +
                                   "': " + buffer.getError().message());
  return parseNpy((*buffer)->getBuffer(), path);
}

llvm::Expected<HostTensor> google::parseNpy(StringRef file, StringRef path) {
  auto fail = [&](const Twine &why) {
    return llvm::createStringError("cannot read '" + path + "': " + why);
  };
  if (file.size() < 10 || !file.starts_with(StringRef(kMagic, 6)))
    return fail("not a .npy file (bad magic)");
  uint8_t major = file[6];
  size_t headerLength, headerStart;
  if (major == 1) {
    headerLength = uint8_t(file[8]) | (size_t(uint8_t(file[9])) << 8);
    headerStart = 10;
  } else if (major == 2 || major == 3) {
    if (file.size() < 12)
      return fail("truncated header");
    headerLength = uint8_t(file[8]) | (size_t(uint8_t(file[9])) << 8) |
                   (size_t(uint8_t(file[10])) << 16) |
                   (size_t(uint8_t(file[11])) << 24);
    headerStart = 12;
  } else {
    return fail("unsupported .npy version " + Twine(int(major)));
  }
  if (headerLength > kMaxHeaderLength)
    return fail("header too long");
  if (headerStart + headerLength > file.size())
    return fail("truncated header");
  StringRef header = file.substr(headerStart, headerLength);

  std::optional<StringRef> descrValue = findValue(header, "descr");
  std::optional<StringRef> orderValue = findValue(header, "fortran_order");
  std::optional<StringRef> shapeValue = findValue(header, "shape");
  if (!descrValue || !orderValue || !shapeValue)
    return fail("malformed header (expected descr, fortran_order and shape)");
  StringRef descr = *descrValue;
  if (descr.empty() || (descr[0] != '\'' && descr[0] != '"'))
    return fail("malformed descr");
  descr = descr.drop_front().take_until([](char c) {
    return c == '\'' || c == '"';
  });
  google_rt_dtype dtype;
  bool swap;
  if (!parseDescr(descr, dtype, swap))
    return fail("unsupported dtype '" + descr +
                "' (expected f2, f4, f8, i1, i4, i8 or b1)");
  bool fortran;
  if (orderValue->starts_with("True"))
    fortran = true;
  else if (orderValue->starts_with("False"))
    fortran = false;
  else
    return fail("malformed fortran_order");
  StringRef shapeText = *shapeValue;
  if (!shapeText.consume_front("("))
    return fail("malformed shape");
  shapeText = shapeText.take_until([](char c) { return c == ')'; });
  SmallVector<int64_t> shape;
  for (StringRef dim : llvm::split(shapeText, ',')) {
    dim = dim.trim();
    if (dim.empty())
      continue;
    int64_t value;
    if (dim.getAsInteger(10, value) || value < 0)
      return fail("malformed shape dimension '" + dim + "'");
    shape.push_back(value);
  }
  if (shape.size() > GOOGLE_RT_MAX_RANK)
    return fail("rank " + Twine(shape.size()) + " exceeds " +
                Twine(GOOGLE_RT_MAX_RANK));
  // The data must be exactly what the shape says.
  size_t elementSize = google_rt_dtype_size(dtype);
  uint64_t available = file.size() - headerStart - headerLength;
  uint64_t count = llvm::is_contained(shape, 0) ? 0 : 1;
  for (int64_t dim : shape) {
    if (count && count > available / uint64_t(dim))
      return fail("the shape needs more data than the file has");
    count *= uint64_t(dim);
  }
  if (count * elementSize != available)
    return fail("the shape needs " + Twine(count * elementSize) +
                " bytes of data, the file has " + Twine(available));

  HostTensor tensor(dtype, shape);
  if (!tensor.isAllocated())
    return fail("cannot allocate " + formatTensorType(shape, dtype));
  const char *data = file.data() + headerStart + headerLength;
  std::memcpy(tensor.data(), data, count * elementSize);
  if (swap && elementSize > 1)
    for (uint64_t i = 0; i < count; ++i)
      std::reverse(tensor.data() + i * elementSize,
                   tensor.data() + (i + 1) * elementSize);
  if (fortran && shape.size() > 1) {
    // Column-major to row-major.
    HostTensor rowMajor(dtype, shape);
    if (!rowMajor.isAllocated())
      return fail("cannot allocate " + formatTensorType(shape, dtype));
    int64_t rank = shape.size();
    SmallVector<int64_t> index(rank, 0);
    for (uint64_t n = 0; n < count; ++n) {
      int64_t source = 0, stride = 1;
      for (int64_t d = 0; d < rank; ++d) {
        source += index[d] * stride;
        stride *= shape[d];
      }
      std::memcpy(rowMajor.data() + n * elementSize,
                  tensor.data() + source * elementSize, elementSize);
      for (int64_t d = rank - 1; d >= 0; --d) {
        if (++index[d] < shape[d])
          break;
        index[d] = 0;
      }
    }
    tensor = std::move(rowMajor);
  }
  return tensor;
}

llvm::Error google::writeNpy(StringRef path, const HostTensor &input) {
  HostTensor tensor = input.dtype() == GOOGLE_RT_BF16
                          ? input.convertTo(GOOGLE_RT_F32)
                          : input;
  const char *descr = "<f4";
  switch (tensor.dtype()) {
  case GOOGLE_RT_F32:
  case GOOGLE_RT_BF16:
    descr = "<f4";
    break;
  case GOOGLE_RT_F16:
    descr = "<f2";
    break;
  case GOOGLE_RT_F64:
    descr = "<f8";
    break;
  case GOOGLE_RT_I32:
    descr = "<i4";
    break;
  case GOOGLE_RT_I64:
    descr = "<i8";
    break;
  case GOOGLE_RT_I1:
    descr = "|b1";
    break;
  case GOOGLE_RT_I8:
    descr = "|i1";
    break;
  }
  std::string header = "{'descr': '" + std::string(descr) +
                       "', 'fortran_order': False, 'shape': (";
  for (int64_t dim : tensor.shape())
    header += std::to_string(dim) + (tensor.shape().size() == 1 ? "," : ", ");
  if (tensor.shape().size() > 1)
    header.resize(header.size() - 2);
  header += "), }";
  // Pad so that the data starts at a multiple of 64 bytes.
  size_t total = 10 + header.size() + 1;
  header += std::string((64 - total % 64) % 64, ' ') + "\n";
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  if (ec)
    return llvm::createStringError("cannot write '" + path +
                                   "': " + ec.message());
  os.write(kMagic, 6);
  os << char(1) << char(0) << char(header.size() & 0xff)
     << char(header.size() >> 8) << header;
  os.write(tensor.data(), tensor.numBytes());
  os.close();
  if (os.has_error()) {
    std::string reason = os.error().message();
    os.clear_error();
    return llvm::createStringError("cannot write '" + path + "': " + reason);
  }
  return llvm::Error::success();
}
