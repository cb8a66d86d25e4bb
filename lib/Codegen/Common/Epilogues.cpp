//===- Epilogues.cpp - elementwise ops moved next to their contraction ----===//
//
// A contraction whose result is reshaped before an elementwise op reads it
// (a convolution as a matmul, a rank-3 activation times a weight) keeps
// that op out of its schedule: the CPU's register blocks and the GPU's
// kernels fuse an epilogue that reads their result, not its reshape.
//
//===----------------------------------------------------------------------===//

#include "Codegen/Epilogues.h"

#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include "llvm/ADT/SetVector.h"

namespace mlir::google {

int64_t collapseEpilogues(RewriterBase &rewriter,
                          tensor::ExpandShapeOp expanded, Value matrixInit) {
  SmallVector<ReassociationIndices> reassociation =
      expanded.getReassociationIndices();
  Value matrix = expanded.getSrc();
  // Each op once, however many of its operands read `expanded`.
  llvm::SetVector<linalg::GenericOp> users;
  for (OpOperand &use : expanded->getUses()) {
    auto generic = dyn_cast<linalg::GenericOp>(use.getOwner());
    if (generic && generic.isDpsInput(&use) &&
        generic.getNumLoops() == generic.getNumParallelLoops() &&
        generic.getNumDpsInits() == 1 &&
        generic.getMatchingIndexingMap(&use).isIdentity() &&
        generic.getMatchingIndexingMap(generic.getDpsInitOperand(0))
            .isIdentity() &&
        !generic.hasIndexSemantics() &&
        llvm::all_of(
            generic.getIndexingMapsArray(),
            [](AffineMap map) { return map.isProjectedPermutation(); }) &&
        linalg::areDimSequencesPreserved(generic.getIndexingMapsArray(),
                                         reassociation))
      users.insert(generic);
  }
  int64_t collapsed = 0;
  for (linalg::GenericOp generic : users) {
    rewriter.setInsertionPoint(generic);
    FailureOr<linalg::CollapseResult> result =
        linalg::collapseOpIterationDims(generic, reassociation, rewriter);
    if (failed(result))
      continue;
    // Read the matmul's result itself, not a collapse of its expansion,
    // and write a fresh matrix, not a collapse of an empty tensor.
    rewriter.setInsertionPoint(result->collapsedOp);
    for (OpOperand &operand : result->collapsedOp->getOpOperands()) {
      auto collapse = operand.get().getDefiningOp<tensor::CollapseShapeOp>();
      if (!collapse)
        continue;
      Value replacement;
      if (collapse.getSrc() == expanded.getResult() &&
          collapse.getReassociationIndices() == reassociation &&
          collapse.getType() == matrix.getType()) {
        // The inverse of `expanded` (an operand read through another
        // permutation keeps its own collapse).
        replacement = matrix;
      } else if (collapse.getSrc().getDefiningOp<tensor::EmptyOp>() &&
                 collapse.getType().getShape() ==
                     cast<RankedTensorType>(matrix.getType()).getShape()) {
        replacement = tensor::EmptyOp::create(
            rewriter, collapse.getLoc(),
            tensor::getMixedSizes(rewriter, collapse.getLoc(), matrixInit),
            collapse.getType().getElementType());
      }
      if (!replacement)
        continue;
      rewriter.modifyOpInPlace(result->collapsedOp,
                               [&] { operand.set(replacement); });
      if (collapse->use_empty())
        rewriter.eraseOp(collapse);
    }
    rewriter.replaceOp(generic, result->results);
    ++collapsed;
  }
  // The extents the collapsed ops' expansions ask of `expanded` are its
  // output shape's; unused, it goes, and the matmul's result then has the
  // collapsed ops as its only users.
  for (Operation *user : llvm::make_early_inc_range(expanded->getUsers())) {
    auto dim = dyn_cast<tensor::DimOp>(user);
    std::optional<int64_t> index = dim ? dim.getConstantIndex() : std::nullopt;
    if (!index)
      continue;
    rewriter.setInsertionPoint(dim);
    OpFoldResult extent = expanded.getMixedOutputShape()[*index];
    rewriter.replaceOp(
        dim, getValueOrCreateConstantIndexOp(rewriter, dim.getLoc(), extent));
  }
  if (expanded->use_empty())
    rewriter.eraseOp(expanded);
  return collapsed;
}

} // namespace mlir::google
