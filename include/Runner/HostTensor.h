//===- HostTensor.h - tensors in host memory for google-run -----*- C++ -*-===//
//
// Inputs and results of google-run: .npy files, inline values such as
// `2x3xf32=1 2 3 4 5 6`, iree-run-module style printing, and comparison
// with expected values.
//
//===----------------------------------------------------------------------===//

#ifndef GOOGLE_RUNNER_HOSTTENSOR_H
#define GOOGLE_RUNNER_HOSTTENSOR_H

#include "google_runtime.h"

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

namespace mlir::google {

/// A contiguous row-major tensor owned by the host program.
class HostTensor {
public:
  HostTensor() = default;
  /// Zero-filled; `isAllocated()` is false when the memory was not there.
  HostTensor(google_rt_dtype dtype, ArrayRef<int64_t> shape);
  HostTensor(const HostTensor &other);
  HostTensor(HostTensor &&other) = default;
  HostTensor &operator=(const HostTensor &other);
  HostTensor &operator=(HostTensor &&other) = default;

  bool isAllocated() const { return storage != nullptr || numBytes() == 0; }

  google_rt_dtype dtype() const { return type; }
  ArrayRef<int64_t> shape() const { return dims; }
  int64_t numElements() const;
  size_t numBytes() const { return numElements() * google_rt_dtype_size(type); }
  char *data() { return storage.get(); }
  const char *data() const { return storage.get(); }

  /// Element `i` (row-major) as a double; integers and bools exactly when
  /// they fit.
  double getDouble(int64_t i) const;
  /// Stores `value` at `i`, rounding to the element type.
  void setDouble(int64_t i, double value);
  /// Element `i` as an integer (exact for i64).
  int64_t getInt(int64_t i) const;
  /// Stores an integer at `i`, wrapping to the element width.
  void setInt(int64_t i, int64_t value);

  /// A runtime view of this tensor (no copy).
  google_rt_tensor view();
  /// A copy of a runtime tensor (any strides).
  static HostTensor copyOf(const google_rt_tensor &tensor);
  /// The same values with element type `dtype`.
  HostTensor convertTo(google_rt_dtype dtype) const;

private:
  google_rt_dtype type = GOOGLE_RT_F32;
  SmallVector<int64_t> dims;
  struct Free {
    void operator()(char *p) const { std::free(p); }
  };
  std::unique_ptr<char, Free> storage; // malloc: 16-byte aligned
};

/// "f32" -> GOOGLE_RT_F32, ...; false for unknown names.
bool parseDType(StringRef name, google_rt_dtype &dtype);

/// `tensor<2x3xf32>`-style text for a shape and dtype.
std::string formatTensorType(ArrayRef<int64_t> shape, google_rt_dtype dtype);

/// Reads a .npy file. Versions 1-3, little and big endian, C and Fortran
/// order; f16/f32/f64/i8/i32/i64/bool. The header is parsed defensively:
/// lengths are bounded and the shape must account for the file size.
llvm::Expected<HostTensor> readNpy(StringRef path);

/// Parses the contents of a .npy file (`path` names it in errors).
llvm::Expected<HostTensor> parseNpy(StringRef contents, StringRef path);

/// Writes a version 1.0 .npy file (bf16 is written as f32).
llvm::Error writeNpy(StringRef path, const HostTensor &tensor);

/// Parses `2x3xf32=1 2 3 4 5 6`, `2x3xf32=0.5` (a splat), `f32=1`,
/// `0x3xf32` (empty) or `@file.npy`. Values are read as the element type
/// reads them: integers exactly and in range, floats rounded once.
llvm::Expected<HostTensor> parseTensorSpec(StringRef spec);

/// iree-run-module style: `2x3xf32=[1 2 3][4 5 6]` (bf16 printed as f32),
/// each value in its shortest form that reads back exactly. With
/// `summarize`, tensors of more than 1000 elements show 3 items at each
/// edge of every dimension and `...` between, as NumPy prints them.
std::string formatTensor(const HostTensor &tensor, bool summarize = false);

/// Compares `actual` with `expected` using tolerances suited to the type
/// (f32: 1e-4 absolute + 1e-5 relative; f16/bf16 looser; integers exact).
/// A mismatch's error names the first differing element.
llvm::Error compareTensors(const HostTensor &actual,
                           const HostTensor &expected);

/// Compares compiled `results` with the `reference` results; a mismatch's
/// error names the result and the first differing element.
llvm::Error compareWithReference(StringRef function,
                                 ArrayRef<HostTensor> results,
                                 ArrayRef<HostTensor> reference);

} // namespace mlir::google

#endif // GOOGLE_RUNNER_HOSTTENSOR_H
