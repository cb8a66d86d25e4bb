//===- GpuStrategy.cpp - which GPU kernel, which sizes --------------------===//

#include "GpuKernels.h"

#include "Codegen/Matchers.h"
#include "mlir/Dialect/MemRef/Utils/MemRefUtils.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

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
std::optional<int64_t>
getStaticOutputSize(linalg::LinalgOp op,
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

/// Whether `operand` of `op` is a buffer without offset or strides read
/// at loop dimensions `dims` in that order (a leading batch dimension
/// first when there is one). A static tensor may become such a buffer.
bool isDenseOperand(linalg::LinalgOp op, OpOperand &operand,
                    const linalg::ContractionDimensions &dims, unsigned row,
                    unsigned column, Type element) {
  auto type = dyn_cast<ShapedType>(operand.get().getType());
  auto buffer = dyn_cast<MemRefType>(type);
  return type && (!buffer || buffer.getLayout().isIdentity()) &&
         type.hasStaticShape() && type.getElementType() == element &&
         readsInOrder(op, operand, dims, row, column);
}

} // namespace

bool readsInOrder(linalg::LinalgOp op, OpOperand &operand,
                  const linalg::ContractionDimensions &dims, unsigned first,
                  unsigned second) {
  SmallVector<unsigned> expected(dims.batch.begin(), dims.batch.end());
  expected.push_back(first);
  expected.push_back(second);
  AffineMap map = op.getMatchingIndexingMap(&operand);
  if (map.getNumResults() != expected.size())
    return false;
  for (auto [result, dim] : llvm::zip(map.getResults(), expected))
    if (!isa<AffineDimExpr>(result) ||
        cast<AffineDimExpr>(result).getPosition() != dim)
      return false;
  return true;
}

int64_t getVectorTileSize(linalg::LinalgOp op,
                          const linalg::ContractionDimensions &dims) {
  unsigned m = dims.m.front(), n = dims.n.front(), k = dims.k.front();
  Type f32 = Float32Type::get(op->getContext());
  // A and B either way round: the kernel loads each along its innermost
  // dimension.
  auto isDense = [&](OpOperand &operand, unsigned rows) {
    return isDenseOperand(op, operand, dims, rows, k, f32) ||
           isDenseOperand(op, operand, dims, k, rows, f32);
  };
  if (!isDense(*op.getDpsInputOperand(0), m) ||
      !isDense(*op.getDpsInputOperand(1), n) ||
      !isDenseOperand(op, *op.getDpsInitOperand(0), dims, m, n, f32))
    return 0;
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  int64_t batch = dims.batch.empty() ? 1 : ranges[dims.batch.front()];
  for (int64_t threadTile : {8, 4}) {
    int64_t blockTile = kSharedThreads * threadTile;
    int64_t depth = kStagedElements / blockTile;
    if (ranges[m] % blockTile != 0 || ranges[n] % blockTile != 0 ||
        ranges[k] % depth != 0)
      continue;
    int64_t tiles = batch * (ranges[m] / blockTile) * (ranges[n] / blockTile);
    if (threadTile == 8 && tiles < kMinWideTiles)
      continue;
    return threadTile;
  }
  return 0;
}

namespace {

/// Whether `op`'s body adds the product of its inputs, each widened from
/// `half` (f16 or bf16) to f32, to its f32 accumulator.
bool isWideningHalfProduct(linalg::LinalgOp op, Type half) {
  Block *body = op.getBlock();
  Value accumulator = body->getArgument(2);
  auto add =
      body->getTerminator()->getOperand(0).getDefiningOp<arith::AddFOp>();
  if (!add || add->getBlock() != body)
    return false;
  Value product = add.getLhs() == accumulator ? add.getRhs() : add.getLhs();
  if (product == accumulator ||
      !llvm::is_contained(add->getOperands(), accumulator))
    return false;
  auto multiply = product.getDefiningOp<arith::MulFOp>();
  if (!multiply || multiply->getBlock() != body)
    return false;
  auto widens = [&](Value value, unsigned input) {
    auto extend = value.getDefiningOp<arith::ExtFOp>();
    return extend && extend.getIn() == body->getArgument(input) &&
           extend.getIn().getType() == half && extend.getType().isF32();
  };
  return ((widens(multiply.getLhs(), 0) && widens(multiply.getRhs(), 1)) ||
          (widens(multiply.getLhs(), 1) && widens(multiply.getRhs(), 0))) &&
         llvm::range_size(body->without_terminator()) == 4;
}

} // namespace

namespace {

/// Whether `op`'s A (M x K, or without `lhsKMajor` K x M) and B (K x N,
/// or with `rhsKMajor` N x K) of `input` and C of f32 are [batch,]
/// row-major without offsets, static.
bool hasDenseMatrices(linalg::LinalgOp op,
                      const linalg::ContractionDimensions &dims, Type input,
                      bool lhsKMajor = true, bool rhsKMajor = false) {
  unsigned m = dims.m.front(), n = dims.n.front(), k = dims.k.front();
  Type f32 = Float32Type::get(op->getContext());
  OpOperand &lhs = *op.getDpsInputOperand(0);
  OpOperand &rhs = *op.getDpsInputOperand(1);
  return (lhsKMajor ? isDenseOperand(op, lhs, dims, m, k, input)
                    : isDenseOperand(op, lhs, dims, k, m, input)) &&
         (rhsKMajor ? isDenseOperand(op, rhs, dims, n, k, input)
                    : isDenseOperand(op, rhs, dims, k, n, input)) &&
         isDenseOperand(op, *op.getDpsInitOperand(0), dims, m, n, f32);
}

/// Whether `op` has dense matrices (hasDenseMatrices) with M and N
/// multiples of kMmaBlockTile and K of kMmaSliceDepth: the matrix-core
/// kernels' tiles.
bool fitsMatrixCoreTiles(linalg::LinalgOp op,
                         const linalg::ContractionDimensions &dims, Type input,
                         bool lhsKMajor = true, bool rhsKMajor = false) {
  if (!hasDenseMatrices(op, dims, input, lhsKMajor, rhsKMajor))
    return false;
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  return ranges[dims.m.front()] % kMmaBlockTile == 0 &&
         ranges[dims.n.front()] % kMmaBlockTile == 0 &&
         ranges[dims.k.front()] % kMmaSliceDepth == 0;
}

} // namespace

bool readsLhsKMajor(linalg::LinalgOp op,
                    const linalg::ContractionDimensions &dims) {
  return readsInOrder(op, *op.getDpsInputOperand(0), dims, dims.m.front(),
                      dims.k.front());
}

bool readsRhsKMajor(linalg::LinalgOp op,
                    const linalg::ContractionDimensions &dims) {
  return readsInOrder(op, *op.getDpsInputOperand(1), dims, dims.n.front(),
                      dims.k.front());
}

bool prefersMmaSync(linalg::LinalgOp op,
                    const linalg::ContractionDimensions &dims) {
  Type half = getElementTypeOrSelf(op.getDpsInputOperand(0)->get());
  return (half.isF16() || half.isBF16()) &&
         fitsMatrixCoreTiles(op, dims, half, readsLhsKMajor(op, dims),
                             readsRhsKMajor(op, dims)) &&
         isWideningHalfProduct(op, half);
}

bool prefersWgmma(linalg::LinalgOp op,
                  const linalg::ContractionDimensions &dims) {
  Type half = getElementTypeOrSelf(op.getDpsInputOperand(0)->get());
  bool rhsKMajor = readsRhsKMajor(op, dims);
  if ((!half.isF16() && !half.isBF16()) || !isWideningHalfProduct(op, half) ||
      !hasDenseMatrices(op, dims, half, /*lhsKMajor=*/true, rhsKMajor))
    return false;
  unsigned m = dims.m.front(), n = dims.n.front(), k = dims.k.front();
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  if (ranges[m] < kMmaBlockTile || ranges[n] < kMmaBlockTile ||
      ranges[k] < kWgmmaSliceDepth || ranges[k] % 8 != 0)
    return false;
  // B^T's rows are K long, as A's; B's are N long, and its boxes go down
  // K, past a batch's matrix unless K is a multiple of the slices.
  return rhsKMajor ||
         (ranges[n] % 8 == 0 &&
          (dims.batch.empty() || ranges[k] % kWgmmaSliceDepth == 0));
}

namespace {

/// Whether `op`'s body adds the product of its two f32 inputs to its f32
/// accumulator.
bool isF32Product(linalg::LinalgOp op) {
  Block *body = op.getBlock();
  Value accumulator = body->getArgument(2);
  auto add =
      body->getTerminator()->getOperand(0).getDefiningOp<arith::AddFOp>();
  if (!add || add->getBlock() != body || !add.getType().isF32() ||
      !llvm::is_contained(add->getOperands(), accumulator))
    return false;
  Value product = add.getLhs() == accumulator ? add.getRhs() : add.getLhs();
  auto multiply = product.getDefiningOp<arith::MulFOp>();
  if (!multiply || multiply->getBlock() != body)
    return false;
  Value lhs = body->getArgument(0), rhs = body->getArgument(1);
  return ((multiply.getLhs() == lhs && multiply.getRhs() == rhs) ||
          (multiply.getLhs() == rhs && multiply.getRhs() == lhs)) &&
         llvm::range_size(body->without_terminator()) == 2;
}

} // namespace

bool prefersTf32MmaSync(linalg::LinalgOp op,
                        const linalg::ContractionDimensions &dims) {
  return fitsMatrixCoreTiles(op, dims, Float32Type::get(op->getContext())) &&
         isF32Product(op);
}

bool fitsWgmmaTf32(linalg::LinalgOp op,
                   const linalg::ContractionDimensions &dims,
                   bool kernelLayout) {
  if (dims.m.size() != 1 || dims.n.size() != 1 || dims.k.size() != 1 ||
      dims.batch.size() > 1 || !isF32Product(op))
    return false;
  unsigned m = dims.m.front(), n = dims.n.front(), k = dims.k.front();
  Type f32 = Float32Type::get(op->getContext());
  // A (M x K) and B^T (N x K), or with `kernelLayout` unset A^T and B too.
  auto isDense = [&](OpOperand &operand, unsigned rows) {
    return isDenseOperand(op, operand, dims, rows, k, f32) ||
           (!kernelLayout && isDenseOperand(op, operand, dims, k, rows, f32));
  };
  if (!isDense(*op.getDpsInputOperand(0), m) ||
      !isDense(*op.getDpsInputOperand(1), n) ||
      !isDenseOperand(op, *op.getDpsInitOperand(0), dims, m, n, f32))
    return false;
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  return ranges[m] >= kMmaBlockTile && ranges[n] >= kMmaBlockTile &&
         ranges[k] >= kWgmmaTf32SliceDepth && ranges[k] % 4 == 0;
}

bool prefersWgmmaTf32(linalg::LinalgOp op,
                      const linalg::ContractionDimensions &dims) {
  return op->hasAttr(kTf32OperandsAttr) &&
         fitsWgmmaTf32(op, dims, /*kernelLayout=*/true);
}

Value getSwappedTransposeSource(Value value) {
  auto transpose = value.getDefiningOp<linalg::TransposeOp>();
  if (!transpose)
    return nullptr;
  ArrayRef<int64_t> permutation = transpose.getPermutation();
  int64_t rank = permutation.size();
  if (rank < 2)
    return nullptr;
  SmallVector<int64_t> swapped = llvm::to_vector(llvm::seq<int64_t>(0, rank));
  std::swap(swapped[rank - 2], swapped[rank - 1]);
  if (permutation != ArrayRef<int64_t>(swapped))
    return nullptr;
  return transpose.getInput();
}

linalg::GenericOp createContractionWithInputs(RewriterBase &rewriter,
                                              linalg::LinalgOp op,
                                              ValueRange inputs,
                                              ArrayRef<AffineMap> inputMaps) {
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  llvm::copy(inputMaps, maps.begin());
  auto generic = linalg::GenericOp::create(
      rewriter, op.getLoc(), op->getResultTypes(), inputs, op.getDpsInits(),
      maps, op.getIteratorTypesArray());
  rewriter.cloneRegionBefore(op->getRegion(0), generic.getRegion(),
                             generic.getRegion().begin());
  generic->setDiscardableAttrs(op->getDiscardableAttrDictionary());
  return generic;
}

AffineMap getOperandMap(MLIRContext *context, unsigned numLoops,
                        const linalg::ContractionDimensions &dims,
                        unsigned first, unsigned second) {
  SmallVector<AffineExpr> results;
  for (unsigned dim : dims.batch)
    results.push_back(getAffineDimExpr(dim, context));
  results.push_back(getAffineDimExpr(first, context));
  results.push_back(getAffineDimExpr(second, context));
  return AffineMap::get(numLoops, 0, results, context);
}

std::optional<unsigned> getInnermostDim(linalg::LinalgOp op,
                                        OpOperand &operand) {
  if (!isa<MemRefType>(operand.get().getType()))
    return std::nullopt;
  AffineMap map = op.getMatchingIndexingMap(&operand);
  if (!map.isPermutation())
    return std::nullopt;
  return cast<AffineDimExpr>(map.getResults().back()).getPosition();
}

std::optional<unsigned> getTransposedDim(linalg::LinalgOp op) {
  if (!op.hasPureBufferSemantics() || op.getNumDpsInits() != 1 ||
      op.getNumLoops() < 2 || op.getNumReductionLoops() != 0 ||
      op.hasIndexSemantics())
    return std::nullopt;
  OpOperand *init = op.getDpsInitOperand(0);
  auto output = dyn_cast<MemRefType>(init->get().getType());
  if (!output || !op.getMatchingIndexingMap(init).isIdentity())
    return std::nullopt;
  unsigned last = op.getNumLoops() - 1;
  // Tiles of a narrow side would be mostly idle threads.
  auto narrow = [&](unsigned dim) {
    return !output.isDynamicDim(dim) &&
           output.getDimSize(dim) < kTransposeTile / 2;
  };
  if (narrow(last))
    return std::nullopt;
  std::optional<unsigned> transposed;
  for (OpOperand *input : op.getDpsInputOperands()) {
    // Read in place, a tile's writes would race with other tiles' reads.
    if (input->get() == init->get())
      return std::nullopt;
    std::optional<unsigned> dim = getInnermostDim(op, *input);
    if (!transposed && dim && *dim != last && !narrow(*dim))
      transposed = dim;
  }
  return transposed;
}

ContractionStrategy
chooseContractionKernel(linalg::LinalgOp op,
                        const linalg::ContractionDimensions &dims,
                        const ContractionChoices &choices) {
  if (int64_t splits = getSplitKFactor(op, dims)) {
    // Rows of A and of B^T: a warp reads both along K.
    if (choices.warpDots && readsLhsKMajor(op, dims) &&
        readsRhsKMajor(op, dims))
      return {ContractionKernel::WarpDots, kWarpDotWarps};
    return {ContractionKernel::SplitK, splits};
  }
  // AMD's matrix-core kernel takes f16, and bf16 from gfx90a on.
  Type input = getElementTypeOrSelf(op.getDpsInputOperand(0)->get());
  bool matrixCores =
      choices.mfma && (input.isF16() || (choices.mfmaBf16 && input.isBF16()));
  // The wgmma kernel's size: the rows of its tiles of C.
  if (choices.wgmma && (prefersWgmma(op, dims) ||
                        (choices.tf32 && prefersWgmmaTf32(op, dims)))) {
    int64_t rows = kMmaBlockTile * choices.wgmmaWarpgroups;
    if (op.getStaticLoopRanges()[dims.m.front()] % rows != 0)
      rows = kMmaBlockTile;
    return {choices.wgmmaSpecialized ? ContractionKernel::WgmmaSpecialized
                                     : ContractionKernel::Wgmma,
            rows};
  }
  if ((choices.mmaSync || matrixCores) && prefersMmaSync(op, dims))
    return {choices.mmaSync ? ContractionKernel::MmaSync
                            : ContractionKernel::Mfma,
            kMmaBlockTile};
  if (choices.tf32 && prefersTf32MmaSync(op, dims))
    return {ContractionKernel::Tf32MmaSync, kMmaBlockTile};
  if (int64_t threadTile = getVectorTileSize(op, dims))
    return {ContractionKernel::VectorTiles, threadTile};
  if (prefersSharedMemory(op, dims, choices.tileSize))
    return {ContractionKernel::SharedTiles, choices.tileSize};
  return {ContractionKernel::RegisterTiles,
          getRegisterTileSize(op, dims, choices.tileSize)};
}

int64_t ContractionStrategy::getBlockTile() const {
  switch (kernel) {
  case ContractionKernel::MmaSync:
  case ContractionKernel::Mfma:
  case ContractionKernel::Tf32MmaSync:
    return kMmaBlockTile;
  case ContractionKernel::VectorTiles:
  case ContractionKernel::SharedTiles:
    return kSharedThreads * size;
  case ContractionKernel::SplitK:
  case ContractionKernel::WarpDots:
  case ContractionKernel::RegisterTiles:
  case ContractionKernel::Wgmma:
  case ContractionKernel::WgmmaSpecialized:
    return 0;
  }
  llvm_unreachable("unknown contraction kernel");
}

bool ContractionStrategy::needsAlignedInputs() const {
  return kernel == ContractionKernel::Wgmma ||
         kernel == ContractionKernel::WgmmaSpecialized ||
         kernel == ContractionKernel::MmaSync ||
         kernel == ContractionKernel::Mfma ||
         kernel == ContractionKernel::Tf32MmaSync ||
         kernel == ContractionKernel::VectorTiles;
}

namespace {

/// The names of the kernels in kContractionKernelAttr.
constexpr std::pair<ContractionKernel, llvm::StringLiteral> kKernelNames[] = {
    {ContractionKernel::SplitK, "split_k"},
    {ContractionKernel::WarpDots, "warp_dots"},
    {ContractionKernel::WgmmaSpecialized, "wgmma_specialized"},
    {ContractionKernel::Wgmma, "wgmma"},
    {ContractionKernel::MmaSync, "mma_sync"},
    {ContractionKernel::Mfma, "mfma"},
    {ContractionKernel::Tf32MmaSync, "tf32_mma_sync"},
    {ContractionKernel::VectorTiles, "vector_tiles"},
    {ContractionKernel::SharedTiles, "shared_tiles"},
    {ContractionKernel::RegisterTiles, "register_tiles"},
};

StringRef getKernelName(ContractionKernel kernel) {
  for (auto [known, name] : kKernelNames)
    if (known == kernel)
      return name;
  llvm_unreachable("unknown contraction kernel");
}

} // namespace

void recordContractionKernel(linalg::LinalgOp op,
                             const ContractionStrategy &strategy) {
  Builder builder(op->getContext());
  op->setAttr(
      kContractionKernelAttr,
      builder.getDictionaryAttr(
          {builder.getNamedAttr(
               "kernel", builder.getStringAttr(getKernelName(strategy.kernel))),
           builder.getNamedAttr("size",
                                builder.getI64IntegerAttr(strategy.size))}));
}

std::optional<ContractionStrategy>
getRecordedContractionKernel(linalg::LinalgOp op) {
  auto record = op->getAttrOfType<DictionaryAttr>(kContractionKernelAttr);
  if (!record)
    return std::nullopt;
  auto name = record.getAs<StringAttr>("kernel");
  auto size = record.getAs<IntegerAttr>("size");
  if (!name || !size)
    return std::nullopt;
  for (auto [kernel, known] : kKernelNames)
    if (known == name.getValue())
      return ContractionStrategy{kernel, size.getInt()};
  return std::nullopt;
}

namespace {

/// Elements a full reduction must have before it is split over threads
/// (below, one thread's serial loop: each load waits for the last add).
constexpr int64_t kMinSplitReduction = 256;

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

/// The combine of a reduction with parallel dimensions (see
/// getReductionCombine) that combines at least `minElements` elements (or a
/// dynamic number) into each output element; empty otherwise.
ReductionCombine getReductionWithParallelLoops(linalg::LinalgOp op,
                                               int64_t minElements) {
  if (op.getNumParallelLoops() == 0)
    return {};
  ReductionCombine combine = getReductionCombine(op);
  std::optional<int64_t> elements = getStaticReductionSize(op);
  if (!combine || (elements && *elements < minElements))
    return {};
  return combine;
}

} // namespace

bool hasEffectFreePayload(linalg::LinalgOp op) {
  return llvm::all_of(
      op.getBlock()->without_terminator(),
      [](Operation &nested) { return isMemoryEffectFree(&nested); });
}

ReductionCombine getSplittableReduction(linalg::LinalgOp op) {
  if (op.getNumParallelLoops() != 0)
    return {};
  ReductionCombine combine = getReductionCombine(op);
  std::optional<int64_t> elements = getStaticReductionSize(op);
  if (!combine || (elements && *elements < kMinSplitReduction))
    return {};
  return combine;
}

/// The combine of a reduction (see getReductionCombine) whose input has
/// every reduction dimension outside every parallel one (a sum over a
/// batch: a bias's gradient), each output element a column of at least
/// kMinColumnReductionRows elements (or a dynamic number).
ReductionCombine getColumnReduction(linalg::LinalgOp op) {
  ReductionCombine combine =
      getReductionWithParallelLoops(op, kMinColumnReductionRows);
  if (!combine)
    return {};
  AffineMap map = op.getMatchingIndexingMap(op.getDpsInputOperand(0));
  bool parallelSeen = false;
  for (unsigned r = 0; r < map.getNumResults(); ++r) {
    bool parallel = op.getIteratorTypesArray()[map.getDimPosition(r)] ==
                    utils::IteratorType::parallel;
    if (!parallel && parallelSeen)
      return {};
    parallelSeen |= parallel;
  }
  return combine;
}

/// The combine of a reduction with parallel dimensions (see
/// getReductionCombine) whose rows are long (at least a block of threads,
/// or dynamic) and run along the input's innermost dimension, so that a
/// block's threads read consecutive elements.
ReductionCombine getRowReduction(linalg::LinalgOp op) {
  ReductionCombine combine =
      getReductionWithParallelLoops(op, kRowReductionThreads);
  return combine && google::isRowReduction(op) ? combine : ReductionCombine();
}

namespace {

/// Whether `op`'s loops have the static extents `rows`, then `length` when
/// given.
bool hasRanges(linalg::LinalgOp op, ArrayRef<int64_t> rows,
               std::optional<int64_t> length) {
  SmallVector<int64_t> expected(rows);
  if (length)
    expected.push_back(*length);
  return op.getStaticLoopRanges() == expected;
}

/// The map from a row chain op's loops (`loops` of them) to its row.
AffineMap getRowMap(unsigned loops, unsigned rank, MLIRContext *context) {
  return AffineMap::getMultiDimIdentityMap(loops, context).getMajorSubMap(rank);
}

/// How `op` runs in a row chain over `rows` x `length`, if it can.
std::optional<RowStep::Kind>
classifyRowStep(linalg::LinalgOp op, ArrayRef<int64_t> rows, int64_t length) {
  if (!(op.hasPureBufferSemantics() || op.hasPureTensorSemantics()) ||
      op.hasIndexSemantics() || op.getNumDpsInits() != 1 ||
      !hasEffectFreePayload(op))
    return std::nullopt;
  for (OpOperand *input : op.getDpsInputOperands())
    if (isa<ShapedType>(input->get().getType()) &&
        !op.getMatchingIndexingMap(input).isProjectedPermutation(
            /*allowZeroInResults=*/true))
      return std::nullopt;
  AffineMap outputMap = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  if (op.getNumParallelLoops() == op.getNumLoops()) {
    if (!outputMap.isIdentity())
      return std::nullopt;
    if (hasRanges(op, rows, std::nullopt))
      return RowStep::Kind::Row;
    if (hasRanges(op, rows, length))
      return RowStep::Kind::Elements;
    return std::nullopt;
  }
  unsigned rank = rows.size();
  bool rowReduction = length < kRowReductionThreads
                          ? static_cast<bool>(getReductionCombine(op))
                          : static_cast<bool>(getRowReduction(op));
  if (!rowReduction || !hasRanges(op, rows, length) ||
      op.getNumReductionLoops() != 1 ||
      !linalg::isReductionIterator(op.getIteratorTypesArray()[rank]) ||
      !op.getMatchingIndexingMap(op.getDpsInputOperand(0)).isIdentity() ||
      outputMap != getRowMap(rank + 1, rank, op->getContext()))
    return std::nullopt;
  return RowStep::Kind::Reduction;
}

/// The buffer that memref `value` is a view of.
Value getBaseBuffer(Value value) {
  return memref::skipViewLikeOps(cast<MemrefValue>(value));
}

/// Whether `op` accesses `operand`, which holds `value` (the operand or
/// the per-row value a view of it adds unit dimensions to), at the element
/// of the row its loops are at, or at the row.
bool isAtStep(linalg::LinalgOp op, OpOperand &operand, Value value,
              ArrayRef<int64_t> rows, int64_t length) {
  SmallVector<int64_t> elementShape(rows);
  elementShape.push_back(length);
  ArrayRef<int64_t> shape = cast<ShapedType>(value.getType()).getShape();
  bool atElement = value == operand.get() && shape == ArrayRef(elementShape) &&
                   op.getNumLoops() == rows.size() + 1 &&
                   op.getMatchingIndexingMap(&operand).isIdentity();
  bool atRow = shape == rows && isReadAtRow(op, operand, rows);
  return atElement || atRow;
}

/// Whether no two elements of `type` share memory: static strides, each
/// dimension's at least the extent of the ones inside it.
bool hasDisjointElements(MemRefType type) {
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)))
    return false;
  SmallVector<std::pair<int64_t, int64_t>> dims;
  for (auto [stride, extent] : llvm::zip(strides, type.getShape())) {
    if (extent == 1)
      continue;
    if (ShapedType::isDynamic(stride) || ShapedType::isDynamic(extent))
      return false;
    dims.push_back({stride, extent});
  }
  llvm::sort(dims);
  int64_t span = 1;
  for (auto [stride, extent] : dims) {
    if (stride < span)
      return false;
    span = stride * extent;
  }
  return true;
}

/// Whether every buffer `chain` writes is accessed in it only at the
/// element (or the row) each step is at, and through no other view than
/// one adding unit dimensions to a per-row buffer. A written view that is
/// not the identity (a block's rows, after tiling on tensors) must be the
/// only written view of its buffer.
bool isRaceFree(const RowChain &chain) {
  llvm::SmallDenseSet<Value> written;
  llvm::SmallDenseMap<Value, unsigned> writtenViews;
  for (RowStep step : chain.steps)
    for (Value init : step.op.getDpsInits())
      if (written.insert(init).second)
        ++writtenViews[getBaseBuffer(init)];
  for (RowStep step : chain.steps) {
    linalg::LinalgOp op = step.op;
    for (OpOperand &operand : op->getOpOperands()) {
      if (!isa<ShapedType>(operand.get().getType()) ||
          !writtenViews.contains(getBaseBuffer(operand.get())))
        continue;
      Value buffer = operand.get();
      if (auto view = buffer.getDefiningOp<memref::ExpandShapeOp>();
          view && !op.isDpsInit(&operand))
        buffer = view.getSrc();
      if (!written.contains(buffer))
        return false;
      auto type = cast<MemRefType>(buffer.getType());
      if (!type.getLayout().isIdentity() &&
          (writtenViews.lookup(getBaseBuffer(buffer)) != 1 ||
           !hasDisjointElements(type)))
        return false;
      if (!isAtStep(op, operand, buffer, chain.rows, chain.length))
        return false;
    }
  }
  return true;
}

/// The value a chain op's operand reads on tensors: a per-row tensor that
/// tensor.expand_shape adds unit dimensions to is read as its source.
Value getRowTensor(linalg::LinalgOp op, OpOperand &operand) {
  if (auto expand = operand.get().getDefiningOp<tensor::ExpandShapeOp>();
      expand && !op.isDpsInit(&operand))
    return expand.getSrc();
  return operand.get();
}

/// Whether `chain`, on tensors, reads what it computes only at the element
/// (or the row) each step is at, and its last step depends on every other
/// step: tiled by rows with the others fused in, each block's ops touch
/// only its rows.
bool isRowLocal(const RowChain &chain) {
  llvm::SmallDenseSet<Value> results;
  for (RowStep step : chain.steps)
    results.insert(step.op->getResult(0));
  llvm::SmallPtrSet<Operation *, 8> needed = {chain.steps.back().op};
  for (RowStep step : llvm::reverse(chain.steps)) {
    linalg::LinalgOp op = step.op;
    for (OpOperand &operand : op->getOpOperands()) {
      Value tensor = getRowTensor(op, operand);
      if (!results.contains(tensor))
        continue;
      if (!isAtStep(op, operand, tensor, chain.rows, chain.length))
        return false;
      if (needed.contains(op))
        needed.insert(tensor.getDefiningOp());
    }
  }
  return needed.size() == chain.steps.size();
}

/// The linalg op next to `op` in its block (after it when `forward`) when
/// only ops without memory effects (and run-time checks) lie between.
linalg::LinalgOp getNeighbour(Operation *op, bool forward) {
  for (Operation *next = forward ? op->getNextNode() : op->getPrevNode(); next;
       next = forward ? next->getNextNode() : next->getPrevNode()) {
    if (auto neighbour = dyn_cast<linalg::LinalgOp>(next))
      return neighbour;
    // Fresh buffers may be allocated before the chain's kernel.
    if (!isa<cf::AssertOp, gpu::AllocOp, memref::AllocOp>(next) &&
        !isMemoryEffectFree(next))
      return nullptr;
  }
  return nullptr;
}

} // namespace

bool isReadAtRow(linalg::LinalgOp op, OpOperand &operand,
                 ArrayRef<int64_t> rows) {
  auto type = cast<ShapedType>(operand.get().getType());
  unsigned next = 0;
  for (auto [extent, result] : llvm::zip(
           type.getShape(), op.getMatchingIndexingMap(&operand).getResults())) {
    if (auto constant = dyn_cast<AffineConstantExpr>(result)) {
      if (constant.getValue() != 0 || extent != 1)
        return false;
      continue;
    }
    auto dim = dyn_cast<AffineDimExpr>(result);
    if (!dim || dim.getPosition() != next || next >= rows.size() ||
        extent != rows[next])
      return false;
    ++next;
  }
  return next == rows.size();
}

SmallVector<RowChain>
findRowChains(ArrayRef<linalg::LinalgOp> ops,
              const llvm::SmallPtrSetImpl<Operation *> &taken, bool shortRows,
              bool warpRows) {
  llvm::SmallPtrSet<Operation *, 16> candidates, used;
  for (linalg::LinalgOp op : ops)
    if (!taken.contains(op))
      candidates.insert(op);
  SmallVector<RowChain> chains;
  for (linalg::LinalgOp seed : ops) {
    if (!candidates.contains(seed) || used.contains(seed))
      continue;
    SmallVector<int64_t> ranges = seed.getStaticLoopRanges();
    if (ranges.size() < 2 || ShapedType::isDynamicShape(ranges))
      continue;
    bool onTensors = seed.hasPureTensorSemantics();
    RowChain chain;
    chain.rows.assign(ranges.begin(), ranges.end() - 1);
    chain.length = ranges.back();
    // (Rows of no elements: the ops' own kernels handle them.)
    if (chain.length == 0)
      continue;
    if (chain.isShort() && !shortRows)
      continue;
    if (classifyRowStep(seed, chain.rows, chain.length) !=
        RowStep::Kind::Reduction)
      continue;
    chain.steps.push_back({seed, RowStep::Kind::Reduction});
    auto extend = [&](bool forward) {
      Operation *end = forward ? chain.steps.back().op : chain.steps.front().op;
      while (linalg::LinalgOp next = getNeighbour(end, forward)) {
        std::optional<RowStep::Kind> kind =
            classifyRowStep(next, chain.rows, chain.length);
        if (!kind || !candidates.contains(next) || used.contains(next))
          return;
        RowStep step{next, *kind};
        if (forward)
          chain.steps.push_back(step);
        else
          chain.steps.insert(chain.steps.begin(), step);
        end = next;
      }
    };
    extend(/*forward=*/false);
    extend(/*forward=*/true);
    // A step that would race ends the chain before it.
    auto isSafe = onTensors ? isRowLocal : isRaceFree;
    while (chain.steps.size() > 1 && !isSafe(chain))
      chain.steps.pop_back();
    // Over rows of 33-255 elements a warp per row beats a thread per row
    // even for a reduction alone (coalesced reads).
    bool warpSized = chain.isShort() && chain.length > kMaxThreadRowLength;
    if (llvm::count_if(chain.steps,
                       [](const RowStep &step) {
                         return step.kind != RowStep::Kind::Row;
                       }) < (warpSized ? 1 : 2) ||
        !isSafe(chain))
      continue;
    if (warpSized && !(warpRows && canRunRowChainOnWarps(chain)))
      continue;
    for (const RowStep &step : chain.steps)
      used.insert(step.op);
    chains.push_back(std::move(chain));
  }
  return chains;
}

} // namespace mlir::google::kernels
