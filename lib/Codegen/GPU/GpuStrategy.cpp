//===- GpuStrategy.cpp - which GPU kernel, which sizes --------------------===//

#include "GpuKernels.h"

using namespace mlir;

namespace mlir::google::kernels {

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

namespace {

/// The number of elements of `op`'s output when static.
std::optional<int64_t> getStaticOutputSize(linalg::LinalgOp op,
                                           const linalg::ContractionDimensions &dims) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  int64_t size = 1;
  SmallVector<unsigned> outputDims = {dims.m.front(), dims.n.front()};
  llvm::append_range(outputDims, dims.batch);
  for (unsigned dim : outputDims) {
    if (ShapedType::isDynamic(ranges[dim]))
      return std::nullopt;
    size *= ranges[dim];
  }
  return size;
}

/// At most this many output elements go to a split-K kernel.
constexpr int64_t kMaxSplitKOutputs = 65536;

/// K's elements per split, at least.
constexpr int64_t kMinSplitDepth = 64;

constexpr int64_t kMaxSplits = 8;

} // namespace

int64_t getSplitKFactor(linalg::LinalgOp op,
                        const linalg::ContractionDimensions &dims) {
  std::optional<int64_t> outputs = getStaticOutputSize(op, dims);
  int64_t depth = op.getStaticLoopRanges()[dims.k.front()];
  if (!outputs || *outputs > kMaxSplitKOutputs ||
      ShapedType::isDynamic(depth) || depth < 2 * kMinSplitDepth ||
      !getAccumulation(op))
    return 0;
  return std::min(kMaxSplits, depth / kMinSplitDepth);
}

int64_t getRegisterTileSize(linalg::LinalgOp op,
                            const linalg::ContractionDimensions &dims,
                            int64_t tileSize) {
  std::optional<int64_t> outputs = getStaticOutputSize(op, dims);
  while (outputs && tileSize > 1 &&
         *outputs / (tileSize * tileSize) < kMinTileThreads)
    tileSize /= 2;
  return tileSize;
}

namespace {

/// Elements a full reduction must have before it is split over threads.
constexpr int64_t kMinSplitReduction = 4096;

} // namespace

namespace {

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

} // namespace

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

} // namespace mlir::google::kernels
