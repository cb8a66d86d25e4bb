//===- ResultsToOutParams.cpp - --google-results-to-out-params ------------===//

#include "Dialect/Google/IR/GoogleDialect.h"
#include "Dialect/Google/Transforms/Passes.h"

#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace mlir::google {
#define GEN_PASS_DEF_RESULTSTOOUTPARAMSPASS
#include "Dialect/Google/Transforms/Passes.h.inc"
} // namespace mlir::google

using namespace mlir;
using namespace mlir::google;

namespace {

bool hasOnlyStaticResults(func::FuncOp func) {
  return llvm::all_of(func.getResultTypes(), [](Type type) {
    auto memref = dyn_cast<MemRefType>(type);
    return memref && memref.hasStaticShape() && memref.getLayout().isIdentity();
  });
}

struct ResultsToOutParamsPass
    : public google::impl::ResultsToOutParamsPassBase<ResultsToOutParamsPass> {
  void runOnOperation() override {
    SmallVector<func::FuncOp> converted;
    for (auto func : getOperation().getOps<func::FuncOp>())
      if (func->hasAttr(GoogleDialect::kSignatureAttrName) &&
          !func.isExternal() && func.getNumResults() > 0 &&
          hasOnlyStaticResults(func))
        converted.push_back(func);
    bufferization::BufferResultsToOutParamsOpts options;
    options.filterFn = [&](func::FuncOp *func) {
      return llvm::is_contained(converted, *func);
    };
    options.hoistStaticAllocs = true;
    options.modifyPublicFunctions = true;
    if (failed(bufferization::promoteBufferResultsToOutParams(getOperation(),
                                                              options)))
      return signalPassFailure();
    for (func::FuncOp func : converted)
      func->setAttr(GoogleDialect::kResultsOutAttrName,
                    UnitAttr::get(&getContext()));
  }
};

} // namespace
