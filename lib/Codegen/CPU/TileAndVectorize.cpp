//===- TileAndVectorize.cpp - --google-tile-and-vectorize -----------------===//
//
// Register blocking for f32 matmuls: MR x NR blocks whose accumulator stays
// in vector registers across the K loop. Full blocks are vectorized, and so
// are the remainders that get static shapes; the others stay scalar (so
// any M, N and K, static or not, are handled).
//
//===----------------------------------------------------------------------===//

#include "Codegen/Passes.h"

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
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/IR/Dominance.h"
#include "mlir/Transforms/CSE.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/LoopInvariantCodeMotionUtils.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/MathExtras.h"

#define DEBUG_TYPE "google-tile-and-vectorize"

namespace mlir::google {
#define GEN_PASS_DEF_TILEANDVECTORIZEPASS
#include "Codegen/Passes.h.inc"
} // namespace mlir::google

using namespace mlir;

namespace {

/// Marks the block loops (to peel) and the ops of a full block (to
/// vectorize) between the steps; removed at the end.
constexpr StringLiteral kBlockLoopAttr = "google.block_loop";
constexpr StringLiteral kVectorizeAttr = "google.vectorize";
/// The ops of a matmul's blocks (not of row reductions).
constexpr StringLiteral kMatmulBlockAttr = "google.matmul_block";
/// The most rows a block of dynamic rows can have (splitPartialRows).
constexpr StringLiteral kMaxRowsAttr = "google.max_rows";

bool isF32(Value value) {
  return getElementTypeOrSelf(value.getType()).isF32();
}

/// Whether `op` has a loop of static extent 0 (an empty tensor, or a
/// matmul with K = 0): nothing to block, chunk or vectorize.
bool hasEmptyLoop(linalg::LinalgOp op) {
  return llvm::is_contained(op.getStaticLoopRanges(), 0);
}

/// An elementwise consumer that only `matmul` feeds, through an identity
/// map, with the matmul's shape: it can run on each block of the product.
linalg::GenericOp getEpilogue(linalg::LinalgOp matmul) {
  Value product = matmul->getResult(0);
  if (!product.hasOneUse())
    return nullptr;
  auto generic = dyn_cast<linalg::GenericOp>(*product.getUsers().begin());
  if (!generic || generic.getNumDpsInits() != 1 ||
      generic.getNumParallelLoops() != generic.getNumLoops() ||
      generic.getNumLoops() != cast<ShapedType>(product.getType()).getRank() ||
      generic->getResult(0).getType() != product.getType() ||
      !llvm::all_of(generic.getDpsInputs(), isF32) ||
      !isF32(generic->getResult(0)))
    return nullptr;
  for (OpOperand &use : product.getUses())
    if (!generic.isDpsInput(&use) ||
        !generic.getMatchingIndexingMap(&use).isIdentity())
      return nullptr;
  if (!generic.getMatchingIndexingMap(generic.getDpsInitOperand(0))
           .isIdentity())
    return nullptr;
  return generic;
}

struct BlockShape {
  int64_t rows;
  int64_t columns;
};

/// MR x NR: two vectors wide and as many rows as keep the accumulators
/// within the 16 (AVX-512: 32) vector registers, with room for the loads.
/// A static M below MR makes the block all M rows and wider, a power of
/// two of vectors (LLVM splits other widths badly: 3 x 80 lanes ran 15
/// times slower than 3 x 64), as is a block narrower than a static N
/// (splitColumns splits the partial blocks the same way).
BlockShape chooseBlock(int64_t m, int64_t n, unsigned vectorBits) {
  int64_t lanes = std::max<int64_t>(vectorBits / 32, 1);
  int64_t rows = vectorBits >= 512 ? 8 : vectorBits >= 256 ? 6 : 4;
  int64_t accumulators = rows * 2;
  int64_t columns = 2 * lanes;
  if (!ShapedType::isDynamic(m) && m < rows) {
    rows = m;
    int64_t vectors = llvm::bit_floor<uint64_t>(accumulators / rows);
    columns = std::max<int64_t>(vectors, 2) * lanes;
  }
  if (!ShapedType::isDynamic(n) && n < columns)
    columns = n < lanes || (n % lanes == 0 &&
                            llvm::has_single_bit(uint64_t(n / lanes)))
                  ? n
                  : lanes * llvm::bit_floor(uint64_t(n / lanes));
  return {rows, columns};
}

/// The widest block of `rows` rows, in vectors, whose accumulators fit
/// (as many as chooseBlock's full blocks hold), a power of two.
uint64_t maxBlockVectors(int64_t rows, unsigned vectorBits) {
  int64_t accumulators = 2 * chooseBlock(ShapedType::kDynamic,
                                         ShapedType::kDynamic, vectorBits)
                                 .rows;
  return llvm::bit_floor<uint64_t>(
      std::max<int64_t>(accumulators / std::max<int64_t>(rows, 1), 1));
}

/// Canonicalization patterns of the dialects the pass works with (all
/// registered ops would cost more to collect than to run).
void populateSimplifyPatterns(RewritePatternSet &patterns) {
  MLIRContext *context = patterns.getContext();
  for (StringRef name :
       {"affine", "arith", "cf", "linalg", "scf", "tensor", "vector"}) {
    Dialect *dialect = context->getLoadedDialect(name);
    if (!dialect)
      continue;
    dialect->getCanonicalizationPatterns(patterns);
    for (RegisteredOperationName op : context->getRegisteredOperations())
      if (&op.getDialect() == dialect)
        op.getCanonicalizationPatterns(patterns, context);
  }
}

struct TileAndVectorizePass
    : public google::impl::TileAndVectorizePassBase<TileAndVectorizePass> {
  using Base::Base;

  LogicalResult initialize(MLIRContext *context) override {
    RewritePatternSet simplify(context);
    populateSimplifyPatterns(simplify);
    simplifyPatterns = FrozenRewritePatternSet(std::move(simplify));
    RewritePatternSet cleanUp(context);
    vector::populateVectorReductionToContractPatterns(cleanUp);
    vector::populateVectorTransferPermutationMapLoweringPatterns(cleanUp);
    tensor::populateFoldTensorSubsetIntoVectorTransferPatterns(cleanUp);
    populateSimplifyPatterns(cleanUp);
    vectorCleanupPatterns = FrozenRewritePatternSet(std::move(cleanUp));
    return success();
  }

  FrozenRewritePatternSet simplifyPatterns;
  FrozenRewritePatternSet vectorCleanupPatterns;

  void runOnOperation() override {
    SmallVector<linalg::LinalgOp> matmuls;
    getOperation()->walk([&](linalg::LinalgOp op) {
      if (isa<linalg::MatmulOp, linalg::BatchMatmulOp>(op) &&
          op.hasPureTensorSemantics() &&
          llvm::all_of(op->getOperands(), isF32) &&
          // linalg's default indexing maps: no transposed operands.
          !op.hasUserDefinedMaps() && !hasEmptyLoop(op))
        matmuls.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (linalg::LinalgOp matmul : matmuls)
      if (failed(tileMatmul(rewriter, matmul)))
        return signalPassFailure();
    if (failed(fuseRowChains(rewriter)) || failed(tileElementwise(rewriter)))
      return signalPassFailure();
    // Row reductions (softmax, layer norm, reduce_* over the last axis),
    // in the row loops of fuseRowChains or not.
    SmallVector<linalg::LinalgOp> rowOps;
    getOperation()->walk([&](linalg::LinalgOp op) {
      if (isRowReduction(op) && !op->hasAttr(kVectorizeAttr))
        rowOps.push_back(op);
    });
    for (linalg::LinalgOp op : rowOps)
      if (failed(tileRowReduction(rewriter, op)))
        return signalPassFailure();
    if (matmuls.empty() && rowOps.empty())
      return;
    peelBlockLoops(rewriter);
    if (failed(simplify()) || failed(splitPartialRows(rewriter)) ||
        failed(splitColumns(rewriter)) || failed(tileBlocksK(rewriter)) ||
        failed(simplify()))
      return signalPassFailure();
    vectorizeFullBlocks(rewriter);
    if (failed(hoistAccumulators(rewriter)))
      return signalPassFailure();
  }

  /// Tiles `root` into scf.for loops (`interchange` orders them), fuses the
  /// producers `fuse` accepts into the innermost loop, and replaces
  /// `root`'s uses.
  FailureOr<scf::SCFTileAndFuseResult>
  tileAndFuse(IRRewriter &rewriter, linalg::LinalgOp root,
              ArrayRef<int64_t> sizes, ArrayRef<int64_t> interchange,
              function_ref<bool(Operation *)> fuse) {
    scf::SCFTilingOptions tiling;
    tiling.setTileSizes(getAsIndexOpFoldResult(&getContext(), sizes))
        .setInterchange(interchange)
        .setLoopType(scf::SCFTilingOptions::LoopType::ForOp);
    scf::SCFTileAndFuseOptions options;
    options.setTilingOptions(tiling);
    options.setFusionControlFn(
        [&](tensor::ExtractSliceOp, OpResult producer,
            bool) -> std::optional<scf::SCFTileAndFuseOptions::ControlFnResult> {
          if (fuse(producer.getOwner()))
            return scf::SCFTileAndFuseOptions::ControlFnResult{};
          return std::nullopt;
        });
    rewriter.setInsertionPoint(root);
    FailureOr<scf::SCFTileAndFuseResult> tiled =
        scf::tileConsumerAndFuseProducersUsingSCF(
            rewriter, cast<TilingInterface>(root.getOperation()), options);
    if (failed(tiled))
      return failure();
    for (OpResult result : root->getResults())
      rewriter.replaceAllUsesWith(result, tiled->replacements.lookup(result));
    return tiled;
  }

  /// Step 1: blocks of the epilogue (or the matmul) with the fill and the
  /// matmul fused in. A dynamic M is split first: the rows of full blocks,
  /// and the last M mod MR rows, which run in blocks of their own
  /// (tileLastRows).
  LogicalResult tileMatmul(IRRewriter &rewriter, linalg::LinalgOp matmul) {
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
        chooseBlock(ShapedType::kDynamic, type.getDimSize(1), vectorBits)
            .rows;
    FailureOr<RowSplit> parts = splitRows(
        rewriter, matmul, epilogue, [&](Location loc, OpFoldResult m) {
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

  /// The two parts of a split along M: each part's matmul and root (its
  /// part of the epilogue, or the matmul).
  struct RowSplit {
    std::array<linalg::LinalgOp, 2> matmuls;
    std::array<linalg::LinalgOp, 2> roots;
  };

  /// Splits the fill, `matmul` and `epilogue` along M at `splitAt(M)`.
  FailureOr<RowSplit>
  splitRows(IRRewriter &rewriter, linalg::LinalgOp matmul,
            linalg::GenericOp epilogue,
            function_ref<OpFoldResult(Location, OpFoldResult)> splitAt) {
    auto root = epilogue ? cast<linalg::LinalgOp>(epilogue.getOperation())
                         : matmul;
    auto fill = matmul.getDpsInits()[0].getDefiningOp<linalg::FillOp>();
    if (fill && !llvm::all_of(fill->getUsers(), [&](Operation *user) {
          return user == matmul || isa<tensor::DimOp>(user);
        }))
      fill = nullptr;
    rewriter.setInsertionPoint(root);
    Location loc = root.getLoc();
    OpFoldResult splitPoint = splitAt(
        loc, linalg::createFoldedDimOp(rewriter, loc,
                                       matmul.getDpsInputs()[0], 0));
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
          matmul->getResult(0), matmul.getDpsInits()[0], [](OpOperand &use) {
            return isa<tensor::DimOp>(use.getOwner());
          });
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
        auto partFill = linalg::FillOp::create(
            rewriter, fill.getLoc(), fill.getInputs(), init->get());
        rewriter.modifyOpInPlace(partMatmul,
                                 [&] { init->set(partFill.getResult(0)); });
      }
      rewriter.replaceOp(fill, fill.getOutputs());
    }
    return RowSplit{{partMatmuls[0], partMatmuls[1]}, {parts[0], parts[1]}};
  }

  /// Tiles `matmul`'s root into MR x NR blocks, with the matmul and its
  /// fill fused in. `fullRows`: M is known to be a multiple of MR.
  LogicalResult tileRowBlocks(IRRewriter &rewriter, linalg::LinalgOp matmul,
                              bool fullRows) {
    linalg::GenericOp epilogue = getEpilogue(matmul);
    auto root = epilogue ? cast<linalg::LinalgOp>(epilogue.getOperation())
                         : matmul;
    auto type = cast<RankedTensorType>(matmul->getResult(0).getType());
    bool batched = type.getRank() == 3;
    BlockShape block = chooseBlock(type.getDimSize(type.getRank() - 2),
                                   type.getDimSize(type.getRank() - 1),
                                   vectorBits);
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
    int64_t k = cast<ShapedType>(matmul.getDpsInputs()[0].getType())
                    .getDimSize(batched ? 2 : 1);
    if (isWorthThreads(type, k, block))
      tiled->loops.front()->setAttr(google::kParallelLoopAttrName,
                                    rewriter.getUnitAttr());

    linalg::LinalgOp tiledMatmul;
    for (Operation *op : tiled->tiledAndFusedOps)
      if (isa<linalg::MatmulOp, linalg::BatchMatmulOp>(op))
        tiledMatmul = cast<linalg::LinalgOp>(op);
    if (!batched &&
        shouldPackRhs(type,
                      cast<ShapedType>(matmul.getDpsInputs()[1].getType()),
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
  LogicalResult tileLastRows(IRRewriter &rewriter, linalg::LinalgOp matmul,
                             linalg::LinalgOp root, int64_t blockRows) {
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
    FailureOr<scf::SCFTileAndFuseResult> tiled = tileMatmulRoot(
        rewriter, matmul, root, {0, columns}, /*interchange=*/{});
    if (failed(tiled))
      return failure();
    Operation *columnLoop = tiled->loops.front();
    columnLoop->setAttr(kBlockLoopAttr, rewriter.getUnitAttr());
    columnLoop->setAttr(google::kParallelLoopAttrName, rewriter.getUnitAttr());
    return success();
  }

  /// The fill of `matmul`'s init (when only `matmul` reads it), `matmul`
  /// and its epilogue `root`, in this order.
  static SmallVector<Operation *> getChain(linalg::LinalgOp matmul,
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
  static bool canPadRows(linalg::LinalgOp matmul, linalg::LinalgOp root) {
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
  LogicalResult padLastRows(IRRewriter &rewriter, linalg::LinalgOp matmul,
                            linalg::LinalgOp root, int64_t blockRows) {
    SmallVector<int64_t> sizes(root.getNumLoops(), 0);
    sizes[0] = blockRows;
    Operation *matmulOp = matmul;
    FailureOr<scf::SCFTileAndFuseResult> tiled =
        tileAndFuse(rewriter, root, sizes, /*interchange=*/{},
                    [&](Operation *op) {
                      return op == matmulOp || isa<linalg::FillOp>(op);
                    });
    if (failed(tiled))
      return root->emitError("cannot tile the last rows");
    SmallVector<Operation *> chain(tiled->tiledAndFusedOps.begin(),
                                   tiled->tiledAndFusedOps.end());
    Block *body = chain.front()->getBlock();
    if (!llvm::all_of(chain, [&](Operation *op) {
          return op->getBlock() == body && isa<linalg::LinalgOp>(op);
        }))
      return root->emitError("the last rows' ops are not in one block");
    llvm::sort(chain, [](Operation *a, Operation *b) {
      return a->isBeforeInBlock(b);
    });
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
  /// producer in `padded`, or a copy of it padded with zero rows (an
  /// empty tensor where the payload does not read it); operands without
  /// rows (B, the bias) as they are.
  static Value padRows(IRRewriter &rewriter, linalg::LinalgOp op,
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
    SmallVector<OpFoldResult> sizes =
        tensor::getMixedSizes(rewriter, loc, value);
    SmallVector<OpFoldResult> paddedSizes = sizes;
    paddedSizes[*position] = rewriter.getIndexAttr(blockRows);
    Value empty = tensor::EmptyOp::create(rewriter, loc, paddedSizes,
                                          type.getElementType());
    if (op.isDpsInit(&operand) && !op.payloadUsesValueFromOperand(&operand))
      return empty;
    Value zero = arith::ConstantOp::create(
        rewriter, loc, rewriter.getZeroAttr(type.getElementType()));
    Value zeros =
        linalg::FillOp::create(rewriter, loc, zero, empty).getResult(0);
    return tensor::InsertSliceOp::create(
        rewriter, loc, value, zeros,
        SmallVector<OpFoldResult>(type.getRank(), rewriter.getIndexAttr(0)),
        sizes,
        SmallVector<OpFoldResult>(type.getRank(), rewriter.getIndexAttr(1)));
  }

  /// Tiles `root` (the epilogue, or `matmul`) with `matmul` and the fill
  /// fused in; marks the blocks' ops.
  FailureOr<scf::SCFTileAndFuseResult>
  tileMatmulRoot(IRRewriter &rewriter, linalg::LinalgOp matmul,
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
  void assumeFullBlocks(IRRewriter &rewriter, scf::ForOp loop, int64_t size) {
    Value iv = loop.getInductionVar();
    SmallVector<affine::AffineMinOp> mins;
    loop.getBody()->walk([&](affine::AffineMinOp min) {
      AffineMap map = min.getAffineMap();
      if (map.getNumResults() == 2 &&
          llvm::is_contained(min.getOperands(), iv) &&
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
  SmallVector<linalg::LinalgOp> getBlockRoots() {
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
  tileBlock(IRRewriter &rewriter, linalg::LinalgOp root,
            ArrayRef<int64_t> sizes) {
    FailureOr<scf::SCFTileAndFuseResult> blocks =
        tileAndFuse(rewriter, root, sizes, /*interchange=*/{},
                    [](Operation *producer) {
                      return producer->hasAttr(kVectorizeAttr);
                    });
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
  LogicalResult splitPartialRows(IRRewriter &rewriter) {
    int64_t rows = chooseBlock(ShapedType::kDynamic, ShapedType::kDynamic,
                               vectorBits)
                       .rows;
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
  LogicalResult splitColumns(IRRewriter &rewriter) {
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

  LogicalResult splitColumnsOnce(IRRewriter &rewriter, int64_t lanes,
                                 bool &split) {
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
  LogicalResult tileBlocksK(IRRewriter &rewriter) {
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
          rewriter, cast<TilingInterface>(tiledMatmul.getOperation()),
          kTiling);
      if (failed(kTiled))
        return tiledMatmul->emitError("cannot tile the K dimension");
      rewriter.replaceOp(tiledMatmul, kTiled->replacements);
      for (Operation *op : kTiled->tiledOps)
        op->setAttr(kVectorizeAttr, rewriter.getUnitAttr());
    }
    return success();
  }

  /// Whether the outer block loop goes to --google-parallelize-loops: more
  /// than one outer block and, when the shape is static, enough work. (With
  /// dynamic extents the loop decides at run time.)
  static bool isWorthThreads(RankedTensorType result, int64_t k,
                             BlockShape block) {
    ArrayRef<int64_t> shape = result.getShape();
    int64_t outer = shape.size() == 3 ? shape[0] : shape.back();
    int64_t outerStep = shape.size() == 3 ? 1 : block.columns;
    if (!ShapedType::isDynamic(outer) && outer <= outerStep)
      return false;
    if (!result.hasStaticShape() || ShapedType::isDynamic(k))
      return true;
    int64_t steps = result.getNumElements() / (block.rows * block.columns) * k;
    return steps >= google::kMinParallelSteps;
  }

  /// Rows shorter than this (or dynamic) are not worth a loop of their
  /// own: their elementwise ops vectorize better over several rows.
  static constexpr int64_t kMinFusedRow = 128;

  /// An elementwise op over rows of at least kMinFusedRow elements that
  /// reads a value per row (softmax's divide, layer norm's scaling): the
  /// end of a chain of row-wise ops when a row reduction computes it.
  bool isRowChainEnd(linalg::GenericOp op) {
    if (!op.hasPureTensorSemantics() || op.getNumDpsInits() != 1 ||
        op.getNumLoops() < 2 || hasEmptyLoop(op) ||
        op.getStaticLoopRanges().back() < kMinFusedRow ||
        op.getNumParallelLoops() != op.getNumLoops() ||
        !op.getMatchingIndexingMap(op.getDpsInitOperand(0)).isIdentity())
      return false;
    return llvm::any_of(op.getDpsInputOperands(), [&](OpOperand *input) {
      return input->get().getDefiningOp<linalg::LinalgOp>() &&
             op.getMatchingIndexingMap(input) ==
                 op.getMatchingIndexingMap(op.getDpsInitOperand(0))
                     .dropResult(op.getNumLoops() - 1);
    });
  }

  /// Whether `map` reads rows: its first `rowDims` results are the loops
  /// d0, d1, ... (a row's slice of the operand is a row of it).
  static bool readsRows(AffineMap map, unsigned rowDims) {
    if (map.getNumResults() < rowDims)
      return false;
    for (unsigned d = 0; d < rowDims; ++d)
      if (map.getResult(d) != getAffineDimExpr(d, map.getContext()))
        return false;
    return true;
  }

  /// The linalg ops `end` depends on row by row (each row of theirs is
  /// read by one row of `end`: not a column sum, which every row would
  /// compute again), through ops all of whose users are in the chain too
  /// (nothing is computed twice).
  static llvm::SetVector<Operation *> getRowChain(linalg::GenericOp end) {
    unsigned rowDims = end.getNumLoops() - 1;
    llvm::SetVector<Operation *> chain;
    SmallVector<linalg::LinalgOp> worklist = {end};
    while (!worklist.empty()) {
      linalg::LinalgOp op = worklist.pop_back_val();
      for (OpOperand &operand : op->getOpOperands()) {
        auto producer = operand.get().getDefiningOp<linalg::LinalgOp>();
        if (producer && producer.hasPureTensorSemantics() &&
            producer->getBlock() == end->getBlock() &&
            producer->getNumResults() == 1 &&
            readsRows(op.getMatchingIndexingMap(&operand), rowDims) &&
            readsRows(producer.getMatchingIndexingMap(
                          producer.getDpsInitOperand(0)),
                      rowDims) &&
            chain.insert(producer))
          worklist.push_back(producer);
      }
    }
    // Ops read outside the chain, or not by rows, stay out, and so do
    // their producers.
    auto readOutside = [&](OpOperand &use) {
      Operation *user = use.getOwner();
      if (user != end && !chain.contains(user))
        return true;
      auto consumer = cast<linalg::LinalgOp>(user);
      return !readsRows(consumer.getMatchingIndexingMap(&use), rowDims);
    };
    bool changed = true;
    while (changed) {
      changed = false;
      for (Operation *op : llvm::to_vector(chain))
        if (llvm::any_of(op->getUses(), readOutside)) {
          chain.remove(op);
          changed = true;
        }
    }
    return chain;
  }

  /// Inputs of `generic` that tensor.expand_shape makes by adding unit
  /// dimensions, read at 0 (a keep_dims reduction's result): `generic`
  /// reads the source instead, so that fusion sees its producer.
  static void foldUnitExpansions(IRRewriter &rewriter,
                                 linalg::GenericOp generic) {
    SmallVector<AffineMap> maps = generic.getIndexingMapsArray();
    for (OpOperand *input : generic.getDpsInputOperands()) {
      auto expand = input->get().getDefiningOp<tensor::ExpandShapeOp>();
      if (!expand)
        continue;
      AffineMap map = maps[input->getOperandNumber()];
      ArrayRef<int64_t> shape = expand.getResultType().getShape();
      auto isUnitAtZero = [&](int64_t dim) {
        auto constant = dyn_cast<AffineConstantExpr>(map.getResult(dim));
        return shape[dim] == 1 && constant && constant.getValue() == 0;
      };
      SmallVector<AffineExpr> kept;
      for (ReassociationIndices group : expand.getReassociationIndices()) {
        SmallVector<int64_t> others;
        for (int64_t dim : group)
          if (!isUnitAtZero(dim))
            others.push_back(dim);
        if (others.size() > 1)
          break;
        kept.push_back(map.getResult(others.empty() ? group.front()
                                                    : others.front()));
      }
      if (kept.size() != expand.getReassociationIndices().size())
        continue;
      maps[input->getOperandNumber()] =
          AffineMap::get(map.getNumDims(), 0, kept, rewriter.getContext());
      rewriter.modifyOpInPlace(generic, [&] {
        input->set(expand.getSrc());
        generic.setIndexingMapsAttr(rewriter.getAffineMapArrayAttr(maps));
      });
      if (expand->use_empty())
        rewriter.eraseOp(expand);
    }
  }

  /// Step 0: each chain of row-wise ops (a softmax: max, exp, sum, divide)
  /// runs row by row: its end is tiled by rows with the chain fused in,
  /// so that a row stays in cache from op to op, and the row loop goes
  /// to threads. The copies fusion makes of an op read twice are merged.
  LogicalResult fuseRowChains(IRRewriter &rewriter) {
    SmallVector<linalg::GenericOp> ends;
    for (Operation &op : getOperation().getBody().getOps()) {
      auto generic = dyn_cast<linalg::GenericOp>(&op);
      if (!generic)
        continue;
      foldUnitExpansions(rewriter, generic);
      if (isRowChainEnd(generic))
        ends.push_back(generic);
    }
    // Last first: an end that feeds a later one is fused into its chain.
    llvm::SmallPtrSet<Operation *, 8> fused;
    for (linalg::GenericOp end : llvm::reverse(ends)) {
      if (fused.contains(end))
        continue;
      llvm::SetVector<Operation *> chain = getRowChain(end);
      if (llvm::none_of(chain, [&](Operation *op) {
            return isRowReduction(cast<linalg::LinalgOp>(op));
          }))
        continue;
      fused.insert(chain.begin(), chain.end());
      SmallVector<int64_t> sizes(end.getNumLoops(), 1);
      sizes.back() = 0;
      FailureOr<scf::SCFTileAndFuseResult> tiled =
          tileAndFuse(rewriter, end, sizes, /*interchange=*/{},
                      [&](Operation *op) { return chain.contains(op); });
      if (failed(tiled))
        return end->emitError("cannot tile a chain of row ops into rows");
      tiled->loops.front()->setAttr(google::kParallelLoopAttrName,
                                    rewriter.getUnitAttr());
      chain.insert(end);
      for (bool erased = true; erased;) {
        erased = false;
        for (Operation *op : llvm::to_vector(chain))
          if (op->use_empty()) {
            chain.remove(op);
            rewriter.eraseOp(op);
            erased = true;
          }
      }
    }
    if (ends.empty())
      return success();
    DominanceInfo dominance(getOperation());
    eliminateCommonSubExpressions(rewriter, dominance, getOperation());
    return success();
  }

  /// Elements an elementwise op's chunk has at least (16 KiB of f32).
  static constexpr int64_t kMinElementwiseChunk = 4096;

  /// Where an elementwise op (all loops parallel: arithmetic, broadcasts,
  /// transposes) is cut into chunks for threads: its outermost non-unit
  /// loop and the chunk's extent there, at least kMinElementwiseChunk
  /// elements. Only ops that may have enough work: 2^16 elements or more,
  /// cut into equal chunks (the chunk divides the extent); or a dynamic
  /// outermost extent over static rows of kMinFusedRow elements or more,
  /// cut into full chunks and a shorter last one.
  static std::optional<std::pair<unsigned, int64_t>>
  getElementwiseChunk(linalg::LinalgOp op) {
    // Not the blocks of a matmul's schedule (a dynamic M's last rows).
    if (op->hasAttr(kVectorizeAttr) || op->hasAttr(kMatmulBlockAttr) ||
        op->hasAttr(kMaxRowsAttr))
      return std::nullopt;
    if (isa<linalg::FillOp, linalg::CopyOp>(op) ||
        !op.hasPureTensorSemantics() || op->getNumResults() != 1 ||
        op.getNumLoops() == 0 || hasEmptyLoop(op) ||
        op.getNumParallelLoops() != op.getNumLoops() ||
        !isa<TilingInterface>(op.getOperation()))
      return std::nullopt;
    SmallVector<int64_t> ranges = op.getStaticLoopRanges();
    auto *outer = llvm::find_if(ranges, [](int64_t r) { return r != 1; });
    if (outer == ranges.end() ||
        llvm::any_of(llvm::make_range(outer + 1, ranges.end()),
                     ShapedType::isDynamic))
      return std::nullopt;
    unsigned dim = outer - ranges.begin();
    int64_t slab = 1;
    for (int64_t range : llvm::make_range(outer + 1, ranges.end()))
      slab *= range;
    int64_t chunk = llvm::divideCeil(kMinElementwiseChunk, slab);
    // Short rows of a dynamic number: a loop nest of its own vectorizes
    // them better than a loop per chunk.
    if (ShapedType::isDynamic(*outer))
      return slab >= kMinFusedRow ? std::optional(std::pair(dim, chunk))
                                  : std::nullopt;
    if (*outer * slab < google::kMinParallelSteps * google::kLanesPerStep)
      return std::nullopt;
    while (chunk < *outer && *outer % chunk != 0)
      ++chunk;
    if (chunk >= *outer)
      return std::nullopt;
    return std::pair(dim, chunk);
  }

  /// Step 0': each elementwise op left in the function that may have
  /// enough work for threads runs in a loop over chunks
  /// (getElementwiseChunk), which goes to threads. The chunks' loops stay
  /// whole for LLVM's vectorizer.
  LogicalResult tileElementwise(IRRewriter &rewriter) {
    SmallVector<std::pair<linalg::LinalgOp, std::pair<unsigned, int64_t>>>
        ops;
    for (Operation &op : getOperation().getBody().getOps())
      if (auto linalgOp = dyn_cast<linalg::LinalgOp>(&op))
        if (auto chunk = getElementwiseChunk(linalgOp))
          ops.push_back({linalgOp, *chunk});
    for (auto [op, chunk] : ops) {
      SmallVector<int64_t> sizes(op.getNumLoops(), 0);
      sizes[chunk.first] = chunk.second;
      FailureOr<scf::SCFTileAndFuseResult> tiled =
          tileAndFuse(rewriter, op, sizes, /*interchange=*/{},
                      [](Operation *) { return false; });
      if (failed(tiled))
        return op->emitError("cannot tile an elementwise op into chunks");
      tiled->loops.front()->setAttr(google::kParallelLoopAttrName,
                                    rewriter.getUnitAttr());
      rewriter.eraseOp(op);
    }
    return success();
  }

  /// Rows longer than this are reduced in chunks of at most this many
  /// elements, one vector reduction each.
  static constexpr int64_t kMaxVectorReduction = 1024;
  /// A row split into chunks shorter than this stays scalar.
  static constexpr int64_t kMinReductionChunk = 64;

  /// The chunk a static row of `length` elements is reduced in: the row
  /// itself up to kMaxVectorReduction, else its largest divisor that is
  /// not longer (and at least kMinReductionChunk); 0 when there is none.
  static int64_t getReductionChunk(int64_t length) {
    if (length <= kMaxVectorReduction)
      return length;
    for (int64_t pieces = llvm::divideCeil(length, kMaxVectorReduction);
         length / pieces >= kMinReductionChunk; ++pieces)
      if (length % pieces == 0)
        return length / pieces;
    return 0;
  }

  /// A generic or reduce on f32/f64 tensors whose loops are all parallel
  /// but the innermost, a reduction over a static row that every operand
  /// reads contiguously and that getReductionChunk can split.
  /// (LLVM vectorizes elementwise loops as well as tiling them here does,
  /// but not float reductions, which it may not reassociate.)
  bool isRowReduction(linalg::LinalgOp op) {
    if (!isa<linalg::GenericOp, linalg::ReduceOp>(op) ||
        !op.hasPureTensorSemantics() || op.getNumDpsInits() != 1 ||
        op.getNumLoops() == 0 || op.hasIndexSemantics() || hasEmptyLoop(op))
      return false;
    for (Value operand : op->getOperands()) {
      Type element = getElementTypeOrSelf(operand.getType());
      if (!element.isF32() && !element.isF64())
        return false;
    }
    unsigned innermost = op.getNumLoops() - 1;
    SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
    for (unsigned d = 0; d < innermost; ++d)
      if (iterators[d] != utils::IteratorType::parallel)
        return false;
    if (iterators[innermost] != utils::IteratorType::reduction)
      return false;
    for (OpOperand &operand : op->getOpOperands()) {
      AffineMap map = op.getMatchingIndexingMap(&operand);
      if (!map.isProjectedPermutation())
        return false;
      for (unsigned r = 0; r < map.getNumResults(); ++r)
        if (map.getDimPosition(r) == innermost &&
            r + 1 != map.getNumResults())
          return false;
    }
    SmallVector<int64_t> ranges = op.getStaticLoopRanges();
    return !ShapedType::isDynamic(ranges[innermost]) &&
           getReductionChunk(ranges[innermost]) > 0;
  }

  /// One row per tile, with the fill of the reduction's init fused in; a
  /// long row is then reduced chunk by chunk into the row's accumulator.
  LogicalResult tileRowReduction(IRRewriter &rewriter, linalg::LinalgOp op) {
    rewriter.setInsertionPoint(op);
    google::checkLinalgExtents(op);
    int64_t length = op.getStaticLoopRanges().back();
    int64_t chunk = getReductionChunk(length);
    SmallVector<Operation *> rows = {op};
    if (op.getNumLoops() > 1) {
      SmallVector<int64_t> sizes(op.getNumLoops(), 1);
      sizes.back() = 0;
      FailureOr<scf::SCFTileAndFuseResult> tiled =
          tileAndFuse(rewriter, op, sizes, /*interchange=*/{},
                      [](Operation *producer) {
                        return isa<linalg::FillOp>(producer);
                      });
      if (failed(tiled))
        return op->emitError("cannot tile into rows");
      rows.assign(tiled->tiledAndFusedOps.begin(),
                  tiled->tiledAndFusedOps.end());
    }
    for (Operation *row : rows) {
      auto rowOp = dyn_cast<linalg::LinalgOp>(row);
      if (!rowOp || chunk == length || isa<linalg::FillOp>(row)) {
        row->setAttr(kVectorizeAttr, rewriter.getUnitAttr());
        continue;
      }
      // Chunks of the row accumulate into its result in turn.
      SmallVector<int64_t> sizes(rowOp.getNumLoops(), 0);
      sizes.back() = chunk;
      scf::SCFTilingOptions tiling;
      tiling.setTileSizes(getAsIndexOpFoldResult(&getContext(), sizes))
          .setLoopType(scf::SCFTilingOptions::LoopType::ForOp);
      rewriter.setInsertionPoint(row);
      FailureOr<scf::SCFTilingResult> chunked = scf::tileUsingSCF(
          rewriter, cast<TilingInterface>(row), tiling);
      if (failed(chunked))
        return row->emitError("cannot split the row into chunks");
      rewriter.replaceOp(row, chunked->replacements);
      for (Operation *tiledOp : chunked->tiledOps)
        tiledOp->setAttr(kVectorizeAttr, rewriter.getUnitAttr());
    }
    return success();
  }

  /// B's rows are N elements apart: for more than a few row blocks over a
  /// wide B, each block column of B is worth copying into a contiguous
  /// panel once, so that the K loop streams through it.
  static bool shouldPackRhs(ShapedType result, ShapedType rhs,
                            BlockShape block) {
    int64_t m = result.getDimSize(0), k = rhs.getDimSize(0),
            n = rhs.getDimSize(1);
    auto atLeast = [](int64_t extent, int64_t bound) {
      return ShapedType::isDynamic(extent) || extent >= bound;
    };
    return atLeast(m, 4 * block.rows) && atLeast(k, 64) &&
           atLeast(n, 4 * block.columns);
  }

  /// Copies the K x NR column block of B that every row block of a block
  /// column reads into a contiguous panel, in the block column's loop,
  /// row by row (vectorized). With `dynamicRows`, the copy is made only
  /// when M turns out to be large enough at run time: the row blocks'
  /// loop is versioned, and the small-M version reads B in place.
  void packRhs(IRRewriter &rewriter, linalg::LinalgOp tiledMatmul,
               ArrayRef<LoopLikeOpInterface> loops, BlockShape block,
               bool dynamicRows) {
    auto slice = tiledMatmul.getDpsInputOperand(1)
                     ->get()
                     .getDefiningOp<tensor::ExtractSliceOp>();
    if (!slice || loops.size() != 2)
      return;
    auto inner = dyn_cast<scf::ForOp>(*loops[1]);
    if (!inner || !slice->hasOneUse() ||
        !llvm::all_of(slice->getOperands(), [&](Value operand) {
          return inner.isDefinedOutsideOfLoop(operand);
        }))
      return;
    if (dynamicRows)
      versionForLargeM(rewriter, inner, 4 * block.rows);
    rewriter.moveOpBefore(slice, inner);
    rewriter.setInsertionPoint(inner);
    Location loc = slice.getLoc();
    Value empty = tensor::EmptyOp::create(
        rewriter, loc, slice.getMixedSizes(),
        slice.getResultType().getElementType());
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

  /// Wraps `rowBlocks` (a loop from 0 to M) in `scf.if M >= minRows`; the
  /// else branch runs a clone of it, which the caller leaves as it is.
  void versionForLargeM(IRRewriter &rewriter, scf::ForOp rowBlocks,
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

  /// Step 2: every block loop splits into full blocks and one partial
  /// block, outer loops first (so inner loops are peeled in both copies).
  void peelBlockLoops(IRRewriter &rewriter) {
    for (int depth = 0;; ++depth) {
      SmallVector<scf::ForOp> loops;
      getOperation()->walk([&](scf::ForOp loop) {
        if (!loop->hasAttr(kBlockLoopAttr))
          return;
        int enclosing = 0;
        for (Operation *parent = loop->getParentOp(); parent;
             parent = parent->getParentOp())
          enclosing += parent->hasAttr(kBlockLoopAttr);
        if (enclosing == depth)
          loops.push_back(loop);
      });
      if (loops.empty())
        break;
      for (scf::ForOp loop : loops) {
        rewriter.setInsertionPoint(loop);
        scf::ForOp partial;
        // Fails when the step divides the range statically: nothing to do.
        (void)scf::peelForLoopAndSimplifyBounds(rewriter, loop, partial);
        // The one partial block is not worth threads.
        if (partial)
          partial->removeAttr(google::kParallelLoopAttrName);
      }
    }
    getOperation()->walk([](scf::ForOp loop) {
      loop->removeAttr(kBlockLoopAttr);
    });
  }

  /// Full blocks get static shapes once their sizes fold to constants.
  LogicalResult simplify() {
    if (failed(applyPatternsGreedily(getOperation(), simplifyPatterns)))
      return getOperation()->emitError("canonicalization did not converge");
    return success();
  }

  /// Step 3: the marked ops with static shapes (full blocks) become vector
  /// ops; the others (partial blocks) stay linalg and become loops.
  void vectorizeFullBlocks(IRRewriter &rewriter) {
    SmallVector<linalg::LinalgOp> marked;
    getOperation()->walk([&](linalg::LinalgOp op) {
      if (op->hasAttr(kVectorizeAttr))
        marked.push_back(op);
    });
    for (linalg::LinalgOp op : marked) {
      op->removeAttr(kVectorizeAttr);
      if (!op.hasPureTensorSemantics() || op.hasDynamicShape())
        continue;
      rewriter.setInsertionPoint(op);
      FailureOr<linalg::VectorizationResult> vectorized =
          linalg::vectorize(rewriter, op);
      if (failed(vectorized))
        continue;
      if (!vectorized->replacements.empty())
        rewriter.replaceOp(op, vectorized->replacements);
      else
        rewriter.eraseOp(op);
      ++numVectorized;
    }
  }

  /// The K step's reads and writes of the accumulator move out of the K
  /// loop: the accumulator becomes a loop-carried vector.
  LogicalResult hoistAccumulators(IRRewriter &rewriter) {
    auto cleanUp = [&]() -> LogicalResult {
      if (failed(applyPatternsGreedily(getOperation(), vectorCleanupPatterns)))
        return getOperation()->emitError("vector cleanup did not converge");
      DominanceInfo dominance(getOperation());
      eliminateCommonSubExpressions(rewriter, dominance, getOperation());
      return success();
    };
    if (failed(cleanUp()))
      return failure();
    SmallVector<scf::ForOp> loops;
    // Innermost first.
    getOperation()->walk([&](scf::ForOp loop) { loops.push_back(loop); });
    for (scf::ForOp loop : loops)
      (void)hoistLoopInvariantSubsets(rewriter, loop);
    return cleanUp();
  }
};

} // namespace
