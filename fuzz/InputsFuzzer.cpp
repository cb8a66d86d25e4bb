//===- InputsFuzzer.cpp - google-run's input parsers ----------------------===//
//
// libFuzzer target: the bytes as a .npy file, and as an inline `--input`
// spec (`2x3xf32=1 2 3 4 5 6`); a parsed tensor is printed and, for a spec,
// the printed form must read back to the same values.
//
//===----------------------------------------------------------------------===//

#include "Runner/HostTensor.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

using namespace mlir;
using namespace mlir::google;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef bytes(reinterpret_cast<const char *>(data), size);
  if (llvm::Expected<HostTensor> tensor = parseNpy(bytes, "fuzz.npy"))
    (void)formatTensor(*tensor, /*summarize=*/true);
  else
    llvm::consumeError(tensor.takeError());

  // `@` would read a file: specs only. Huge splats only cost time and
  // memory (google-run's own limit is 2^40 elements): keep them small.
  if (bytes.trim().starts_with("@"))
    return 0;
  SmallVector<StringRef> dims;
  bytes.split('=').first.split(dims, 'x');
  uint64_t count = 1;
  for (StringRef dim : dims) {
    uint64_t extent;
    if (!dim.trim().getAsInteger(10, extent) && extent &&
        (count *= extent) > (1u << 16))
      return 0;
  }
  llvm::Expected<HostTensor> parsedOrError = parseTensorSpec(bytes);
  if (!parsedOrError) {
    llvm::consumeError(parsedOrError.takeError());
    return 0;
  }
  const HostTensor &parsed = *parsedOrError;
  if (parsed.numElements() > (1 << 16))
    return 0;
  std::string printed = formatTensor(parsed);
  llvm::Expected<HostTensor> againOrError = parseTensorSpec(printed);
  std::string error;
  HostTensor again;
  if (againOrError)
    again = std::move(*againOrError);
  else
    error = llvm::toString(againOrError.takeError());
  if (!error.empty() || again.dtype() != parsed.dtype() ||
      again.shape() != parsed.shape() ||
      std::memcmp(again.data(), parsed.data(), parsed.numBytes()) != 0) {
    // NaN payloads are not printed: compare those as printed text.
    if (formatTensor(again) == printed)
      return 0;
    std::fprintf(stderr, "'%s' does not read back: %s\n", printed.c_str(),
                 error.c_str());
    std::abort();
  }
  return 0;
}
