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
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

using namespace mlir;

namespace mlir::google::cpu {

/// The dimensions of a transpose that move together: the input's
/// non-unit dimensions in runs that stay consecutive in the output, each
/// run a list of input dimensions with at most one dynamic extent (MLIR
/// 22's --expand-strided-metadata crashes on a reshape group with two:
/// test/Upstream/expand-strided-metadata-two-dynamic.mlir); runs in output
/// order.
static SmallVector<SmallVector<int64_t>> getMovingRuns(RankedTensorType input,
                                                       ArrayRef<int64_t> perm) {
  auto isUnit = [&](int64_t d) { return input.getDimSize(d) == 1; };
  SmallVector<SmallVector<int64_t>> runs;
  int64_t previous = -1;
  for (int64_t d : perm) {
    if (isUnit(d))
      continue;
    // The same run when no non-unit input dimension lies between them.
    auto isDynamic = [&](int64_t m) { return input.isDynamicDim(m); };
    bool follows = previous >= 0 && d > previous &&
                   llvm::all_of(llvm::seq(previous + 1, d), isUnit) &&
                   !(isDynamic(d) && llvm::any_of(runs.back(), isDynamic));
    if (!follows)
      runs.emplace_back();
    runs.back().push_back(d);
    previous = d;
  }
  return runs;
}

/// The reassociation that collapses `rank` dimensions into one group per
/// run starting at `starts` (increasing; the dimensions before the first
/// start join the first group).
static SmallVector<ReassociationIndices> getGroups(int64_t rank,
                                                   ArrayRef<int64_t> starts) {
  SmallVector<ReassociationIndices> groups;
  for (auto [i, start] : llvm::enumerate(starts)) {
    int64_t begin = i == 0 ? 0 : start;
    int64_t end = i + 1 == starts.size() ? rank : starts[i + 1];
    groups.emplace_back(llvm::to_vector(llvm::seq(begin, end)));
  }
  return groups;
}

/// Step 0: a transpose becomes one of the fewest dimensions that moves the
/// same data: unit dimensions dropped, dimensions that stay together
/// merged (256x10x10x1 -> 1x10x10x256 is a 256x100 matrix's transpose).
/// The reshapes around it are free; the tiles of tileTransposes, or an
/// elementwise copy when no dimension moves, then apply.
void CpuScheduler::collapseTransposes(IRRewriter &rewriter) {
  SmallVector<linalg::TransposeOp> ops;
  getOperation()->walk([&](linalg::TransposeOp op) {
    // (Nothing moves in an empty tensor: left to the loops.)
    if (op.hasPureTensorSemantics() && !isScheduled(op) && !hasEmptyLoop(op))
      ops.push_back(op);
  });
  for (linalg::TransposeOp op : ops) {
    auto inputType = cast<RankedTensorType>(op.getInput().getType());
    int64_t rank = inputType.getRank();
    ArrayRef<int64_t> perm = op.getPermutation();
    SmallVector<SmallVector<int64_t>> runs = getMovingRuns(inputType, perm);
    if (runs.empty() || static_cast<int64_t>(runs.size()) == rank)
      continue;
    // The runs in input order, and the collapsed permutation.
    SmallVector<int64_t> inputOrder =
        llvm::to_vector(llvm::seq<int64_t>(0, runs.size()));
    llvm::sort(inputOrder, [&](int64_t a, int64_t b) {
      return runs[a].front() < runs[b].front();
    });
    SmallVector<int64_t> inputStarts, collapsedPerm(runs.size());
    for (auto [position, run] : llvm::enumerate(inputOrder)) {
      inputStarts.push_back(runs[run].front());
      collapsedPerm[run] = position;
    }
    SmallVector<int64_t> outputStarts;
    for (const SmallVector<int64_t> &run : runs)
      outputStarts.push_back(llvm::find(perm, run.front()) - perm.begin());
    Location loc = op.getLoc();
    rewriter.setInsertionPoint(op);
    Value collapsed = tensor::CollapseShapeOp::create(
        rewriter, loc, op.getInput(), getGroups(rank, inputStarts));
    Value moved = collapsed;
    if (runs.size() > 1) {
      SmallVector<OpFoldResult> collapsedSizes =
          tensor::getMixedSizes(rewriter, loc, collapsed);
      SmallVector<OpFoldResult> movedSizes =
          applyPermutation(collapsedSizes, collapsedPerm);
      Value init = tensor::EmptyOp::create(rewriter, loc, movedSizes,
                                           inputType.getElementType());
      moved = linalg::TransposeOp::create(rewriter, loc, collapsed, init,
                                          collapsedPerm)
                  ->getResult(0);
    }
    auto expanded = tensor::ExpandShapeOp::create(
        rewriter, loc, op.getInit().getType(), moved,
        getGroups(rank, outputStarts),
        tensor::getMixedSizes(rewriter, loc, op.getInit()));
    rewriter.replaceOp(op, expanded.getResult());
  }
}

/// Small transposes (isSmallTranspose) as scalar loops over the output,
/// which LLVM neither vectorizes (gathers) nor unrolls.
void CpuScheduler::loopSmallTransposes(IRRewriter &rewriter) {
  SmallVector<linalg::TransposeOp> ops;
  getOperation()->walk([&](linalg::TransposeOp op) {
    if (isSmallTranspose(op))
      ops.push_back(op);
  });
  for (linalg::TransposeOp op : ops) {
    Location loc = op.getLoc();
    rewriter.setInsertionPoint(op);
    auto type = cast<RankedTensorType>(op.getInit().getType());
    ArrayRef<int64_t> perm = op.getPermutation();
    Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
    SmallVector<Value> lowerBounds(type.getRank(), zero),
        steps(type.getRank(), one), upperBounds;
    for (int64_t size : type.getShape())
      upperBounds.push_back(
          arith::ConstantIndexOp::create(rewriter, loc, size));
    scf::LoopNest nest = scf::buildLoopNest(
        rewriter, loc, lowerBounds, upperBounds, steps,
        ValueRange{op.getInit()},
        [&](OpBuilder &b, Location loc, ValueRange ivs,
            ValueRange results) -> scf::ValueVector {
          SmallVector<Value> source(ivs.size());
          for (auto [d, iv] : llvm::enumerate(ivs))
            source[perm[d]] = iv;
          Value element =
              tensor::ExtractOp::create(b, loc, op.getInput(), source);
          return {
              tensor::InsertOp::create(b, loc, element, results.front(), ivs)
                  .getResult()};
        });
    annotateLoops(nest.loops, /*noVectorize=*/true);
    rewriter.replaceOp(op, nest.results);
    ++numTiled;
  }
}

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
