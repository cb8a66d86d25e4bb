//===- MatmulSchedule.cpp - register-blocked matmuls ----------------------===//

#include "CpuSchedules.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/Utils/Utils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/IR/Dominance.h"
#include "mlir/Transforms/CSE.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/LoopInvariantCodeMotionUtils.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;

namespace mlir::google::cpu {

/// Step 0: a matmul of a transposed A reads A^T where it is, through its
/// maps (getTransposedLhsMaps), instead of a transposed copy: gradients
/// take A^T @ B for every weight.
void CpuScheduler::foldTransposedLhs(IRRewriter &rewriter) {
  SmallVector<linalg::MatmulOp> matmuls;
  getOperation()->walk([&](linalg::MatmulOp matmul) {
    if (getFoldableLhsTranspose(matmul))
      matmuls.push_back(matmul);
  });
  for (linalg::MatmulOp matmul : matmuls) {
    linalg::TransposeOp transpose = getFoldableLhsTranspose(matmul);
    rewriter.setInsertionPoint(matmul);
    auto folded = createTransposedLhsMatmul(
        rewriter, matmul.getLoc(), transpose.getInput(),
        matmul.getDpsInputs()[1], matmul.getDpsInits()[0]);
    rewriter.replaceOp(matmul, folded->getResults());
    rewriter.eraseOp(transpose);
  }
}

/// Step 1: blocks of the epilogue (or the matmul) with the fill and the
/// matmul fused in. A dynamic M is split first: the rows of full blocks,
/// and the last M mod MR rows, which run in blocks of their own
/// (tileLastRows).
LogicalResult CpuScheduler::tileMatmul(IRRewriter &rewriter,
                                       linalg::LinalgOp matmul) {
  linalg::GenericOp epilogue = getEpilogue(matmul);
  // The tiled code trusts the operands' extents: check them first.
  rewriter.setInsertionPoint(matmul);
  google::checkLinalgExtents(matmul);
  if (epilogue)
    google::checkLinalgExtents(epilogue);
  auto type = cast<RankedTensorType>(matmul->getResult(0).getType());
  if (type.getRank() != 2 || !type.isDynamicDim(0))
    return tileRowBlocks(rewriter, matmul, /*fullRows=*/false);
  int64_t rows =
      chooseBlock(ShapedType::kDynamic, type.getDimSize(1), vectorBits).rows;
  FailureOr<RowSplit> parts =
      splitRows(rewriter, matmul, epilogue, [&](Location loc, OpFoldResult m) {
        AffineExpr s0 = rewriter.getAffineSymbolExpr(0);
        return affine::makeComposedFoldedAffineApply(
            rewriter, loc, s0.floorDiv(rows) * rows, {m});
      });
  if (failed(parts))
    return matmul->emitError("cannot split off the last rows");
  if (failed(tileRowBlocks(rewriter, parts->matmuls[0], /*fullRows=*/true)))
    return failure();
  return tileLastRows(rewriter, parts->matmuls[1], parts->roots[1], rows);
}

/// Splits the fill, `matmul` and `epilogue` along M at `splitAt(M)`.
FailureOr<CpuScheduler::RowSplit> CpuScheduler::splitRows(
    IRRewriter &rewriter, linalg::LinalgOp matmul, linalg::GenericOp epilogue,
    function_ref<OpFoldResult(Location, OpFoldResult)> splitAt) {
  auto root =
      epilogue ? cast<linalg::LinalgOp>(epilogue.getOperation()) : matmul;
  auto fill = matmul.getDpsInits()[0].getDefiningOp<linalg::FillOp>();
  if (fill && !llvm::all_of(fill->getUsers(), [&](Operation *user) {
        return user == matmul || isa<tensor::DimOp>(user);
      }))
    fill = nullptr;
  rewriter.setInsertionPoint(root);
  Location loc = root.getLoc();
  OpFoldResult splitPoint =
      splitAt(loc, linalg::createFoldedDimOp(rewriter, loc,
                                             matmul.getDpsInits()[0], 0));
  auto [first, second] = linalg::splitOp(
      rewriter, cast<TilingInterface>(root.getOperation()), 0, splitPoint);
  if (!first || !second)
    return failure();
  SmallVector<linalg::LinalgOp> parts = {
      cast<linalg::LinalgOp>(first.getOperation()),
      cast<linalg::LinalgOp>(second.getOperation())};
  SmallVector<linalg::LinalgOp> partMatmuls = parts;
  if (epilogue) {
    // Each part of the epilogue computes its own rows of the product.
    for (auto [part, partMatmul] : llvm::zip_equal(parts, partMatmuls)) {
      partMatmul = nullptr;
      for (OpOperand *operand : part.getDpsInputOperands()) {
        auto slice = operand->get().getDefiningOp<tensor::ExtractSliceOp>();
        if (!slice || slice.getSource() != matmul->getResult(0))
          continue;
        rewriter.setInsertionPoint(slice);
        FailureOr<TilingResult> product =
            tensor::replaceExtractSliceWithTiledProducer(
                rewriter, slice, cast<OpResult>(matmul->getResult(0)));
        if (failed(product) || product->tiledOps.empty())
          return failure();
        rewriter.replaceOp(slice, product->tiledValues);
        partMatmul = dyn_cast<linalg::MatmulOp>(product->tiledOps.front());
      }
      if (!partMatmul)
        return failure();
    }
    // The checks of the extents are left: the init has the same ones.
    rewriter.replaceUsesWithIf(
        matmul->getResult(0), matmul.getDpsInits()[0],
        [](OpOperand &use) { return isa<tensor::DimOp>(use.getOwner()); });
    if (!matmul->use_empty())
      return failure();
    rewriter.eraseOp(matmul);
  }
  if (fill) {
    // Each part fills its own rows, which tiling fuses into its blocks.
    // Between them they cover the product: the whole fill is not read.
    for (linalg::LinalgOp partMatmul : partMatmuls) {
      OpOperand *init = partMatmul.getDpsInitOperand(0);
      rewriter.setInsertionPoint(partMatmul);
      auto partFill = linalg::FillOp::create(rewriter, fill.getLoc(),
                                             fill.getInputs(), init->get());
      rewriter.modifyOpInPlace(partMatmul,
                               [&] { init->set(partFill.getResult(0)); });
    }
    rewriter.replaceOp(fill, fill.getOutputs());
  }
  return RowSplit{{partMatmuls[0], partMatmuls[1]}, {parts[0], parts[1]}};
}

/// Tiles `matmul`'s root into MR x NR blocks, with the matmul and its
/// fill fused in. `fullRows`: M is known to be a multiple of MR.
LogicalResult CpuScheduler::tileRowBlocks(IRRewriter &rewriter,
                                          linalg::LinalgOp matmul,
                                          bool fullRows) {
  linalg::GenericOp epilogue = getEpilogue(matmul);
  auto root =
      epilogue ? cast<linalg::LinalgOp>(epilogue.getOperation()) : matmul;
  auto type = cast<RankedTensorType>(matmul->getResult(0).getType());
  bool batched = type.getRank() == 3;
  BlockShape block =
      chooseBlock(type.getDimSize(type.getRank() - 2),
                  type.getDimSize(type.getRank() - 1), vectorBits);
  SmallVector<int64_t> sizes = {block.rows, block.columns};
  SmallVector<int64_t> interchange = {1, 0};
  if (batched) {
    sizes.insert(sizes.begin(), 1);
    interchange = {0, 2, 1};
  }
  FailureOr<scf::SCFTileAndFuseResult> tiled =
      tileMatmulRoot(rewriter, matmul, root, sizes, interchange);
  if (failed(tiled))
    return failure();
  for (LoopLikeOpInterface loop : tiled->loops)
    loop->setAttr(kBlockLoopAttr, rewriter.getUnitAttr());
  if (fullRows) {
    auto rowLoop = cast<scf::ForOp>(tiled->loops.back().getOperation());
    rowLoop->removeAttr(kBlockLoopAttr);
    assumeFullBlocks(rewriter, rowLoop, block.rows);
  }
  // The reduction loop, whichever way A is stored.
  int64_t k = matmul.getStaticLoopRanges().back();
  if (isWorthRowThreads(type, k, block))
    tiled->loops.back()->setAttr(google::kParallelLoopAttrName,
                                 rewriter.getUnitAttr());
  else if (isWorthThreads(type, k, block))
    tiled->loops.front()->setAttr(google::kParallelLoopAttrName,
                                  rewriter.getUnitAttr());

  linalg::LinalgOp tiledMatmul;
  for (Operation *op : tiled->tiledAndFusedOps)
    if (isa<linalg::MatmulOp, linalg::BatchMatmulOp>(op))
      tiledMatmul = cast<linalg::LinalgOp>(op);
  if (!batched &&
      shouldPackRhs(type, cast<ShapedType>(matmul.getDpsInputs()[1].getType()),
                    block))
    packRhs(rewriter, tiledMatmul, tiled->loops, block,
            /*dynamicRows=*/type.isDynamicDim(0));
  ++numTiled;
  return success();
}

/// The last M mod MR rows (a dynamic number r) of `matmul` and `root`.
/// More than MR/2 rows run as one full block of MR rows, on copies of
/// their operands padded with zeros (padLastRows): B streams through the
/// registers once, as for the full blocks, and the column blocks are
/// worth threads. (At 784x256 and 7 rows, 1.3 times faster than 4x64 +
/// 2x128 + 1x256 blocks on 1 thread, 1.7 on 2; at 4 rows, 1.6 times
/// slower than one 4x64 block on 1 thread.)
/// Fewer rows run in column blocks as wide as a one-row block can be
/// (16 vectors with AVX-512): each is split into blocks of 4, 2 and 1
/// rows by splitPartialRows, and those by columns (4x64, 2x128, 1x256)
/// by splitColumns. B streams through whole rows: 1x128 blocks, half
/// rows of B, ran 1.7 times slower at M = 1.
LogicalResult CpuScheduler::tileLastRows(IRRewriter &rewriter,
                                         linalg::LinalgOp matmul,
                                         linalg::LinalgOp root,
                                         int64_t blockRows) {
  int64_t half = blockRows / 2;
  if (canPadRows(matmul, root)) {
    // Rows [0, r) when r <= MR/2, else rows [0, 0): the rest is padded.
    // As r < MR, r floordiv (MR/2 + 1) is 0 or 1, so the split point is
    // min(r, MR - MR * (r floordiv (MR/2 + 1))). An affine min, not a
    // select: value bounds of a select cost bufferization 4 times its
    // time when it compares the slices of the split.
    FailureOr<RowSplit> parts = splitRows(
        rewriter, matmul, dyn_cast<linalg::GenericOp>(root.getOperation()),
        [&](Location loc, OpFoldResult rows) -> OpFoldResult {
          AffineExpr r = rewriter.getAffineSymbolExpr(0);
          AffineMap map = AffineMap::get(
              0, 1, {r, blockRows - r.floorDiv(half + 1) * blockRows},
              rewriter.getContext());
          return affine::makeComposedFoldedAffineMin(rewriter, loc, map,
                                                     {rows});
        });
    if (failed(parts))
      return root->emitError("cannot split the last rows");
    if (failed(padLastRows(rewriter, parts->matmuls[1], parts->roots[1],
                           blockRows)))
      return failure();
    matmul = parts->matmuls[0];
    root = parts->roots[0];
    for (Operation *op : getChain(matmul, root))
      op->setAttr(kMaxRowsAttr, rewriter.getI64IntegerAttr(half));
  }
  int64_t lanes = std::max<int64_t>(vectorBits / 32, 1);
  int64_t n = cast<ShapedType>(root->getResult(0).getType()).getDimSize(1);
  int64_t columns = lanes * maxBlockVectors(1, vectorBits);
  if (!ShapedType::isDynamic(n) && n <= columns) {
    // All N columns: splitPartialRows and splitColumns make the blocks.
    for (Operation *op : getChain(matmul, root)) {
      op->setAttr(kVectorizeAttr, rewriter.getUnitAttr());
      op->setAttr(kMatmulBlockAttr, rewriter.getUnitAttr());
    }
    return success();
  }
  FailureOr<scf::SCFTileAndFuseResult> tiled =
      tileMatmulRoot(rewriter, matmul, root, {0, columns}, /*interchange=*/{});
  if (failed(tiled))
    return failure();
  Operation *columnLoop = tiled->loops.front();
  columnLoop->setAttr(kBlockLoopAttr, rewriter.getUnitAttr());
  columnLoop->setAttr(google::kParallelLoopAttrName, rewriter.getUnitAttr());
  return success();
}

/// The fill of `matmul`'s init (when only `matmul` reads it), `matmul`
/// and its epilogue `root`, in this order.
SmallVector<Operation *> CpuScheduler::getChain(linalg::LinalgOp matmul,
                                                linalg::LinalgOp root) {
  SmallVector<Operation *> chain;
  auto fill = matmul.getDpsInits()[0].getDefiningOp<linalg::FillOp>();
  if (fill && fill->hasOneUse())
    chain.push_back(fill);
  chain.push_back(matmul);
  if (root != matmul)
    chain.push_back(root);
  return chain;
}

/// Whether padLastRows can pad every operand of `matmul` and `root`.
bool CpuScheduler::canPadRows(linalg::LinalgOp matmul, linalg::LinalgOp root) {
  for (linalg::LinalgOp op : {matmul, root})
    for (OpOperand &operand : op->getOpOperands())
      if (!op.getMatchingIndexingMap(&operand).isProjectedPermutation(
              /*allowZeroInResults=*/true))
        return false;
  return true;
}

/// Runs the rows of `root` (at most MR, a dynamic number) as one block
/// of MR = `blockRows` rows, in a loop of at most one trip: its copies
/// of the fill, `matmul` and `root` read their operands padded with
/// zero rows, and their first rows are the result.
LogicalResult CpuScheduler::padLastRows(IRRewriter &rewriter,
                                        linalg::LinalgOp matmul,
                                        linalg::LinalgOp root,
                                        int64_t blockRows) {
  SmallVector<int64_t> sizes(root.getNumLoops(), 0);
  sizes[0] = blockRows;
  Operation *matmulOp = matmul;
  FailureOr<scf::SCFTileAndFuseResult> tiled = tileAndFuse(
      rewriter, root, sizes, /*interchange=*/{},
      [&](Operation *op) { return op == matmulOp || isa<linalg::FillOp>(op); });
  if (failed(tiled))
    return root->emitError("cannot tile the last rows");
  SmallVector<Operation *> chain(tiled->tiledAndFusedOps.begin(),
                                 tiled->tiledAndFusedOps.end());
  Block *body = chain.front()->getBlock();
  if (!llvm::all_of(chain, [&](Operation *op) {
        return op->getBlock() == body && isa<linalg::LinalgOp>(op);
      }))
    return root->emitError("the last rows' ops are not in one block");
  llvm::sort(chain,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  Operation *tiledRoot = chain.back();
  rewriter.setInsertionPoint(tiledRoot);
  IRMapping padded;
  linalg::LinalgOp paddedMatmul;
  for (Operation *op : chain) {
    auto linalgOp = cast<linalg::LinalgOp>(op);
    SmallVector<Value> operands;
    for (OpOperand &operand : op->getOpOperands())
      operands.push_back(
          padRows(rewriter, linalgOp, operand, padded, blockRows));
    Operation *copy = rewriter.clone(*op);
    copy->setOperands(operands);
    for (auto [result, copyResult] :
         llvm::zip_equal(op->getResults(), copy->getResults())) {
      auto type = cast<RankedTensorType>(result.getType());
      SmallVector<int64_t> shape(type.getShape());
      shape[0] = blockRows;
      copyResult.setType(type.clone(shape));
    }
    padded.map(op->getResults(), copy->getResults());
    if (isa<linalg::MatmulOp>(copy))
      paddedMatmul = cast<linalg::LinalgOp>(copy);
  }
  Value result = tiledRoot->getResult(0);
  auto type = cast<RankedTensorType>(result.getType());
  Location loc = tiledRoot->getLoc();
  SmallVector<OpFoldResult> zeros(type.getRank(), rewriter.getIndexAttr(0));
  SmallVector<OpFoldResult> ones(type.getRank(), rewriter.getIndexAttr(1));
  Value rows = tensor::ExtractSliceOp::create(
      rewriter, loc, type, padded.lookup(result), zeros,
      tensor::getMixedSizes(
          rewriter, loc,
          cast<DestinationStyleOpInterface>(tiledRoot).getDpsInits()[0]),
      ones);
  rewriter.replaceAllUsesWith(result, rows);
  for (Operation *op : llvm::reverse(chain))
    if (op->use_empty())
      rewriter.eraseOp(op);
  if (!paddedMatmul)
    return root->emitError("the last rows lost their matmul");
  return tileRowBlocks(rewriter, paddedMatmul, /*fullRows=*/false);
}

/// `operand` of `op` with MR = `blockRows` rows: the copy of its
/// producer in `padded`, or it padded high with zero rows (an
/// empty tensor where the payload does not read it); operands without
/// rows (B, the bias) as they are.
Value CpuScheduler::padRows(IRRewriter &rewriter, linalg::LinalgOp op,
                            OpOperand &operand, const IRMapping &padded,
                            int64_t blockRows) {
  Value value = operand.get();
  if (Value copy = padded.lookupOrNull(value))
    return copy;
  auto type = dyn_cast<RankedTensorType>(value.getType());
  std::optional<unsigned> position =
      op.getMatchingIndexingMap(&operand).getResultPosition(
          rewriter.getAffineDimExpr(0));
  if (!type || !position)
    return value;
  Location loc = op.getLoc();
  if (op.isDpsInit(&operand) && !op.payloadUsesValueFromOperand(&operand)) {
    SmallVector<OpFoldResult> sizes =
        tensor::getMixedSizes(rewriter, loc, value);
    sizes[*position] = rewriter.getIndexAttr(blockRows);
    return tensor::EmptyOp::create(rewriter, loc, sizes,
                                   type.getElementType());
  }
  SmallVector<int64_t> shape(type.getShape());
  shape[*position] = blockRows;
  SmallVector<Value> dynamicSizes;
  for (auto [d, extent] : llvm::enumerate(shape))
    if (ShapedType::isDynamic(extent))
      dynamicSizes.push_back(tensor::DimOp::create(rewriter, loc, value, d));
  Value zero = arith::ConstantOp::create(
      rewriter, loc, rewriter.getZeroAttr(type.getElementType()));
  return tensor::createPadHighOp(type.clone(shape), value, zero,
                                 /*nofold=*/false, loc, rewriter,
                                 dynamicSizes);
}

/// Tiles `root` (the epilogue, or `matmul`) with `matmul` and the fill
/// fused in; marks the blocks' ops.
FailureOr<scf::SCFTileAndFuseResult>
CpuScheduler::tileMatmulRoot(IRRewriter &rewriter, linalg::LinalgOp matmul,
                             linalg::LinalgOp root, ArrayRef<int64_t> sizes,
                             ArrayRef<int64_t> interchange) {
  Operation *matmulOp = matmul;
  FailureOr<scf::SCFTileAndFuseResult> tiled =
      tileAndFuse(rewriter, root, sizes, interchange, [&](Operation *op) {
        return op == matmulOp || isa<linalg::FillOp>(op);
      });
  if (failed(tiled))
    return root->emitError("cannot tile into register blocks");
  bool fused = false;
  for (Operation *op : tiled->tiledAndFusedOps) {
    op->setAttr(kVectorizeAttr, rewriter.getUnitAttr());
    op->setAttr(kMatmulBlockAttr, rewriter.getUnitAttr());
    fused |= isa<linalg::MatmulOp, linalg::BatchMatmulOp>(op);
  }
  if (!fused)
    return root->emitError("the matmul was not fused into its blocks");
  return tiled;
}

/// In `loop`, whose trip ends at a multiple of `size`, every block is
/// `size` long: min(size, ub - iv) becomes `size` (the bounds
/// simplification does not see through the row count composed into it).
void CpuScheduler::assumeFullBlocks(IRRewriter &rewriter, scf::ForOp loop,
                                    int64_t size) {
  Value iv = loop.getInductionVar();
  SmallVector<affine::AffineMinOp> mins;
  loop.getBody()->walk([&](affine::AffineMinOp min) {
    AffineMap map = min.getAffineMap();
    if (map.getNumResults() == 2 && llvm::is_contained(min.getOperands(), iv) &&
        llvm::any_of(map.getResults(), [&](AffineExpr result) {
          auto constant = dyn_cast<AffineConstantExpr>(result);
          return constant && constant.getValue() == size;
        }))
      mins.push_back(min);
  });
  for (affine::AffineMinOp min : mins) {
    rewriter.setInsertionPoint(min);
    rewriter.replaceOpWithNewOp<arith::ConstantIndexOp>(min, size);
  }
}

/// The roots of the blocks the block loops insert into their results.
SmallVector<linalg::LinalgOp> CpuScheduler::getBlockRoots() {
  SmallVector<linalg::LinalgOp> roots;
  getOperation()->walk([&](linalg::LinalgOp op) {
    if (!op->hasAttr(kVectorizeAttr) || op->getNumResults() != 1 ||
        !op.hasPureTensorSemantics() ||
        !isa<RankedTensorType>(op->getResult(0).getType()))
      return;
    if (llvm::all_of(op->getUsers(), [](Operation *user) {
          return isa<tensor::InsertSliceOp>(user);
        }))
      roots.push_back(op);
  });
  return roots;
}

/// Tiles `root` by `sizes` with the block's other ops fused in, marks
/// the new loops for peeling and the new ops for vectorizing.
FailureOr<scf::SCFTileAndFuseResult>
CpuScheduler::tileBlock(IRRewriter &rewriter, linalg::LinalgOp root,
                        ArrayRef<int64_t> sizes) {
  FailureOr<scf::SCFTileAndFuseResult> blocks = tileAndFuse(
      rewriter, root, sizes, /*interchange=*/{},
      [](Operation *producer) { return producer->hasAttr(kVectorizeAttr); });
  if (failed(blocks))
    return failure();
  for (Operation *op : blocks->tiledAndFusedOps) {
    op->setAttr(kVectorizeAttr, rewriter.getUnitAttr());
    op->setAttr(kMatmulBlockAttr, rewriter.getUnitAttr());
  }
  return blocks;
}

/// Step 2b: a block of fewer rows than MR, a dynamic number r (the last
/// rows of a dynamic M, see tileLastRows), runs as at most one block
/// of each power of two below MR (7 rows: 4 + 2 + 1; up to its
/// google.max_rows), which vectorize: the block's root (the epilogue,
/// or the matmul) is tiled by rows with its matmul and fill fused in,
/// and the row loop peeled.
LogicalResult CpuScheduler::splitPartialRows(IRRewriter &rewriter) {
  int64_t rows =
      chooseBlock(ShapedType::kDynamic, ShapedType::kDynamic, vectorBits).rows;
  for (int64_t size = llvm::PowerOf2Ceil(rows) / 2; size >= 1; size /= 2) {
    SmallVector<linalg::LinalgOp> roots;
    for (linalg::LinalgOp root : getBlockRoots()) {
      auto type = cast<RankedTensorType>(root->getResult(0).getType());
      if (type.getRank() == 2 && type.isDynamicDim(0))
        roots.push_back(root);
    }
    for (linalg::LinalgOp root : roots) {
      if (auto maxRows = root->getAttrOfType<IntegerAttr>(kMaxRowsAttr);
          maxRows && size > maxRows.getInt())
        continue;
      SmallVector<int64_t> sizes(root.getNumLoops(), 0);
      sizes[0] = size;
      FailureOr<scf::SCFTileAndFuseResult> blocks =
          tileBlock(rewriter, root, sizes);
      if (failed(blocks))
        return root->emitError("cannot split the last rows into blocks");
      if (size == 1)
        continue;
      // Full blocks of `size` rows (at most one), then the rest.
      auto loop = cast<scf::ForOp>(blocks->loops.front().getOperation());
      rewriter.setInsertionPoint(loop);
      scf::ForOp rest;
      if (failed(scf::peelForLoopAndSimplifyBounds(rewriter, loop, rest)))
        continue;
      assumeFullBlocks(rewriter, loop, size);
    }
    if (failed(simplify()))
      return failure();
  }
  return success();
}

/// Step 2c: matmul blocks split by columns until each is a power of two
/// of vectors wide (see chooseBlock: 72 columns run as 64 + 8) or
/// narrower than one, and its accumulators fit (maxBlockVectors).
LogicalResult CpuScheduler::splitColumns(IRRewriter &rewriter) {
  int64_t lanes = std::max<int64_t>(vectorBits / 32, 1);
  bool split = true;
  for (int round = 0; split && round < 8; ++round) {
    split = false;
    if (failed(splitColumnsOnce(rewriter, lanes, split)))
      return failure();
  }
  getOperation()->walk([](linalg::LinalgOp op) {
    op->removeAttr(kMatmulBlockAttr);
    op->removeAttr(kMaxRowsAttr);
  });
  return success();
}

LogicalResult CpuScheduler::splitColumnsOnce(IRRewriter &rewriter,
                                             int64_t lanes, bool &split) {
  for (linalg::LinalgOp root : getBlockRoots()) {
    auto type = cast<RankedTensorType>(root->getResult(0).getType());
    if (!root->hasAttr(kMatmulBlockAttr) || type.getRank() != 2 ||
        !type.hasStaticShape() || type.getDimSize(0) == 0)
      continue;
    int64_t vectors = type.getDimSize(1) / lanes;
    int64_t columns =
        lanes * std::min(llvm::bit_floor<uint64_t>(vectors),
                         maxBlockVectors(type.getDimSize(0), vectorBits));
    if (vectors == 0 || type.getDimSize(1) <= columns)
      continue;
    SmallVector<int64_t> sizes(root.getNumLoops(), 0);
    sizes[1] = columns;
    FailureOr<scf::SCFTileAndFuseResult> blocks =
        tileBlock(rewriter, root, sizes);
    if (failed(blocks))
      return root->emitError("cannot split a block's columns");
    blocks->loops.front()->setAttr(kBlockLoopAttr, rewriter.getUnitAttr());
    split = true;
  }
  if (!split)
    return success();
  peelBlockLoops(rewriter);
  return simplify();
}

/// Step 2d: K tiled by 1 in every block's matmul.
LogicalResult CpuScheduler::tileBlocksK(IRRewriter &rewriter) {
  SmallVector<linalg::LinalgOp> blocks;
  getOperation()->walk([&](linalg::LinalgOp op) {
    if (op->hasAttr(kVectorizeAttr) &&
        isa<linalg::MatmulOp, linalg::BatchMatmulOp>(op))
      blocks.push_back(op);
  });
  for (linalg::LinalgOp tiledMatmul : blocks) {
    SmallVector<int64_t> kSizes(tiledMatmul.getNumLoops(), 0);
    kSizes.back() = 1;
    scf::SCFTilingOptions kTiling;
    kTiling.setTileSizes(getAsIndexOpFoldResult(&getContext(), kSizes))
        .setLoopType(scf::SCFTilingOptions::LoopType::ForOp);
    rewriter.setInsertionPoint(tiledMatmul);
    FailureOr<scf::SCFTilingResult> kTiled = scf::tileUsingSCF(
        rewriter, cast<TilingInterface>(tiledMatmul.getOperation()), kTiling);
    if (failed(kTiled))
      return tiledMatmul->emitError("cannot tile the K dimension");
    rewriter.replaceOp(tiledMatmul, kTiled->replacements);
    for (Operation *op : kTiled->tiledOps)
      op->setAttr(kVectorizeAttr, rewriter.getUnitAttr());
  }
  return success();
}

/// Copies the K x NR column block of B that every row block of a block
/// column reads into a contiguous panel, in the block column's loop,
/// row by row (vectorized). With `dynamicRows`, the copy is made only
/// when M turns out to be large enough at run time: the row blocks'
/// loop is versioned, and the small-M version reads B in place.
void CpuScheduler::packRhs(IRRewriter &rewriter, linalg::LinalgOp tiledMatmul,
                           ArrayRef<LoopLikeOpInterface> loops,
                           BlockShape block, bool dynamicRows) {
  auto slice = tiledMatmul.getDpsInputOperand(1)
                   ->get()
                   .getDefiningOp<tensor::ExtractSliceOp>();
  if (!slice || loops.size() != 2)
    return;
  auto inner = dyn_cast<scf::ForOp>(*loops[1]);
  if (!inner || !slice->hasOneUse())
    return;
  // A partial block column's width (affine.min of the column loop's index)
  // is computed in the row loop: it moves out of it.
  std::function<bool(Value)> hoist = [&](Value value) {
    if (inner.isDefinedOutsideOfLoop(value))
      return true;
    Operation *op = value.getDefiningOp();
    if (!op || op->getNumRegions() != 0 || !isPure(op) ||
        !llvm::all_of(op->getOperands(), hoist))
      return false;
    rewriter.moveOpBefore(op, inner);
    return true;
  };
  if (!llvm::all_of(slice->getOperands(), hoist))
    return;
  if (dynamicRows)
    versionForLargeM(rewriter, inner, 4 * block.rows);
  rewriter.moveOpBefore(slice, inner);
  rewriter.setInsertionPoint(inner);
  Location loc = slice.getLoc();
  Value empty = tensor::EmptyOp::create(rewriter, loc, slice.getMixedSizes(),
                                        slice.getResultType().getElementType());
  if (packTransposedRhs(rewriter, slice, empty))
    return;
  auto copy = linalg::CopyOp::create(rewriter, loc, slice.getResult(), empty);
  rewriter.replaceAllUsesExcept(slice.getResult(), copy.getResult(0), copy);
  scf::SCFTilingOptions rows;
  rows.setTileSizes(getAsIndexOpFoldResult(&getContext(), {1, 0}))
      .setLoopType(scf::SCFTilingOptions::LoopType::ForOp);
  FailureOr<scf::SCFTilingResult> tiled = scf::tileUsingSCF(
      rewriter, cast<TilingInterface>(copy.getOperation()), rows);
  if (failed(tiled))
    return;
  rewriter.replaceOp(copy, tiled->replacements);
  for (Operation *op : tiled->tiledOps)
    op->setAttr(kVectorizeAttr, rewriter.getUnitAttr());
}

/// Where B is W^T (x @ w.T: a 2-D transpose, or slices of it from 0),
/// B's panel `slice` becomes a transpose of W's slice into `panel`
/// (tiled in registers by tileTransposes): W is read once, in place,
/// instead of through a transposed copy of it. False when the panel does
/// not qualify for tileTransposes.
bool CpuScheduler::packTransposedRhs(IRRewriter &rewriter,
                                     tensor::ExtractSliceOp slice,
                                     Value panel) {
  // (A dynamic M's row split slices B whole, from 0.)
  Value transposed = slice.getSource();
  while (auto whole = transposed.getDefiningOp<tensor::ExtractSliceOp>()) {
    if (!whole.hasUnitStride() ||
        !llvm::all_of(whole.getMixedOffsets(), isZeroInteger))
      return false;
    transposed = whole.getSource();
  }
  auto transpose = transposed.getDefiningOp<linalg::TransposeOp>();
  if (!transpose || transpose.getPermutation() != ArrayRef<int64_t>{1, 0} ||
      !slice.hasUnitStride())
    return false;
  Location loc = slice.getLoc();
  SmallVector<OpFoldResult> offsets = slice.getMixedOffsets();
  SmallVector<OpFoldResult> sizes = slice.getMixedSizes();
  std::swap(offsets[0], offsets[1]);
  std::swap(sizes[0], sizes[1]);
  SmallVector<OpFoldResult> strides(2, rewriter.getIndexAttr(1));
  auto source = tensor::ExtractSliceOp::create(
      rewriter, loc, transpose.getInput(), offsets, sizes, strides);
  auto pack = linalg::TransposeOp::create(rewriter, loc, source.getResult(),
                                          panel, ArrayRef<int64_t>{1, 0});
  if (!getTransposeTile(pack, vectorBits)) {
    rewriter.eraseOp(pack);
    rewriter.eraseOp(source);
    return false;
  }
  rewriter.replaceAllUsesWith(slice.getResult(), pack->getResult(0));
  rewriter.eraseOp(slice);
  if (transpose->use_empty())
    rewriter.eraseOp(transpose);
  return true;
}

/// Wraps `rowBlocks` (a loop from 0 to M) in `scf.if M >= minRows`; the
/// else branch runs a clone of it, which the caller leaves as it is.
void CpuScheduler::versionForLargeM(IRRewriter &rewriter, scf::ForOp rowBlocks,
                                    int64_t minRows) {
  Location loc = rowBlocks.getLoc();
  rewriter.setInsertionPoint(rowBlocks);
  Value large = arith::CmpIOp::create(
      rewriter, loc, arith::CmpIPredicate::sge, rowBlocks.getUpperBound(),
      arith::ConstantIndexOp::create(rewriter, loc, minRows));
  auto version =
      scf::IfOp::create(rewriter, loc, rowBlocks.getResultTypes(), large,
                        /*addThenBlock=*/true, /*addElseBlock=*/true);
  rewriter.replaceAllUsesWith(rowBlocks.getResults(), version.getResults());
  rewriter.setInsertionPointToStart(version.elseBlock());
  Operation *small = rewriter.clone(*rowBlocks);
  scf::YieldOp::create(rewriter, loc, small->getResults());
  rewriter.setInsertionPointToStart(version.thenBlock());
  auto yield = scf::YieldOp::create(rewriter, loc, rowBlocks.getResults());
  rewriter.moveOpBefore(rowBlocks, yield);
}

} // namespace mlir::google::cpu
