//===- FoldRhsTransposes.cpp - --google-gpu-fold-rhs-transposes -----------===//

#include "Codegen/GPU/Passes.h"

#include "GpuKernels.h"

namespace mlir::google {
#define GEN_PASS_DEF_GPUFOLDRHSTRANSPOSESPASS
#include "Codegen/GPU/Passes.h.inc"
} // namespace mlir::google

using namespace mlir;
using namespace mlir::google;
using namespace mlir::google::kernels;

namespace {

/// Whether contraction `op` runs on a tensor-core kernel that reads B
/// K-major (mma.sync, and wgmma with `wgmma`).
bool takesTensorCores(linalg::LinalgOp op,
                      const linalg::ContractionDimensions &dims, bool wgmma) {
  return !getSplitKFactor(op, dims) &&
         ((wgmma && prefersWgmma(op, dims)) || prefersMmaSync(op, dims));
}

struct GpuFoldRhsTransposesPass
    : public google::impl::GpuFoldRhsTransposesPassBase<
          GpuFoldRhsTransposesPass> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func->getParentOfType<gpu::GPUModuleOp>())
      return;
    SmallVector<linalg::LinalgOp> ops;
    func.walk([&](linalg::LinalgOp op) {
      if (op.hasPureTensorSemantics())
        ops.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (linalg::LinalgOp op : ops) {
      std::optional<linalg::ContractionDimensions> dims =
          getTileableContraction(op);
      if (!dims)
        continue;
      unsigned n = dims->n.front(), k = dims->k.front();
      OpOperand &rhs = *op.getDpsInputOperand(1);
      Value source = getSwappedTransposeSource(rhs.get());
      if (!source || !readsInOrder(op, rhs, *dims, k, n))
        continue;
      rewriter.setInsertionPoint(op);
      linalg::GenericOp folded = createContractionWithInputs(
          rewriter, op, {op.getDpsInputs().front(), source},
          {op.getMatchingIndexingMap(op.getDpsInputOperand(0)),
           getOperandMap(op.getContext(), op.getNumLoops(), *dims, n, k)});
      // Only where the kernel it then takes reads B^T where it lies.
      std::optional<linalg::ContractionDimensions> foldedDims =
          getTileableContraction(folded);
      if (!foldedDims || !takesTensorCores(folded, *foldedDims, wgmma)) {
        rewriter.eraseOp(folded);
        continue;
      }
      Operation *transpose = rhs.get().getDefiningOp();
      rewriter.replaceOp(op, folded->getResults());
      if (transpose->use_empty())
        rewriter.eraseOp(transpose);
      ++numFolded;
    }
  }
};

} // namespace
