//===- TransposeSchedule.cpp - transposes in square vector tiles ----------===//
//
// A transpose that moves the input's innermost dimension reads it with
// strided loads element by element; LLVM's loop vectorizer turned each into
// gathers, slow to run and slow to compile (a 250x256 transpose cost 30 ms
// of LLVM's time). Here it goes in lanes x lanes tiles: one masked vector
// load per input row of the tile, a register transpose (shuffles), one
// masked vector store per output row. Masks cover the partial tiles, so a
// transpose is one loop nest whatever its extents.
//
//===----------------------------------------------------------------------===//

#include "CpuSchedules.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

using namespace mlir;

namespace mlir::google::cpu {

LogicalResult CpuScheduler::tileTransposes(IRRewriter &rewriter) {
  SmallVector<std::pair<linalg::TransposeOp, int64_t>> ops;
  getOperation()->walk([&](linalg::TransposeOp op) {
    if (std::optional<int64_t> lanes = getTransposeTile(op, vectorBits))
      ops.push_back({op, *lanes});
  });
  MLIRContext *context = &getContext();
  SmallVector<Operation *> registerTransposes;
  for (auto [op, tile] : ops) {
    Location loc = op.getLoc();
    rewriter.setInsertionPoint(op);
    Value input = op.getInput();
    auto type = cast<RankedTensorType>(op.getInit().getType());
    int64_t rank = type.getRank();
    ArrayRef<int64_t> perm = op.getPermutation();
    // The output dimension the input's innermost one becomes (the tiles'
    // rows) and the output's innermost one (their columns); one loop per
    // other dimension, around a 2-D transpose of slices.
    int64_t rowDim = llvm::find(perm, rank - 1) - perm.begin();
    int64_t columnDim = rank - 1;
    SmallVector<OpFoldResult> outputSizes =
        tensor::getMixedSizes(rewriter, loc, op.getInit());
    Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
    Value step = arith::ConstantIndexOp::create(rewriter, loc, tile);
    SmallVector<Value> outerBounds;
    SmallVector<int64_t> outerDims;
    for (int64_t d = 0; d < rank; ++d)
      if (d != rowDim && d != columnDim) {
        outerDims.push_back(d);
        outerBounds.push_back(
            getValueOrCreateConstantIndexOp(rewriter, loc, outputSizes[d]));
      }
    Value rowExtent =
        getValueOrCreateConstantIndexOp(rewriter, loc, outputSizes[rowDim]);
    Value columnExtent =
        getValueOrCreateConstantIndexOp(rewriter, loc, outputSizes[columnDim]);
    Type element = type.getElementType();
    auto vectorType = VectorType::get({tile, tile}, element);
    auto maskType = VectorType::get({tile, tile}, rewriter.getI1Type());
    AffineExpr end, start;
    bindDims(context, end, start);
    // min(tile, extent - iv): a tile's extent along a dimension.
    AffineMap leftMap = AffineMap::get(
        2, 0, {getAffineConstantExpr(tile, context), end - start}, context);
    Value padding = arith::ConstantOp::create(rewriter, loc, element,
                                              rewriter.getZeroAttr(element));
    SmallVector<bool> inBounds(2, true);
    auto transposeSlices = [&](OpBuilder &b, Location loc,
                               ValueRange outerIvs,
                               ValueRange results) -> scf::ValueVector {
      SmallVector<OpFoldResult> outOffsets(rank, b.getIndexAttr(0));
      SmallVector<OpFoldResult> outSizes(rank, b.getIndexAttr(1));
      SmallVector<OpFoldResult> strides(rank, b.getIndexAttr(1));
      for (auto [d, iv] : llvm::zip(outerDims, outerIvs))
        outOffsets[d] = iv;
      outSizes[rowDim] = outputSizes[rowDim];
      outSizes[columnDim] = outputSizes[columnDim];
      SmallVector<OpFoldResult> inOffsets(rank), inSizes(rank);
      for (int64_t d = 0; d < rank; ++d) {
        inOffsets[perm[d]] = outOffsets[d];
        inSizes[perm[d]] = outSizes[d];
      }
      // [columns, rows] of the input, [rows, columns] of the output.
      // (A matrix is its own slice.)
      auto slice = [&](Value whole, ArrayRef<OpFoldResult> offsets,
                       ArrayRef<OpFoldResult> sizes) -> Value {
        if (rank == 2)
          return whole;
        return tensor::ExtractSliceOp::create(
            b, loc,
            tensor::ExtractSliceOp::inferCanonicalRankReducedResultType(
                2, cast<RankedTensorType>(whole.getType()), sizes),
            whole, offsets, sizes, strides);
      };
      Value inputSlice = slice(input, inOffsets, inSizes);
      Value output = results.front();
      Value outputSlice = slice(output, outOffsets, outSizes);
      scf::LoopNest tiles = scf::buildLoopNest(
          b, loc, {zero, zero}, {rowExtent, columnExtent}, {step, step},
          ValueRange{outputSlice},
          [&](OpBuilder &b, Location loc, ValueRange ivs,
              ValueRange tileResults) -> scf::ValueVector {
            Value rows = affine::AffineMinOp::create(
                b, loc, leftMap, ValueRange{rowExtent, ivs[0]});
            Value columns = affine::AffineMinOp::create(
                b, loc, leftMap, ValueRange{columnExtent, ivs[1]});
            Value readMask = vector::CreateMaskOp::create(
                b, loc, maskType, ValueRange{columns, rows});
            Value read = vector::TransferReadOp::create(
                b, loc, vectorType, inputSlice, ValueRange{ivs[1], ivs[0]},
                AffineMapAttr::get(
                    AffineMap::getMultiDimIdentityMap(2, context)),
                padding, readMask, b.getBoolArrayAttr(inBounds));
            auto transposed = vector::TransposeOp::create(
                b, loc, read, ArrayRef<int64_t>{1, 0});
            registerTransposes.push_back(transposed);
            Value writeMask = vector::CreateMaskOp::create(
                b, loc, maskType, ValueRange{rows, columns});
            auto write = vector::TransferWriteOp::create(
                b, loc, transposed.getResult(), tileResults.front(), ivs,
                AffineMapAttr::get(
                    AffineMap::getMultiDimIdentityMap(2, context)),
                writeMask, b.getBoolArrayAttr(inBounds));
            return {write.getResult()};
          });
      if (rank == 2)
        return tiles.results;
      Value inserted = tensor::InsertSliceOp::create(
          b, loc, tiles.results.front(), output, outOffsets, outSizes,
          strides);
      return {inserted};
    };
    SmallVector<Value> outerZeros(outerDims.size(), zero);
    SmallVector<Value> outerSteps(outerDims.size(), one);
    scf::LoopNest nest = scf::buildLoopNest(
        rewriter, loc, outerZeros, outerBounds, outerSteps,
        ValueRange{op.getInit()}, transposeSlices);
    rewriter.replaceOp(op, nest.results);
    ++numVectorized;
  }
  if (registerTransposes.empty())
    return success();
  // 16 x 16 tiles as AVX-512 shuffles (unpacks and 128-bit lane
  // permutes); 8 x 8 ones as one shuffle.
  RewritePatternSet patterns(context);
  vector::populateVectorTransposeLoweringPatterns(
      patterns, vectorBits / 32 == 16
                    ? vector::VectorTransposeLowering::Shuffle16x16
                    : vector::VectorTransposeLowering::Shuffle1D);
  if (failed(applyOpPatternsGreedily(registerTransposes, std::move(patterns))))
    return getOperation()->emitError("cannot lower a tile's transpose");
  return success();
}

} // namespace mlir::google::cpu
