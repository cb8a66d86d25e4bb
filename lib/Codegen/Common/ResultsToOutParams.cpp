//===- ResultsToOutParams.cpp - --google-results-to-out-params ------------===//

#include "Dialect/Google/IR/GoogleDialect.h"
#include "Codegen/Passes.h"

#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace mlir::google {
#define GEN_PASS_DEF_RESULTSTOOUTPARAMSPASS
#include "Codegen/Passes.h.inc"
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

/// Returns a copy wherever a buffer is returned more than once (CSE merges
/// equal results): each result owns its own buffer, whether it becomes an
/// out-parameter or the runtime takes it.
void copyRepeatedResults(func::FuncOp func) {
  func.walk([](func::ReturnOp ret) {
    OpBuilder builder(ret);
    llvm::SmallPtrSet<Value, 4> seen;
    for (OpOperand &operand : ret->getOpOperands()) {
      Value value = operand.get();
      auto type = dyn_cast<MemRefType>(value.getType());
      if (!type || seen.insert(value).second)
        continue;
      Location loc = ret.getLoc();
      SmallVector<Value> dynamicSizes;
      for (int64_t d = 0; d < type.getRank(); ++d)
        if (type.isDynamicDim(d))
          dynamicSizes.push_back(
              memref::DimOp::create(builder, loc, value, d).getResult());
      auto copy = memref::AllocOp::create(
          builder, loc,
          MemRefType::get(type.getShape(), type.getElementType()),
          dynamicSizes);
      memref::CopyOp::create(builder, loc, value, copy);
      Value result = copy;
      if (result.getType() != type)
        result = memref::CastOp::create(builder, loc, type, result);
      operand.set(result);
    }
  });
}

struct ResultsToOutParamsPass
    : public google::impl::ResultsToOutParamsPassBase<ResultsToOutParamsPass> {
  void runOnOperation() override {
    SmallVector<func::FuncOp> converted;
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      if (!func->hasAttr(GoogleDialect::kSignatureAttrName) ||
          func.isExternal())
        continue;
      copyRepeatedResults(func);
      if (func.getNumResults() > 0 && hasOnlyStaticResults(func))
        converted.push_back(func);
    }
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
