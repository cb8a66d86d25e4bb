//===- ContractionKernels.cpp - matmuls as GPU kernels --------------------===//

#include "GpuKernels.h"

#include "Codegen/GPU/Passes.h"
#include "Codegen/Matchers.h"

#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;

namespace mlir::google::kernels {

/// The indices of `operand` when the loop dimensions have the values
/// `loops` (its indexing map is a projected permutation).
SmallVector<Value> getIndices(linalg::LinalgOp op, OpOperand &operand,
                              ArrayRef<Value> loops) {
  SmallVector<Value> indices;
  for (AffineExpr result : op.getMatchingIndexingMap(&operand).getResults())
    indices.push_back(loops[cast<AffineDimExpr>(result).getPosition()]);
  return indices;
}

Value createWarpButterfly(OpBuilder &builder, Location loc, Value value,
                          function_ref<Value(Value, Value)> combine) {
  for (int64_t offset = kWarpLanes / 2; offset >= 1; offset /= 2) {
    Value other = gpu::ShuffleOp::create(builder, loc, value, offset,
                                         kWarpLanes, gpu::ShuffleMode::XOR)
                      .getShuffleResult();
    value = combine(value, other);
  }
  return value;
}

WarpIds getWarpIds(RewriterBase &rewriter, Location loc, gpu::LaunchOp launch,
                   int64_t warpsPerBlock) {
  auto constant = [&](int64_t value) -> Value {
    return arith::ConstantIndexOp::create(rewriter, loc, value);
  };
  Value thread = launch.getThreadIds().x;
  WarpIds ids;
  ids.lane =
      arith::RemUIOp::create(rewriter, loc, thread, constant(kWarpLanes));
  ids.warp =
      arith::DivUIOp::create(rewriter, loc, thread, constant(kWarpLanes));
  ids.index = arith::AddIOp::create(
      rewriter, loc,
      arith::MulIOp::create(rewriter, loc, launch.getBlockIds().x,
                            constant(warpsPerBlock)),
      ids.warp);
  return ids;
}

gpu::LaunchOp createLaunch(RewriterBase &rewriter, Location loc, Value blocks,
                           Value threadsX, Value threadsY, TypeRange shared,
                           Value dynamicShared) {
  Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
  auto launch = gpu::LaunchOp::create(
      rewriter, loc, blocks, one, one, threadsX, threadsY, one, dynamicShared,
      /*asyncTokenType=*/nullptr,
      /*asyncDependencies=*/{}, shared);
  Block &body = launch.getBody().front();
  rewriter.setInsertionPointToEnd(&body);
  gpu::TerminatorOp::create(rewriter, loc);
  rewriter.setInsertionPointToStart(&body);
  return launch;
}

namespace {

/// Whether the ops strictly between `from` and `to` (in one block) leave
/// memory alone (see isMemoryNeutral).
bool touchesNoMemoryBetween(Operation *from, Operation *to) {
  for (Operation *op = from->getNextNode(); op && op != to;
       op = op->getNextNode())
    if (!isMemoryNeutral(op))
      return false;
  return true;
}

} // namespace

/// The linalg.fill that sets the whole of `op`'s accumulator just before
/// it, whose value can then start the accumulation instead.
linalg::FillOp getFusableFill(linalg::LinalgOp op) {
  Value accumulator = op.getDpsInitOperand(0)->get();
  for (Operation *prev = op->getPrevNode(); prev; prev = prev->getPrevNode()) {
    if (auto fill = dyn_cast<linalg::FillOp>(prev))
      return fill.getDpsInitOperand(0)->get() == accumulator &&
                     fill.hasPureBufferSemantics() &&
                     touchesNoMemoryBetween(fill, op)
                 ? fill
                 : nullptr;
    if (!isMemoryNeutral(prev))
      return nullptr;
  }
  return nullptr;
}

bool readsOwnElementsOnly(linalg::GenericOp epilogue, Value product) {
  OpOperand *output = epilogue.getDpsInitOperand(0);
  Value result = output->get();
  for (OpOperand *input : epilogue.getDpsInputOperands()) {
    Value read = input->get();
    if (read == product || !isa<MemRefType>(read.getType()) ||
        (read == result && epilogue.getMatchingIndexingMap(input) ==
                               epilogue.getMatchingIndexingMap(output)))
      continue;
    if (mayAlias(read, result) || mayAlias(read, product))
      return false;
  }
  return true;
}

// Other threads still read A and B, and write the other elements of the
// output.
linalg::GenericOp getFusableEpilogue(linalg::LinalgOp op) {
  Value product = op.getDpsInitOperand(0)->get();
  auto epilogue = dyn_cast_or_null<linalg::GenericOp>(op->getNextNode());
  for (Operation *next = op->getNextNode(); next && !epilogue;
       next = next->getNextNode()) {
    epilogue = dyn_cast<linalg::GenericOp>(next);
    if (!epilogue && !isMemoryNeutral(next))
      return nullptr;
  }
  if (!epilogue || !epilogue.hasPureBufferSemantics() ||
      !isElementwiseEpilogue(epilogue, product) ||
      !hasEffectFreePayload(epilogue) || !touchesNoMemoryBetween(op, epilogue))
    return nullptr;
  OpOperand *output = epilogue.getDpsInitOperand(0);
  Value result = output->get();
  if (mayAlias(result, op.getDpsInputOperand(0)->get()) ||
      mayAlias(result, op.getDpsInputOperand(1)->get()))
    return nullptr;
  if (!readsOwnElementsOnly(epilogue, product))
    return nullptr;
  if (result == product)
    return epilogue;
  // The product buffer must die with the epilogue: a buffer of this
  // function (not an argument the caller reads) that nothing else reads.
  if (!product.getDefiningOp<gpu::AllocOp>() &&
      !product.getDefiningOp<memref::AllocOp>())
    return nullptr;
  for (Operation *user : product.getUsers())
    if (user != op && user != epilogue &&
        !isa<linalg::FillOp, memref::DimOp, memref::DeallocOp, gpu::DeallocOp,
             memref::ExtractStridedMetadataOp,
             memref::ExtractAlignedPointerAsIndexOp>(user))
      return nullptr;
  return epilogue;
}

/// The value contraction `op`'s body computes from `lhs`, `rhs` and the
/// accumulator `accumulator`.
Value accumulate(RewriterBase &rewriter, linalg::LinalgOp op, Value lhs,
                 Value rhs, Value accumulator) {
  Block *body = op.getBlock();
  IRMapping mapping;
  mapping.map(body->getArgument(0), lhs);
  mapping.map(body->getArgument(1), rhs);
  mapping.map(body->getArgument(2), accumulator);
  for (Operation &payload : body->without_terminator()) {
    Operation *clone = rewriter.clone(payload, mapping);
    // A multiply and an add may become one fused multiply-add (SPEC);
    // without `contract`, LLVM's NVPTX backend keeps them apart.
    auto fastMath = dyn_cast<arith::ArithFastMathInterface>(clone);
    if (!fastMath)
      continue;
    arith::FastMathFlagsAttr flags = fastMath.getFastMathFlagsAttr();
    clone->setAttr(fastMath.getFastMathAttrName(),
                   arith::FastMathFlagsAttr::get(
                       rewriter.getContext(),
                       (flags ? flags.getValue() : arith::FastMathFlags::none) |
                           arith::FastMathFlags::contract));
  }
  return mapping.lookup(body->getTerminator()->getOperand(0));
}

namespace {

/// Where one thread's tile of a contraction's output lies: C[rows[i],
/// columns[j]] in batch `loops[batch]`; `clamped*` are the indices clamped
/// into range, safe to read.
struct OutputTile {
  SmallVector<Value> loops;
  SmallVector<Value> rows, columns, clampedRows, clampedColumns;
  Value sizeM, sizeN;
  /// Every element lies in range: stores need no guard.
  bool whole = false;
};

} // namespace

namespace {

/// The tile's starting values: the fill's value, or C's elements.
SmallVector<Value> loadAccumulators(RewriterBase &rewriter, Location loc,
                                    linalg::LinalgOp op,
                                    const linalg::ContractionDimensions &dims,
                                    OutputTile &tile, linalg::FillOp fill) {
  SmallVector<Value> initial;
  OpOperand *out = op.getDpsInitOperand(0);
  for (Value row : tile.clampedRows)
    for (Value column : tile.clampedColumns) {
      if (fill) {
        initial.push_back(fill.getDpsInputOperand(0)->get());
        continue;
      }
      tile.loops[dims.m.front()] = row;
      tile.loops[dims.n.front()] = column;
      initial.push_back(memref::LoadOp::create(
          rewriter, loc, out->get(), getIndices(op, *out, tile.loops)));
    }
  return initial;
}

} // namespace

namespace {

/// Stores the tile's `values` (row-major), the elements in range only,
/// through the elementwise `epilogue` when there is one.
void storeTile(RewriterBase &rewriter, Location loc, linalg::LinalgOp op,
               const linalg::ContractionDimensions &dims, OutputTile &tile,
               ValueRange values, linalg::GenericOp epilogue) {
  OpOperand *out = op.getDpsInitOperand(0);
  int64_t tileN = tile.columns.size();
  for (auto [i, row] : llvm::enumerate(tile.rows)) {
    Value rowInRange =
        tile.whole
            ? Value()
            : arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::slt,
                                    row, tile.sizeM);
    for (auto [j, column] : llvm::enumerate(tile.columns)) {
      OpBuilder::InsertionGuard insertion(rewriter);
      if (!tile.whole) {
        Value columnInRange = arith::CmpIOp::create(
            rewriter, loc, arith::CmpIPredicate::slt, column, tile.sizeN);
        Value inRange =
            arith::AndIOp::create(rewriter, loc, rowInRange, columnInRange);
        auto guard = scf::IfOp::create(rewriter, loc, inRange);
        rewriter.setInsertionPointToStart(guard.thenBlock());
      }
      tile.loops[dims.m.front()] = row;
      tile.loops[dims.n.front()] = column;
      SmallVector<Value> element = getIndices(op, *out, tile.loops);
      Value value = values[i * tileN + j];
      if (!epilogue) {
        memref::StoreOp::create(rewriter, loc, value, out->get(), element);
        continue;
      }
      // The epilogue's loops are the product's dimensions.
      IRMapping mapping;
      Block *epilogueBody = epilogue.getBlock();
      for (OpOperand &operand : epilogue->getOpOperands()) {
        BlockArgument argument = epilogue.getMatchingBlockArgument(&operand);
        bool isOutput = epilogue.isDpsInit(&operand);
        if (operand.get() == out->get() &&
            epilogue.getMatchingIndexingMap(&operand).isIdentity()) {
          mapping.map(argument, value);
          continue;
        }
        if (isOutput && !epilogue.payloadUsesValueFromOperand(&operand))
          continue;
        SmallVector<Value> indices;
        for (AffineExpr result :
             epilogue.getMatchingIndexingMap(&operand).getResults())
          indices.push_back(element[cast<AffineDimExpr>(result).getPosition()]);
        mapping.map(argument, memref::LoadOp::create(rewriter, loc,
                                                     operand.get(), indices));
      }
      for (Operation &payload : epilogueBody->without_terminator())
        rewriter.clone(payload, mapping);
      memref::StoreOp::create(
          rewriter, loc,
          mapping.lookup(epilogueBody->getTerminator()->getOperand(0)),
          epilogue.getDpsInitOperand(0)->get(), element);
    }
  }
}

} // namespace

namespace {

/// Erases a contraction lowered to a kernel, with its fused fill and
/// epilogue.
void eraseContraction(RewriterBase &rewriter, linalg::LinalgOp op,
                      linalg::FillOp fill, linalg::GenericOp epilogue) {
  if (fill)
    rewriter.eraseOp(fill);
  if (epilogue)
    rewriter.eraseOp(epilogue);
  rewriter.eraseOp(op);
}

} // namespace

namespace {

/// How tiles of tileM x tileN cover the output of a contraction: its
/// extents, the tiles along M and N, and the tiles of all batches.
struct TileGrid {
  Value sizeM, sizeN, sizeK, tilesM, tilesN, count;
};

} // namespace

namespace {

TileGrid getTileGrid(RewriterBase &rewriter, Location loc, linalg::LinalgOp op,
                     const linalg::ContractionDimensions &dims, int64_t tileM,
                     int64_t tileN) {
  SmallVector<Range> ranges = op.createLoopRanges(rewriter, loc);
  auto extent = [&](unsigned dim) {
    return getValueOrCreateConstantIndexOp(rewriter, loc, ranges[dim].size);
  };
  auto tilesOf = [&](Value size, int64_t tile) -> Value {
    Value tileSize = arith::ConstantIndexOp::create(rewriter, loc, tile);
    return arith::CeilDivSIOp::create(rewriter, loc, size, tileSize);
  };
  TileGrid grid;
  grid.sizeM = extent(dims.m.front());
  grid.sizeN = extent(dims.n.front());
  grid.sizeK = extent(dims.k.front());
  grid.tilesM = tilesOf(grid.sizeM, tileM);
  grid.tilesN = tilesOf(grid.sizeN, tileN);
  grid.count = arith::MulIOp::create(rewriter, loc, grid.tilesM, grid.tilesN);
  if (!dims.batch.empty())
    grid.count = arith::MulIOp::create(rewriter, loc, grid.count,
                                       extent(dims.batch.front()));
  return grid;
}

} // namespace

namespace {

/// Where a tile of a contraction's output starts.
struct TileOrigin {
  Value firstRow, firstColumn, batch;
};

} // namespace

namespace {

/// The origin of tile `index` of `grid`. Column tiles come fastest, so that
/// neighbouring tiles read neighbouring columns of B and write neighbouring
/// columns of C; with `rowsFirst`, row tiles (neighbours read one column of
/// B).
TileOrigin getTileOrigin(RewriterBase &rewriter, Location loc,
                         const TileGrid &grid, Value index, int64_t tileM,
                         int64_t tileN, bool rowsFirst = false) {
  auto constant = [&](int64_t value) -> Value {
    return arith::ConstantIndexOp::create(rewriter, loc, value);
  };
  Value fast = rowsFirst ? grid.tilesM : grid.tilesN;
  Value slow = rowsFirst ? grid.tilesN : grid.tilesM;
  Value tileJ = arith::RemSIOp::create(rewriter, loc, index, fast);
  Value rest = arith::DivSIOp::create(rewriter, loc, index, fast);
  Value tileI = arith::RemSIOp::create(rewriter, loc, rest, slow);
  if (rowsFirst)
    std::swap(tileI, tileJ);
  TileOrigin origin;
  origin.batch = arith::DivSIOp::create(rewriter, loc, rest, slow);
  origin.firstRow =
      arith::MulIOp::create(rewriter, loc, tileI, constant(tileM));
  origin.firstColumn =
      arith::MulIOp::create(rewriter, loc, tileJ, constant(tileN));
  return origin;
}

} // namespace

bool isMemoryNeutral(Operation *op) {
  return isa<cf::AssertOp, gpu::AllocOp, memref::AllocOp>(op) ||
         isMemoryEffectFree(op);
}

void moveNeutralOpsBefore(Operation *op, Operation *end) {
  // In order: what an allocation's sizes come from moves before it.
  for (Operation *between = op->getNextNode(); between != end;) {
    Operation *next = between->getNextNode();
    if (isa<gpu::AllocOp, memref::AllocOp>(between) ||
        isMemoryEffectFree(between))
      between->moveBefore(op);
    between = next;
  }
}

namespace {

/// A block of a contraction kernel: its launch, the origin of its tile of
/// C, and the extents of the contraction it works on (the whole op's, or a
/// tile's views').
struct BlockFrame {
  gpu::LaunchOp launch;
  TileOrigin origin;
  Value sizeM, sizeN, sizeK;
};

/// Launches the blocks of a kernel for contraction `op` (with `epilogue`,
/// or null) whose blocks own `blockTile` x `blockTile` tiles of C, with
/// `threadsX` x `threadsY` threads and workgroup buffers of types `shared`
/// (see ContractionBlocks); the rewriter's insertion point is left in the
/// launch, where the block's work goes.
BlockFrame launchBlocks(RewriterBase &rewriter, const ContractionBlocks &blocks,
                        linalg::LinalgOp op,
                        const linalg::ContractionDimensions &dims,
                        linalg::GenericOp epilogue, int64_t blockTile,
                        int64_t threadsX, int64_t threadsY, TypeRange shared) {
  Location loc = op.getLoc();
  auto constant = [&](int64_t value) -> Value {
    return arith::ConstantIndexOp::create(rewriter, loc, value);
  };
  if (!blocks.loop) {
    rewriter.setInsertionPoint(op);
    TileGrid grid = getTileGrid(rewriter, loc, op, dims, blockTile, blockTile);
    gpu::LaunchOp launch =
        createLaunch(rewriter, loc, grid.count, constant(threadsX),
                     constant(threadsY), shared);
    TileOrigin origin = getTileOrigin(
        rewriter, loc, grid, launch.getBlockIds().x, blockTile, blockTile);
    return {launch, origin, grid.sizeM, grid.sizeN, grid.sizeK};
  }
  // A loop's tile larger than the kernel's takes several blocks, column
  // tiles fastest.
  auto blocksAlong = [&](unsigned dim) {
    std::optional<int64_t> bound = getLoopRangeBound(op, dim);
    assert(bound && "a loop's tile of C has bounded extents");
    return std::max<int64_t>(llvm::divideCeil(*bound, blockTile), 1);
  };
  int64_t blocksM = blocksAlong(dims.m.front());
  int64_t blocksN = blocksAlong(dims.n.front());
  gpu::LaunchOp launch = createLaunchFromLoop(
      rewriter, blocks.loop, threadsX, threadsY, shared, blocksM * blocksN);
  // The kernel is built at the contraction: what the epilogue reads is
  // defined before it.
  if (epilogue)
    moveNeutralOpsBefore(op, epilogue);
  rewriter.setInsertionPoint(op);
  SmallVector<Range> ranges = op.createLoopRanges(rewriter, loc);
  auto extent = [&](unsigned dim) {
    return getValueOrCreateConstantIndexOp(rewriter, loc, ranges[dim].size);
  };
  Value zero = constant(0);
  TileOrigin origin{zero, zero, zero};
  if (blocksM * blocksN > 1) {
    IndexBuilder b{rewriter, loc};
    Value block = b.rem(launch.getBlockIds().x, blocksM * blocksN);
    origin.firstRow = b.mul(b.div(block, blocksN), blockTile);
    origin.firstColumn = b.mul(b.rem(block, blocksN), blockTile);
  }
  return {launch, origin, extent(dims.m.front()), extent(dims.n.front()),
          extent(dims.k.front())};
}

} // namespace

/// A one-dimensional scf.parallel over tiles of the output of contraction
/// `op`: each iteration (one thread) keeps a tileM x tileN tile of C in
/// registers across the whole K loop, loading a column of A and a row of B
/// per step (indices clamped into range; only in-range elements are
/// stored).
scf::ParallelOp
lowerContractionToTiles(RewriterBase &rewriter, linalg::LinalgOp op,
                        const linalg::ContractionDimensions &dims,
                        int64_t tileM, int64_t tileN, linalg::FillOp fill,
                        linalg::GenericOp epilogue) {
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  auto constant = [&](int64_t value) -> Value {
    return arith::ConstantIndexOp::create(rewriter, loc, value);
  };
  // Static extents smaller than a tile shrink it.
  SmallVector<int64_t> staticRanges = op.getStaticLoopRanges();
  auto fit = [](int64_t size, int64_t tile) {
    return !ShapedType::isDynamic(size) && size > 0 ? std::min(size, tile)
                                                    : tile;
  };
  unsigned m = dims.m.front(), n = dims.n.front(), k = dims.k.front();
  tileM = fit(staticRanges[m], tileM);
  tileN = fit(staticRanges[n], tileN);
  TileGrid grid = getTileGrid(rewriter, loc, op, dims, tileM, tileN);
  OutputTile tile;
  tile.sizeM = grid.sizeM;
  tile.sizeN = grid.sizeN;
  Value zero = constant(0), one = constant(1);
  auto parallel = scf::ParallelOp::create(
      rewriter, loc, ValueRange{zero}, ValueRange{grid.count}, ValueRange{one});
  rewriter.setInsertionPoint(parallel.getBody()->getTerminator());
  TileOrigin origin = getTileOrigin(
      rewriter, loc, grid, parallel.getInductionVars().front(), tileM, tileN);
  Value firstRow = origin.firstRow, firstColumn = origin.firstColumn;
  Value lastRow = arith::SubIOp::create(rewriter, loc, tile.sizeM, one);
  Value lastColumn = arith::SubIOp::create(rewriter, loc, tile.sizeN, one);
  for (int64_t i = 0; i < tileM; ++i) {
    tile.rows.push_back(
        arith::AddIOp::create(rewriter, loc, firstRow, constant(i)));
    tile.clampedRows.push_back(
        arith::MinSIOp::create(rewriter, loc, tile.rows.back(), lastRow));
  }
  for (int64_t j = 0; j < tileN; ++j) {
    tile.columns.push_back(
        arith::AddIOp::create(rewriter, loc, firstColumn, constant(j)));
    tile.clampedColumns.push_back(
        arith::MinSIOp::create(rewriter, loc, tile.columns.back(), lastColumn));
  }
  tile.loops.assign(op.getNumLoops(), zero);
  if (!dims.batch.empty())
    tile.loops[dims.batch.front()] = origin.batch;
  OpOperand *lhs = op.getDpsInputOperand(0);
  OpOperand *rhs = op.getDpsInputOperand(1);
  auto load = [&](OpOperand *operand, Value row, Value column, Value depth) {
    SmallVector<Value> loops = tile.loops;
    loops[m] = row;
    loops[n] = column;
    loops[k] = depth;
    return memref::LoadOp::create(rewriter, loc, operand->get(),
                                  getIndices(op, *operand, loops))
        .getResult();
  };

  SmallVector<Value> initial =
      loadAccumulators(rewriter, loc, op, dims, tile, fill);
  auto kLoop = scf::ForOp::create(
      rewriter, loc, zero, grid.sizeK, one, initial,
      [&](OpBuilder &builder, Location nested, Value depth,
          ValueRange accumulators) {
        OpBuilder::InsertionGuard guard(rewriter);
        rewriter.setInsertionPointToStart(builder.getInsertionBlock());
        SmallVector<Value> lhsColumn, rhsRow, updated;
        for (Value row : tile.clampedRows)
          lhsColumn.push_back(load(lhs, row, zero, depth));
        for (Value column : tile.clampedColumns)
          rhsRow.push_back(load(rhs, zero, column, depth));
        for (int64_t i = 0; i < tileM; ++i)
          for (int64_t j = 0; j < tileN; ++j)
            updated.push_back(accumulate(rewriter, op, lhsColumn[i], rhsRow[j],
                                         accumulators[i * tileN + j]));
        scf::YieldOp::create(rewriter, nested, updated);
      });
  storeTile(rewriter, loc, op, dims, tile, kLoop.getResults(), epilogue);
  eraseContraction(rewriter, op, fill, epilogue);
  return parallel;
}

/// A gpu.launch computing contraction `op` through shared memory: each
/// block owns a (16 t) x (16 t) tile of C (t = tileSize) and walks K in
/// slices of 16; per slice its threads copy the slices of A and B into
/// shared memory together (coalesced along each operand's innermost
/// dimension, indices clamped into range), wait at a barrier, and each
/// thread updates its t x t tile, held in registers, from shared memory.
/// Thread (x, y) owns rows y + 16 i and columns x + 16 j of the block's
/// tile, so that a warp reads shared memory without bank conflicts and
/// stores neighbouring columns of C.
namespace {

/// The workgroup buffers of a shared-tile kernel for contraction `op`:
/// slices of A (rows x depth) and B (depth x columns), each row padded by
/// one element so that column-wise writes avoid bank conflicts.
SmallVector<Type> getSharedTileTypes(linalg::LinalgOp op, int64_t blockTile) {
  auto workgroup = gpu::AddressSpaceAttr::get(op->getContext(),
                                              gpu::AddressSpace::Workgroup);
  auto sharedType = [&](OpOperand *operand, int64_t rows, int64_t columns) {
    return MemRefType::get({rows, columns + 1},
                           getElementTypeOrSelf(operand->get().getType()),
                           MemRefLayoutAttrInterface(), workgroup);
  };
  return {sharedType(op.getDpsInputOperand(0), blockTile, kSharedDepth),
          sharedType(op.getDpsInputOperand(1), kSharedDepth, blockTile)};
}

/// Emits, in `frame`'s launch (see getSharedTileTypes), a block's work on
/// its tile of contraction `op`, and erases `op` with `fill` and `epilogue`
/// (see lowerContractionToSharedTiles).
void emitSharedTiles(RewriterBase &rewriter, Location loc, linalg::LinalgOp op,
                     const linalg::ContractionDimensions &dims,
                     int64_t tileSize, linalg::FillOp fill,
                     linalg::GenericOp epilogue, const BlockFrame &frame) {
  gpu::LaunchOp launch = frame.launch;
  const TileOrigin &origin = frame.origin;
  Value sizeK = frame.sizeK;
  auto constant = [&](int64_t value) -> Value {
    return arith::ConstantIndexOp::create(rewriter, loc, value);
  };
  unsigned m = dims.m.front(), n = dims.n.front(), k = dims.k.front();
  const int64_t threads = kSharedThreads * kSharedThreads;
  const int64_t blockTile = kSharedThreads * tileSize;
  OutputTile tile;
  tile.sizeM = frame.sizeM;
  tile.sizeN = frame.sizeN;
  OpOperand *lhs = op.getDpsInputOperand(0);
  OpOperand *rhs = op.getDpsInputOperand(1);
  Value sharedLhs = launch.getWorkgroupAttributions()[0];
  Value sharedRhs = launch.getWorkgroupAttributions()[1];
  Value zero = constant(0);
  Value one = constant(1);
  Value firstRow = origin.firstRow, firstColumn = origin.firstColumn;
  Value lastRow = arith::SubIOp::create(rewriter, loc, tile.sizeM, one);
  Value lastColumn = arith::SubIOp::create(rewriter, loc, tile.sizeN, one);
  Value lastDepth = arith::SubIOp::create(rewriter, loc, sizeK, one);
  Value threadX = launch.getThreadIds().x;
  Value threadY = launch.getThreadIds().y;
  Value thread = arith::AddIOp::create(
      rewriter, loc,
      arith::MulIOp::create(rewriter, loc, threadY, constant(kSharedThreads)),
      threadX);
  SmallVector<Value> localRows, localColumns;
  for (int64_t i = 0; i < tileSize; ++i) {
    localRows.push_back(arith::AddIOp::create(rewriter, loc, threadY,
                                              constant(i * kSharedThreads)));
    localColumns.push_back(arith::AddIOp::create(rewriter, loc, threadX,
                                                 constant(i * kSharedThreads)));
    tile.rows.push_back(
        arith::AddIOp::create(rewriter, loc, firstRow, localRows.back()));
    tile.clampedRows.push_back(
        arith::MinSIOp::create(rewriter, loc, tile.rows.back(), lastRow));
    tile.columns.push_back(
        arith::AddIOp::create(rewriter, loc, firstColumn, localColumns.back()));
    tile.clampedColumns.push_back(
        arith::MinSIOp::create(rewriter, loc, tile.columns.back(), lastColumn));
  }
  tile.loops.assign(op.getNumLoops(), zero);
  if (!dims.batch.empty())
    tile.loops[dims.batch.front()] = origin.batch;

  // Copies a rows x columns slice of `operand` whose element (r, c) lies at
  // loop dimensions (rowDim = first[0] + r, columnDim = first[1] + c) into
  // `shared`: the block's threads take consecutive elements along the
  // operand's innermost dimension.
  auto stage = [&](OpOperand *operand, Value shared, unsigned rowDim,
                   unsigned columnDim, int64_t rows, int64_t columns,
                   Value firstRowOf, Value lastRowOf, Value firstColumnOf,
                   Value lastColumnOf) {
    AffineMap map = op.getMatchingIndexingMap(operand);
    bool rowsFastest =
        cast<AffineDimExpr>(map.getResults().back()).getPosition() == rowDim;
    for (int64_t e = 0; e < rows * columns / threads; ++e) {
      Value index =
          arith::AddIOp::create(rewriter, loc, thread, constant(e * threads));
      int64_t fastSize = rowsFastest ? rows : columns;
      Value fast =
          arith::RemSIOp::create(rewriter, loc, index, constant(fastSize));
      Value slow =
          arith::DivSIOp::create(rewriter, loc, index, constant(fastSize));
      Value row = rowsFastest ? fast : slow;
      Value column = rowsFastest ? slow : fast;
      SmallVector<Value> loops = tile.loops;
      loops[rowDim] = arith::MinSIOp::create(
          rewriter, loc, arith::AddIOp::create(rewriter, loc, firstRowOf, row),
          lastRowOf);
      loops[columnDim] = arith::MinSIOp::create(
          rewriter, loc,
          arith::AddIOp::create(rewriter, loc, firstColumnOf, column),
          lastColumnOf);
      Value value = memref::LoadOp::create(rewriter, loc, operand->get(),
                                           getIndices(op, *operand, loops));
      memref::StoreOp::create(rewriter, loc, value, shared,
                              ValueRange{row, column});
    }
  };

  SmallVector<Value> initial =
      loadAccumulators(rewriter, loc, op, dims, tile, fill);
  auto slices = scf::ForOp::create(
      rewriter, loc, zero, sizeK, constant(kSharedDepth), initial,
      [&](OpBuilder &builder, Location nested, Value firstDepth,
          ValueRange accumulators) {
        OpBuilder::InsertionGuard guard(rewriter);
        rewriter.setInsertionPointToStart(builder.getInsertionBlock());
        stage(lhs, sharedLhs, m, k, blockTile, kSharedDepth, firstRow, lastRow,
              firstDepth, lastDepth);
        stage(rhs, sharedRhs, k, n, kSharedDepth, blockTile, firstDepth,
              lastDepth, firstColumn, lastColumn);
        gpu::BarrierOp::create(rewriter, loc);
        // Every slice is whole when K is a known multiple of its depth: a
        // constant trip count that LLVM unrolls.
        int64_t staticK = op.getStaticLoopRanges()[k];
        Value depth =
            !ShapedType::isDynamic(staticK) && staticK % kSharedDepth == 0
                ? constant(kSharedDepth)
                : arith::MinSIOp::create(
                      rewriter, loc, constant(kSharedDepth),
                      arith::SubIOp::create(rewriter, loc, sizeK, firstDepth))
                      .getResult();
        auto steps = scf::ForOp::create(
            rewriter, loc, zero, depth, one, accumulators,
            [&](OpBuilder &inner, Location, Value step, ValueRange partial) {
              OpBuilder::InsertionGuard innerGuard(rewriter);
              rewriter.setInsertionPointToStart(inner.getInsertionBlock());
              SmallVector<Value> lhsColumn, rhsRow, updated;
              for (Value row : localRows)
                lhsColumn.push_back(memref::LoadOp::create(
                    rewriter, loc, sharedLhs, ValueRange{row, step}));
              for (Value column : localColumns)
                rhsRow.push_back(memref::LoadOp::create(
                    rewriter, loc, sharedRhs, ValueRange{step, column}));
              for (int64_t i = 0; i < tileSize; ++i)
                for (int64_t j = 0; j < tileSize; ++j)
                  updated.push_back(accumulate(rewriter, op, lhsColumn[i],
                                               rhsRow[j],
                                               partial[i * tileSize + j]));
              scf::YieldOp::create(rewriter, loc, updated);
            });
        // The next slice overwrites shared memory once all have read it.
        gpu::BarrierOp::create(rewriter, loc);
        scf::YieldOp::create(rewriter, nested, steps.getResults());
        // Unrolled, the steps' shared loads overlap with the arithmetic.
        if (!ShapedType::isDynamic(staticK) && staticK % kSharedDepth == 0)
          (void)loopUnrollFull(steps);
        else
          (void)loopUnrollByFactor(steps, 4);
      });
  storeTile(rewriter, loc, op, dims, tile, slices.getResults(), epilogue);
  eraseContraction(rewriter, op, fill, epilogue);
}

} // namespace

gpu::LaunchOp
lowerContractionToSharedTiles(RewriterBase &rewriter, linalg::LinalgOp op,
                              const linalg::ContractionDimensions &dims,
                              int64_t tileSize, linalg::FillOp fill,
                              linalg::GenericOp epilogue,
                              const ContractionBlocks &blocks) {
  const int64_t blockTile = kSharedThreads * tileSize;
  BlockFrame frame = launchBlocks(rewriter, blocks, op, dims, epilogue,
                                  blockTile, kSharedThreads, kSharedThreads,
                                  getSharedTileTypes(op, blockTile));
  emitSharedTiles(rewriter, op.getLoc(), op, dims, tileSize, fill, epilogue,
                  frame);
  return frame.launch;
}

/// The op of contraction `op`'s body that adds the product to the
/// accumulator (arith.addf or arith.addi), or null.
Operation *getAccumulation(linalg::LinalgOp op) {
  Block *body = op.getBlock();
  Operation *yielded = body->getTerminator()->getOperand(0).getDefiningOp();
  if (!isa_and_nonnull<arith::AddFOp, arith::AddIOp>(yielded) ||
      yielded->getBlock() != body ||
      !llvm::is_contained(yielded->getOperands(),
                          body->getArgument(op.getNumDpsInputs())))
    return nullptr;
  return yielded;
}

namespace {

/// `accumulation` (see getAccumulation) applied to two partial sums.
Value addPartials(RewriterBase &rewriter, Operation *accumulation, Value lhs,
                  Value rhs) {
  IRMapping mapping;
  mapping.map(accumulation->getOperand(0), lhs);
  mapping.map(accumulation->getOperand(1), rhs);
  return rewriter.clone(*accumulation, mapping)->getResult(0);
}

/// The identity of `accumulation`: -0.0 for floats (-0 + x is x for every
/// x, -0 included), 0 for integers.
Value getAdditiveIdentity(RewriterBase &rewriter, Location loc,
                          Operation *accumulation) {
  Type type = accumulation->getResult(0).getType();
  if (auto floatType = dyn_cast<FloatType>(type))
    return arith::ConstantOp::create(
        rewriter, loc,
        rewriter.getFloatAttr(floatType,
                              APFloat::getZero(floatType.getFloatSemantics(),
                                               /*Negative=*/true)));
  return arith::ConstantOp::create(rewriter, loc, rewriter.getZeroAttr(type));
}

} // namespace

namespace {

/// Tile `index` of `grid`, `rows` x 1 elements of C (row tiles first with
/// `rowsFirst`), its rows clamped into range for reading. Threads past the
/// last tile compute the last one again, unstored (see `inRange`).
struct ColumnTile {
  OutputTile tile;
  Value inRange;
};

ColumnTile getColumnTile(RewriterBase &rewriter, Location loc,
                         linalg::LinalgOp op,
                         const linalg::ContractionDimensions &dims,
                         const TileGrid &grid, Value index, int64_t rows,
                         bool rowsFirst) {
  auto constant = [&](int64_t value) -> Value {
    return arith::ConstantIndexOp::create(rewriter, loc, value);
  };
  ColumnTile column;
  column.inRange = arith::CmpIOp::create(
      rewriter, loc, arith::CmpIPredicate::slt, index, grid.count);
  Value clamped = arith::MinSIOp::create(
      rewriter, loc, index,
      arith::SubIOp::create(rewriter, loc, grid.count, constant(1)));
  TileOrigin origin =
      getTileOrigin(rewriter, loc, grid, clamped, rows, 1, rowsFirst);
  OutputTile &tile = column.tile;
  tile.sizeM = grid.sizeM;
  tile.sizeN = grid.sizeN;
  // Tiles of whole rows need no clamps.
  int64_t sizeM = op.getStaticLoopRanges()[dims.m.front()];
  tile.whole = !ShapedType::isDynamic(sizeM) && sizeM % rows == 0;
  Value lastRow = arith::SubIOp::create(rewriter, loc, grid.sizeM, constant(1));
  for (int64_t i = 0; i < rows; ++i) {
    Value row = i == 0 ? origin.firstRow
                       : arith::AddIOp::create(rewriter, loc, origin.firstRow,
                                               constant(i));
    tile.rows.push_back(row);
    tile.clampedRows.push_back(
        i == 0 || tile.whole
            ? row
            : arith::MinSIOp::create(rewriter, loc, row, lastRow));
  }
  tile.columns = tile.clampedColumns = {origin.firstColumn};
  tile.loops.assign(op.getNumLoops(), constant(0));
  if (!dims.batch.empty())
    tile.loops[dims.batch.front()] = origin.batch;
  return column;
}

/// A loop adding up the products of each element of the column `tile` at
/// K indices `begin`, `begin + step`, ... below `end`, from the additive
/// identity of `accumulation` (its results are the sums, one per row).
/// B's element is loaded once per step for all the rows.
scf::ForOp createProductSums(RewriterBase &rewriter, Location loc,
                             linalg::LinalgOp op,
                             const linalg::ContractionDimensions &dims,
                             const OutputTile &tile, Operation *accumulation,
                             Value begin, Value end, Value step) {
  OpOperand *lhs = op.getDpsInputOperand(0);
  OpOperand *rhs = op.getDpsInputOperand(1);
  SmallVector<Value> identities(
      tile.clampedRows.size(),
      getAdditiveIdentity(rewriter, loc, accumulation));
  return scf::ForOp::create(
      rewriter, loc, begin, end, step, identities,
      [&](OpBuilder &builder, Location nested, Value depth,
          ValueRange partials) {
        OpBuilder::InsertionGuard guard(rewriter);
        rewriter.setInsertionPointToStart(builder.getInsertionBlock());
        SmallVector<Value> loops = tile.loops;
        loops[dims.m.front()] = tile.clampedRows.front();
        loops[dims.n.front()] = tile.clampedColumns.front();
        loops[dims.k.front()] = depth;
        Value b = memref::LoadOp::create(rewriter, loc, rhs->get(),
                                         getIndices(op, *rhs, loops));
        SmallVector<Value> sums;
        for (auto [row, partial] : llvm::zip(tile.clampedRows, partials)) {
          loops[dims.m.front()] = row;
          Value a = memref::LoadOp::create(rewriter, loc, lhs->get(),
                                           getIndices(op, *lhs, loops));
          sums.push_back(accumulate(rewriter, op, a, b, partial));
        }
        scf::YieldOp::create(rewriter, nested, sums);
      });
}

} // namespace

/// A gpu.launch computing contraction `op` with K split `splits` ways:
/// blocks of kSplitKOutputs x `splits` threads, thread (x, y) adds up the
/// products of output element (block * kSplitKOutputs + x) over the y-th
/// chunk of K; the partial sums meet in shared memory, and thread (x, 0)
/// adds them to the accumulator's starting value in order and stores the
/// element (through the epilogue). Consecutive threads own consecutive
/// columns of C, so that their reads of B and writes of C are coalesced.
gpu::LaunchOp
lowerContractionToSplitK(RewriterBase &rewriter, linalg::LinalgOp op,
                         const linalg::ContractionDimensions &dims,
                         int64_t splits, linalg::FillOp fill,
                         linalg::GenericOp epilogue) {
  Location loc = op.getLoc();
  MLIRContext *context = rewriter.getContext();
  Operation *accumulation = getAccumulation(op);
  assert(accumulation && "expected a contraction that adds products");
  rewriter.setInsertionPoint(op);
  auto constant = [&](int64_t value) -> Value {
    return arith::ConstantIndexOp::create(rewriter, loc, value);
  };
  TileGrid grid = getTileGrid(rewriter, loc, op, dims, 1, 1);
  Value outputsPerBlock = constant(kSplitKOutputs);
  Value blocks =
      arith::CeilDivSIOp::create(rewriter, loc, grid.count, outputsPerBlock);
  auto workgroup =
      gpu::AddressSpaceAttr::get(context, gpu::AddressSpace::Workgroup);
  auto partialsType = MemRefType::get({splits, kSplitKOutputs},
                                      accumulation->getResult(0).getType(),
                                      MemRefLayoutAttrInterface(), workgroup);
  auto launch = createLaunch(rewriter, loc, blocks, outputsPerBlock,
                             constant(splits), TypeRange{partialsType});
  Value partials = launch.getWorkgroupAttributions()[0];
  Value zero = constant(0);
  Value one = constant(1);
  Value threadX = launch.getThreadIds().x;
  Value threadY = launch.getThreadIds().y;

  Value index = arith::AddIOp::create(
      rewriter, loc,
      arith::MulIOp::create(rewriter, loc, launch.getBlockIds().x,
                            constant(kSplitKOutputs)),
      threadX);
  ColumnTile element = getColumnTile(rewriter, loc, op, dims, grid, index,
                                     /*rows=*/1, /*rowsFirst=*/false);

  Value chunk =
      arith::CeilDivSIOp::create(rewriter, loc, grid.sizeK, constant(splits));
  Value begin = arith::MulIOp::create(rewriter, loc, threadY, chunk);
  Value end = arith::MinSIOp::create(
      rewriter, loc, arith::AddIOp::create(rewriter, loc, begin, chunk),
      grid.sizeK);
  scf::ForOp steps = createProductSums(rewriter, loc, op, dims, element.tile,
                                       accumulation, begin, end, one);
  memref::StoreOp::create(rewriter, loc, steps.getResult(0), partials,
                          ValueRange{threadY, threadX});
  gpu::BarrierOp::create(rewriter, loc);
  Value first = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq,
                                      threadY, zero);
  auto last = scf::IfOp::create(
      rewriter, loc,
      arith::AndIOp::create(rewriter, loc, first, element.inRange));
  {
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(last.thenBlock());
    Value total =
        loadAccumulators(rewriter, loc, op, dims, element.tile, fill).front();
    for (int64_t split = 0; split < splits; ++split)
      total = addPartials(
          rewriter, accumulation, total,
          memref::LoadOp::create(rewriter, loc, partials,
                                 ValueRange{constant(split), threadX}));
    storeTile(rewriter, loc, op, dims, element.tile, total, epilogue);
  }
  // Independent loads in flight hide the latency of global memory.
  (void)loopUnrollByFactor(steps, 4);
  eraseContraction(rewriter, op, fill, epilogue);
  return launch;
}

int64_t getWarpDotRows(linalg::LinalgOp op,
                       const linalg::ContractionDimensions &dims) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SmallVector<unsigned> outputDims = {dims.m.front(), dims.n.front()};
  llvm::append_range(outputDims, dims.batch);
  if (llvm::any_of(outputDims, [&](unsigned dim) {
        return ShapedType::isDynamic(ranges[dim]);
      }))
    return 1;
  int64_t columns = ranges[dims.n.front()];
  for (unsigned batch : dims.batch)
    columns *= ranges[batch];
  int64_t m = ranges[dims.m.front()];
  int64_t rows = std::clamp<int64_t>(m, 1, kWarpDotRows);
  while (rows > 1 && llvm::divideCeil(m, rows) * columns < kMinWarpDotWarps)
    rows /= 2;
  return rows;
}

gpu::LaunchOp
lowerContractionToWarpDots(RewriterBase &rewriter, linalg::LinalgOp op,
                           const linalg::ContractionDimensions &dims,
                           linalg::FillOp fill, linalg::GenericOp epilogue,
                           bool warpShuffles) {
  Location loc = op.getLoc();
  Operation *accumulation = getAccumulation(op);
  assert(accumulation && "expected a contraction that adds products");
  rewriter.setInsertionPoint(op);
  auto constant = [&](int64_t value) -> Value {
    return arith::ConstantIndexOp::create(rewriter, loc, value);
  };
  Type sumType = accumulation->getResult(0).getType();
  // gpu.shuffle moves 32 bits.
  bool shuffles = warpShuffles && sumType.getIntOrFloatBitWidth() == 32;
  int64_t rows = getWarpDotRows(op, dims);
  TileGrid grid = getTileGrid(rewriter, loc, op, dims, rows, 1);
  Value blocks = arith::CeilDivSIOp::create(rewriter, loc, grid.count,
                                            constant(kWarpDotWarps));
  SmallVector<Type> shared;
  if (!shuffles)
    shared.push_back(MemRefType::get(
        {kWarpDotWarps * rows * kWarpLanes}, sumType,
        MemRefLayoutAttrInterface(),
        gpu::AddressSpaceAttr::get(rewriter.getContext(),
                                   gpu::AddressSpace::Workgroup)));
  auto launch =
      createLaunch(rewriter, loc, blocks, constant(kWarpDotWarps * kWarpLanes),
                   constant(1), shared);
  Value zero = constant(0);
  WarpIds ids = getWarpIds(rewriter, loc, launch, kWarpDotWarps);
  Value lane = ids.lane, warp = ids.warp, index = ids.index;
  // Neighbouring warps share B^T's row where it is the larger operand (an
  // MLP's weights at a small batch), else A's.
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  bool rowsFirst = ranges[dims.n.front()] >= ranges[dims.m.front()];
  ColumnTile column =
      getColumnTile(rewriter, loc, op, dims, grid, index, rows, rowsFirst);
  scf::ForOp steps =
      createProductSums(rewriter, loc, op, dims, column.tile, accumulation,
                        lane, grid.sizeK, constant(kWarpLanes));
  SmallVector<Value> sums(steps.getResults());
  Value firstLane = arith::CmpIOp::create(rewriter, loc,
                                          arith::CmpIPredicate::eq, lane, zero);
  auto last = scf::IfOp::create(
      rewriter, loc,
      arith::AndIOp::create(rewriter, loc, firstLane, column.inRange));
  rewriter.setInsertionPoint(last);
  // Where the lanes' sums of row i start in shared memory.
  auto partialsOf = [&](int64_t i) -> Value {
    return arith::AddIOp::create(
        rewriter, loc,
        arith::MulIOp::create(rewriter, loc, warp, constant(rows * kWarpLanes)),
        constant(i * kWarpLanes));
  };
  if (shuffles) {
    // A butterfly: every lane ends with the same totals.
    for (Value &sum : sums)
      sum =
          createWarpButterfly(rewriter, loc, sum, [&](Value mine, Value other) {
            return addPartials(rewriter, accumulation, mine, other);
          });
  } else {
    Value partials = launch.getWorkgroupAttributions()[0];
    for (auto [i, sum] : llvm::enumerate(sums))
      memref::StoreOp::create(rewriter, loc, sum, partials,
                              ValueRange{arith::AddIOp::create(
                                  rewriter, loc, partialsOf(i), lane)});
    gpu::BarrierOp::create(rewriter, loc);
  }
  {
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(last.thenBlock());
    SmallVector<Value> totals =
        loadAccumulators(rewriter, loc, op, dims, column.tile, fill);
    for (auto [i, total] : llvm::enumerate(totals)) {
      if (shuffles) {
        total = addPartials(rewriter, accumulation, total, sums[i]);
        continue;
      }
      Value partials = launch.getWorkgroupAttributions()[0];
      Value first = partialsOf(i);
      for (int64_t other = 0; other < kWarpLanes; ++other)
        total = addPartials(rewriter, accumulation, total,
                            memref::LoadOp::create(
                                rewriter, loc, partials,
                                ValueRange{arith::AddIOp::create(
                                    rewriter, loc, first, constant(other))}));
    }
    storeTile(rewriter, loc, op, dims, column.tile, totals, epilogue);
  }
  (void)loopUnrollByFactor(steps, 4);
  eraseContraction(rewriter, op, fill, epilogue);
  return launch;
}

/// A gpu.launch computing contraction `op` (see getVectorTileSize) in
/// blocks of 16x16 threads that own (16 t) x (16 t) tiles of C (t =
/// `threadTile`, 4 or 8), walking K in slices of kStagedElements / (16 t):
/// per slice each thread loads 4 consecutive elements of A's slice and 4 of
/// B's (coalesced, along each one's innermost dimension) into registers,
/// the block computes the previous slice from shared memory meanwhile, and
/// after a barrier the threads store the registers for the next step: each
/// slice as depth rows of its rows of A (of columns of B), so that an
/// operand read along K (A, and B^T) is stored transposed, and one read
/// along its rows (A^T, and B) as it is. Thread (x, y) owns rows 64 g + 4 y + i
/// and columns 64 g + 4 x + j (g < t / 4, i, j < 4): it reads them as vectors
/// of 4 from shared memory, and the threads of a warp read 16 different vectors
/// of B and 2 of A, without bank conflicts.
gpu::LaunchOp
lowerContractionToVectorTiles(RewriterBase &rewriter, linalg::LinalgOp op,
                              const linalg::ContractionDimensions &dims,
                              int64_t threadTile, linalg::FillOp fill,
                              linalg::GenericOp epilogue,
                              const ContractionBlocks &blocks) {
  Location loc = op.getLoc();
  MLIRContext *context = rewriter.getContext();
  rewriter.setInsertionPoint(op);
  auto constant = [&](int64_t value) -> Value {
    return arith::ConstantIndexOp::create(rewriter, loc, value);
  };
  unsigned m = dims.m.front(), n = dims.n.front(), k = dims.k.front();
  const int64_t vector = 4;
  const int64_t blockTile = kSharedThreads * threadTile;
  const int64_t depth = kStagedElements / blockTile;
  const int64_t groups = threadTile / vector;
  const int64_t groupStride = kSharedThreads * vector;
  OpOperand *lhs = op.getDpsInputOperand(0);
  OpOperand *rhs = op.getDpsInputOperand(1);
  Type element = getElementTypeOrSelf(lhs->get().getType());
  auto workgroup =
      gpu::AddressSpaceAttr::get(context, gpu::AddressSpace::Workgroup);
  // Whether A (B) is read along K, its innermost dimension: its slice is
  // then stored transposed, into rows padded by a vector so that the 4
  // stores of a thread's vector hit other banks than its neighbour's.
  const bool lhsKMajor = readsInOrder(op, *lhs, dims, m, k);
  const bool rhsKMajor = readsInOrder(op, *rhs, dims, n, k);
  auto sharedType = [&](bool kMajor) {
    return MemRefType::get({depth, blockTile + (kMajor ? vector : 0)}, element,
                           MemRefLayoutAttrInterface(), workgroup);
  };
  MemRefType lhsType = sharedType(lhsKMajor), rhsType = sharedType(rhsKMajor);
  BlockFrame frame =
      launchBlocks(rewriter, blocks, op, dims, epilogue, blockTile,
                   kSharedThreads, kSharedThreads, TypeRange{lhsType, rhsType});
  gpu::LaunchOp launch = frame.launch;
  const TileOrigin &origin = frame.origin;
  Value sharedLhs = launch.getWorkgroupAttributions()[0];
  Value sharedRhs = launch.getWorkgroupAttributions()[1];
  Value zero = constant(0);
  auto add = [&](Value lhsValue, Value rhsValue) -> Value {
    return arith::AddIOp::create(rewriter, loc, lhsValue, rhsValue);
  };
  auto mul = [&](Value lhsValue, int64_t factor) -> Value {
    return arith::MulIOp::create(rewriter, loc, lhsValue, constant(factor));
  };

  Value threadX = launch.getThreadIds().x;
  Value threadY = launch.getThreadIds().y;
  Value thread = add(mul(threadY, kSharedThreads), threadX);
  OutputTile tile;
  tile.sizeM = frame.sizeM;
  tile.sizeN = frame.sizeN;
  SmallVector<Value> localRows, localColumns;
  for (int64_t group = 0; group < groups; ++group) {
    localRows.push_back(
        add(mul(threadY, vector), constant(group * groupStride)));
    localColumns.push_back(
        add(mul(threadX, vector), constant(group * groupStride)));
    for (int64_t i = 0; i < vector; ++i) {
      tile.rows.push_back(
          add(origin.firstRow, add(localRows.back(), constant(i))));
      tile.columns.push_back(
          add(origin.firstColumn, add(localColumns.back(), constant(i))));
    }
  }
  tile.clampedRows = tile.rows;
  tile.clampedColumns = tile.columns;
  tile.loops.assign(op.getNumLoops(), zero);
  if (!dims.batch.empty())
    tile.loops[dims.batch.front()] = origin.batch;

  // The vector of A's (B's) slice this thread copies: its row (column)
  // in the block's tile and its first element of K, or its first row
  // (column) and its element of K.
  struct Copy {
    Value row, depth;
  };
  auto getCopy = [&](bool kMajor) -> Copy {
    if (kMajor) {
      int64_t perRow = depth / vector;
      return {
          arith::DivUIOp::create(rewriter, loc, thread, constant(perRow)),
          mul(arith::RemUIOp::create(rewriter, loc, thread, constant(perRow)),
              vector)};
    }
    int64_t perDepth = blockTile / vector;
    return {
        mul(arith::RemUIOp::create(rewriter, loc, thread, constant(perDepth)),
            vector),
        arith::DivUIOp::create(rewriter, loc, thread, constant(perDepth))};
  };
  Copy lhsCopy = getCopy(lhsKMajor), rhsCopy = getCopy(rhsKMajor);
  auto vectorType = VectorType::get({vector}, element);
  // A and B start at multiples of kVectorAlignment (checked before the
  // launch, see lowerIfAligned), as do their slices' vectors.
  int64_t elementBytes = element.getIntOrFloatBitWidth() / 8;
  auto loadSlice = [&](Value firstDepth) {
    auto load = [&](OpOperand *operand, unsigned rows, Value firstRow,
                    const Copy &copy) -> Value {
      SmallVector<Value> loops = tile.loops;
      loops[rows] = add(firstRow, copy.row);
      loops[k] = add(firstDepth, copy.depth);
      return vector::LoadOp::create(rewriter, loc, vectorType, operand->get(),
                                    getIndices(op, *operand, loops),
                                    /*nontemporal=*/false,
                                    llvm::MaybeAlign(vector * elementBytes));
    };
    return std::make_pair(load(lhs, m, origin.firstRow, lhsCopy),
                          load(rhs, n, origin.firstColumn, rhsCopy));
  };
  auto storeSlice = [&](std::pair<Value, Value> slice) {
    auto store = [&](Value values, Value shared, const Copy &copy,
                     bool kMajor) {
      if (!kMajor) {
        vector::StoreOp::create(
            rewriter, loc, values, shared, ValueRange{copy.depth, copy.row},
            /*nontemporal=*/false, llvm::MaybeAlign(vector * elementBytes));
        return;
      }
      for (int64_t i = 0; i < vector; ++i)
        memref::StoreOp::create(
            rewriter, loc, vector::ExtractOp::create(rewriter, loc, values, i),
            shared, ValueRange{add(copy.depth, constant(i)), copy.row});
    };
    store(slice.first, sharedLhs, lhsCopy, lhsKMajor);
    store(slice.second, sharedRhs, rhsCopy, rhsKMajor);
  };

  storeSlice(loadSlice(zero));
  gpu::BarrierOp::create(rewriter, loc);
  SmallVector<Value> initial =
      loadAccumulators(rewriter, loc, op, dims, tile, fill);
  Value lastSlice = constant(op.getStaticLoopRanges()[k] - depth);
  auto slices = scf::ForOp::create(
      rewriter, loc, zero, frame.sizeK, constant(depth), initial,
      [&](OpBuilder &builder, Location nested, Value firstDepth,
          ValueRange accumulators) {
        OpBuilder::InsertionGuard guard(rewriter);
        rewriter.setInsertionPointToStart(builder.getInsertionBlock());
        // The next slice (the last one again at the end) is on its way
        // while this one is computed.
        Value nextDepth = arith::MinSIOp::create(
            rewriter, loc, add(firstDepth, constant(depth)), lastSlice);
        std::pair<Value, Value> next = loadSlice(nextDepth);
        SmallVector<Value> partial(accumulators);
        for (int64_t step = 0; step < depth; ++step) {
          SmallVector<Value> lhsColumn, rhsRow;
          auto readVectors = [&](Value shared, ArrayRef<Value> starts,
                                 SmallVector<Value> &values) {
            for (Value start : starts) {
              Value loaded = vector::LoadOp::create(
                  rewriter, loc, vectorType, shared,
                  ValueRange{constant(step), start},
                  /*nontemporal=*/false,
                  llvm::MaybeAlign(vector * elementBytes));
              for (int64_t i = 0; i < vector; ++i)
                values.push_back(
                    vector::ExtractOp::create(rewriter, loc, loaded, i));
            }
          };
          readVectors(sharedLhs, localRows, lhsColumn);
          readVectors(sharedRhs, localColumns, rhsRow);
          for (int64_t i = 0; i < threadTile; ++i)
            for (int64_t j = 0; j < threadTile; ++j)
              partial[i * threadTile + j] =
                  accumulate(rewriter, op, lhsColumn[i], rhsRow[j],
                             partial[i * threadTile + j]);
        }
        gpu::BarrierOp::create(rewriter, loc);
        storeSlice(next);
        gpu::BarrierOp::create(rewriter, loc);
        scf::YieldOp::create(rewriter, nested, partial);
      });
  storeTile(rewriter, loc, op, dims, tile, slices.getResults(), epilogue);
  eraseContraction(rewriter, op, fill, epilogue);
  return launch;
}

namespace {

/// Accumulators of a matrix-core kernel, one vector of `type` per tile of
/// C it computes: element e (row-major) of tile t holds element
/// `gridIndex(t, e)` of the thread's OutputTile grid.
SmallVector<Value>
packAccumulators(const IndexBuilder &b, ArrayRef<Value> grid, VectorType type,
                 int64_t tiles,
                 function_ref<int64_t(int64_t, int64_t)> gridIndex) {
  SmallVector<Value> accumulators;
  for (int64_t t = 0; t < tiles; ++t) {
    SmallVector<Value> elements;
    for (int64_t e = 0; e < type.getNumElements(); ++e)
      elements.push_back(grid[gridIndex(t, e)]);
    accumulators.push_back(
        vector::FromElementsOp::create(b.rewriter, b.loc, type, elements));
  }
  return accumulators;
}

/// The OutputTile grid (of `gridSize` values) of `accumulators` (see
/// packAccumulators).
SmallVector<Value>
unpackAccumulators(const IndexBuilder &b, ValueRange accumulators,
                   int64_t gridSize,
                   function_ref<int64_t(int64_t, int64_t)> gridIndex) {
  SmallVector<Value> grid(gridSize);
  for (auto [t, accumulator] : llvm::enumerate(accumulators)) {
    auto type = cast<VectorType>(accumulator.getType());
    SmallVector<int64_t> strides = computeStrides(type.getShape());
    for (int64_t e = 0; e < type.getNumElements(); ++e)
      grid[gridIndex(t, e)] = vector::ExtractOp::create(
          b.rewriter, b.loc, accumulator, delinearize(e, strides));
  }
  return grid;
}

/// The K slices of a matrix-core kernel's A (kMmaBlockTile x kMmaSliceDepth)
/// and B (kMmaSliceDepth x kMmaBlockTile) tiles of f16, bf16 or f32, or
/// without `lhsKMajor` A^T laid out as B, with `rhsKMajor` B^T as A, staged
/// in workgroup buffers through registers: each of the block's `threads`
/// threads loads vectors of 16 bytes of each (load), which later go to the
/// buffers (store), whose rows are padded against bank conflicts: A's by 16
/// bytes (ldmatrix reads 8 rows at once), B's by 8 elements (f32: lane
/// (g, t) reads row t, column g: 32 different banks). With `roundToTf32`,
/// f32 elements are rounded to TF32 (10-bit mantissas, to nearest, ties
/// away from zero: PTX's cvt.rna.tf32.f32) before they are stored.
/// Swizzled buffers (16-bit elements, copied by cp.async) are not padded:
/// the 16-byte chunks of a row are permuted instead (see swizzle), so that
/// three stages fit in 48 KiB.
class SliceStaging {
public:
  static constexpr int64_t kRhsPad = 8;
  static constexpr int64_t kAsyncStages = 3;

  static int64_t getVectorSize(Type element) {
    return 128 / element.getIntOrFloatBitWidth();
  }
  /// The buffers of one slice, or of `stages` slices (stage first) when
  /// copies are asynchronous.
  static MemRefType getLhsType(Type element, int64_t stages = 1,
                               bool swizzled = false, bool kMajor = true) {
    return getOperandType(element, stages, swizzled, kMajor);
  }
  static MemRefType getRhsType(Type element, int64_t stages = 1,
                               bool swizzled = false, bool kMajor = false) {
    return getOperandType(element, stages, swizzled, kMajor);
  }

  /// Where the 16-byte chunk holding (`row`, `column`) of A's (or B's)
  /// swizzled buffer lies in its row (`column` a multiple of 8 halves):
  /// chunk c of A's (or B^T's) row r (4 chunks) at c ^ (r / 2 % 4), of B's
  /// (or A^T's) row r (16 chunks) at c ^ (r % 8). ldmatrix's 8 rows of one
  /// chunk, and a quarter warp's 8 chunks (two of A's rows, or 8 consecutive
  /// chunks of one of B's), then lie in 8 different groups of 4 banks.
  Value swizzle(bool rhs, Value row, Value column) const {
    Value key = rowsOfK(rhs) ? b.rem(b.div(row, 2), 4) : b.rem(row, 8);
    int64_t vector = getVectorSize(element);
    Value chunk =
        arith::XOrIOp::create(b.rewriter, b.loc, b.div(column, vector), key);
    return b.mul(chunk, vector);
  }

  SliceStaging(const IndexBuilder &b, linalg::LinalgOp op,
               const linalg::ContractionDimensions &dims, ArrayRef<Value> loops,
               const TileOrigin &origin, Value thread, int64_t threads,
               Value sharedLhs, Value sharedRhs, bool roundToTf32 = false,
               bool swizzled = false, bool lhsKMajor = true,
               bool rhsKMajor = false)
      : b(b), op(op), dims(dims), loops(loops), origin(origin), thread(thread),
        threads(threads), sharedLhs(sharedLhs), sharedRhs(sharedRhs),
        element(cast<MemRefType>(sharedLhs.getType()).getElementType()),
        vectorSize(getVectorSize(element)), roundToTf32(roundToTf32),
        swizzled(swizzled), lhsKMajor(lhsKMajor), rhsKMajor(rhsKMajor) {}

  /// The vectors of the slice starting at K = `firstDepth`.
  SmallVector<Value> load(Value firstDepth) {
    auto type = VectorType::get({vectorSize}, element);
    SmallVector<Value> vectors;
    for (bool rhs : {false, true})
      for (int64_t copy = 0; copy < getCopies(); ++copy) {
        auto [row, column] = getSlot(copy, rhs);
        OpOperand *input = op.getDpsInputOperand(rhs);
        vectors.push_back(vector::LoadOp::create(
            b.rewriter, b.loc, type, input->get(),
            getSource(rhs, firstDepth, row, column),
            /*nontemporal=*/false, llvm::MaybeAlign(kVectorAlignment)));
      }
    return vectors;
  }

  /// Writes `vectors` (load's) to the workgroup buffers.
  void store(ArrayRef<Value> vectors) const {
    for (bool rhs : {false, true})
      for (int64_t copy = 0; copy < getCopies(); ++copy) {
        auto [row, column] = getSlot(copy, rhs);
        vector::StoreOp::create(
            b.rewriter, b.loc, round(vectors[rhs * getCopies() + copy]),
            rhs ? sharedRhs : sharedLhs, ValueRange{row, column},
            /*nontemporal=*/false, llvm::MaybeAlign(16));
      }
  }

  /// Walks K (`sizeK`) a slice at a time from accumulators `initial`:
  /// `compute` updates them from the slice in shared memory in steps of
  /// `stepDepth` of K (its stage is null: one stage) while the next slice
  /// (starting at `lastSlice` at most) is loaded, which a barrier later
  /// stores in its place. Returns the accumulators.
  ValueRange walkSlices(
      Value zero, Value sizeK, Value lastSlice, ValueRange initial,
      int64_t stepDepth,
      function_ref<void(int64_t step, Value stage, SmallVector<Value> &partial)>
          compute) {
    constexpr int64_t depth = kMmaSliceDepth;
    RewriterBase &rewriter = b.rewriter;
    Location loc = b.loc;
    auto loop = scf::ForOp::create(
        rewriter, loc, zero, sizeK, b.constant(depth), initial,
        [&](OpBuilder &builder, Location nested, Value firstDepth,
            ValueRange accumulators) {
          OpBuilder::InsertionGuard guard(rewriter);
          rewriter.setInsertionPointToStart(builder.getInsertionBlock());
          Value nextDepth = arith::MinSIOp::create(
              rewriter, loc, b.addConstant(firstDepth, depth), lastSlice);
          SmallVector<Value> next = load(nextDepth);
          SmallVector<Value> partial(accumulators);
          for (int64_t step = 0; step < depth; step += stepDepth)
            compute(step, /*stage=*/Value(), partial);
          gpu::BarrierOp::create(rewriter, loc);
          store(next);
          gpu::BarrierOp::create(rewriter, loc);
          scf::YieldOp::create(rewriter, nested, partial);
        });
    return loop.getResults();
  }

  /// With kAsyncStages stages of buffers (stage first), walks K as
  /// walkSlices does but copies the slice two ahead into the stage freed
  /// last with cp.async (nvgpu.device_async_copy, 16 bytes per thread and
  /// copy, bypassing L1) before computing the current one; then the thread
  /// waits for its copies of the next slice (all but its newest group) and
  /// a barrier for everyone's, which also frees the current stage.
  /// `compute` gets the current stage. Returns the accumulators.
  ValueRange walkSlicesAsync(
      Value zero, Value sizeK, Value lastSlice, ValueRange initial,
      int64_t stepDepth,
      function_ref<void(int64_t step, Value stage, SmallVector<Value> &partial)>
          compute) {
    constexpr int64_t depth = kMmaSliceDepth;
    static_assert(kAsyncStages == 3, "one slice computed, two in flight");
    RewriterBase &rewriter = b.rewriter;
    Location loc = b.loc;
    auto clamp = [&](Value firstDepth) -> Value {
      return arith::MinSIOp::create(rewriter, loc, firstDepth, lastSlice);
    };
    auto waitForAllBut = [&](Value group, int64_t newest) {
      nvgpu::DeviceAsyncWaitOp::create(rewriter, loc, group,
                                       rewriter.getI32IntegerAttr(newest));
      gpu::BarrierOp::create(rewriter, loc);
    };
    copyAsync(zero, zero);
    waitForAllBut(copyAsync(clamp(b.constant(depth)), b.constant(1)), 1);
    SmallVector<Value> carried(initial);
    carried.push_back(zero);
    auto loop = scf::ForOp::create(
        rewriter, loc, zero, sizeK, b.constant(depth), carried,
        [&](OpBuilder &builder, Location nested, Value firstDepth,
            ValueRange values) {
          OpBuilder::InsertionGuard guard(rewriter);
          rewriter.setInsertionPointToStart(builder.getInsertionBlock());
          Value stage = values.back();
          Value ahead = b.rem(b.addConstant(stage, 2), kAsyncStages);
          Value copies =
              copyAsync(clamp(b.addConstant(firstDepth, 2 * depth)), ahead);
          SmallVector<Value> partial(values.drop_back());
          for (int64_t step = 0; step < depth; step += stepDepth)
            compute(step, stage, partial);
          waitForAllBut(copies, 1);
          partial.push_back(b.rem(b.addConstant(stage, 1), kAsyncStages));
          scf::YieldOp::create(rewriter, nested, partial);
        });
    return loop.getResults().drop_back();
  }

private:
  /// A slice in rows of K (`rowsOfK`: A's, B^T's), or in rows of the tile
  /// (B's, A^T's).
  static MemRefType getOperandType(Type element, int64_t stages, bool swizzled,
                                   bool rowsOfK) {
    if (rowsOfK)
      return getType(element, kMmaBlockTile, kMmaSliceDepth,
                     swizzled ? 0 : getVectorSize(element), stages);
    return getType(element, kMmaSliceDepth, kMmaBlockTile,
                   swizzled ? 0 : kRhsPad, stages);
  }

  static MemRefType getType(Type element, int64_t rows, int64_t columns,
                            int64_t pad, int64_t stages) {
    auto workgroup = gpu::AddressSpaceAttr::get(element.getContext(),
                                                gpu::AddressSpace::Workgroup);
    SmallVector<int64_t> shape = {rows, columns + pad};
    if (stages > 1)
      shape.insert(shape.begin(), stages);
    return MemRefType::get(shape, element, MemRefLayoutAttrInterface(),
                           workgroup);
  }

  /// Starts copying the slice at K = `firstDepth` into stage `stage` of the
  /// buffers; returns the copies' group.
  Value copyAsync(Value firstDepth, Value stage) {
    RewriterBase &rewriter = b.rewriter;
    auto tokenType = nvgpu::DeviceAsyncTokenType::get(rewriter.getContext());
    SmallVector<Value> tokens;
    for (bool rhs : {false, true})
      for (int64_t copy = 0; copy < getCopies(); ++copy) {
        auto [row, column] = getSlot(copy, rhs);
        Value at = swizzled ? swizzle(rhs, row, column) : column;
        tokens.push_back(nvgpu::DeviceAsyncCopyOp::create(
            rewriter, b.loc, tokenType, rhs ? sharedRhs : sharedLhs,
            ValueRange{stage, row, at}, op.getDpsInputOperand(rhs)->get(),
            getSource(rhs, firstDepth, row, column),
            rewriter.getIndexAttr(vectorSize), /*srcElements=*/Value(),
            rewriter.getUnitAttr()));
      }
    return nvgpu::DeviceAsyncCreateGroupOp::create(rewriter, b.loc, tokenType,
                                                   tokens);
  }

  /// The row and column of A's (or, with `rhs`, B's) slice buffer where
  /// this thread's copy `copy` goes: consecutive threads take consecutive
  /// vectors along the rows. Rows of 4 vectors (A's of f16) go by 8 per
  /// 32 vectors, each 8 consecutive threads (a quarter warp, which stores
  /// its 16-byte vectors in one pass when their banks differ) taking rows r
  /// and r + 4: 4 padded rows apart is 64 bytes modulo the banks' 128.
  std::pair<Value, Value> getSlot(int64_t copy, bool rhs) const {
    Value index = b.addConstant(thread, copy * threads);
    int64_t perRow =
        (rowsOfK(rhs) ? kMmaSliceDepth : kMmaBlockTile) / vectorSize;
    if (perRow != 4 || swizzled)
      return {b.div(index, perRow), b.mul(b.rem(index, perRow), vectorSize)};
    static_assert((kMmaSliceDepth + 8) * 2 * 4 % 128 == 64,
                  "A's f16 rows r and r + 4 must not share banks");
    Value within = b.rem(index, 32), quarterLane = b.rem(within, 8);
    Value row = b.add(b.add(b.mul(b.div(index, 32), 8), b.div(within, 8)),
                      b.mul(b.div(quarterLane, 4), 4));
    return {row, b.mul(b.rem(quarterLane, 4), vectorSize)};
  }

  /// The indices of A's (or B's) element that lands at (`row`, `column`)
  /// of the slice starting at K = `firstDepth`.
  SmallVector<Value> getSource(bool rhs, Value firstDepth, Value row,
                               Value column) {
    SmallVector<Value> at(loops);
    unsigned tileDim = rhs ? dims.n.front() : dims.m.front();
    Value firstOfTile = rhs ? origin.firstColumn : origin.firstRow;
    if (rowsOfK(rhs)) {
      at[tileDim] = b.add(firstOfTile, row);
      at[dims.k.front()] = b.add(firstDepth, column);
    } else {
      at[dims.k.front()] = b.add(firstDepth, row);
      at[tileDim] = b.add(firstOfTile, column);
    }
    return getIndices(op, *op.getDpsInputOperand(rhs), at);
  }

  /// `vector` rounded to TF32 when asked (createTf32Rounding).
  Value round(Value vector) const {
    return roundToTf32 ? createTf32Rounding(b.rewriter, b.loc, vector) : vector;
  }

  /// Whether A's (or B's) buffer holds rows of K: A's, and B^T's.
  bool rowsOfK(bool rhs) const { return rhs ? rhsKMajor : lhsKMajor; }

  /// Vectors each thread copies of A's slice (and of B's).
  int64_t getCopies() const {
    return kMmaBlockTile * kMmaSliceDepth / vectorSize / threads;
  }

  const IndexBuilder &b;
  linalg::LinalgOp op;
  const linalg::ContractionDimensions &dims;
  ArrayRef<Value> loops;
  TileOrigin origin;
  Value thread;
  int64_t threads;
  Value sharedLhs, sharedRhs;
  Type element;
  int64_t vectorSize;
  bool roundToTf32;
  bool swizzled;
  bool lhsKMajor, rhsKMajor;
};

/// The frame of a matrix-core kernel: blocks of `threads` threads own
/// kMmaBlockTile x kMmaBlockTile tiles of C, staging A's and B's slices in
/// shared memory (SliceStaging's buffers).
struct MatrixCoreLaunch : BlockFrame {
  Value sharedLhs, sharedRhs, zero, thread;
};

MatrixCoreLaunch createMatrixCoreLaunch(
    const IndexBuilder &b, const ContractionBlocks &blocks, linalg::LinalgOp op,
    const linalg::ContractionDimensions &dims, linalg::GenericOp epilogue,
    int64_t threads, int64_t stages = 1, bool swizzled = false,
    bool lhsKMajor = true, bool rhsKMajor = false) {
  Type element = getElementTypeOrSelf(op.getDpsInputOperand(0)->get());
  MatrixCoreLaunch frame;
  static_cast<BlockFrame &>(frame) = launchBlocks(
      b.rewriter, blocks, op, dims, epilogue, kMmaBlockTile, threads, 1,
      TypeRange{
          SliceStaging::getLhsType(element, stages, swizzled, lhsKMajor),
          SliceStaging::getRhsType(element, stages, swizzled, rhsKMajor)});
  frame.sharedLhs = frame.launch.getWorkgroupAttributions()[0];
  frame.sharedRhs = frame.launch.getWorkgroupAttributions()[1];
  frame.zero = b.constant(0);
  frame.thread = frame.launch.getThreadIds().x;
  return frame;
}

/// Completes a thread's `tile` whose rows and columns are set: every
/// element lies in range (whole tiles), in the block's batch.
void completeWholeTile(OutputTile &tile, linalg::LinalgOp op,
                       const linalg::ContractionDimensions &dims,
                       const BlockFrame &frame, Value zero) {
  tile.sizeM = frame.sizeM;
  tile.sizeN = frame.sizeN;
  tile.clampedRows = tile.rows;
  tile.clampedColumns = tile.columns;
  tile.whole = true;
  tile.loops.assign(op.getNumLoops(), zero);
  if (!dims.batch.empty())
    tile.loops[dims.batch.front()] = frame.origin.batch;
}

} // namespace

/// A gpu.launch computing contraction `op` (see prefersMmaSync, or
/// prefersTf32MmaSync for f32) on tensor cores: blocks of 8 warps own
/// 128x128 tiles of C, each warp 64x32 (4 x 4 tiles of 16x8, accumulated in
/// f32 by nvgpu.mma.sync m16n8k16 for f16, m16n8k8 in TF32 for f32; with
/// `options.warps` 4, blocks of 4 warps, each 64x64 in 4 x 8 tiles),
/// walking K in slices of 32 staged in shared memory through registers
/// (vectors of 16 bytes, the next slice loaded while the current one is
/// computed; rows padded so that the fragments' reads avoid bank
/// conflicts; f32 rounded to TF32 on the way). With `options.asyncCopy`, 16-bit
/// slices go to shared memory by cp.async instead, in three swizzled
/// stages: the slice two ahead is copied while the current one is
/// computed, one barrier per slice.
/// Lane l of a warp holds rows l / 4 (+ 8) and columns 2 (l % 4) (+ 1) of
/// each 16x8 tile, as PTX's mma fragments place them.
gpu::LaunchOp
lowerContractionToMmaSync(RewriterBase &rewriter, linalg::LinalgOp op,
                          const linalg::ContractionDimensions &dims,
                          linalg::FillOp fill, linalg::GenericOp epilogue,
                          const MmaSyncOptions &options,
                          const ContractionBlocks &blocks) {
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  IndexBuilder b{rewriter, loc};
  unsigned k = dims.k.front();
  constexpr int64_t blockTile = kMmaBlockTile, depth = kMmaSliceDepth;
  constexpr int64_t warpSize = 32, warpRows = 64;
  assert((options.warps == 8 || options.warps == 4) &&
         "blocks of 2 x 4 warps of 64x32, or 2 x 2 of 64x64");
  const int64_t warps = options.warps;
  const int64_t warpColumns = blockTile * blockTile / warpRows / warps;
  const int64_t tilesM = warpRows / 16, tilesN = warpColumns / 8;
  Type element = getElementTypeOrSelf(op.getDpsInputOperand(0)->get());
  bool tf32 = element.isF32();
  // B^T (N x K) is staged as A is, and read by ldmatrix without .trans;
  // A^T (K x M) as B is, and read by ldmatrix.trans.
  bool lhsKMajor = readsLhsKMajor(op, dims);
  bool rhsKMajor = readsRhsKMajor(op, dims);
  assert(!(tf32 && (!lhsKMajor || rhsKMajor)) &&
         "TF32's A is M x K and B K x N (prefersTf32MmaSync)");
  // TF32 rounds in registers; its stages would not fit in 48 KiB.
  bool async = options.asyncCopy && !tf32;
  MatrixCoreLaunch frame =
      createMatrixCoreLaunch(b, blocks, op, dims, epilogue, warps * warpSize,
                             /*stages=*/async ? SliceStaging::kAsyncStages : 1,
                             /*swizzled=*/async, lhsKMajor, rhsKMajor);
  Value warp = b.div(frame.thread, warpSize);
  Value lane = b.rem(frame.thread, warpSize);
  Value group = b.div(lane, 4);
  Value pair = b.mul(b.rem(lane, 4), 2);
  Value warpRow = b.mul(b.div(warp, blockTile / warpColumns), warpRows);
  Value warpColumn = b.mul(b.rem(warp, blockTile / warpColumns), warpColumns);

  // The thread's elements of C: rows warpRow + 16 i + group (+ 8), columns
  // warpColumn + 8 j + pair (+ 1), as an 8x8 grid for loads and stores.
  OutputTile tile;
  for (int64_t i = 0; i < tilesM; ++i)
    for (int64_t half8 = 0; half8 < 2; ++half8)
      tile.rows.push_back(
          b.add(frame.origin.firstRow,
                b.addConstant(b.add(warpRow, group), 16 * i + 8 * half8)));
  for (int64_t j = 0; j < tilesN; ++j)
    for (int64_t next = 0; next < 2; ++next)
      tile.columns.push_back(
          b.add(frame.origin.firstColumn,
                b.addConstant(b.add(warpColumn, pair), 8 * j + next)));
  completeWholeTile(tile, op, dims, frame, frame.zero);
  int64_t gridColumns = tile.columns.size();

  // Staging: each thread copies 2 vectors of 8 halves (4 of 4 floats) of
  // A's slice (128 x 32) and as many of B's (32 x 128), twice as many with
  // 4 warps.
  SliceStaging staging(b, op, dims, tile.loops, frame.origin, frame.thread,
                       warps * warpSize, frame.sharedLhs, frame.sharedRhs,
                       /*roundToTf32=*/tf32, /*swizzled=*/async, lhsKMajor,
                       rhsKMajor);
  if (!async) {
    staging.store(staging.load(frame.zero));
    gpu::BarrierOp::create(rewriter, loc);
  }

  // Accumulators: tile (i, j) is a vector<2x2xf32> of grid elements
  // (2 i + r, 2 j + c).
  auto gridIndex = [&](int64_t t, int64_t e) {
    int64_t i = t / tilesN, j = t % tilesN, r = e / 2, c = e % 2;
    return (2 * i + r) * gridColumns + 2 * j + c;
  };
  SmallVector<Value> initial =
      packAccumulators(b, loadAccumulators(rewriter, loc, op, dims, tile, fill),
                       VectorType::get({2, 2}, rewriter.getF32Type()),
                       tilesM * tilesN, gridIndex);

  Value lastSlice = b.constant(op.getStaticLoopRanges()[k] - depth);
  // The row and column of the 16x16 tile (two 8x8 matrices down, two
  // across) whose address this lane gives ldmatrix.
  Value matrix = b.div(lane, 8);
  Value matrixRow = b.add(b.rem(lane, 8), b.mul(b.rem(matrix, 2), 8));
  Value matrixColumn =
      b.mul(b.div(matrix, 2), SliceStaging::getVectorSize(element));
  // TF32: B's fragments are read by row (lane % 4).
  Value quad = tf32 ? b.rem(lane, 4) : Value();
  auto computeStep =
      [&](int64_t step, Value stage, SmallVector<Value> &partial) {
        // A's (or B's) shared buffer's indices: the stage first when there
        // are several, the column swizzled when the buffer is.
        auto at = [&](bool rhs, Value row, Value column) -> SmallVector<Value> {
          if (async)
            column = staging.swizzle(rhs, row, column);
          if (stage)
            return {stage, row, column};
          return {row, column};
        };
        if (tf32) {
          // ldmatrix x4 of 32-bit elements: lane l receives element
          // (l / 4, l % 4) of each 8x4 matrix. A's m16n8k8 fragment is its
          // matrices (rows 0-7, 8-15) x (columns 0-3, 4-7) in that order;
          // B's holds rows l % 4 and l % 4 + 4 of column l / 4, read from
          // shared memory (ldmatrix cannot transpose 32-bit elements).
          auto lhsFragmentType = VectorType::get({4, 1}, element);
          auto rhsFragmentType = VectorType::get({2, 1}, element);
          SmallVector<Value> lhsFragments, rhsFragments;
          for (int64_t i = 0; i < tilesM; ++i)
            lhsFragments.push_back(nvgpu::LdMatrixOp::create(
                rewriter, loc, lhsFragmentType, frame.sharedLhs,
                at(/*rhs=*/false,
                   b.add(b.addConstant(warpRow, 16 * i), matrixRow),
                   b.addConstant(matrixColumn, step)),
                /*transpose=*/false, /*numTiles=*/4));
          for (int64_t j = 0; j < tilesN; ++j) {
            Value column = b.add(b.addConstant(warpColumn, 8 * j), group);
            SmallVector<Value> elements;
            for (int64_t row = 0; row < 8; row += 4)
              elements.push_back(memref::LoadOp::create(
                  rewriter, loc, frame.sharedRhs,
                  at(/*rhs=*/true, b.addConstant(quad, step + row), column)));
            rhsFragments.push_back(vector::FromElementsOp::create(
                rewriter, loc, rhsFragmentType, elements));
          }
          for (int64_t i = 0; i < tilesM; ++i)
            for (int64_t j = 0; j < tilesN; ++j)
              partial[i * tilesN + j] = nvgpu::MmaSyncOp::create(
                  rewriter, loc, lhsFragments[i], rhsFragments[j],
                  partial[i * tilesN + j], ArrayRef<int64_t>{16, 8, 8},
                  /*tf32Enabled=*/true);
          return;
        }
        Type half = element;
        auto lhsFragmentType = VectorType::get({4, 2}, half);
        auto rhsFragmentType = VectorType::get({2, 2}, half);
        // ldmatrix x4: lane l gives the address of row l % 8 of 8x8 matrix
        // l / 8; lane l receives elements (l / 4, 2 (l % 4) + {0, 1}) of
        // each matrix. A's fragment of a 16x16 tile is its matrices (rows
        // 0-7, 8-15) x (columns 0-7, 8-15) in that order; B's, of two 16x8
        // tiles, the transposes of (rows 0-7, 8-15) x (columns of the first
        // tile, of the second). loadFragments reads those of 16 rows (A)
        // or columns (B) of the tile from `first` on: matrix l / 8 lies
        // 8 (l / 8 % 2) along A's rows and 8 (l / 8 / 2) along K, or
        // 8 (l / 8 / 2) along B's columns and 8 (l / 8 % 2) along K; lane l
        // addresses its row l % 8 in a buffer of rows of the tile (A, B^T:
        // no .trans), or of rows of K (A^T, B: .trans).
        auto loadFragments = [&](bool rhs, Value first) -> Value {
          Value alongTile = b.mul(rhs ? b.div(matrix, 2) : b.rem(matrix, 2), 8);
          Value alongK = b.mul(rhs ? b.rem(matrix, 2) : b.div(matrix, 2), 8);
          Value tileIndex = b.add(first, alongTile);
          Value depthIndex = b.addConstant(alongK, step);
          bool rowsOfTile = rhs ? rhsKMajor : lhsKMajor;
          Value &laned = rowsOfTile ? tileIndex : depthIndex;
          laned = b.add(laned, b.rem(lane, 8));
          return nvgpu::LdMatrixOp::create(
              rewriter, loc, lhsFragmentType,
              rhs ? frame.sharedRhs : frame.sharedLhs,
              rowsOfTile ? at(rhs, tileIndex, depthIndex)
                         : at(rhs, depthIndex, tileIndex),
              /*transpose=*/!rowsOfTile, /*numTiles=*/4);
        };
        SmallVector<Value> lhsFragments, rhsFragments;
        for (int64_t i = 0; i < tilesM; ++i)
          lhsFragments.push_back(
              loadFragments(/*rhs=*/false, b.addConstant(warpRow, 16 * i)));
        for (int64_t j = 0; j < tilesN; j += 2) {
          Value both =
              loadFragments(/*rhs=*/true, b.addConstant(warpColumn, 8 * j));
          for (int64_t tileOf = 0; tileOf < 2; ++tileOf) {
            SmallVector<Value> elements;
            for (int64_t row = 0; row < 2; ++row)
              for (int64_t e = 0; e < 2; ++e)
                elements.push_back(vector::ExtractOp::create(
                    rewriter, loc, both,
                    ArrayRef<int64_t>{2 * tileOf + row, e}));
            rhsFragments.push_back(vector::FromElementsOp::create(
                rewriter, loc, rhsFragmentType, elements));
          }
        }
        for (int64_t i = 0; i < tilesM; ++i)
          for (int64_t j = 0; j < tilesN; ++j)
            partial[i * tilesN + j] = nvgpu::MmaSyncOp::create(
                rewriter, loc, lhsFragments[i], rhsFragments[j],
                partial[i * tilesN + j], ArrayRef<int64_t>{16, 8, 16});
      };
  ValueRange accumulators =
      async ? staging.walkSlicesAsync(frame.zero, frame.sizeK, lastSlice,
                                      initial, /*stepDepth=*/16, computeStep)
            : staging.walkSlices(frame.zero, frame.sizeK, lastSlice, initial,
                                 tf32 ? 8 : 16, computeStep);

  storeTile(rewriter, loc, op, dims, tile,
            unpackAccumulators(b, accumulators, tile.rows.size() * gridColumns,
                               gridIndex),
            epilogue);
  eraseContraction(rewriter, op, fill, epilogue);
  if (options.blocksPerSM > 1)
    frame.launch->setAttr(
        kKernelAttrsAttr,
        rewriter.getDictionaryAttr(rewriter.getNamedAttr(
            NVVM::NVVMDialect::getMinctasmAttrName(),
            rewriter.getI32IntegerAttr(options.blocksPerSM))));
  return frame.launch;
}

namespace {

/// The wgmma kernel's shared memory: each stage holds A's slice, 128 rows
/// of 64 halves (128 bytes each) per warpgroup, then B's as two 64 x 64
/// halves (its columns 0-63, then 64-127), each row of K a 128-byte row.
/// Every piece starts at a multiple of 1024 bytes, the 128-byte swizzle's
/// period.
constexpr int64_t kWgmmaLhsBytes = kMmaBlockTile * kWgmmaSliceDepth * 2;
constexpr int64_t kWgmmaRhsHalfBytes = kWgmmaSliceDepth * kWgmmaSliceDepth * 2;
/// The dynamic shared memory is aligned to the swizzle's period in the
/// kernel: up to this many bytes go unused before the stages.
constexpr int64_t kWgmmaAlignment = 1024;

} // namespace

Value createTf32Rounding(OpBuilder &builder, Location loc, Value value) {
  Type bitsType = builder.getI32Type();
  if (auto vector = dyn_cast<VectorType>(value.getType()))
    bitsType = vector.clone(bitsType);
  auto constant = [&](uint32_t bits) -> Value {
    TypedAttr attr = builder.getI32IntegerAttr(static_cast<int32_t>(bits));
    if (auto vector = dyn_cast<VectorType>(bitsType))
      attr = DenseElementsAttr::get(vector, attr);
    return arith::ConstantOp::create(builder, loc, bitsType, attr);
  };
  Value bits = arith::BitcastOp::create(builder, loc, bitsType, value);
  Value rounded = arith::AndIOp::create(
      builder, loc, arith::AddIOp::create(builder, loc, bits, constant(0x1000)),
      constant(0xFFFFE000u));
  Value isNan = arith::CmpFOp::create(builder, loc, arith::CmpFPredicate::UNO,
                                      value, value);
  return arith::BitcastOp::create(builder, loc, value.getType(),
                                  arith::SelectOp::create(builder, loc, isNan,
                                                          constant(0x7FC00000u),
                                                          rounded));
}

gpu::LaunchOp lowerContractionToWgmma(RewriterBase &rewriter,
                                      linalg::LinalgOp op,
                                      const linalg::ContractionDimensions &dims,
                                      int64_t rows, bool specialized,
                                      linalg::FillOp fill,
                                      linalg::GenericOp epilogue) {
  Location loc = op.getLoc();
  MLIRContext *context = rewriter.getContext();
  rewriter.setInsertionPoint(op);
  IndexBuilder b{rewriter, loc};
  Value lhs = op.getDpsInputOperand(0)->get();
  Value rhs = op.getDpsInputOperand(1)->get();
  Type element = getElementTypeOrSelf(lhs);
  // TF32: f32 A and B^T (N x K, see prefersWgmmaTf32), both K-major. 16-bit
  // B is K x N (MN-major) or N x K (K-major, see readsRhsKMajor).
  const bool tf32 = element.isF32();
  const bool rhsKMajor = tf32 || readsRhsKMajor(op, dims);
  constexpr int64_t columns = kMmaBlockTile;
  const int64_t depth = tf32 ? kWgmmaTf32SliceDepth : kWgmmaSliceDepth;
  constexpr int64_t warpSize = 32, warpgroupSize = 128;
  assert(rows % kMmaBlockTile == 0 && "whole warpgroups' rows");
  // The MMA warpgroups, after the producer when the block has one.
  const int64_t warpgroups = rows / kMmaBlockTile;
  const int64_t producers = specialized ? 1 : 0;
  const int64_t threads = (producers + warpgroups) * warpgroupSize;
  // Two warpgroups share B's slices: 48 KiB stages, four of them.
  const int64_t stages = warpgroups == 1 ? 3 : 4;
  const int64_t lhsBytes = warpgroups * kWgmmaLhsBytes;
  const int64_t stageBytes = lhsBytes + 2 * kWgmmaRhsHalfBytes;
  auto workgroup =
      gpu::AddressSpaceAttr::get(context, gpu::AddressSpace::Workgroup);
  auto sharedType = [&](ArrayRef<int64_t> shape, Type element) {
    return MemRefType::get(shape, element, MemRefLayoutAttrInterface(),
                           workgroup);
  };
  // TMA's boxes: A's 128 rows of the slice, and B's two 64-column halves
  // of the slice's rows (B^T's 128 rows of the slice, as A's).
  MemRefType lhsTile = sharedType({kMmaBlockTile, depth}, element);
  MemRefType rhsBox = rhsKMajor ? sharedType({columns, depth}, element)
                                : sharedType({depth, depth}, element);
  // The tiles wgmma reads, through descriptors: TF32's K-major f32 tiles
  // as 16-bit ones of twice the depth (see --google-lower-k-major-wgmma).
  Type half = tf32 ? Float16Type::get(context) : element;
  const int64_t halfDepth = tf32 ? 2 * depth : depth;
  MemRefType lhsOperand = sharedType({kMmaBlockTile, halfDepth}, half);
  MemRefType rhsOperand = sharedType({halfDepth, columns}, half);

  // The host describes A and B to TMA: boxes of one slice of A, and of
  // one half of B's. A batch's matrices lie one after the other: the maps
  // see them as one (batch * rows) x columns matrix, whose boxes never
  // straddle two of them along K (a multiple of the slices for MN-major
  // B; rows past M or N give elements of C that are not stored).
  bool batched = !dims.batch.empty();
  auto createTensorMap = [&](Value input, MemRefType box) -> Value {
    if (batched)
      input = memref::CollapseShapeOp::create(
          rewriter, loc, input, ArrayRef<ReassociationIndices>{{0, 1}, {2}});
    auto unranked = UnrankedMemRefType::get(element, Attribute());
    Value cast = memref::CastOp::create(rewriter, loc, unranked, input);
    auto type = nvgpu::TensorMapDescriptorType::get(
        context, box, nvgpu::TensorMapSwizzleKind::SWIZZLE_128B,
        nvgpu::TensorMapL2PromoKind::L2PROMO_NONE,
        nvgpu::TensorMapOOBKind::OOB_ZERO,
        nvgpu::TensorMapInterleaveKind::INTERLEAVE_NONE);
    SmallVector<Value> boxSizes;
    for (int64_t size : box.getShape())
      boxSizes.push_back(b.constant(size));
    return nvgpu::TmaCreateDescriptorOp::create(rewriter, loc, type, cast,
                                                boxSizes);
  };
  Value lhsMap = createTensorMap(lhs, lhsTile);
  Value rhsMap = createTensorMap(rhs, rhsBox);

  TileGrid grid = getTileGrid(rewriter, loc, op, dims, rows, columns);
  Value one = b.constant(1);
  auto sharedBytes =
      arith::ConstantIntOp::create(rewriter, loc, rewriter.getI32Type(),
                                   kWgmmaAlignment + stages * stageBytes);
  gpu::LaunchOp launch =
      createLaunch(rewriter, loc, grid.count, b.constant(threads), one,
                   TypeRange{}, sharedBytes);
  BlockFrame frame{
      launch,
      getTileOrigin(rewriter, loc, grid, launch.getBlockIds().x, rows, columns),
      grid.sizeM, grid.sizeN, grid.sizeK};
  const TileOrigin &origin = frame.origin;
  Value zero = b.constant(0);
  Value thread = launch.getThreadIds().x;
  Value isFirst = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq,
                                        thread, zero);
  // The thread's index among the MMA warpgroups' threads, which follow
  // the producer's.
  Value mmaThread = thread, isMma;
  if (specialized) {
    mmaThread = b.addConstant(thread, -producers * warpgroupSize);
    isMma = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::sge,
                                  mmaThread, zero);
  }
  Value warpgroup = b.div(mmaThread, warpgroupSize);

  // The stages start at the first multiple of kWgmmaAlignment bytes.
  Value dynamic = gpu::DynamicSharedMemoryOp::create(
      rewriter, loc, sharedType({ShapedType::kDynamic}, rewriter.getI8Type()));
  Value address =
      memref::ExtractAlignedPointerAsIndexOp::create(rewriter, loc, dynamic);
  Value start =
      b.rem(b.sub(b.constant(kWgmmaAlignment), b.rem(address, kWgmmaAlignment)),
            kWgmmaAlignment);
  auto view = [&](Value byteOffset, MemRefType type) -> Value {
    return memref::ViewOp::create(rewriter, loc, type, dynamic,
                                  b.add(start, byteOffset), ValueRange{});
  };

  auto barriersType = nvgpu::MBarrierGroupType::get(context, workgroup, stages);
  Value barriers = nvgpu::MBarrierCreateOp::create(rewriter, loc, barriersType);
  for (int64_t stage = 0; stage < stages; ++stage)
    nvgpu::MBarrierInitOp::create(rewriter, loc, barriers, one,
                                  b.constant(stage), isFirst);
  // Warp-specialized: each MMA warp's lane 0 arrives at its stage's
  // `released` mbarrier once its wgmma on the stage completed.
  const int64_t mmaWarps = warpgroups * warpgroupSize / warpSize;
  Value released;
  if (specialized) {
    released = nvgpu::MBarrierCreateOp::create(rewriter, loc, barriersType);
    for (int64_t stage = 0; stage < stages; ++stage)
      nvgpu::MBarrierInitOp::create(rewriter, loc, released,
                                    b.constant(mmaWarps), b.constant(stage),
                                    isFirst);
  }
  // The initialized mbarriers are visible to TMA (the async proxy) and,
  // after the barrier, to every thread.
  NVVM::FenceMbarrierInitOp::create(rewriter, loc);
  NVVM::FenceProxyOp::create(
      rewriter, loc, NVVM::ProxyKind::async_shared,
      NVVM::SharedSpaceAttr::get(context, NVVM::SharedSpace::shared_cta));
  nvgpu::TmaPrefetchOp::create(rewriter, loc, lhsMap, isFirst);
  nvgpu::TmaPrefetchOp::create(rewriter, loc, rhsMap, isFirst);
  gpu::BarrierOp::create(rewriter, loc);

  // The rows of the block's matrices in the maps' (batch * rows) x
  // columns views.
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  Value lhsRow = origin.firstRow, rhsRow = zero;
  if (batched) {
    lhsRow = b.add(b.mul(origin.batch, ranges[dims.m.front()]), lhsRow);
    rhsRow = b.mul(origin.batch,
                   ranges[rhsKMajor ? dims.n.front() : dims.k.front()]);
  }
  // Thread 0 loads the slice starting at K = `firstDepth` into `stage`
  // (each warpgroup's 128 rows of A, then B's halves): TMA's coordinates
  // go innermost first.
  auto loadSlice = [&](Value firstDepth, Value stage) {
    Value stageStart = b.mul(stage, stageBytes);
    nvgpu::MBarrierArriveExpectTxOp::create(
        rewriter, loc, barriers, b.constant(stageBytes), stage, isFirst);
    for (int64_t group = 0; group < warpgroups; ++group)
      nvgpu::TmaAsyncLoadOp::create(
          rewriter, loc,
          view(b.addConstant(stageStart, group * kWgmmaLhsBytes), lhsTile),
          barriers, lhsMap,
          ValueRange{firstDepth, b.addConstant(lhsRow, group * kMmaBlockTile)},
          stage, /*multicastMask=*/Value(), isFirst);
    if (rhsKMajor) {
      nvgpu::TmaAsyncLoadOp::create(
          rewriter, loc, view(b.addConstant(stageStart, lhsBytes), rhsBox),
          barriers, rhsMap,
          ValueRange{firstDepth, b.add(rhsRow, origin.firstColumn)}, stage,
          /*multicastMask=*/Value(), isFirst);
      return;
    }
    for (int64_t part = 0; part < 2; ++part)
      nvgpu::TmaAsyncLoadOp::create(
          rewriter, loc,
          view(b.addConstant(stageStart, lhsBytes + part * kWgmmaRhsHalfBytes),
               rhsBox),
          barriers, rhsMap,
          ValueRange{b.addConstant(origin.firstColumn, part * depth),
                     b.add(rhsRow, firstDepth)},
          stage, /*multicastMask=*/Value(), isFirst);
  };
  // A last slice past K reads zeros (TMA's fill) from A, whatever it reads
  // from B.
  int64_t slices = llvm::divideCeil(ranges[dims.k.front()], depth);
  // The producer loads every slice in the loop.
  if (!specialized)
    for (int64_t stage = 0; stage < std::min(slices, stages); ++stage)
      loadSlice(b.constant(stage * depth), b.constant(stage));

  auto accumulatorType = nvgpu::WarpgroupAccumulatorType::get(
      context,
      VectorType::get({kMmaBlockTile, columns}, rewriter.getF32Type()));
  Value initial = nvgpu::WarpgroupMmaInitAccumulatorOp::create(rewriter, loc,
                                                               accumulatorType);
  auto lhsDescriptorType =
      nvgpu::WarpgroupMatrixDescriptorType::get(context, lhsOperand);
  auto rhsDescriptorType =
      nvgpu::WarpgroupMatrixDescriptorType::get(context, rhsOperand);
  auto toParity = [&](Value phase) -> Value {
    return arith::IndexCastOp::create(rewriter, loc, rewriter.getI1Type(),
                                      b.rem(phase, 2));
  };
  // Slice `slice` waits for its stage's phase slice / stages, and each
  // warpgroup's wgmma on it (its rows of A, all of B) runs while the
  // previous slice's completes (waitGroup 1).
  auto multiply = [&](Value slice, Value stage, Value accumulator) -> Value {
    nvgpu::MBarrierTryWaitParityOp::create(rewriter, loc, barriers,
                                           toParity(b.div(slice, stages)),
                                           b.constant(10000000), stage);
    Value stageStart = b.mul(stage, stageBytes);
    Value lhsDescriptor = nvgpu::WarpgroupGenerateDescriptorOp::create(
        rewriter, loc, lhsDescriptorType,
        view(b.add(stageStart, b.mul(warpgroup, kWgmmaLhsBytes)), lhsOperand),
        lhsMap);
    Value rhsDescriptor = nvgpu::WarpgroupGenerateDescriptorOp::create(
        rewriter, loc, rhsDescriptorType,
        view(b.addConstant(stageStart, lhsBytes), rhsOperand), rhsMap);
    // MN-major B is transposeB; K-major B^T goes to
    // --google-lower-k-major-wgmma.
    auto mma = nvgpu::WarpgroupMmaOp::create(
        rewriter, loc, accumulatorType, lhsDescriptor, rhsDescriptor,
        /*waitGroup=*/uint64_t(1), /*transposeA=*/UnitAttr(),
        /*transposeB=*/rhsKMajor ? UnitAttr() : rewriter.getUnitAttr(),
        accumulator);
    if (tf32)
      mma->setAttr(kTf32WgmmaAttr, rewriter.getUnitAttr());
    return mma.getResult();
  };
  // `body` in the MMA warpgroups only (warp-specialized blocks).
  auto inMmaWarpgroups = [&](function_ref<void()> body) {
    OpBuilder::InsertionGuard guard(rewriter);
    if (specialized) {
      auto ifOp = scf::IfOp::create(rewriter, loc, isMma);
      rewriter.setInsertionPointToStart(ifOp.thenBlock());
    }
    body();
  };
  auto loop = scf::ForOp::create(
      rewriter, loc, zero, b.constant(slices), one, ValueRange{initial},
      [&](OpBuilder &builder, Location nested, Value slice,
          ValueRange accumulator) {
        OpBuilder::InsertionGuard guard(rewriter);
        rewriter.setInsertionPointToStart(builder.getInsertionBlock());
        Value stage = b.rem(slice, stages);
        if (!specialized) {
          // Once every thread's wgmma on slice - 1 completed, thread 0
          // refills that stage with slice + stages - 1.
          Value product = multiply(slice, stage, accumulator.front());
          gpu::BarrierOp::create(rewriter, loc);
          Value next = b.addConstant(slice, stages - 1);
          Value hasNext = arith::AndIOp::create(
              rewriter, loc,
              arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::uge,
                                    slice, one),
              arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ult,
                                    next, b.constant(slices)));
          auto refill = scf::IfOp::create(rewriter, loc, hasNext);
          rewriter.setInsertionPointToStart(refill.thenBlock());
          loadSlice(b.mul(next, depth), b.rem(next, stages));
          rewriter.setInsertionPointAfter(refill);
          scf::YieldOp::create(rewriter, nested, product);
          return;
        }
        // The producer's thread 0 loads the slice once the MMA warps
        // released its stage's previous slice (phase slice / stages - 1 of
        // `released`; a new mbarrier's phase -1 counts as completed).
        auto produce = scf::IfOp::create(rewriter, loc, isFirst);
        rewriter.setInsertionPointToStart(produce.thenBlock());
        nvgpu::MBarrierTryWaitParityOp::create(
            rewriter, loc, released,
            toParity(b.addConstant(b.div(slice, stages), 1)),
            b.constant(10000000), stage);
        loadSlice(b.mul(slice, depth), stage);
        rewriter.setInsertionPointAfter(produce);
        // The MMA warps multiply it; slice - 1's wgmma completed in the
        // warp, which releases that stage.
        auto consume = scf::IfOp::create(rewriter, loc, accumulatorType, isMma,
                                         /*withElseRegion=*/true);
        rewriter.setInsertionPointToStart(consume.thenBlock());
        Value product = multiply(slice, stage, accumulator.front());
        Value releases = arith::AndIOp::create(
            rewriter, loc,
            arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::uge,
                                  slice, one),
            arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq,
                                  b.rem(thread, warpSize), zero));
        auto release = scf::IfOp::create(rewriter, loc, releases);
        rewriter.setInsertionPointToStart(release.thenBlock());
        nvgpu::MBarrierArriveOp::create(
            rewriter, loc, released, b.rem(b.addConstant(slice, -1), stages));
        rewriter.setInsertionPointAfter(release);
        scf::YieldOp::create(rewriter, loc, product);
        rewriter.setInsertionPointToStart(consume.elseBlock());
        scf::YieldOp::create(rewriter, loc, accumulator.front());
        rewriter.setInsertionPointAfter(consume);
        scf::YieldOp::create(rewriter, nested, consume.getResult(0));
      });
  // The last wgmma completes in every thread before its stages are reused
  // (in the producer's too, which has none: in a branch, ptxas serializes
  // the kernel's wgmma).
  NVVM::WgmmaWaitGroupSyncOp::create(rewriter, loc, 0);
  gpu::BarrierOp::create(rewriter, loc);

  // The product goes to shared memory (the stages' space; each
  // warpgroup's 128 rows after the previous one's), where each warp reads
  // rows of it as consecutive columns, 4 per thread.
  assert(rows * columns * 4 <= stages * stageBytes &&
         "the product fits in the stages' space");
  inMmaWarpgroups([&] {
    nvgpu::WarpgroupMmaStoreOp::create(
        rewriter, loc, loop.getResult(0),
        view(b.mul(warpgroup, kMmaBlockTile * columns * 4),
             sharedType({kMmaBlockTile, columns}, rewriter.getF32Type())));
  });
  gpu::BarrierOp::create(rewriter, loc);
  // The MMA warpgroups' threads store the tile.
  inMmaWarpgroups([&] {
    Value product =
        view(zero, sharedType({rows, columns}, rewriter.getF32Type()));
    OutputTile tile;
    Value firstRow = b.div(mmaThread, warpSize);
    Value firstColumn = b.mul(b.rem(mmaThread, warpSize), 4);
    SmallVector<Value> localRows;
    const int64_t mmaThreads = warpgroups * warpgroupSize;
    for (int64_t row = 0; row < rows; row += mmaThreads / warpSize) {
      localRows.push_back(b.addConstant(firstRow, row));
      tile.rows.push_back(b.add(origin.firstRow, localRows.back()));
    }
    static_assert(kMmaBlockTile == 32 * 4, "a warp's row: 4 columns a lane");
    for (int64_t column = 0; column < 4; ++column)
      tile.columns.push_back(
          b.add(origin.firstColumn, b.addConstant(firstColumn, column)));
    completeWholeTile(tile, op, dims, frame, zero);
    // Partial tiles store only the elements inside C.
    if (ranges[dims.m.front()] % rows != 0 ||
        ranges[dims.n.front()] % columns != 0) {
      tile.whole = false;
      Value lastRow = b.addConstant(frame.sizeM, -1);
      Value lastColumn = b.addConstant(frame.sizeN, -1);
      for (Value &row : tile.clampedRows)
        row = arith::MinSIOp::create(rewriter, loc, row, lastRow);
      for (Value &column : tile.clampedColumns)
        column = arith::MinSIOp::create(rewriter, loc, column, lastColumn);
    }
    SmallVector<Value> values =
        loadAccumulators(rewriter, loc, op, dims, tile, fill);
    auto vectorType = VectorType::get({4}, rewriter.getF32Type());
    for (auto [i, row] : llvm::enumerate(localRows)) {
      Value products = vector::LoadOp::create(
          rewriter, loc, vectorType, product, ValueRange{row, firstColumn});
      for (int64_t column = 0; column < 4; ++column) {
        Value &value = values[i * 4 + column];
        value = arith::AddFOp::create(
            rewriter, loc, value,
            vector::ExtractOp::create(rewriter, loc, products, column));
      }
    }
    storeTile(rewriter, loc, op, dims, tile, values, epilogue);
  });
  eraseContraction(rewriter, op, fill, epilogue);
  return launch;
}

/// A gpu.launch computing contraction `op` (see prefersMmaSync: the same
/// operands and shapes) on AMD matrix cores (CDNA): blocks of 4 waves of 64
/// lanes own 128x128 tiles of C, each wave 64x64 (4 x 4 tiles of 16x16,
/// accumulated in f32 by amdgpu.mfma 16x16x16), walking K in slices of 32
/// staged in shared memory as the mma.sync kernel stages them.
/// Lane l of a wave holds rows 4 (l / 16) + e (e < 4) of column l % 16 of
/// each 16x16 tile of C; its A operand is row l % 16, columns 4 (l / 16) + e
/// of a 16x16 tile of A, its B operand rows 4 (l / 16) + e of column l % 16
/// of one of B, as v_mfma_f32_16x16x16f16 places them.
gpu::LaunchOp lowerContractionToMfma(RewriterBase &rewriter,
                                     linalg::LinalgOp op,
                                     const linalg::ContractionDimensions &dims,
                                     linalg::FillOp fill,
                                     linalg::GenericOp epilogue,
                                     const ContractionBlocks &blocks) {
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  IndexBuilder b{rewriter, loc};
  unsigned k = dims.k.front();
  constexpr int64_t blockTile = kMmaBlockTile, depth = kMmaSliceDepth;
  constexpr int64_t waves = 4, waveSize = 64, waveTile = 64;
  constexpr int64_t tiles = waveTile / 16, fragment = 4;
  bool lhsKMajor = readsLhsKMajor(op, dims);
  bool rhsKMajor = readsRhsKMajor(op, dims);
  MatrixCoreLaunch frame = createMatrixCoreLaunch(
      b, blocks, op, dims, epilogue, waves * waveSize,
      /*stages=*/1, /*swizzled=*/false, lhsKMajor, rhsKMajor);
  Value wave = b.div(frame.thread, waveSize);
  Value lane = b.rem(frame.thread, waveSize);
  // A's fragment row and B's and C's fragment column; the first of the
  // fragments' 4 values along K (A, B) and down the rows (C).
  Value laneColumn = b.rem(lane, 16);
  Value laneGroup = b.mul(b.div(lane, 16), fragment);
  Value waveRow = b.mul(b.div(wave, blockTile / waveTile), waveTile);
  Value waveColumn = b.mul(b.rem(wave, blockTile / waveTile), waveTile);

  // The thread's elements of C: rows waveRow + 16 i + laneGroup + e, columns
  // waveColumn + 16 j + laneColumn, as a 16x4 grid for loads and stores.
  OutputTile tile;
  for (int64_t i = 0; i < tiles; ++i)
    for (int64_t e = 0; e < fragment; ++e)
      tile.rows.push_back(
          b.add(frame.origin.firstRow,
                b.addConstant(b.add(waveRow, laneGroup), 16 * i + e)));
  for (int64_t j = 0; j < tiles; ++j)
    tile.columns.push_back(
        b.add(frame.origin.firstColumn,
              b.addConstant(b.add(waveColumn, laneColumn), 16 * j)));
  completeWholeTile(tile, op, dims, frame, frame.zero);

  SliceStaging staging(b, op, dims, tile.loops, frame.origin, frame.thread,
                       waves * waveSize, frame.sharedLhs, frame.sharedRhs,
                       /*roundToTf32=*/false, /*swizzled=*/false, lhsKMajor,
                       rhsKMajor);
  staging.store(staging.load(frame.zero));
  gpu::BarrierOp::create(rewriter, loc);

  // Accumulators: tile (i, j) is a vector<4xf32> of grid elements
  // (4 i + e, j).
  auto gridIndex = [&](int64_t t, int64_t e) {
    return (fragment * (t / tiles) + e) * tiles + t % tiles;
  };
  auto accumulatorType = VectorType::get({fragment}, rewriter.getF32Type());
  // f16, or bf16 (v_mfma_f32_16x16x16bf16_1k places them the same way).
  auto operandType = VectorType::get(
      {fragment}, getElementTypeOrSelf(op.getDpsInputOperand(0)->get()));
  SmallVector<Value> initial =
      packAccumulators(b, loadAccumulators(rewriter, loc, op, dims, tile, fill),
                       accumulatorType, tiles * tiles, gridIndex);

  // A fragment: 4 consecutive elements along K at row (A) or column (B)
  // `index` of the tile, one vector where the slice lies in rows of K (A,
  // B^T), 4 elements of consecutive rows otherwise (B, A^T).
  auto loadFragment = [&](Value shared, bool rowsOfK, Value index,
                          Value firstK) -> Value {
    if (rowsOfK)
      return vector::LoadOp::create(rewriter, loc, operandType, shared,
                                    ValueRange{index, firstK},
                                    /*nontemporal=*/false, llvm::MaybeAlign(8));
    SmallVector<Value> elements;
    for (int64_t e = 0; e < fragment; ++e)
      elements.push_back(memref::LoadOp::create(
          rewriter, loc, shared, ValueRange{b.addConstant(firstK, e), index}));
    return vector::FromElementsOp::create(rewriter, loc, operandType, elements);
  };
  Value lastSlice = b.constant(op.getStaticLoopRanges()[k] - depth);
  auto slices = staging.walkSlices(
      frame.zero, frame.sizeK, lastSlice, initial, /*stepDepth=*/16,
      [&](int64_t step, Value, SmallVector<Value> &partial) {
        Value firstK = b.addConstant(laneGroup, step);
        SmallVector<Value> lhsFragments, rhsFragments;
        for (int64_t i = 0; i < tiles; ++i)
          lhsFragments.push_back(loadFragment(
              frame.sharedLhs, lhsKMajor,
              b.addConstant(b.add(waveRow, laneColumn), 16 * i), firstK));
        for (int64_t j = 0; j < tiles; ++j)
          rhsFragments.push_back(loadFragment(
              frame.sharedRhs, rhsKMajor,
              b.addConstant(b.add(waveColumn, laneColumn), 16 * j), firstK));
        for (int64_t i = 0; i < tiles; ++i)
          for (int64_t j = 0; j < tiles; ++j)
            partial[i * tiles + j] = amdgpu::MFMAOp::create(
                rewriter, loc, accumulatorType, /*m=*/16, /*n=*/16, /*k=*/16,
                /*blocks=*/1, lhsFragments[i], rhsFragments[j],
                partial[i * tiles + j]);
      });

  storeTile(rewriter, loc, op, dims, tile,
            unpackAccumulators(b, slices, tile.rows.size() * tiles,
                               gridIndex),
            epilogue);
  eraseContraction(rewriter, op, fill, epilogue);
  return frame.launch;
}

gpu::LaunchOp lowerContractionToBlocks(
    RewriterBase &rewriter, const ContractionStrategy &strategy,
    linalg::LinalgOp op, const linalg::ContractionDimensions &dims,
    linalg::FillOp fill, linalg::GenericOp epilogue,
    const MmaSyncOptions &mmaSync, const ContractionBlocks &blocks) {
  switch (strategy.kernel) {
  case ContractionKernel::Wgmma:
  case ContractionKernel::WgmmaSpecialized:
    assert(!blocks.loop && "the wgmma kernel runs on whole ops");
    return lowerContractionToWgmma(
        rewriter, op, dims, strategy.size,
        strategy.kernel == ContractionKernel::WgmmaSpecialized, fill, epilogue);
  case ContractionKernel::MmaSync:
  case ContractionKernel::Tf32MmaSync:
    return lowerContractionToMmaSync(rewriter, op, dims, fill, epilogue,
                                     mmaSync, blocks);
  case ContractionKernel::Mfma:
    return lowerContractionToMfma(rewriter, op, dims, fill, epilogue, blocks);
  case ContractionKernel::VectorTiles:
    return lowerContractionToVectorTiles(rewriter, op, dims, strategy.size,
                                         fill, epilogue, blocks);
  case ContractionKernel::SharedTiles:
    return lowerContractionToSharedTiles(rewriter, op, dims, strategy.size,
                                         fill, epilogue, blocks);
  case ContractionKernel::SplitK:
  case ContractionKernel::WarpDots:
  case ContractionKernel::RegisterTiles:
    break;
  }
  llvm_unreachable("not a kernel whose blocks own tiles of C");
}

Value createAlignmentCheck(RewriterBase &rewriter, Location loc,
                           ValueRange inputs) {
  Value alignment =
      arith::ConstantIndexOp::create(rewriter, loc, kVectorAlignment);
  Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
  Value allAligned;
  for (Value input : inputs) {
    Value address =
        memref::ExtractAlignedPointerAsIndexOp::create(rewriter, loc, input);
    Value aligned = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::eq,
        arith::RemUIOp::create(rewriter, loc, address, alignment), zero);
    allAligned = allAligned
                     ? arith::AndIOp::create(rewriter, loc, allAligned, aligned)
                           .getResult()
                     : aligned;
  }
  return allAligned;
}

} // namespace mlir::google::kernels
