//===- WindowCopySchedule.cpp - window copies a run at a time -------------===//
//
// A convolution's im2col copy (and a reversed slice) reads its input
// through a map that is not a projected permutation, which upstream's
// vectorizer rejects; as scalar loops, LLVM unrolled each row's run of
// kw*C elements into as many scalar moves instead of vectorizing it (48
// for a 3x3 window of 16 channels: slow to run, and the largest cost of
// compiling a small convolution). Here each run is one vector read and
// one vector write, in loops over the copy's other dimensions.
//
//===----------------------------------------------------------------------===//

#include "CpuSchedules.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;

namespace mlir::google::cpu {

/// An scf.for's attribute that the lowering to cf carries to the loop's
/// back edge, where it is llvm.br's loop annotation (LLVM's !llvm.loop).
static constexpr StringLiteral kLoopAnnotationAttrName = "loop_annotation";

void CpuScheduler::annotateLoops(ArrayRef<scf::ForOp> loops, bool noVectorize) {
  MLIRContext *context = &getContext();
  BoolAttr yes = BoolAttr::get(context, true);
  LLVM::LoopVectorizeAttr vectorize;
  if (noVectorize)
    vectorize =
        LLVM::LoopVectorizeAttr::get(context, yes, {}, {}, {}, {}, {}, {});
  auto annotation = LLVM::LoopAnnotationAttr::get(
      context, {}, vectorize, {},
      LLVM::LoopUnrollAttr::get(context, yes, {}, {}, {}, {}, {}, {}), {}, {},
      {}, {}, {}, {}, {}, {}, {}, {}, {});
  for (scf::ForOp loop : loops)
    loop->setAttr(kLoopAnnotationAttrName, annotation);
}

void CpuScheduler::vectorizeWindowCopies(IRRewriter &rewriter) {
  SmallVector<std::pair<linalg::GenericOp, int64_t>> copies;
  getOperation()->walk([&](linalg::GenericOp op) {
    if (std::optional<int64_t> run = getWindowCopyRun(op))
      copies.push_back({op, *run});
  });
  MLIRContext *context = &getContext();
  for (auto [op, run] : copies) {
    Location loc = op.getLoc();
    rewriter.setInsertionPoint(op);
    OpOperand *input = op.getDpsInputOperand(0);
    Value init = op.getDpsInits()[0];
    int64_t rank = op.getNumLoops();
    AffineMap read = op.getMatchingIndexingMap(input);
    // Where each run starts: the read with the innermost index at 0.
    AffineExpr innermost = getAffineDimExpr(rank - 1, context);
    SmallVector<AffineMap> starts;
    for (AffineExpr result : read.getResults())
      starts.push_back(AffineMap::get(
          rank, 0, result.replace(innermost, getAffineConstantExpr(0, context)),
          context));
    SmallVector<OpFoldResult> sizes =
        tensor::getMixedSizes(rewriter, loc, init);
    Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
    // A loop per outer dimension but those of extent 1.
    SmallVector<int64_t> loopDims;
    SmallVector<Value> upperBounds;
    for (auto [dim, size] : llvm::enumerate(ArrayRef(sizes).drop_back())) {
      if (isConstantIntValue(size, 1))
        continue;
      loopDims.push_back(dim);
      upperBounds.push_back(
          getValueOrCreateConstantIndexOp(rewriter, loc, size));
    }
    SmallVector<Value> lowerBounds(loopDims.size(), zero),
        steps(loopDims.size(), one);
    Type element = getElementTypeOrSelf(init.getType());
    auto vectorType = VectorType::get({run}, element);
    Value padding = arith::ConstantOp::create(rewriter, loc, element,
                                              rewriter.getZeroAttr(element));
    int64_t inputRank = read.getNumResults();
    scf::LoopNest nest = scf::buildLoopNest(
        rewriter, loc, lowerBounds, upperBounds, steps, ValueRange{init},
        [&](OpBuilder &b, Location loc, ValueRange ivs,
            ValueRange results) -> scf::ValueVector {
          SmallVector<Value> position(rank, zero);
          for (auto [dim, iv] : llvm::zip(loopDims, ivs))
            position[dim] = iv;
          SmallVector<Value> indices;
          for (AffineMap start : starts)
            indices.push_back(getValueOrCreateConstantIndexOp(
                b, loc,
                affine::makeComposedFoldedAffineApply(
                    b, loc, start, getAsOpFoldResult(position))));
          Value runValue = vector::TransferReadOp::create(
              b, loc, vectorType, input->get(), indices,
              AffineMapAttr::get(
                  AffineMap::getMinorIdentityMap(inputRank, 1, context)),
              padding, /*mask=*/Value(), b.getBoolArrayAttr({true}));
          auto write = vector::TransferWriteOp::create(
              b, loc, runValue, results.front(), position,
              AffineMapAttr::get(
                  AffineMap::getMinorIdentityMap(rank, 1, context)),
              /*mask=*/Value(), b.getBoolArrayAttr({true}));
          return {write.getResult()};
        });
    // Unrolled, the nest of a small copy was as slow to compile as the
    // scalar one.
    annotateLoops(nest.loops, /*noVectorize=*/false);
    rewriter.replaceOp(op, nest.results);
    ++numVectorized;
  }
}

} // namespace mlir::google::cpu
