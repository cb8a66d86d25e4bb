//===- CpuStrategy.cpp - which CPU schedule, which sizes ------------------===//

#include "CpuSchedules.h"

#include "Codegen/Matchers.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Math/IR/Math.h"
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

using namespace mlir;

namespace mlir::google::cpu {

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
  if (!generic || !isElementwiseEpilogue(generic, product) ||
      generic->getResult(0).getType() != product.getType() ||
      !llvm::all_of(generic.getDpsInputs(), isF32) ||
      !isF32(generic->getResult(0)))
    return nullptr;
  return generic;
}

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
  int64_t accumulators =
      2 *
      chooseBlock(ShapedType::kDynamic, ShapedType::kDynamic, vectorBits).rows;
  return llvm::bit_floor<uint64_t>(
      std::max<int64_t>(accumulators / std::max<int64_t>(rows, 1), 1));
}

/// The least K for which a dynamic number of rows goes to threads (the
/// loop then decides at run time from the rows it has): a first
/// convolution's 3x3 windows of one channel (K = 9) are worth it (a
/// LeNet's batch-256 call 8% faster on 2 threads); shallower products
/// stay on one thread.
constexpr int64_t kMinRowThreadDepth = 8;

bool isWorthRowThreads(RankedTensorType result, int64_t k, BlockShape block) {
  int64_t m = result.getDimSize(0);
  if (result.getRank() != 2 || ShapedType::isDynamic(result.getDimSize(1)) ||
      result.getDimSize(1) > block.columns)
    return false;
  if (ShapedType::isDynamic(k))
    return true;
  // A dynamic M: row blocks deep enough to be worth a thread each (the
  // loop splits by M at run time); a shallow one stays on one thread.
  if (ShapedType::isDynamic(m))
    return k >= kMinRowThreadDepth;
  int64_t steps = m / block.rows * k;
  return m >= 2 * block.rows && steps >= google::kMinParallelSteps;
}

bool isWorthThreads(RankedTensorType result, int64_t k, BlockShape block) {
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

/// Whether `expr` does not decrease as any loop grows: dimensions and
/// constants, added or scaled by positive constants.
static bool isIncreasing(AffineExpr expr) {
  if (isa<AffineDimExpr, AffineConstantExpr>(expr))
    return true;
  auto binary = dyn_cast<AffineBinaryOpExpr>(expr);
  if (!binary)
    return false;
  if (binary.getKind() == AffineExprKind::Add)
    return isIncreasing(binary.getLHS()) && isIncreasing(binary.getRHS());
  if (binary.getKind() == AffineExprKind::Mul) {
    auto factor = dyn_cast<AffineConstantExpr>(binary.getRHS());
    return factor && factor.getValue() > 0 && isIncreasing(binary.getLHS());
  }
  return false;
}

bool hasIncreasingMaps(linalg::LinalgOp op) {
  return llvm::all_of(op.getIndexingMapsArray(), [](AffineMap map) {
    return llvm::all_of(map.getResults(), isIncreasing);
  });
}

bool isScheduled(Operation *op) {
  return op->hasAttr(kVectorizeAttr) || op->hasAttr(kMatmulBlockAttr) ||
         op->hasAttr(kMaxRowsAttr);
}

std::optional<std::pair<unsigned, int64_t>>
getElementwiseChunk(linalg::LinalgOp op) {
  // Not the blocks of a matmul's schedule (a dynamic M's last rows).
  if (isScheduled(op))
    return std::nullopt;
  if (isa<linalg::FillOp, linalg::CopyOp>(op) || !op.hasPureTensorSemantics() ||
      op->getNumResults() != 1 || op.getNumLoops() == 0 || hasEmptyLoop(op) ||
      op.getNumParallelLoops() != op.getNumLoops() ||
      !isa<TilingInterface>(op.getOperation()) || !hasIncreasingMaps(op))
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

std::optional<int64_t> getTransposeTile(linalg::TransposeOp op,
                                        unsigned vectorBits) {
  if (isScheduled(op) || !op.hasPureTensorSemantics() || hasEmptyLoop(op) ||
      vectorBits < 256)
    return std::nullopt;
  auto type = cast<RankedTensorType>(op.getInit().getType());
  Type element = type.getElementType();
  if (!element.isIntOrFloat() || element.getIntOrFloatBitWidth() != 32)
    return std::nullopt;
  ArrayRef<int64_t> perm = op.getPermutation();
  int64_t rank = type.getRank();
  if (rank < 2 || perm.back() == rank - 1)
    return std::nullopt;
  int64_t rowDim = llvm::find(perm, rank - 1) - perm.begin();
  for (int64_t d : {rowDim, rank - 1})
    if (!type.isDynamicDim(d) && type.getDimSize(d) < kMinTransposeExtent)
      return std::nullopt;
  return vectorBits / 32;
}

bool isSmallTranspose(linalg::TransposeOp op) {
  if (isScheduled(op) || !op.hasPureTensorSemantics())
    return false;
  auto type = cast<RankedTensorType>(op.getInit().getType());
  ArrayRef<int64_t> perm = op.getPermutation();
  return type.getRank() >= 2 && perm.back() != type.getRank() - 1 &&
         type.hasStaticShape() && type.getNumElements() > 0 &&
         type.getNumElements() <= kSmallTransposeElements;
}

bool hasBlockableMaps(linalg::LinalgOp matmul) {
  auto plain = dyn_cast<linalg::MatmulOp>(matmul.getOperation());
  if (!plain)
    return !matmul.hasUserDefinedMaps();
  SmallVector<AffineMap> maps = matmul.getIndexingMapsArray();
  return maps ==
             linalg::MatmulOp::getDefaultIndexingMaps(matmul->getContext()) ||
         maps == getTransposedLhsMaps(matmul->getContext());
}

linalg::TransposeOp getFoldableLhsTranspose(linalg::MatmulOp matmul) {
  if (!matmul.hasPureTensorSemantics() || matmul.hasUserDefinedMaps() ||
      !llvm::all_of(matmul->getOperands(), isF32))
    return nullptr;
  auto transpose =
      matmul.getDpsInputs()[0].getDefiningOp<linalg::TransposeOp>();
  if (!transpose || !transpose->hasOneUse() ||
      transpose.getPermutation() != ArrayRef<int64_t>{1, 0} ||
      !isF32(transpose.getInput()))
    return nullptr;
  return transpose;
}

std::optional<PoolTile> getPoolTile(linalg::LinalgOp op, unsigned vectorBits) {
  if (!isa<linalg::PoolingNhwcMaxOp, linalg::PoolingNhwcSumOp>(op) ||
      isScheduled(op) || !op.hasPureTensorSemantics() || hasEmptyLoop(op))
    return std::nullopt;
  Type element = getElementTypeOrSelf(op->getResult(0).getType());
  if (!element.isF32() && !element.isF64())
    return std::nullopt;
  for (Value operand : op->getOperands())
    if (getElementTypeOrSelf(operand.getType()) != element)
      return std::nullopt;
  auto dilations = op->getAttrOfType<DenseIntElementsAttr>("dilations");
  if (!dilations || !llvm::all_of(dilations.getValues<int64_t>(),
                                  [](int64_t d) { return d == 1; }))
    return std::nullopt;
  // Loops: batch, output rows, output columns, channels, window rows,
  // window columns; all but the batch static.
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  auto input = cast<RankedTensorType>(op.getDpsInputs()[0].getType());
  if (llvm::any_of(llvm::drop_begin(ranges), ShapedType::isDynamic) ||
      llvm::any_of(input.getShape().drop_front(), ShapedType::isDynamic))
    return std::nullopt;
  int64_t columns = ranges[2], channels = ranges[3];
  // A few vectors of channels, and at most 8 vectors of results in all
  // (the accumulators stay in registers across the window's rows).
  int64_t lanes =
      std::max<int64_t>(vectorBits / element.getIntOrFloatBitWidth(), 1);
  auto largestDivisor = [](int64_t extent, int64_t bound) {
    for (int64_t d = std::min(extent, std::max<int64_t>(bound, 1)); d > 1; --d)
      if (extent % d == 0)
        return d;
    return int64_t{1};
  };
  PoolTile tile;
  tile.channels = largestDivisor(channels, 4 * lanes);
  tile.columns =
      largestDivisor(columns, std::min<int64_t>(8, 8 * lanes / tile.channels));
  return tile;
}

std::optional<int64_t> getWindowCopyRun(linalg::GenericOp op) {
  if (isScheduled(op) || !op.hasPureTensorSemantics() ||
      op.getNumDpsInputs() != 1 || op.getNumDpsInits() != 1 ||
      op.getNumLoops() < 2 || hasEmptyLoop(op) ||
      op.getNumParallelLoops() != op.getNumLoops())
    return std::nullopt;
  auto yield = cast<linalg::YieldOp>(op.getBlock()->getTerminator());
  if (!op.getBlock()->without_terminator().empty() ||
      yield.getValues() != ValueRange{op.getBlock()->getArgument(0)})
    return std::nullopt;
  OpOperand *input = op.getDpsInputOperand(0);
  AffineMap read = op.getMatchingIndexingMap(input);
  if (!op.getMatchingIndexingMap(op.getDpsInitOperand(0)).isIdentity() ||
      read.isProjectedPermutation() || read.getNumResults() == 0 ||
      read.getNumSymbols() != 0)
    return std::nullopt;
  unsigned innermost = op.getNumLoops() - 1;
  for (AffineExpr result : read.getResults().drop_back())
    if (result.isFunctionOfDim(innermost))
      return std::nullopt;
  // The last index is start + t, start independent of t.
  MLIRContext *context = op.getContext();
  AffineExpr t = getAffineDimExpr(innermost, context);
  AffineExpr last = read.getResults().back();
  AffineExpr start = last.replace(t, getAffineConstantExpr(0, context));
  AffineExpr rest = simplifyAffineExpr(last - start - t, read.getNumDims(), 0);
  auto zero = dyn_cast<AffineConstantExpr>(rest);
  if (!zero || zero.getValue() != 0 || !last.isPureAffine())
    return std::nullopt;
  int64_t run = op.getStaticLoopRanges()[innermost];
  Type element = getElementTypeOrSelf(input->get().getType());
  // Vectors of i1 are bit-packed in memory (memrefs of i1 are not), and
  // LLVM 22's x86 backend cannot legalize some vectors of bf16.
  bool wholeBytes =
      element.isInteger() && element.getIntOrFloatBitWidth() % 8 == 0;
  if (ShapedType::isDynamic(run) ||
      !(wholeBytes || element.isF32() || element.isF64()) ||
      run * element.getIntOrFloatBitWidth() > 8 * kMaxWindowRunBytes)
    return std::nullopt;
  return run;
}

bool isFreeElementwise(linalg::GenericOp op) {
  return !isScheduled(op) && op.hasPureTensorSemantics() &&
         op->getNumResults() == 1 && op.getNumLoops() >= 2 &&
         !hasEmptyLoop(op) && op.getNumParallelLoops() == op.getNumLoops() &&
         hasIncreasingMaps(op);
}

/// Whether `value` is laid out densely but for its outermost dimension:
/// not a window of a larger tensor's inner dimensions (collapsing those
/// would copy them).
static bool isDenseInner(Value value) {
  auto slice = value.getDefiningOp<tensor::ExtractSliceOp>();
  if (!slice)
    return true;
  RankedTensorType source = slice.getSourceType();
  if (slice.getType().getRank() != source.getRank() ||
      !llvm::all_of(slice.getStaticStrides(),
                    [](int64_t stride) { return stride == 1; }))
    return false;
  for (int64_t d = 1; d < source.getRank(); ++d)
    if (slice.getStaticOffsets()[d] != 0 || source.isDynamicDim(d) ||
        slice.getStaticSizes()[d] != source.getDimSize(d))
      return false;
  return true;
}

bool isCollapsibleFill(linalg::FillOp fill) {
  if (isScheduled(fill) || !fill.hasPureTensorSemantics())
    return false;
  auto type = cast<RankedTensorType>(fill.getResult(0).getType());
  return type.getRank() >= 2 && type.hasStaticShape() &&
         isDenseInner(fill.getOutputs()[0]);
}

SmallVector<ReassociationIndices> getCollapsibleDims(linalg::LinalgOp op) {
  // Static extents (the dynamic ones carry run-time checks of their own)
  // and maps without broadcast 1s.
  if (op.hasDynamicShape() ||
      !llvm::all_of(op.getIndexingMapsArray(),
                    [](AffineMap map) {
                      return map.isProjectedPermutation(
                          /*allowZeroInResults=*/false);
                    }) ||
      !llvm::all_of(op->getOperands(), isDenseInner))
    return {};
  SmallVector<ReassociationIndices> groups = {{0}};
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  for (int64_t d = 1, e = op.getNumLoops(); d < e; ++d) {
    ReassociationIndices extended = groups.back();
    extended.push_back(d);
    if (linalg::areDimSequencesPreserved(maps, {extended}))
      groups.back() = extended;
    else
      groups.push_back({d});
  }
  SmallVector<ReassociationIndices> folded;
  for (ReassociationIndices &group : groups)
    if (group.size() > 1)
      folded.push_back(group);
  return folded;
}

/// A reduction over loops outside its innermost one (a bias gradient's
/// sum over the batch): each row adds into the result's row.
static bool isColumnReduction(linalg::LinalgOp op) {
  if (!isa<linalg::GenericOp, linalg::ReduceOp>(op) || isScheduled(op) ||
      !op.hasPureTensorSemantics() || op->getNumResults() != 1 ||
      op.getNumDpsInits() != 1 || op.getNumLoops() < 2 || hasEmptyLoop(op) ||
      !hasIncreasingMaps(op))
    return false;
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  return iterators.back() == utils::IteratorType::parallel &&
         op.getNumReductionLoops() > 0;
}

bool isShortRowOp(linalg::LinalgOp op, unsigned vectorBits) {
  auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
  if (!(generic && isFreeElementwise(generic)) && !isColumnReduction(op))
    return false;
  Type resultElement = getElementTypeOrSelf(op->getResult(0).getType());
  for (Value operand : op->getOperands()) {
    Type element = getElementTypeOrSelf(operand.getType());
    if (!element.isIntOrFloat() || element.isBF16() ||
        (element.getIntOrFloatBitWidth() != 32 &&
         element.getIntOrFloatBitWidth() != 64))
      return false;
  }
  int64_t row = op.getStaticLoopRanges().back();
  int64_t lanes = vectorBits / resultElement.getIntOrFloatBitWidth();
  if (ShapedType::isDynamic(row) || row < 2 ||
      row > kMaxShortRowVectors * lanes)
    return false;
  // Every operand reads its row contiguously or not at all (broadcast).
  unsigned innermost = op.getNumLoops() - 1;
  for (OpOperand &operand : op->getOpOperands()) {
    AffineMap map = op.getMatchingIndexingMap(&operand);
    for (unsigned r = 0; r < map.getNumResults(); ++r) {
      AffineExpr result = map.getResult(r);
      if (isa<AffineConstantExpr>(result))
        continue;
      auto dim = dyn_cast<AffineDimExpr>(result);
      if (!dim ||
          (dim.getPosition() == innermost && r + 1 != map.getNumResults()))
        return false;
    }
  }
  // Arithmetic and the math functions that are instructions or
  // polynomials on vectors (isVectorArithmetic), and index ops.
  for (Operation &bodyOp : op.getBlock()->without_terminator())
    if (!isa<linalg::IndexOp>(bodyOp) && !isVectorArithmetic(&bodyOp))
      return false;
  return succeeded(linalg::vectorizeOpPrecondition(op));
}

int64_t getPartialReductionWidth(int64_t length, int64_t lanes) {
  for (int64_t vectors = kMaxPartialVectors; vectors >= 1; --vectors)
    if (length % (vectors * lanes) == 0)
      return vectors * lanes;
  // Whole vectors but the last one.
  for (int64_t width = kMaxPartialVectors * lanes; width > lanes; --width)
    if (length % width == 0)
      return width;
  return 0;
}

int64_t getReductionChunk(int64_t length) {
  if (length <= kMaxVectorReduction)
    return length;
  for (int64_t pieces = llvm::divideCeil(length, kMaxVectorReduction);
       length / pieces >= kMinReductionChunk; ++pieces)
    if (length % pieces == 0)
      return length / pieces;
  return 0;
}

bool isRowReduction(linalg::LinalgOp op) {
  if (!isa<linalg::GenericOp, linalg::ReduceOp>(op) ||
      !op.hasPureTensorSemantics() || !google::isRowReduction(op) ||
      hasEmptyLoop(op))
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
      if (map.getDimPosition(r) == innermost && r + 1 != map.getNumResults())
        return false;
  }
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  return !ShapedType::isDynamic(ranges[innermost]) &&
         getReductionChunk(ranges[innermost]) > 0;
}

bool shouldPackRhs(ShapedType result, ShapedType rhs, BlockShape block) {
  int64_t m = result.getDimSize(0), k = rhs.getDimSize(0),
          n = rhs.getDimSize(1);
  auto atLeast = [](int64_t extent, int64_t bound) {
    return ShapedType::isDynamic(extent) || extent >= bound;
  };
  return atLeast(m, 4 * block.rows) && atLeast(k, 64) &&
         atLeast(n, 4 * block.columns);
}

} // namespace mlir::google::cpu
