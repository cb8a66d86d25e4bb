//===- FoldOperandTransposes.cpp - --google-gpu-fold-operand-transposes ---===//

#include "Codegen/GPU/Passes.h"

#include "GpuKernels.h"

namespace mlir::google {
#define GEN_PASS_DEF_GPUFOLDOPERANDTRANSPOSESPASS
#include "Codegen/GPU/Passes.h.inc"
} // namespace mlir::google

using namespace mlir;
using namespace mlir::google;
using namespace mlir::google::kernels;

namespace {

/// How fast `kernel` is among those that load a transposed A or B as fast
/// as the other layout (see prefersWgmma: B; prefersMmaSync, also MFMA's:
/// A and B; getVectorTileSize: A and B; shared tiles: any layout, each
/// operand copied along its innermost dimension); 0 for the others.
int getRank(ContractionKernel kernel) {
  switch (kernel) {
  case ContractionKernel::Wgmma:
  case ContractionKernel::WgmmaSpecialized:
    return 4;
  case ContractionKernel::MmaSync:
  case ContractionKernel::Mfma:
    return 3;
  case ContractionKernel::VectorTiles:
    return 2;
  case ContractionKernel::SharedTiles:
    return 1;
  default:
    return 0;
  }
}

/// Whether `kernel` loads the operands `folds` marks as read through their
/// transposes as fast as it loaded the transposes: the ranked kernels and
/// warp dots (rows of A and of B^T, chosen for those layouts) either
/// operand; split K and register tiles A^T only (a warp's threads read the
/// same rows of A, one address whatever its layout; they read B along its
/// rows, which B^T would stride).
bool readsFoldedAsFast(ContractionKernel kernel, std::array<bool, 2> folds) {
  if (getRank(kernel) > 0 || kernel == ContractionKernel::WarpDots)
    return true;
  return (kernel == ContractionKernel::SplitK ||
          kernel == ContractionKernel::RegisterTiles) &&
         !folds[1];
}

/// `op` reading, for each input whose `folds` bit is set, the source of
/// the transpose that defines it through the map with its last two
/// results swapped; null when none is set.
linalg::GenericOp foldTransposes(RewriterBase &rewriter, linalg::LinalgOp op,
                                 std::array<bool, 2> folds) {
  if (!folds[0] && !folds[1])
    return nullptr;
  SmallVector<Value> inputs;
  SmallVector<AffineMap> maps;
  for (auto [index, fold] : llvm::enumerate(folds)) {
    OpOperand *operand = op.getDpsInputOperand(index);
    AffineMap map = op.getMatchingIndexingMap(operand);
    if (!fold) {
      inputs.push_back(operand->get());
      maps.push_back(map);
      continue;
    }
    SmallVector<AffineExpr> results(map.getResults());
    std::swap(results[results.size() - 2], results.back());
    inputs.push_back(getSwappedTransposeSource(operand->get()));
    maps.push_back(
        AffineMap::get(map.getNumDims(), 0, results, op.getContext()));
  }
  rewriter.setInsertionPoint(op);
  return createContractionWithInputs(rewriter, op, inputs, maps);
}

struct GpuFoldOperandTransposesPass
    : public google::impl::GpuFoldOperandTransposesPassBase<
          GpuFoldOperandTransposesPass> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func->getParentOfType<gpu::GPUModuleOp>())
      return;
    ContractionChoices choices{tileSize, mmaSync, mfma,    mfmaBf16,
                               tf32,     wgmma,   warpDots};
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
      // TF32's mma.sync wants A and B as they are.
      ContractionKernel kernel =
          chooseContractionKernel(op, *dims, choices).kernel;
      if (kernel == ContractionKernel::Tf32MmaSync)
        continue;
      int rank = getRank(kernel);
      std::array<bool, 2> transposed;
      for (unsigned index : {0u, 1u})
        transposed[index] = static_cast<bool>(
            getSwappedTransposeSource(op.getDpsInputs()[index]));
      // Both transposes read through, else either, where the kernel the
      // matmul then takes reads its inputs where they lie and is no slower
      // (wgmma reads A only as M x K: A^T stays for it, not for mma.sync).
      linalg::GenericOp folded;
      for (std::array<bool, 2> folds :
           {transposed, std::array<bool, 2>{transposed[0], false},
            std::array<bool, 2>{false, transposed[1]}}) {
        folded = foldTransposes(rewriter, op, folds);
        if (!folded)
          continue;
        std::optional<linalg::ContractionDimensions> foldedDims =
            getTileableContraction(folded);
        if (foldedDims) {
          ContractionKernel foldedKernel =
              chooseContractionKernel(folded, *foldedDims, choices).kernel;
          if (getRank(foldedKernel) >= rank &&
              readsFoldedAsFast(foldedKernel, folds))
            break;
        }
        rewriter.eraseOp(folded);
        folded = nullptr;
      }
      if (!folded)
        continue;
      // (x.T @ x.T reads one transpose twice.)
      llvm::SetVector<Operation *> transposes;
      for (Value input : op.getDpsInputs())
        if (auto transpose = input.getDefiningOp<linalg::TransposeOp>())
          transposes.insert(transpose);
      rewriter.replaceOp(op, folded->getResults());
      for (Operation *transpose : transposes)
        if (transpose->use_empty())
          rewriter.eraseOp(transpose);
      ++numFolded;
    }
  }
};

} // namespace
