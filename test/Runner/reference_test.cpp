//===- reference_test.cpp - the reference interpreter through Runner ------===//
//
// Prints one "PASS: <what>" line per check; exits 1 on the first failure.
// Covers what google-run --check cannot show with a correct compiler: a
// compiled result that differs from the reference is reported with the
// result and the first differing element.
//
//===----------------------------------------------------------------------===//

#include "Compiler/Reference.h"

#include "llvm/Support/raw_ostream.h"

#include <memory>

#include <cstdlib>

using namespace mlir;
using namespace mlir::google;

static void expect(bool ok, const std::string &what) {
  if (!ok) {
    llvm::outs() << "FAIL: " << what << "\n";
    std::exit(1);
  }
}

static void pass(const char *what) { llvm::outs() << "PASS: " << what << "\n"; }

static HostTensor tensorOf(ArrayRef<int64_t> shape, ArrayRef<double> values) {
  HostTensor tensor(GOOGLE_RT_F32, shape);
  for (auto [i, v] : llvm::enumerate(values))
    tensor.setDouble(i, v);
  return tensor;
}

int main() {
  const char *source = R"mlir(
    func.func @center(%x: tensor<?x3xf32>) -> tensor<?x3xf32> {
      %m = google.reduce_mean %x {axes = array<i64: 1>, keep_dims = true} : tensor<?x3xf32> -> tensor<?x1xf32>
      %d = google.sub %x, %m : tensor<?x3xf32>, tensor<?x1xf32> -> tensor<?x3xf32>
      return %d : tensor<?x3xf32>
    }
    func.func @lowered(%x: tensor<2xf32>) -> tensor<2xf32> {
      %0 = tensor.empty() : tensor<2xf32>
      return %0 : tensor<2xf32>
    }
  )mlir";
  std::string error;
  std::vector<HostTensor> inputs;
  inputs.push_back(tensorOf({2, 3}, {1, 2, 3, 4, 5, 9}));
  llvm::Expected<std::vector<HostTensor>> reference =
      interpretModule(source, "test.mlir", "center", inputs);
  if (!reference)
    expect(false, "interpret: " + llvm::toString(reference.takeError()));
  std::vector<HostTensor> right;
  right.push_back(tensorOf({2, 3}, {-1, 0, 1, -2, -1, 3}));
  if (llvm::Error err = compareWithReference("center", right, *reference))
    expect(false, "matching results: " + llvm::toString(std::move(err)));
  pass("matching results");

  std::vector<HostTensor> wrong;
  wrong.push_back(tensorOf({2, 3}, {-1, 1.3333333, 2.7777777, -2, 3, 8.333333}));
  llvm::Error mismatch = compareWithReference("center", wrong, *reference);
  expect(bool(mismatch), "a wrong result is reported");
  llvm::outs() << "mismatch: " << llvm::toString(std::move(mismatch)) << "\n";
  pass("mismatch");

  // --check's bounds: a centered sum of 4096 values around 100 in f32,
  // where rounding legitimately moves the result far from the interpreter's
  // (it was reported as a compiler bug), and a result off by more.
  const char *sums = R"mlir(
    func.func @centered(%x: tensor<1x4096xf32>) -> tensor<1x1xf32> {
      %m = google.reduce_mean %x {axes = array<i64: 1>, keep_dims = true} : tensor<1x4096xf32> -> tensor<1x1xf32>
      %c = google.sub %x, %m : tensor<1x4096xf32>, tensor<1x1xf32> -> tensor<1x4096xf32>
      %s = google.reduce_sum %c {axes = array<i64: 1>, keep_dims = true} : tensor<1x4096xf32> -> tensor<1x1xf32>
      return %s : tensor<1x1xf32>
    }
  )mlir";
  llvm::Expected<std::unique_ptr<ReferenceModule>> parsed =
      parseReferenceModule(sums, "sums.mlir");
  if (!parsed)
    expect(false, "parse: " + llvm::toString(parsed.takeError()));
  std::unique_ptr<ReferenceModule> module = std::move(*parsed);
  HostTensor around100(GOOGLE_RT_F32, {1, 4096});
  for (int64_t i = 0; i < 4096; ++i)
    around100.setDouble(i, 100 + 0.001 * ((i * 7919) % 2000 - 1000));
  std::vector<HostTensor> centeredInputs;
  centeredInputs.push_back(std::move(around100));
  FailureOr<std::vector<HostTensor>> interpreted =
      module->run("centered", centeredInputs, error);
  expect(succeeded(interpreted), "interpret the centered sum: " + error);
  bool covered = false;
  std::vector<HostTensor> rounded;
  rounded.push_back(tensorOf({1, 1}, {0.03152466}));
  expect(succeeded(module->checkWithinBounds("centered", centeredInputs,
                                             rounded, {}, error, covered)) &&
             covered,
         "rounding within the bound: " + error);
  pass("rounding within the bound");
  std::vector<HostTensor> off;
  off.push_back(tensorOf({1, 1}, {3000}));
  expect(failed(module->checkWithinBounds("centered", centeredInputs, off, {},
                                          error, covered)),
         "a result beyond the bound is reported");
  llvm::outs() << "beyond: " << error << "\n";
  pass("beyond the bound");

  bool unsupported = false;
  llvm::Expected<std::vector<HostTensor>> lowered =
      interpretModule(source, "test.mlir", "lowered", inputs, &unsupported);
  expect(!lowered && unsupported,
         "a function that is not in the google dialect");
  llvm::outs() << "unsupported: " << llvm::toString(lowered.takeError())
               << "\n";
  pass("not the google dialect");

  inputs[0] = tensorOf({2, 2}, {1, 2, 3, 4});
  llvm::Expected<std::vector<HostTensor>> wrongShape =
      interpretModule(source, "test.mlir", "center", inputs, &unsupported);
  expect(!wrongShape && unsupported == false, "an argument of the wrong shape");
  llvm::outs() << "argument: " << llvm::toString(wrongShape.takeError())
               << "\n";
  pass("wrong argument");
  return 0;
}
