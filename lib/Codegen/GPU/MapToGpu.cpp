//===- MapToGpu.cpp - --google-map-to-gpu ---------------------------------===//
//
// Every linalg op of a host function becomes a gpu.launch: its parallel
// dimensions are collapsed into one range that blocks of threads split, and
// its reduction dimensions run inside each thread. Contractions hold tiles
// of C in registers (staging slices of A and B in shared memory when they
// span whole blocks); long row reductions take a block per row.
//
//===----------------------------------------------------------------------===//

#include "Codegen/GPU/Passes.h"

#include "mlir/Conversion/SCFToGPU/SCFToGPU.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Affine/Utils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/ParallelLoopMapper.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/DialectConversion.h"

#include "llvm/Support/Debug.h"

#include <numeric>

#define DEBUG_TYPE "google-map-to-gpu"

namespace mlir::google {
#define GEN_PASS_DEF_MAPTOGPUPASS
#include "Codegen/GPU/Passes.h.inc"
} // namespace mlir::google

using namespace mlir;
using namespace mlir::google;

namespace {

/// A fresh device buffer holding a copy of `clone`'s input: a memcpy when
/// both are contiguous, else a linalg.copy that becomes a kernel.
void lowerClone(RewriterBase &rewriter, bufferization::CloneOp clone) {
  rewriter.setInsertionPoint(clone);
  Location loc = clone.getLoc();
  Value source = clone.getInput();
  auto type = cast<MemRefType>(clone.getType());
  SmallVector<Value> dynamicSizes;
  for (int64_t dim = 0; dim < type.getRank(); ++dim)
    if (type.isDynamicDim(dim))
      dynamicSizes.push_back(memref::DimOp::create(rewriter, loc, source, dim));
  Value copy = gpu::AllocOp::create(rewriter, loc, type, Type(), ValueRange(),
                                    dynamicSizes, ValueRange(), UnitAttr())
                   .getMemref();
  if (cast<MemRefType>(source.getType()).getLayout().isIdentity() &&
      type.getLayout().isIdentity())
    gpu::MemcpyOp::create(rewriter, loc, Type(), ValueRange(), copy, source);
  else
    linalg::CopyOp::create(rewriter, loc, source, copy);
  rewriter.replaceOp(clone, copy);
}

/// Lowers `op` to an scf.parallel over its parallel dimensions (outermost,
/// after an interchange if needed) holding scf.for loops over its reduction
/// dimensions; an op without parallel dimensions gets a one-iteration
/// scf.parallel around its loops.
FailureOr<scf::ParallelOp> lowerToParallelLoops(RewriterBase &rewriter,
                                                linalg::LinalgOp op) {
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  SmallVector<unsigned> order;
  for (auto [dim, iterator] : llvm::enumerate(iterators))
    if (iterator == utils::IteratorType::parallel)
      order.push_back(dim);
  for (auto [dim, iterator] : llvm::enumerate(iterators))
    if (iterator != utils::IteratorType::parallel)
      order.push_back(dim);
  rewriter.setInsertionPoint(op);
  if (!llvm::equal(order, llvm::seq<unsigned>(0, order.size()))) {
    auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
    if (!generic) {
      FailureOr<linalg::GenericOp> generalized =
          linalg::generalizeNamedOp(rewriter, op);
      if (failed(generalized))
        return op->emitError("google-map-to-gpu: cannot generalize the op");
      generic = *generalized;
    }
    FailureOr<linalg::GenericOp> interchanged =
        linalg::interchangeGenericOp(rewriter, generic, order);
    if (failed(interchanged))
      return op->emitError("google-map-to-gpu: cannot interchange the op's "
                           "loops");
    op = *interchanged;
  }

  Location loc = op.getLoc();
  if (op.getNumParallelLoops() == 0) {
    Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
    auto single = scf::ParallelOp::create(rewriter, loc, ValueRange{zero},
                                          ValueRange{one}, ValueRange{one});
    rewriter.moveOpBefore(op, single.getBody()->getTerminator());
    rewriter.setInsertionPoint(op);
    if (failed(linalg::linalgOpToLoops(rewriter, op)))
      return op->emitError("google-map-to-gpu: cannot lower the op to loops");
    rewriter.eraseOp(op);
    return single;
  }
  FailureOr<linalg::LinalgLoops> loops =
      linalg::linalgOpToParallelLoops(rewriter, op);
  if (failed(loops) || loops->empty() || !isa<scf::ParallelOp>(loops->front()))
    return op->emitError("google-map-to-gpu: cannot lower the op to "
                         "parallel loops");
  rewriter.eraseOp(op);
  return cast<scf::ParallelOp>(loops->front());
}

/// The loop dimensions of a contraction that one thread tiles: C[b, m, n]
/// += A[b, m, k] * B[b, k, n] with any operand layout and at most one batch
/// dimension; std::nullopt for other ops.
std::optional<linalg::ContractionDimensions>
getTileableContraction(linalg::LinalgOp op) {
  if (op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1 ||
      op.hasIndexSemantics() || !linalg::isaContractionOpInterface(op))
    return std::nullopt;
  FailureOr<linalg::ContractionDimensions> dims =
      linalg::inferContractionDims(op);
  if (failed(dims) || dims->m.size() != 1 || dims->n.size() != 1 ||
      dims->k.size() != 1 || dims->batch.size() > 1 ||
      op.getNumLoops() != 3 + dims->batch.size())
    return std::nullopt;
  return *dims;
}

/// The indices of `operand` when the loop dimensions have the values
/// `loops` (its indexing map is a projected permutation).
SmallVector<Value> getIndices(linalg::LinalgOp op, OpOperand &operand,
                              ArrayRef<Value> loops) {
  SmallVector<Value> indices;
  for (AffineExpr result : op.getMatchingIndexingMap(&operand).getResults())
    indices.push_back(loops[cast<AffineDimExpr>(result).getPosition()]);
  return indices;
}

/// Whether the ops strictly between `from` and `to` (in one block) leave
/// memory alone (run-time checks and index arithmetic).
bool touchesNoMemoryBetween(Operation *from, Operation *to) {
  for (Operation *op = from->getNextNode(); op && op != to;
       op = op->getNextNode())
    if (!isa<cf::AssertOp>(op) && !isMemoryEffectFree(op))
      return false;
  return true;
}

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
    if (!isa<cf::AssertOp>(prev) && !isMemoryEffectFree(prev))
      return nullptr;
  }
  return nullptr;
}

/// An elementwise linalg.generic right after contraction `op` that reads
/// its result element by element (identity map), with one output of the
/// same shape: computing it in the contraction's threads saves a kernel
/// and a pass over memory. Its output is the contraction's buffer, or a
/// buffer that is neither operand of the contraction while the
/// contraction's own buffer is a local allocation read by nothing else.
linalg::GenericOp getFusableEpilogue(linalg::LinalgOp op) {
  Value product = op.getDpsInitOperand(0)->get();
  auto epilogue = dyn_cast_or_null<linalg::GenericOp>(op->getNextNode());
  for (Operation *next = op->getNextNode(); next && !epilogue;
       next = next->getNextNode()) {
    epilogue = dyn_cast<linalg::GenericOp>(next);
    if (!epilogue && !isa<cf::AssertOp>(next) && !isMemoryEffectFree(next))
      return nullptr;
  }
  if (!epilogue || !epilogue.hasPureBufferSemantics() ||
      epilogue.getNumDpsInits() != 1 || epilogue.hasIndexSemantics() ||
      epilogue.getNumParallelLoops() != epilogue.getNumLoops() ||
      !touchesNoMemoryBetween(op, epilogue))
    return nullptr;
  auto productType = cast<MemRefType>(product.getType());
  OpOperand *output = epilogue.getDpsInitOperand(0);
  if (epilogue.getNumLoops() != productType.getRank() ||
      !epilogue.getMatchingIndexingMap(output).isIdentity())
    return nullptr;
  bool readsProduct = false;
  for (OpOperand *input : epilogue.getDpsInputOperands()) {
    AffineMap map = epilogue.getMatchingIndexingMap(input);
    if (!map.isProjectedPermutation())
      return nullptr;
    if (input->get() == product) {
      if (!map.isIdentity())
        return nullptr;
      readsProduct = true;
    }
  }
  if (!readsProduct)
    return nullptr;
  Value result = output->get();
  if (result == product)
    return epilogue;
  if (result == op.getDpsInputOperand(0)->get() ||
      result == op.getDpsInputOperand(1)->get())
    return nullptr;
  // The product buffer must die with the epilogue: a buffer of this
  // function (not an argument the caller reads) that nothing else reads.
  if (!product.getDefiningOp<gpu::AllocOp>() &&
      !product.getDefiningOp<memref::AllocOp>())
    return nullptr;
  for (Operation *user : product.getUsers())
    if (user != op && user != epilogue &&
        !isa<linalg::FillOp, memref::DimOp, memref::DeallocOp,
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
  for (Operation &payload : body->without_terminator())
    rewriter.clone(payload, mapping);
  return mapping.lookup(body->getTerminator()->getOperand(0));
}

/// Where one thread's tile of a contraction's output lies: C[rows[i],
/// columns[j]] in batch `loops[batch]`; `clamped*` are the indices clamped
/// into range, safe to read.
struct OutputTile {
  SmallVector<Value> loops;
  SmallVector<Value> rows, columns, clampedRows, clampedColumns;
  Value sizeM, sizeN;
};

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

/// Stores the tile's `values` (row-major), the elements in range only,
/// through the elementwise `epilogue` when there is one.
void storeTile(RewriterBase &rewriter, Location loc, linalg::LinalgOp op,
               const linalg::ContractionDimensions &dims, OutputTile &tile,
               ValueRange values, linalg::GenericOp epilogue) {
  OpOperand *out = op.getDpsInitOperand(0);
  int64_t tileN = tile.columns.size();
  for (auto [i, row] : llvm::enumerate(tile.rows)) {
    Value rowInRange = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::slt, row, tile.sizeM);
    for (auto [j, column] : llvm::enumerate(tile.columns)) {
      Value columnInRange = arith::CmpIOp::create(
          rewriter, loc, arith::CmpIPredicate::slt, column, tile.sizeN);
      Value inRange =
          arith::AndIOp::create(rewriter, loc, rowInRange, columnInRange);
      auto guard = scf::IfOp::create(rewriter, loc, inRange);
      OpBuilder::InsertionGuard insertion(rewriter);
      rewriter.setInsertionPointToStart(guard.thenBlock());
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

/// How tiles of tileM x tileN cover the output of a contraction: its
/// extents, the tiles along M and N, and the tiles of all batches.
struct TileGrid {
  Value sizeM, sizeN, sizeK, tilesM, tilesN, count;
};

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

/// Where a tile of a contraction's output starts.
struct TileOrigin {
  Value firstRow, firstColumn, batch;
};

/// The origin of tile `index` of `grid`. Column tiles come fastest, so that
/// neighbouring tiles read neighbouring columns of B and write neighbouring
/// columns of C.
TileOrigin getTileOrigin(RewriterBase &rewriter, Location loc,
                         const TileGrid &grid, Value index, int64_t tileM,
                         int64_t tileN) {
  auto constant = [&](int64_t value) -> Value {
    return arith::ConstantIndexOp::create(rewriter, loc, value);
  };
  Value tileJ = arith::RemSIOp::create(rewriter, loc, index, grid.tilesN);
  Value rest = arith::DivSIOp::create(rewriter, loc, index, grid.tilesN);
  Value tileI = arith::RemSIOp::create(rewriter, loc, rest, grid.tilesM);
  TileOrigin origin;
  origin.batch = arith::DivSIOp::create(rewriter, loc, rest, grid.tilesM);
  origin.firstRow =
      arith::MulIOp::create(rewriter, loc, tileI, constant(tileM));
  origin.firstColumn =
      arith::MulIOp::create(rewriter, loc, tileJ, constant(tileN));
  return origin;
}

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
  auto parallel = scf::ParallelOp::create(rewriter, loc, ValueRange{zero},
                                          ValueRange{grid.count},
                                          ValueRange{one});
  rewriter.setInsertionPoint(parallel.getBody()->getTerminator());
  TileOrigin origin =
      getTileOrigin(rewriter, loc, grid, parallel.getInductionVars().front(),
                    tileM, tileN);
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
    tile.clampedColumns.push_back(arith::MinSIOp::create(
        rewriter, loc, tile.columns.back(), lastColumn));
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

/// Threads of a shared-memory contraction kernel: kSharedThreads x
/// kSharedThreads, each computing tileSize x tileSize elements of C.
constexpr int64_t kSharedThreads = 16;
/// The depth of the slices of A and B that a block stages in shared memory.
constexpr int64_t kSharedDepth = 16;

/// Whether contraction `op` is worth a shared-memory kernel: M and N span
/// at least a block's tile, and K a slice, or are dynamic.
bool prefersSharedMemory(linalg::LinalgOp op,
                         const linalg::ContractionDimensions &dims,
                         int64_t tileSize) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  auto atLeast = [&](unsigned dim, int64_t size) {
    return ShapedType::isDynamic(ranges[dim]) || ranges[dim] >= size;
  };
  int64_t blockTile = kSharedThreads * tileSize;
  return atLeast(dims.m.front(), blockTile) &&
         atLeast(dims.n.front(), blockTile) &&
         atLeast(dims.k.front(), kSharedDepth);
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
gpu::LaunchOp lowerContractionToSharedTiles(
    RewriterBase &rewriter, linalg::LinalgOp op,
    const linalg::ContractionDimensions &dims, int64_t tileSize,
    linalg::FillOp fill, linalg::GenericOp epilogue) {
  Location loc = op.getLoc();
  MLIRContext *context = rewriter.getContext();
  rewriter.setInsertionPoint(op);
  auto constant = [&](int64_t value) -> Value {
    return arith::ConstantIndexOp::create(rewriter, loc, value);
  };
  unsigned m = dims.m.front(), n = dims.n.front(), k = dims.k.front();
  const int64_t threads = kSharedThreads * kSharedThreads;
  const int64_t blockTile = kSharedThreads * tileSize;
  TileGrid grid = getTileGrid(rewriter, loc, op, dims, blockTile, blockTile);
  OutputTile tile;
  tile.sizeM = grid.sizeM;
  tile.sizeN = grid.sizeN;
  Value sizeK = grid.sizeK;

  // Slices of A (rows x depth) and B (depth x columns), each row padded by
  // one element so that column-wise writes avoid bank conflicts.
  OpOperand *lhs = op.getDpsInputOperand(0);
  OpOperand *rhs = op.getDpsInputOperand(1);
  auto workgroup =
      gpu::AddressSpaceAttr::get(context, gpu::AddressSpace::Workgroup);
  auto sharedType = [&](OpOperand *operand, int64_t rows, int64_t columns) {
    return MemRefType::get({rows, columns + 1},
                           getElementTypeOrSelf(operand->get().getType()),
                           MemRefLayoutAttrInterface(), workgroup);
  };
  Value one = constant(1);
  auto launch = gpu::LaunchOp::create(
      rewriter, loc, grid.count, one, one, constant(kSharedThreads),
      constant(kSharedThreads), one, /*dynamicSharedMemorySize=*/nullptr,
      /*asyncTokenType=*/nullptr, /*asyncDependencies=*/{},
      TypeRange{sharedType(lhs, blockTile, kSharedDepth),
                sharedType(rhs, kSharedDepth, blockTile)});
  Block &body = launch.getBody().front();
  rewriter.setInsertionPointToEnd(&body);
  gpu::TerminatorOp::create(rewriter, loc);
  rewriter.setInsertionPointToStart(&body);
  Value sharedLhs = launch.getWorkgroupAttributions()[0];
  Value sharedRhs = launch.getWorkgroupAttributions()[1];
  Value zero = constant(0);
  one = constant(1);

  TileOrigin origin = getTileOrigin(rewriter, loc, grid,
                                    launch.getBlockIds().x, blockTile,
                                    blockTile);
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
    localRows.push_back(arith::AddIOp::create(
        rewriter, loc, threadY, constant(i * kSharedThreads)));
    localColumns.push_back(arith::AddIOp::create(
        rewriter, loc, threadX, constant(i * kSharedThreads)));
    tile.rows.push_back(
        arith::AddIOp::create(rewriter, loc, firstRow, localRows.back()));
    tile.clampedRows.push_back(
        arith::MinSIOp::create(rewriter, loc, tile.rows.back(), lastRow));
    tile.columns.push_back(arith::AddIOp::create(rewriter, loc, firstColumn,
                                                 localColumns.back()));
    tile.clampedColumns.push_back(arith::MinSIOp::create(
        rewriter, loc, tile.columns.back(), lastColumn));
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
            [&](OpBuilder &inner, Location, Value step,
                ValueRange partial) {
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
                  updated.push_back(
                      accumulate(rewriter, op, lhsColumn[i], rhsRow[j],
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
  return launch;
}

/// Elements a full reduction must have before it is split over threads.
constexpr int64_t kMinSplitReduction = 4096;
/// At most this many threads share a split reduction, each reducing a
/// chunk of at least kMinReductionChunk elements.
constexpr int64_t kMaxReductionThreads = 4096;
constexpr int64_t kMinReductionChunk = 32;

/// How a reduction combines: an optional widening of each element to the
/// accumulator's type (arith.extf: f16 and bf16 sums accumulate in f32),
/// then a commutative and associative op on two accumulators (float adds
/// may be reassociated, SPEC).
struct ReductionCombine {
  arith::ExtFOp widen;
  Operation *combine = nullptr;

  explicit operator bool() const { return combine; }

  /// An input element as an accumulator.
  Value toAccumulator(RewriterBase &rewriter, Value element) const {
    if (!widen)
      return element;
    arith::ExtFOp op = widen;
    return arith::ExtFOp::create(rewriter, op.getLoc(), op.getType(),
                                 element);
  }

  /// Two accumulators combined.
  Value apply(RewriterBase &rewriter, Value lhs, Value rhs) const {
    IRMapping mapping;
    mapping.map(combine->getOperand(0), lhs);
    mapping.map(combine->getOperand(1), rhs);
    return rewriter.clone(*combine, mapping)->getResult(0);
  }
};

/// The combine of a reduction with one input read through a permutation
/// and a body `yield combine(in, out)` or `yield combine(extf(in), out)`
/// (either operand order); empty otherwise.
ReductionCombine getReductionCombine(linalg::LinalgOp op) {
  if (op.getNumReductionLoops() == 0 || op.getNumDpsInputs() != 1 ||
      op.getNumDpsInits() != 1 || op.hasIndexSemantics() ||
      !op.getMatchingIndexingMap(op.getDpsInputOperand(0)).isPermutation())
    return {};
  Block *body = op.getBlock();
  ReductionCombine result;
  auto ops = body->without_terminator();
  auto it = ops.begin();
  if (it != ops.end())
    if (auto widen = dyn_cast<arith::ExtFOp>(*it);
        widen && widen.getIn() == body->getArgument(0)) {
      result.widen = widen;
      ++it;
    }
  if (it == ops.end() || std::next(it) != ops.end())
    return {};
  Operation *combine = &*it;
  if (!isa<arith::AddFOp, arith::AddIOp, arith::MaximumFOp,
           arith::MinimumFOp, arith::MaxNumFOp, arith::MinNumFOp,
           arith::MaxSIOp, arith::MinSIOp>(combine) ||
      combine->getNumOperands() != 2 ||
      body->getTerminator()->getOperand(0) != combine->getResult(0))
    return {};
  Value in = result.widen ? result.widen.getResult() : body->getArgument(0);
  Value out = body->getArgument(1);
  if (in.getType() != out.getType() ||
      !((combine->getOperand(0) == in && combine->getOperand(1) == out) ||
        (combine->getOperand(0) == out && combine->getOperand(1) == in)))
    return {};
  result.combine = combine;
  return result;
}

/// The number of elements a reduction combines into each output element,
/// when static.
std::optional<int64_t> getStaticReductionSize(linalg::LinalgOp op) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SmallVector<unsigned> dims;
  op.getReductionDims(dims);
  int64_t size = 1;
  for (unsigned dim : dims) {
    if (ShapedType::isDynamic(ranges[dim]))
      return std::nullopt;
    size *= ranges[dim];
  }
  return size;
}

/// The combine of a reduction with no parallel dimension (see
/// getReductionCombine), unless it is statically small.
ReductionCombine getSplittableReduction(linalg::LinalgOp op) {
  if (op.getNumParallelLoops() != 0)
    return {};
  ReductionCombine combine = getReductionCombine(op);
  std::optional<int64_t> elements = getStaticReductionSize(op);
  if (!combine || (elements && *elements < kMinSplitReduction))
    return {};
  return combine;
}

/// Threads of a block that reduces one row.
constexpr int64_t kRowReductionThreads = 256;

/// The combine of a reduction with parallel dimensions (see
/// getReductionCombine) whose rows are long (at least a block of threads,
/// or dynamic) and run along the input's innermost dimension, so that a
/// block's threads read consecutive elements.
ReductionCombine getRowReduction(linalg::LinalgOp op) {
  if (op.getNumParallelLoops() == 0)
    return {};
  ReductionCombine combine = getReductionCombine(op);
  if (!combine)
    return {};
  std::optional<int64_t> elements = getStaticReductionSize(op);
  if (elements && *elements < kRowReductionThreads)
    return {};
  AffineMap inputMap = op.getMatchingIndexingMap(op.getDpsInputOperand(0));
  unsigned innermost =
      cast<AffineDimExpr>(inputMap.getResults().back()).getPosition();
  return linalg::isReductionIterator(op.getIteratorTypesArray()[innermost])
             ? combine
             : ReductionCombine();
}

/// A reduction of all its dimensions in two kernels instead of one
/// thread: threads reduce consecutive chunks of the elements into partial
/// results, then one thread combines the partials into the output. Returns
/// the two loops, to map like any other.
std::pair<scf::ParallelOp, scf::ParallelOp>
splitFullReduction(RewriterBase &rewriter, linalg::LinalgOp op,
                   const ReductionCombine &combine) {
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  auto constant = [&](int64_t value) -> Value {
    return arith::ConstantIndexOp::create(rewriter, loc, value);
  };
  Value zero = constant(0), one = constant(1);
  SmallVector<Value> extents;
  Value count = one;
  for (Range range : op.createLoopRanges(rewriter, loc)) {
    extents.push_back(
        getValueOrCreateConstantIndexOp(rewriter, loc, range.size));
    count = arith::MulIOp::create(rewriter, loc, count, extents.back());
  }
  // chunk = max(ceil(count / threads), min chunk); active partials =
  // ceil(count / chunk) (0 for no elements).
  Value chunk = arith::MaxSIOp::create(
      rewriter, loc,
      arith::CeilDivSIOp::create(rewriter, loc, count,
                                 constant(kMaxReductionThreads)),
      constant(kMinReductionChunk));
  Value partials = arith::CeilDivSIOp::create(rewriter, loc, count, chunk);
  OpOperand *input = op.getDpsInputOperand(0);
  OpOperand *output = op.getDpsInitOperand(0);
  Type element = getElementTypeOrSelf(output->get().getType());
  auto partialType =
      MemRefType::get({ShapedType::kDynamic}, element);
  Value partial =
      gpu::AllocOp::create(rewriter, loc, partialType, Type(), ValueRange(),
                           ValueRange{partials}, ValueRange(), UnitAttr())
          .getMemref();
  AffineMap inputMap = op.getMatchingIndexingMap(input);
  auto loadElement = [&](Value linear) {
    SmallVector<Value> loops =
        *affine::delinearizeIndex(rewriter, loc, linear, extents);
    SmallVector<Value> indices;
    for (AffineExpr result : inputMap.getResults())
      indices.push_back(loops[cast<AffineDimExpr>(result).getPosition()]);
    return combine.toAccumulator(
        rewriter,
        memref::LoadOp::create(rewriter, loc, input->get(), indices));
  };

  // Stage 1: partial[p] = the chunk's elements combined, in order.
  auto chunks = scf::ParallelOp::create(rewriter, loc, ValueRange{zero},
                                        ValueRange{partials}, ValueRange{one});
  {
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPoint(chunks.getBody()->getTerminator());
    Value p = chunks.getInductionVars().front();
    Value begin = arith::MulIOp::create(rewriter, loc, p, chunk);
    Value end = arith::MinSIOp::create(
        rewriter, loc, arith::AddIOp::create(rewriter, loc, begin, chunk),
        count);
    Value first = loadElement(begin);
    Value next = arith::AddIOp::create(rewriter, loc, begin, one);
    auto loop = scf::ForOp::create(
        rewriter, loc, next, end, one, ValueRange{first},
        [&](OpBuilder &, Location, Value i, ValueRange accumulator) {
          scf::YieldOp::create(
              rewriter, loc,
              combine.apply(rewriter, loadElement(i), accumulator.front()));
        });
    memref::StoreOp::create(rewriter, loc, loop.getResult(0), partial,
                            ValueRange{p});
  }

  // Stage 2: one thread folds the partials into the output's value.
  auto fold = scf::ParallelOp::create(rewriter, loc, ValueRange{zero},
                                      ValueRange{one}, ValueRange{one});
  {
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPoint(fold.getBody()->getTerminator());
    auto outputType = cast<MemRefType>(output->get().getType());
    SmallVector<Value> at(outputType.getRank(), zero);
    Value initial =
        memref::LoadOp::create(rewriter, loc, output->get(), at).getResult();
    auto loop = scf::ForOp::create(
        rewriter, loc, zero, partials, one, ValueRange{initial},
        [&](OpBuilder &, Location, Value p, ValueRange accumulator) {
          Value value =
              memref::LoadOp::create(rewriter, loc, partial, ValueRange{p});
          scf::YieldOp::create(
              rewriter, loc,
              combine.apply(rewriter, value, accumulator.front()));
        });
    memref::StoreOp::create(rewriter, loc, loop.getResult(0), output->get(),
                            at);
  }
  gpu::DeallocOp::create(rewriter, loc, Type(), ValueRange(), partial);
  rewriter.eraseOp(op);
  return {chunks, fold};
}

/// A gpu.launch with a block per output element of reduction `op`: thread
/// t combines the row's elements t, t + 256, ... in order (along the input's
/// innermost dimension: coalesced), then the partials meet in a tree in
/// shared memory (halving the active threads after each barrier), and
/// thread 0 combines the row's value into the output.
gpu::LaunchOp lowerRowReductionToBlocks(RewriterBase &rewriter,
                                        linalg::LinalgOp op,
                                        const ReductionCombine &combine) {
  Location loc = op.getLoc();
  MLIRContext *context = rewriter.getContext();
  rewriter.setInsertionPoint(op);
  auto constant = [&](int64_t value) -> Value {
    return arith::ConstantIndexOp::create(rewriter, loc, value);
  };
  SmallVector<Range> ranges = op.createLoopRanges(rewriter, loc);
  SmallVector<unsigned> parallelDims, reductionDims;
  op.getParallelDims(parallelDims);
  op.getReductionDims(reductionDims);
  Value one = constant(1);
  auto collectExtents = [&](ArrayRef<unsigned> dims,
                            SmallVector<Value> &extents) {
    Value product = one;
    for (unsigned dim : dims) {
      extents.push_back(
          getValueOrCreateConstantIndexOp(rewriter, loc, ranges[dim].size));
      product = arith::MulIOp::create(rewriter, loc, product, extents.back());
    }
    return product;
  };
  SmallVector<Value> parallelExtents, reductionExtents;
  Value rows = collectExtents(parallelDims, parallelExtents);
  Value count = collectExtents(reductionDims, reductionExtents);
  OpOperand *input = op.getDpsInputOperand(0);
  OpOperand *output = op.getDpsInitOperand(0);
  auto sharedType = MemRefType::get(
      {kRowReductionThreads}, getElementTypeOrSelf(output->get().getType()),
      MemRefLayoutAttrInterface(),
      gpu::AddressSpaceAttr::get(context, gpu::AddressSpace::Workgroup));
  auto launch = gpu::LaunchOp::create(
      rewriter, loc, rows, one, one, constant(kRowReductionThreads), one, one,
      /*dynamicSharedMemorySize=*/nullptr, /*asyncTokenType=*/nullptr,
      /*asyncDependencies=*/{}, TypeRange{sharedType});
  Block &body = launch.getBody().front();
  rewriter.setInsertionPointToEnd(&body);
  gpu::TerminatorOp::create(rewriter, loc);
  rewriter.setInsertionPointToStart(&body);
  Value partials = launch.getWorkgroupAttributions().front();
  Value thread = launch.getThreadIds().x;

  SmallVector<Value> loops(op.getNumLoops());
  for (auto [dim, index] : llvm::zip(
           parallelDims, *affine::delinearizeIndex(
                             rewriter, loc, launch.getBlockIds().x,
                             parallelExtents)))
    loops[dim] = index;
  auto loadElement = [&](Value linear) {
    for (auto [dim, index] :
         llvm::zip(reductionDims, *affine::delinearizeIndex(
                                      rewriter, loc, linear, reductionExtents)))
      loops[dim] = index;
    return combine.toAccumulator(
        rewriter, memref::LoadOp::create(rewriter, loc, input->get(),
                                         getIndices(op, *input, loops)));
  };
  auto ifThen = [&](Value condition, function_ref<void()> then) {
    auto branch = scf::IfOp::create(rewriter, loc, condition);
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(branch.thenBlock());
    then();
  };
  auto less = [&](Value lhs, Value rhs) {
    return arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::slt, lhs,
                                 rhs)
        .getResult();
  };

  // Partial t is defined for t < count.
  Value block = constant(kRowReductionThreads);
  ifThen(less(thread, count), [&] {
    Value first = loadElement(thread);
    Value next = arith::AddIOp::create(rewriter, loc, thread, block);
    auto strided = scf::ForOp::create(
        rewriter, loc, next, count, block, ValueRange{first},
        [&](OpBuilder &, Location, Value i, ValueRange accumulator) {
          scf::YieldOp::create(
              rewriter, loc,
              combine.apply(rewriter, loadElement(i), accumulator.front()));
        });
    memref::StoreOp::create(rewriter, loc, strided.getResult(0), partials,
                            thread);
  });
  for (int64_t stride = kRowReductionThreads / 2; stride >= 1; stride /= 2) {
    gpu::BarrierOp::create(rewriter, loc);
    Value partner = arith::AddIOp::create(rewriter, loc, thread,
                                          constant(stride));
    Value active =
        arith::AndIOp::create(rewriter, loc, less(thread, constant(stride)),
                              less(partner, count));
    ifThen(active, [&] {
      Value mine = memref::LoadOp::create(rewriter, loc, partials, thread);
      Value theirs = memref::LoadOp::create(rewriter, loc, partials, partner);
      memref::StoreOp::create(rewriter, loc,
                              combine.apply(rewriter, theirs, mine),
                              partials, thread);
    });
  }
  Value zero = constant(0);
  Value writes = arith::AndIOp::create(
      rewriter, loc,
      arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq, thread,
                            zero),
      less(zero, count));
  ifThen(writes, [&] {
    SmallVector<Value> element = getIndices(op, *output, loops);
    Value row = memref::LoadOp::create(rewriter, loc, partials, zero);
    Value initial =
        memref::LoadOp::create(rewriter, loc, output->get(), element);
    memref::StoreOp::create(rewriter, loc,
                            combine.apply(rewriter, row, initial),
                            output->get(), element);
  });
  rewriter.eraseOp(op);
  return launch;
}

gpu::ParallelLoopDimMappingAttr mapTo(MLIRContext *context,
                                      gpu::Processor processor) {
  AffineMap identity = AffineMap::getMultiDimIdentityMap(1, context);
  return gpu::ParallelLoopDimMappingAttr::get(context, processor, identity,
                                              identity);
}

/// Collapses `loop` into one dimension, tiles it by the block size (fewer
/// threads when the whole range is smaller) and maps tiles to blocks and
/// the iterations of a tile to threads.
void mapToBlocksAndThreads(RewriterBase &rewriter, scf::ParallelOp loop,
                           int64_t blockSize) {
  MLIRContext *context = rewriter.getContext();
  if (loop.getNumLoops() > 1) {
    // The collapsed loop takes the place of the old one.
    Operation *next = loop->getNextNode();
    std::vector<unsigned> all(loop.getNumLoops());
    std::iota(all.begin(), all.end(), 0);
    collapseParallelLoops(rewriter, loop, {all});
    loop = cast<scf::ParallelOp>(next->getPrevNode());
  }
  int64_t tile = blockSize;
  std::optional<int64_t> lower = getConstantIntValue(loop.getLowerBound()[0]);
  std::optional<int64_t> upper = getConstantIntValue(loop.getUpperBound()[0]);
  std::optional<int64_t> step = getConstantIntValue(loop.getStep()[0]);
  if (lower && upper && step && *step > 0)
    tile = std::clamp<int64_t>(llvm::divideCeil(*upper - *lower, *step), 1,
                               blockSize);
  auto [blocks, threads] =
      scf::tileParallelLoop(loop, {tile}, /*noMinMaxBounds=*/true);
  (void)gpu::setMappingAttr(blocks, {mapTo(context, gpu::Processor::BlockX)});
  (void)gpu::setMappingAttr(threads,
                            {mapTo(context, gpu::Processor::ThreadX)});
}

bool isInKernel(Operation *op) {
  return op->getParentOfType<gpu::LaunchOp>() != nullptr;
}

struct MapToGpuPass
    : public google::impl::MapToGpuPassBase<MapToGpuPass> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func->getParentOfType<gpu::GPUModuleOp>())
      return;
    // GPUs run at most 1024 threads per block; larger register tiles
    // spill.
    if (blockSize < 1 || blockSize > 1024 || tileSize < 1 || tileSize > 8) {
      func.emitError() << "google-map-to-gpu: expected block-size in [1, "
                          "1024] and tile-size in [1, 8], got block-size="
                       << blockSize << " and tile-size=" << tileSize;
      return signalPassFailure();
    }
    MLIRContext *context = &getContext();
    IRRewriter rewriter(context);

    SmallVector<bufferization::CloneOp> clones;
    func.walk([&](bufferization::CloneOp op) { clones.push_back(op); });
    for (bufferization::CloneOp clone : clones)
      lowerClone(rewriter, clone);

    SmallVector<linalg::LinalgOp> ops;
    func.walk([&](linalg::LinalgOp op) {
      if (!isInKernel(op))
        ops.push_back(op);
    });
    // Contractions take in the fill before them and the elementwise
    // epilogue after them, which then get no kernel of their own.
    struct Fused {
      linalg::ContractionDimensions dims;
      linalg::FillOp fill;
      linalg::GenericOp epilogue;
    };
    DenseMap<Operation *, Fused> contractions;
    llvm::SmallPtrSet<Operation *, 8> absorbed;
    for (linalg::LinalgOp op : ops) {
      if (absorbed.contains(op))
        continue;
      std::optional<linalg::ContractionDimensions> dims =
          getTileableContraction(op);
      if (!dims)
        continue;
      Fused fused{*dims, getFusableFill(op), getFusableEpilogue(op)};
      if (fused.fill && absorbed.contains(fused.fill))
        fused.fill = nullptr;
      if (fused.fill)
        absorbed.insert(fused.fill);
      if (fused.epilogue)
        absorbed.insert(fused.epilogue);
      contractions[op] = fused;
    }
    for (linalg::LinalgOp op : ops) {
      if (absorbed.contains(op))
        continue;
      if (!op.hasPureBufferSemantics()) {
        op->emitError("google-map-to-gpu: expected a linalg op on memrefs");
        return signalPassFailure();
      }
      if (ReductionCombine combine = getRowReduction(op)) {
        lowerRowReductionToBlocks(rewriter, op, combine);
        ++numKernels;
        continue;
      }
      if (ReductionCombine combine = getSplittableReduction(op)) {
        auto [chunks, fold] = splitFullReduction(rewriter, op, combine);
        mapToBlocksAndThreads(rewriter, chunks, blockSize);
        mapToBlocksAndThreads(rewriter, fold, blockSize);
        numKernels += 2;
        continue;
      }
      FailureOr<scf::ParallelOp> loop;
      auto contraction = contractions.find(op);
      if (contraction != contractions.end() &&
          prefersSharedMemory(op, contraction->second.dims, tileSize)) {
        lowerContractionToSharedTiles(rewriter, op, contraction->second.dims,
                                      tileSize, contraction->second.fill,
                                      contraction->second.epilogue);
        ++numKernels;
        continue;
      }
      if (contraction != contractions.end())
        loop = lowerContractionToTiles(
            rewriter, op, contraction->second.dims, tileSize, tileSize,
            contraction->second.fill, contraction->second.epilogue);
      else
        loop = lowerToParallelLoops(rewriter, op);
      if (failed(loop))
        return signalPassFailure();
      mapToBlocksAndThreads(rewriter, *loop, blockSize);
      ++numKernels;
    }

    ConversionTarget target(*context);
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    configureParallelLoopToGPULegality(target);
    RewritePatternSet patterns(context);
    populateParallelLoopToGPUPatterns(patterns);
    if (failed(applyPartialConversion(func, target, std::move(patterns))))
      return signalPassFailure();
    finalizeParallelLoopToGPUConversion(func);
    // The conversion marks the launches it made; nothing reads the mark.
    func.walk([](gpu::LaunchOp launch) {
      launch->removeAttr("SCFToGPU_visited");
    });

    // The host only handles buffers; their data is touched on the device.
    WalkResult leftover = func.walk([&](Operation *op) {
      if (isa<linalg::LinalgOp, memref::CopyOp, bufferization::CloneOp>(op) &&
          !isInKernel(op)) {
        op->emitError("google-map-to-gpu: this op would access device memory "
                      "on the host");
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    if (leftover.wasInterrupted())
      signalPassFailure();
  }
};

} // namespace
