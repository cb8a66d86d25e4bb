//===- GpuKernels.h - the kernel families of --google-map-to-gpu -*- C++
//-*-===//
//
// Strategy apart from mechanics: GpuStrategy.cpp decides which kernel an op
// gets (register tiles or shared-memory tiles for contractions, split or
// per-row reductions, threads over loops) and their sizes;
// ContractionKernels.cpp, ReductionKernels.cpp, AttentionKernel.cpp and
// TransposeKernel.cpp build those kernels;
// MapToGpu.cpp runs the pass and maps the remaining loops.
//
//===----------------------------------------------------------------------===//

#ifndef GOOGLE_LIB_CODEGEN_GPU_GPUKERNELS_H
#define GOOGLE_LIB_CODEGEN_GPU_GPUKERNELS_H

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

#include "Codegen/GPU/IndexBuilder.h"

#include "llvm/Support/Debug.h"

#include <numeric>

namespace mlir::google::kernels {

using google::IndexBuilder;

/// Whether contraction `op` (dimensions `dims`) reads `operand` at loop
/// dimensions (batch, `first`, `second`), in that order.
bool readsInOrder(linalg::LinalgOp op, OpOperand &operand,
                  const linalg::ContractionDimensions &dims, unsigned first,
                  unsigned second);

/// The input of the linalg.transpose that defines `value` when it swaps
/// the last two dimensions (and keeps the others), else null.
Value getSwappedTransposeSource(Value value);

/// A linalg.generic computing contraction `op` (created before it, not
/// replacing it, with its discardable attributes) from `inputs` read
/// through `inputMaps`.
linalg::GenericOp createContractionWithInputs(RewriterBase &rewriter,
                                              linalg::LinalgOp op,
                                              ValueRange inputs,
                                              ArrayRef<AffineMap> inputMaps);

/// The indexing map of a contraction's operand read at loop dimensions
/// (batch, `first`, `second`) (see readsInOrder).
AffineMap getOperandMap(MLIRContext *context, unsigned numLoops,
                        const linalg::ContractionDimensions &dims,
                        unsigned first, unsigned second);

/// The loop dimensions of a contraction that one thread tiles: C[b, m, n]
/// += A[b, m, k] * B[b, k, n] with any operand layout and at most one batch
/// dimension; std::nullopt for other ops.
std::optional<linalg::ContractionDimensions>
getTileableContraction(linalg::LinalgOp op);

/// The indices of `operand` when the loop dimensions have the values
/// `loops` (its indexing map is a projected permutation).
SmallVector<Value> getIndices(linalg::LinalgOp op, OpOperand &operand,
                              ArrayRef<Value> loops);

/// Lanes per warp (NVIDIA's; the unit of warp-shuffles).
constexpr int64_t kWarpLanes = 32;

/// `value` combined across a warp's lanes by a butterfly of gpu.shuffle xor,
/// `combine(mine, other)` at each step: every lane ends with the result.
Value createWarpButterfly(OpBuilder &builder, Location loc, Value value,
                          function_ref<Value(Value, Value)> combine);

/// A thread's lane in its warp, its warp in the block, and that warp's
/// index among all blocks' (blocks of `warpsPerBlock` warps along x).
struct WarpIds {
  Value lane, warp, index;
};
WarpIds getWarpIds(RewriterBase &rewriter, Location loc, gpu::LaunchOp launch,
                   int64_t warpsPerBlock);

/// A synchronous gpu.launch of `blocks` blocks of `threadsX` x `threadsY`
/// threads with workgroup buffers of types `shared` (and `dynamicShared`
/// bytes of dynamic shared memory, an i32, when given), its body holding
/// only the terminator; the rewriter's insertion point is left at the
/// body's start.
gpu::LaunchOp createLaunch(RewriterBase &rewriter, Location loc, Value blocks,
                           Value threadsX, Value threadsY, TypeRange shared,
                           Value dynamicShared = nullptr);

/// The loop dimension that `operand` (a buffer read through a permutation
/// of `op`'s loops) has innermost, else std::nullopt.
std::optional<unsigned> getInnermostDim(linalg::LinalgOp op,
                                        OpOperand &operand);

/// A transpose kernel's tile of the two loops it swaps, and its threads'
/// rows (each thread moves kTransposeTile / kTransposeRows elements).
constexpr int64_t kTransposeTile = 32, kTransposeRows = 8;

/// The loop dimension that elementwise op `op` (all loops parallel, one
/// output written in order) reads some input along innermost, when it is
/// not the output's innermost one (a transpose): the kernel
/// lowerToTransposeTiles takes it. std::nullopt for other ops, ops whose
/// output is also an input, and ops with a static side under 16.
std::optional<unsigned> getTransposedDim(linalg::LinalgOp op);

/// A gpu.launch computing elementwise op `op` (see getTransposedDim: `inner`)
/// in blocks of 32 x 8 threads per 32 x 32 tile of the loops `inner` and
/// the output's innermost: the inputs read along `inner` go through a tile
/// of shared memory each, read and written with consecutive threads on
/// consecutive elements (coalesced on both sides), the other inputs are
/// read where the output's elements are.
gpu::LaunchOp lowerToTransposeTiles(RewriterBase &rewriter, linalg::LinalgOp op,
                                    unsigned inner);

/// Whether `op` leaves the memory that exists alone: a run-time check, an
/// op without memory effects, or an allocation (a buffer an epilogue
/// writes, allocated after the op it follows).
bool isMemoryNeutral(Operation *op);

/// Moves the ops without memory effects and the allocations between `op`
/// and `end` (later in its block) before `op`: a kernel built at a
/// contraction or reduction can then read and write what its epilogue
/// does (views made after it, the buffer it writes).
void moveNeutralOpsBefore(Operation *op, Operation *end);

/// The linalg.fill that sets the whole of `op`'s accumulator just before
/// it, whose value can then start the accumulation instead.
linalg::FillOp getFusableFill(linalg::LinalgOp op);

/// An elementwise linalg.generic right after contraction `op` that reads
/// its result element by element (identity map), with one output of the
/// same shape: computing it in the contraction's threads saves a kernel
/// and a pass over memory. Its output is the contraction's buffer, or a
/// buffer while the contraction's own buffer is a local allocation read
/// by nothing else; either overlaps no operand of the contraction (by
/// root, see mayAlias), and the epilogue reads it only where it writes
/// (readsOwnElementsOnly).
linalg::GenericOp getFusableEpilogue(linalg::LinalgOp op);

/// Whether elementwise `epilogue` (see isElementwiseEpilogue) reads the
/// buffers it writes and `product` only at the element it writes (through
/// `product`, or its output at the output's map): a kernel that runs it
/// on each element as the element is ready then reads no other thread's.
bool readsOwnElementsOnly(linalg::GenericOp epilogue, Value product);

/// The value contraction `op`'s body computes from `lhs`, `rhs` and the
/// accumulator `accumulator`.
Value accumulate(RewriterBase &rewriter, linalg::LinalgOp op, Value lhs,
                 Value rhs, Value accumulator);

/// A one-dimensional scf.parallel over tiles of the output of contraction
/// `op`: each iteration (one thread) keeps a tileM x tileN tile of C in
/// registers across the whole K loop, loading a column of A and a row of B
/// per step (indices clamped into range; only in-range elements are
/// stored).
scf::ParallelOp
lowerContractionToTiles(RewriterBase &rewriter, linalg::LinalgOp op,
                        const linalg::ContractionDimensions &dims,
                        int64_t tileM, int64_t tileN, linalg::FillOp fill,
                        linalg::GenericOp epilogue);

/// Threads of a shared-memory contraction kernel: kSharedThreads x
/// kSharedThreads, each computing tileSize x tileSize elements of C.
constexpr int64_t kSharedThreads = 16;

/// The depth of the slices of A and B that a block stages in shared memory.
constexpr int64_t kSharedDepth = 16;

/// Whether contraction `op` is worth a shared-memory kernel: M and N span
/// at least a block's tile, and K a slice, or are dynamic.
bool prefersSharedMemory(linalg::LinalgOp op,
                         const linalg::ContractionDimensions &dims,
                         int64_t tileSize);

/// The options of --google-map-to-gpu that choose contraction kernels.
struct ContractionChoices {
  int64_t tileSize = 4;
  bool mmaSync = false, mfma = false, mfmaBf16 = false, tf32 = false;
  bool wgmma = false;
  /// Warp dots for split K's `x @ w.T` (WarpDots).
  bool warpDots = false;
  /// Warpgroups per block of the wgmma kernel: 1 or 2.
  int64_t wgmmaWarpgroups = 1;
  /// The wgmma kernel with a producer warpgroup (warp specialization).
  bool wgmmaSpecialized = false;
};

/// Where a contraction kernel's blocks come from: by default one per tile
/// of C of the whole op; with `loop`, an scf.forall over blocks (see
/// --google-gpu-tile-to-blocks, bufferized) whose body is the op on a
/// tile's views, the loop's iterations, each tile taking as many blocks as
/// the kernel's tiles it spans (its extents must be bounded).
struct ContractionBlocks {
  scf::ForallOp loop;
};

/// The kernels of a contraction, in the order the strategy prefers them.
enum class ContractionKernel {
  SplitK,
  WarpDots,
  WgmmaSpecialized,
  Wgmma,
  MmaSync,
  Mfma,
  Tf32MmaSync,
  VectorTiles,
  SharedTiles,
  RegisterTiles,
};

/// A contraction's kernel and its size: the splits of K (SplitK), the
/// warps of a block (WarpDots), the rows
/// and columns of C per thread (VectorTiles, SharedTiles, RegisterTiles);
/// the tensor-core kernels' is their block tile.
struct ContractionStrategy {
  ContractionKernel kernel;
  int64_t size;

  /// The rows and columns of C per block, or 0 when blocks do not own
  /// square tiles of C (split-K and register tiles map threads instead) or
  /// own them only in the whole op (Wgmma: its TMA descriptors describe A
  /// and B whole).
  int64_t getBlockTile() const;

  /// Whether the kernel reads A and B as 16-byte vectors (or by TMA, whose
  /// tensor maps need 16-byte aligned addresses): it runs only when they
  /// are aligned at run time, else a shared-tile kernel does.
  bool needsAlignedInputs() const;
};

/// The kernel for contraction `op` (see getTileableContraction): split-K
/// for small outputs with long K (warp dots where A is M x K and B N x K),
/// then the tensor-core kernels the choices
/// allow, vector tiles, shared tiles, and register tiles for the rest. On
/// tensors, the layouts bufferization will give the operands are not known
/// yet: kernels needing aligned inputs are chosen assuming dense buffers,
/// which they check when they are built (see needsAlignedInputs).
ContractionStrategy
chooseContractionKernel(linalg::LinalgOp op,
                        const linalg::ContractionDimensions &dims,
                        const ContractionChoices &choices);

/// The attribute on a contraction tiled into blocks on tensors (see
/// --google-gpu-tile-to-blocks) that records its kernel for
/// --google-map-to-gpu: {kernel = "mma_sync", size = 128}.
constexpr llvm::StringLiteral kContractionKernelAttr = "google.gpu_kernel";

void recordContractionKernel(linalg::LinalgOp op,
                             const ContractionStrategy &strategy);

/// The kernel recorded on `op`, if one is.
std::optional<ContractionStrategy>
getRecordedContractionKernel(linalg::LinalgOp op);

/// A gpu.launch computing contraction `op` through shared memory: each
/// block owns a (16 t) x (16 t) tile of C (t = tileSize) and walks K in
/// slices of 16; per slice its threads copy the slices of A and B into
/// shared memory together (coalesced along each operand's innermost
/// dimension, indices clamped into range), wait at a barrier, and each
/// thread updates its t x t tile, held in registers, from shared memory.
/// Thread (x, y) owns rows y + 16 i and columns x + 16 j of the block's
/// tile, so that a warp reads shared memory without bank conflicts and
/// stores neighbouring columns of C.
gpu::LaunchOp
lowerContractionToSharedTiles(RewriterBase &rewriter, linalg::LinalgOp op,
                              const linalg::ContractionDimensions &dims,
                              int64_t tileSize, linalg::FillOp fill,
                              linalg::GenericOp epilogue,
                              const ContractionBlocks &blocks = {});

/// Output elements per block of a split-K contraction kernel.
constexpr int64_t kSplitKOutputs = 32;

/// The op of contraction `op`'s body that adds the product to the
/// accumulator (arith.addf or arith.addi), or null.
Operation *getAccumulation(linalg::LinalgOp op);

/// How many ways to split the K loop of contraction `op` (a kernel of
/// lowerContractionToSplitK), or 0 when tiles of C serve better: its output
/// is too small to give every multiprocessor threads (at most 64 Ki
/// elements, static) while K is long (static, at least 128).
int64_t getSplitKFactor(linalg::LinalgOp op,
                        const linalg::ContractionDimensions &dims);

/// The rows and columns of C per thread of a register-tile contraction:
/// `tileSize`, halved while a static output gives fewer than
/// kMinTileThreads threads.
int64_t getRegisterTileSize(linalg::LinalgOp op,
                            const linalg::ContractionDimensions &dims,
                            int64_t tileSize);

constexpr int64_t kMinTileThreads = 16384;

/// A gpu.launch computing contraction `op` with K split `splits` ways:
/// blocks of kSplitKOutputs x `splits` threads, thread (x, y) adds up the
/// products of output element (block * kSplitKOutputs + x) over the y-th
/// chunk of K; the partial sums meet in shared memory, and thread (x, 0)
/// adds them to the accumulator's starting value in order and stores the
/// element (through the epilogue).
gpu::LaunchOp
lowerContractionToSplitK(RewriterBase &rewriter, linalg::LinalgOp op,
                         const linalg::ContractionDimensions &dims,
                         int64_t splits, linalg::FillOp fill,
                         linalg::GenericOp epilogue);

/// Warps per block of a warp-dot contraction kernel.
constexpr int64_t kWarpDotWarps = 8;

/// The most rows of C a warp of a warp-dot kernel computes.
constexpr int64_t kWarpDotRows = 8;

/// Warps that keep an H100's multiprocessors busy (132 x 32).
constexpr int64_t kMinWarpDotWarps = 4096;

/// The rows of C per warp of a warp-dot kernel for `op`: M, at most
/// kWarpDotRows, halved while that gives fewer than kMinWarpDotWarps
/// warps (each row of B^T read by fewer warps, but enough of them).
int64_t getWarpDotRows(linalg::LinalgOp op,
                       const linalg::ContractionDimensions &dims);

/// A gpu.launch computing contraction `op` (the outputs and K that
/// getSplitKFactor splits; A M x K and B N x K, as `x @ w.T`) by warps
/// that each own R = getWarpDotRows rows of one column of C: blocks of
/// kWarpDotWarps warps; lane l adds up the products at K indices l,
/// l + 32, ..., so that a warp reads 32 neighbours of a row of B^T per
/// step (once for its R rows) and of R rows of A. Neighbouring warps
/// share a column (B^T's row) where N >= M, a block of rows otherwise. The
/// lanes' sums meet by shuffles (with `warpShuffles`, for 32-bit sums) or
/// in shared memory; lane 0 adds the totals to the accumulators' starting
/// values and stores the elements in range (through the epilogue).
gpu::LaunchOp
lowerContractionToWarpDots(RewriterBase &rewriter, linalg::LinalgOp op,
                           const linalg::ContractionDimensions &dims,
                           linalg::FillOp fill, linalg::GenericOp epilogue,
                           bool warpShuffles);

/// The alignment in bytes of the inputs that vector tile and tensor-core
/// kernels read as vectors of 16 bytes (checked at run time).
constexpr int64_t kVectorAlignment = 16;

/// Elements of A's (and of B's) slice that the 256 threads of a vector
/// tile kernel copy per step: a vector of 4 each.
constexpr int64_t kStagedElements = 1024;

/// The rows and columns of C per thread (8 or 4) of a vector tile kernel
/// for contraction `op`, or 0 when it does not qualify: f32, static, A
/// (M x K or K x M), B (K x N or N x K) and C (M x N) [batch,] row-major
/// without offsets, M and
/// N multiples of the block's tile (16 x the thread's) and K of the slice
/// depth. 8 only when that leaves at least kMinWideTiles blocks.
int64_t getVectorTileSize(linalg::LinalgOp op,
                          const linalg::ContractionDimensions &dims);

constexpr int64_t kMinWideTiles = 512;

/// A gpu.launch computing contraction `op` (see getVectorTileSize) in
/// blocks of 16x16 threads that own (16 t) x (16 t) tiles of C, A's and
/// B's slices staged in shared memory through registers (the next slice
/// loaded while the current one is computed), read back as vectors of 4.
gpu::LaunchOp
lowerContractionToVectorTiles(RewriterBase &rewriter, linalg::LinalgOp op,
                              const linalg::ContractionDimensions &dims,
                              int64_t threadTile, linalg::FillOp fill,
                              linalg::GenericOp epilogue,
                              const ContractionBlocks &blocks = {});

/// C's tile per block and K's slice depth of a tensor-core kernel.
constexpr int64_t kMmaBlockTile = 128;
constexpr int64_t kMmaSliceDepth = 32;

/// How the mma.sync kernels are built (--google-map-to-gpu's options).
struct MmaSyncOptions {
  /// 16-bit slices copied to shared memory by cp.async, in three swizzled
  /// stages, instead of through registers.
  bool asyncCopy = false;
  /// Warps per block: 8, each owning 64x32 of C, or 4, each 64x64 (fewer
  /// fragment loads per mma, twice the accumulators per thread).
  int64_t warps = 8;
  /// Blocks that each SM must be able to hold at once (the kernel's
  /// nvvm.minctasm, which caps its registers): 1 leaves ptxas free.
  int64_t blocksPerSM = 1;
};

/// Whether contraction `op` reads A as M x K ([batch,] m, k: K-major; not
/// as `x.T @ dy` once --google-gpu-fold-operand-transposes read through
/// the transpose).
bool readsLhsKMajor(linalg::LinalgOp op,
                    const linalg::ContractionDimensions &dims);

/// Whether contraction `op` reads B as N x K ([batch,] n, k: K-major, as
/// `x @ w.T` once --google-gpu-fold-operand-transposes read through the
/// transpose).
bool readsRhsKMajor(linalg::LinalgOp op,
                    const linalg::ContractionDimensions &dims);

/// Whether contraction `op` can run on tensor cores through
/// nvgpu.mma.sync m16n8k16 (sm_80 and later): f16 or bf16 A (M x K, or
/// K x M) and B (K x N, or N x K) whose products accumulate into f32 C,
/// [batch,] row-major without offsets, static, M and N multiples of
/// kMmaBlockTile and K of kMmaSliceDepth. (The MFMA kernel takes the same
/// operands and shapes.)
bool prefersMmaSync(linalg::LinalgOp op,
                    const linalg::ContractionDimensions &dims);

/// Whether contraction `op` can run on tensor cores in TF32 through
/// nvgpu.mma.sync m16n8k8 (sm_80 and later; an opt-in: its inputs are
/// rounded to 10-bit mantissas): f32 A (M x K), B (K x N) and C, plain
/// products, [batch,] row-major without offsets, static, M and N multiples
/// of kMmaBlockTile and K of kMmaSliceDepth.
bool prefersTf32MmaSync(linalg::LinalgOp op,
                        const linalg::ContractionDimensions &dims);

/// K's slice depth of the wgmma kernel: one 128-byte row of 16-bit
/// elements, TMA's and wgmma's 128-byte swizzle.
constexpr int64_t kWgmmaSliceDepth = 64;

/// Whether contraction `op` can run on sm_90's warpgroup tensor cores
/// (wgmma, A and B loaded by TMA): the operands and products
/// prefersMmaSync takes, M and N at least kMmaBlockTile and K at least
/// kWgmmaSliceDepth, in partial tiles too (TMA fills what lies past A's
/// and B's edges with zeros), with K a multiple of 8 (TMA reads rows
/// that start at multiples of 16 bytes) and, where B is K x N, N a
/// multiple of 8 too and, in a batch, K a multiple of kWgmmaSliceDepth
/// (B's slices past K would be the next matrix's rows).
bool prefersWgmma(linalg::LinalgOp op,
                  const linalg::ContractionDimensions &dims);

/// K's slice depth of the TF32 wgmma kernel: one 128-byte row of f32.
constexpr int64_t kWgmmaTf32SliceDepth = 32;

/// Marks a contraction whose A is [batch,] M x K and B [batch,] N x K
/// (K-major), both rounded to TF32 (--google-gpu-tf32-operands made them):
/// the TF32 wgmma kernel's operands.
constexpr llvm::StringLiteral kTf32OperandsAttr = "google.tf32_operands";

/// Whether f32 contraction `op` fits the TF32 wgmma kernel's tiles: plain
/// f32 products, A (M x K), B^T (N x K, K-major) and C [batch,] row-major
/// without offsets, static, M and N at least kMmaBlockTile, K at least
/// kWgmmaTf32SliceDepth and a multiple of 4 (TMA reads rows that start at
/// multiples of 16 bytes). Without `kernelLayout`, A and B may each be
/// read either way (--google-gpu-tf32-operands copies them into the
/// kernel's layout).
bool fitsWgmmaTf32(linalg::LinalgOp op,
                   const linalg::ContractionDimensions &dims,
                   bool kernelLayout);

/// `value` (f32, or a vector of f32) rounded to TF32 as cvt.rna.tf32.f32
/// rounds: 0x1000 (half of the 13 dropped bits' unit) added to the
/// magnitude's bits, then the 13 bits cleared (a carry into the exponent is
/// the next binade, Inf above the largest finite value); NaNs become the
/// canonical NaN, whose payload survives the dropped bits.
Value createTf32Rounding(OpBuilder &builder, Location loc, Value value);

/// Whether contraction `op` runs on the TF32 wgmma kernel: marked with
/// kTf32OperandsAttr, B K-major, fitsWgmmaTf32.
bool prefersWgmmaTf32(linalg::LinalgOp op,
                      const linalg::ContractionDimensions &dims);

/// A gpu.launch computing contraction `op` (see prefersWgmma; the whole
/// op) on sm_90a's tensor cores: blocks of `rows` / 128 warpgroups (1 or
/// 2) own `rows` x 128 tiles of C, each warpgroup 128 rows accumulated in
/// f32 by nvgpu.warpgroup.mma (wgmma.mma_async m64n128k16) from slices of
/// A (its 128 x 64) and B (64 x 128, shared; B^T's 128 x 64 K-major, see
/// readsRhsKMajor, and TF32's, see prefersWgmmaTf32) that thread 0 loads
/// by TMA (nvgpu.tma.async.load, 128-byte swizzle) into 3 (4 for 2 warpgroups)
/// stages of dynamic shared memory, each with an mbarrier; the host makes
/// A's and B's tensor maps (nvgpu.tma.create.descriptor) before the
/// launch. `specialized`: one more warpgroup, the block's first, whose
/// thread 0 loads the stages as soon as the MMA warpgroups release them
/// (an mbarrier per stage, one arrival per MMA warp) instead of a block
/// barrier per slice.
gpu::LaunchOp lowerContractionToWgmma(RewriterBase &rewriter,
                                      linalg::LinalgOp op,
                                      const linalg::ContractionDimensions &dims,
                                      int64_t rows, bool specialized,
                                      linalg::FillOp fill,
                                      linalg::GenericOp epilogue);

/// A gpu.launch computing contraction `op` (see prefersMmaSync, or
/// prefersTf32MmaSync for f32) on tensor cores: blocks of 8 warps own
/// 128x128 tiles of C, each warp 64x32 (or blocks of 4 warps, each 64x64:
/// `options.warps`) in 16x8 tiles accumulated by nvgpu.mma.sync, A's and
/// B's slices staged in shared memory through registers, or for 16-bit
/// types with `options.asyncCopy` copied there by cp.async into three
/// stages (two slices ahead while the current one is computed).
gpu::LaunchOp
lowerContractionToMmaSync(RewriterBase &rewriter, linalg::LinalgOp op,
                          const linalg::ContractionDimensions &dims,
                          linalg::FillOp fill, linalg::GenericOp epilogue,
                          const MmaSyncOptions &options,
                          const ContractionBlocks &blocks = {});

/// A gpu.launch computing contraction `op` (see prefersMmaSync) on AMD
/// matrix cores (CDNA: gfx908, gfx90a, gfx94x, gfx950): blocks of 4 waves
/// own 128x128 tiles of C, each wave 64x64 in 16x16 tiles accumulated by
/// amdgpu.mfma, A's and B's slices (in either layout) staged in shared
/// memory as for mma.sync.
gpu::LaunchOp lowerContractionToMfma(RewriterBase &rewriter,
                                     linalg::LinalgOp op,
                                     const linalg::ContractionDimensions &dims,
                                     linalg::FillOp fill,
                                     linalg::GenericOp epilogue,
                                     const ContractionBlocks &blocks = {});

/// The kernel `strategy` names (one whose blocks own square tiles of C:
/// see ContractionStrategy::getBlockTile) for contraction `op` with `fill`
/// and `epilogue` (either may be null); `mmaSync` as for
/// lowerContractionToMmaSync.
gpu::LaunchOp lowerContractionToBlocks(
    RewriterBase &rewriter, const ContractionStrategy &strategy,
    linalg::LinalgOp op, const linalg::ContractionDimensions &dims,
    linalg::FillOp fill, linalg::GenericOp epilogue,
    const MmaSyncOptions &mmaSync, const ContractionBlocks &blocks = {});

/// A reduction of all dimensions runs on at most this many blocks, each
/// thread reducing at least kMinFullReductionPerThread elements (a few
/// blocks per SM of an H100 or H200).
constexpr int64_t kMaxFullReductionBlocks = 1024;
constexpr int64_t kMinFullReductionPerThread = 16;

/// How a reduction combines: an optional widening of each element to the
/// accumulator's type (arith.extf: f16 and bf16 sums accumulate in f32),
/// then a commutative and associative op on two accumulators (float adds
/// may be reassociated, SPEC).
struct ReductionCombine {
  /// The body's ops that compute what is combined from an input element
  /// (a widening, a gather check's out-of-range test), in order.
  SmallVector<Operation *> convert;
  Operation *combine = nullptr;

  explicit operator bool() const { return combine; }

  /// An input element as an accumulator.
  Value toAccumulator(RewriterBase &rewriter, Value element) const {
    if (convert.empty())
      return element;
    IRMapping mapping;
    mapping.map(convert.front()->getBlock()->getArgument(0), element);
    for (Operation *op : convert)
      rewriter.clone(*op, mapping);
    return mapping.lookup(convert.back()->getResult(0));
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
/// and a body `yield combine(f(in), out)` (either operand order), where f
/// is none or effect-free ops of `in` and values from outside the body;
/// empty otherwise.
ReductionCombine getReductionCombine(linalg::LinalgOp op);

/// The combine of a reduction with no parallel dimension (see
/// getReductionCombine), unless it is statically tiny (one thread reduces
/// fewer than 256 elements).
ReductionCombine getSplittableReduction(linalg::LinalgOp op);

/// Threads of a block that reduces one row.
constexpr int64_t kRowReductionThreads = 256;

/// The combine of a reduction with parallel dimensions (see
/// getReductionCombine) whose rows are long (at least a block of threads,
/// or dynamic) and run along the input's innermost dimension, so that a
/// block's threads read consecutive elements.
ReductionCombine getRowReduction(linalg::LinalgOp op);

/// The ops a reduction's kernels take in (each may be null), erased with
/// it: `fill` (getFusableFill: the fill of the output just before) gives
/// the starting value instead of the output's; `producer`
/// (getFusableProducer) computes each element of the input where it is
/// read (its buffer is erased too); `epilogue`
/// (getFusableReductionEpilogue) computes the value stored from each
/// result (the product's buffer is erased too when the epilogue writes
/// another).
struct ReductionFusion {
  linalg::FillOp fill;
  linalg::GenericOp producer;
  linalg::GenericOp epilogue;
};

/// Two kernels for a reduction of all of `op`'s dimensions: blocks of
/// kRowReductionThreads threads each reduce a consecutive range of the
/// elements (coalesced reads, a tree in shared memory) into a partial
/// result; then one block reduces the partials the same way and combines
/// the result into the output, with `fused` (see ReductionFusion). A
/// static count that one block takes whole (at most kRowReductionThreads
/// * kMinFullReductionPerThread) is that block alone: one kernel. Erases
/// `op`.
void lowerFullReductionToBlocks(RewriterBase &rewriter, linalg::LinalgOp op,
                                const ReductionCombine &combine,
                                const ReductionFusion &fused = {});

/// An elementwise linalg.generic just before reduction `op` (only `fill`,
/// allocations, run-time checks and ops without memory effects between
/// them) that
/// writes `op`'s input, a buffer of this function that nothing else reads
/// (its dims aside), element by element (identity map, no linalg.index):
/// the reduction can compute each element where it reads it instead of a
/// kernel writing the buffer.
linalg::GenericOp getFusableProducer(linalg::LinalgOp op, linalg::FillOp fill);

/// An elementwise linalg.generic just after reduction `op` (see
/// isElementwiseEpilogue; only memory-neutral ops between them, see
/// isMemoryNeutral) that its kernel can compute where it stores
/// each result: the epilogue writes the product's buffer, or a buffer
/// that nothing in the kernel reads while the product's is a buffer of
/// this function that nothing else uses. The epilogue's other inputs
/// must not be the buffer it writes (threads write results while others
/// still read) but through the output's own map (the element it replaces,
/// which its thread reads), nor may what the reduction reads (its input, or
/// `producer`'s). The kernel is built at `op`: the effect-free ops between
/// them must move before it (moveNeutralOpsBefore).
linalg::GenericOp getFusableReductionEpilogue(linalg::LinalgOp op,
                                              linalg::GenericOp producer,
                                              linalg::FillOp fill);

/// The fewest elements per output element for which getColumnReduction
/// takes a reduction (a thread per output element reduces fewer).
constexpr int64_t kMinColumnReductionRows = 32;

/// The combine of a reduction (see getReductionCombine) whose input has
/// every reduction dimension outside every parallel one (a sum over a
/// batch: a bias's gradient), each output element a column of at least
/// kMinColumnReductionRows elements (or a dynamic number).
ReductionCombine getColumnReduction(linalg::LinalgOp op);

/// A column reduction (see getColumnReduction) on blocks of 32 x 8
/// threads: a block owns 32 consecutive columns (the input's innermost
/// elements: coalesced) of a range of the rows, each of its 8 rows of
/// threads reducing every 8th row of it, the 8 partials combined through
/// shared memory. When there are few column tiles and many rows, the rows
/// are split over several blocks (up to kMaxFullReductionBlocks in all,
/// each thread reducing at least 64 rows) whose partial results a second
/// kernel, a thread per column, combines into the output.
/// With `fused` (see ReductionFusion). Erases `op`.
void lowerColumnReductionToBlocks(RewriterBase &rewriter, linalg::LinalgOp op,
                                  const ReductionCombine &combine,
                                  const ReductionFusion &fused = {});

/// Whether reduction `op`'s output is indexed by its parallel loops alone
/// (a permutation of them: no constants, no reduction loop).
bool hasOutputOfLoops(linalg::LinalgOp op);

/// A reduction (see getReductionCombine, and hasOutputOfLoops) with a
/// thread per output element (blocks of up to `blockSize`, consecutive
/// threads owning consecutive output elements), each combining its
/// elements in a loop nest, with `fused` (see ReductionFusion). Erases
/// `op`.
void lowerReductionToThreads(RewriterBase &rewriter, linalg::LinalgOp op,
                             const ReductionCombine &combine, int64_t blockSize,
                             const ReductionFusion &fused = {});

/// A gpu.launch with a block per output element of reduction `op`: thread
/// t combines the row's elements t, t + 256, ... in order (along the input's
/// innermost dimension: coalesced), then the partials meet in a tree in
/// shared memory (halving the active threads after each barrier), and
/// thread 0 combines the row's value into the output.
gpu::LaunchOp lowerRowReductionToBlocks(RewriterBase &rewriter,
                                        linalg::LinalgOp op,
                                        const ReductionCombine &combine);

/// A block's work on one row of a row reduction: `fill` (or null) sets
/// the row's output, `reduction` (its parallel loops of extent 1) reduces
/// the row into it, then `consumers` (elementwise ops, every loop of
/// extent 1) go on with its value. `buffers` are allocated for the row's
/// values (at most kMaxRowValues elements each).
struct BlockRowReduction {
  linalg::FillOp fill;
  linalg::LinalgOp reduction;
  SmallVector<linalg::LinalgOp> consumers;
  SmallVector<Operation *> buffers;
};

constexpr int64_t kMaxRowValues = 16;

/// The kernel for `loop`, a row reduction tiled on tensors by one output
/// element (see --google-gpu-tile-to-blocks) and bufferized, whose body is
/// `work`: a block reduces its row as in lowerRowReductionToBlocks; thread
/// 0 fills the output before and runs the consumers after. The buffers
/// become workgroup memory.
gpu::LaunchOp lowerRowReductionLoopToBlocks(RewriterBase &rewriter,
                                            scf::ForallOp loop,
                                            const BlockRowReduction &work);

/// One op of a row chain and how the chain's kernel runs it.
struct RowStep {
  enum class Kind {
    /// An op over the rows only (a fill or an elementwise op on per-row
    /// values): thread 0 of the row's block.
    Row,
    /// An elementwise op over the row's elements: threads strided along
    /// the row.
    Elements,
    /// A reduction of the row's elements into a per-row value: a block
    /// reduction.
    Reduction,
  };
  linalg::LinalgOp op;
  Kind kind;
};

/// Consecutive ops over the same rows (static extents `rows`, each of
/// `length` elements along the innermost dimension) that one kernel runs
/// with a block per row (a warp or a thread per short row), as softmax's
/// max, exp, sum and divide: at least one row reduction and two ops that
/// are not Row steps (one over rows a warp runs). Every buffer the
/// chain writes is accessed in it only at the element (or the row) the
/// step is at, so that a step reads what the same thread (or, after a
/// barrier, thread 0) wrote.
struct RowChain {
  SmallVector<RowStep> steps;
  SmallVector<int64_t> rows;
  int64_t length = 0;

  int64_t getNumRows() const {
    return std::accumulate(rows.begin(), rows.end(), int64_t(1),
                           std::multiplies<int64_t>());
  }

  /// Rows shorter than a block of threads: a thread or a warp per row
  /// (see findRowChains).
  bool isShort() const { return length < kRowReductionThreads; }
};

/// The longest rows a chain runs a thread per row on (a softmax over a
/// classifier's classes); longer short rows get a warp per row where they
/// can (see canRunRowChainOnWarps), and from kRowReductionThreads
/// elements on a block per row.
constexpr int64_t kMaxThreadRowLength = 32;

/// Whether `op`'s payload touches no memory (a gather's loads read where
/// its operands do not say: kernels that reorder or interleave ops by
/// their operands' maps must leave it alone).
bool hasEffectFreePayload(linalg::LinalgOp op);

/// The buffer `value` views (through view-like ops): an allocation or a
/// function's argument, which are distinct buffers; an `scf.for`'s
/// buffer, the one it starts from where each iteration yields one it
/// allocates (or this one); null for anything else (a loop's buffer may
/// be any of several).
Value getBufferRoot(Value value);

/// Whether buffers `a` and `b` may overlap: the same root, or a root
/// unknown (see getBufferRoot).
bool mayAlias(Value a, Value b);

/// Whether `buffer` is an allocation of this function that only `users`,
/// deallocations and memref.dim ops with constant indices use (so that
/// eraseAllocation can erase it once `users` are gone).
bool isOnlyUsedBy(Value buffer, ArrayRef<Operation *> users);

/// Erases `buffer`'s allocation, which only memref.dim ops with constant
/// indices and deallocations use: each dim becomes the extent allocated.
void eraseAllocation(RewriterBase &rewriter, Value buffer);

/// The buffers (roots, see getBufferRoot) an op reads and writes, with its
/// nested ops; a kernel's own buffers (workgroup memory) left out.
struct BufferAccesses {
  llvm::SmallDenseSet<Value> reads, writes;
  /// Effects on something else than a known buffer, or unknown effects.
  bool unknown = false;

  explicit BufferAccesses(Operation *op);

  bool writesAny(const llvm::SmallDenseSet<Value> &buffers) const;
  bool readsAny(const llvm::SmallDenseSet<Value> &buffers) const;
  /// Whether it may read or write `root`.
  bool touches(Value root) const;
  /// Whether `other` must stay on the same side of the op.
  bool dependsOn(const BufferAccesses &other) const;
};

/// Folds `op`, if it copies a buffer through reshapes and a permutation
/// that keeps its innermost dimension (a linalg.copy or linalg.transpose,
/// or a generic that only yields its input), into the kernels before it
/// that wrote that buffer: where they only store into it (memref.store,
/// through unit-stride views at most) and nothing else reads it, each of
/// their stores goes to the output element the copy would write, and the
/// copy and the buffer go. Nothing from the first of them on may touch
/// the copy's output, or else the one kernel moves down to the copy (past
/// ops that neither access what it writes nor write what it reads).
/// Returns whether it did.
bool foldCopyIntoWriterStores(RewriterBase &rewriter, linalg::LinalgOp op);

/// Runs of consecutive elementwise linalg.generic ops on buffers among
/// `ops` (in program order, leaving out `taken`) that one kernel can run
/// with a thread per element: the same static loops, results written at
/// the loops' element, nothing but effect-free ops and allocations
/// between them, and every buffer a run writes accessed in it only at the
/// thread's element (the very value written, an identity map).
SmallVector<SmallVector<linalg::GenericOp>>
findElementwiseRuns(ArrayRef<linalg::LinalgOp> ops,
                    const llvm::SmallPtrSetImpl<Operation *> &taken);

/// One generic in place of `run` (see findElementwiseRuns), at its last op:
/// each op's payload in turn, reading what earlier ones computed from
/// registers; it writes each buffer the run writes once (its last value)
/// but those only the run uses, whose allocations go. Null when nothing
/// is left to write (the run's ops are erased all the same).
linalg::GenericOp fuseElementwiseRun(RewriterBase &rewriter,
                                     ArrayRef<linalg::GenericOp> run);

/// Whether `operand` of `op` is read at the row `op`'s loops are at: its
/// map gives the leading `rows.size()` loops in order, and 0 for the unit
/// dimensions of a view that adds them.
bool isReadAtRow(linalg::LinalgOp op, OpOperand &operand,
                 ArrayRef<int64_t> rows);

/// The row chains among `ops` (linalg ops on buffers, in program order),
/// leaving out the ops in `taken` (fused into contraction kernels); with
/// `shortRows`, also chains over rows of at most kMaxThreadRowLength
/// elements, and with `warpRows` over longer short rows where a warp per
/// row can run them (see canRunRowChainOnWarps).
SmallVector<RowChain>
findRowChains(ArrayRef<linalg::LinalgOp> ops,
              const llvm::SmallPtrSetImpl<Operation *> &taken,
              bool shortRows = false, bool warpRows = false);

/// One gpu.launch for short-row `chain` (RowChain::isShort), at its last
/// op, with a thread per row that holds its row in registers: each
/// element loaded once, every step unrolled over the row, what the chain
/// writes stored once at the end (nothing of a fresh buffer only the
/// chain uses). Erases the chain's ops.
gpu::LaunchOp lowerRowChainToThreads(RewriterBase &rewriter,
                                     const RowChain &chain);

/// Whether short-row `chain`, of rows longer than kMaxThreadRowLength, can
/// run with a warp per row (see lowerRowChainToWarps): its reductions are
/// into 32-bit values (what a shuffle moves). Needs warp shuffles.
bool canRunRowChainOnWarps(const RowChain &chain);

/// One gpu.launch for short-row `chain` (see canRunRowChainOnWarps), at its
/// last op, with a warp per row (8 rows per block): lane l holds the row's
/// elements l, l + 32, ... in registers, reductions combine across the
/// warp by shuffles, and what the chain writes is stored once at the end.
/// Erases the chain's ops.
gpu::LaunchOp lowerRowChainToWarps(RewriterBase &rewriter,
                                   const RowChain &chain);

/// One gpu.launch for `chain`, at its last op, with a block of
/// kRowReductionThreads threads per row; erases the chain's ops.
gpu::LaunchOp lowerRowChainToBlocks(RewriterBase &rewriter,
                                    const RowChain &chain, bool warpShuffles);

/// The kernel for `loop`, a row chain's rows tiled on tensors (see
/// --google-gpu-tile-to-blocks) and bufferized, whose body (with `rows`
/// of extent 1) is emitted as one block's work by emitRowChain; the
/// buffers the body allocates become one buffer for all blocks, or
/// nothing when the kernel keeps them in registers.
gpu::LaunchOp lowerRowChainLoopToBlocks(RewriterBase &rewriter,
                                        scf::ForallOp loop,
                                        const RowChain &chain,
                                        bool warpShuffles);

/// Whether `loop` distributes its iterations over GPU blocks.
bool isMappedToBlocks(scf::ForallOp loop);

/// A synchronous gpu.launch in place of `loop`: `blocksPerIteration`
/// blocks of `threadsX` x `threadsY` threads per iteration (consecutive
/// block ids), with workgroup buffers of types `shared`; the loop's body
/// moves into the launch, its induction variables from the block id
/// delinearized over the loop's iterations.
gpu::LaunchOp createLaunchFromLoop(RewriterBase &rewriter, scf::ForallOp loop,
                                   int64_t threadsX, int64_t threadsY,
                                   TypeRange shared,
                                   int64_t blocksPerIteration = 1);

/// Whether all of `inputs` (buffers on the host) start at multiples of
/// kVectorAlignment bytes, as an i1 computed at the rewriter's insertion
/// point.
Value createAlignmentCheck(RewriterBase &rewriter, Location loc,
                           ValueRange inputs);

/// The options of --google-map-to-gpu that build the kernels of loops over
/// blocks.
struct BlockKernelOptions {
  bool warpShuffles = false;
  int64_t tileSize = 4;
  MmaSyncOptions mmaSync;
  bool fusedAttention = false;
};

/// The kernels for `loop`, an scf.forall over blocks, when its body is one
/// kernel's work on a block (a row chain's, a row reduction's, a
/// contraction's or, with fusedAttention, an attention's): their number (a
/// contraction whose kernel needs aligned inputs gets two, one per outcome of
/// the check on the host); failure leaves `loop` unchanged.
FailureOr<int64_t> lowerBlockLoop(RewriterBase &rewriter, scf::ForallOp loop,
                                  const BlockKernelOptions &options);

/// Query rows and keys per tile of a fused attention kernel, and its
/// threads per block.
constexpr int64_t kAttentionTile = 64;
constexpr int64_t kAttentionThreads = 256;

/// softmax(steps(Q K^T)) V on buffers, as google.softmax between two
/// matmuls lowers (the ops in program order, nothing between them but
/// allocations and ops without memory effects):
///   [Kt = transpose(K)]; S = 0; S += Q Kt; S' = steps(S, ...);
///   M = c; M = max(M, S' rows); E = exp(S' - M); L = 0; L += E rows;
///   P = E / L; O = 0; O += P V; [epilogue(O)]
/// The buffers in between (S, M, E, L, P, Kt, the steps' outputs) are the
/// function's own and read by nothing else.
struct Attention {
  linalg::LinalgOp scores;
  linalg::ContractionDimensions scoreDims;
  linalg::FillOp scoresFill;
  /// Kt's transpose, when K is read instead.
  linalg::TransposeOp keysTranspose;
  /// Elementwise ops on the scores (scale, mask), each with the buffer of
  /// scores it reads.
  SmallVector<linalg::GenericOp> steps;
  SmallVector<Value> stepScores;
  linalg::FillOp maxFill;
  linalg::LinalgOp max;
  linalg::GenericOp exp;
  linalg::FillOp sumFill;
  linalg::LinalgOp sum;
  linalg::GenericOp normalize;
  linalg::FillOp outputFill;
  linalg::LinalgOp output;
  linalg::ContractionDimensions outputDims;
  linalg::GenericOp outputEpilogue;
  int64_t batch = 1, rows = 0, keys = 0, depth = 0, valueDepth = 0;

  /// Every op above, in program order.
  SmallVector<Operation *> getOps() const;
};

/// The attention that starts at contraction `scores`, when one kernel of
/// lowerAttentionToBlocks can run it: f32, static (any number of rows and
/// keys), Q's, K's and V's depths multiples of 16 up to kAttentionTile.
std::optional<Attention> matchAttention(linalg::LinalgOp scores);

/// One gpu.launch for `attention`, at its last op, with a block of
/// kAttentionThreads threads per kAttentionTile rows of queries: per tile
/// of keys it stages K^T and V in shared memory (Q^T once), computes the
/// tile's scores in registers (4 x 4 per thread), applies the steps, and
/// keeps each row's maximum and sum online (shuffles across the row's 16
/// threads), rescaling the output accumulators when the maximum grows;
/// the probabilities go through shared memory into O += P V. A partial
/// last tile of rows overlaps the one before (fewer than 64 rows: the
/// rows past the end are not stored); in a partial last tile of keys, the
/// keys past the end score -inf against rows of V that are 0. Erases the
/// attention's ops. With `loop`, an scf.forall over blocks (see
/// --google-gpu-tile-to-blocks, bufferized) whose body is the attention of
/// one batch (views of Q, K, V and the output; its own buffers in between),
/// each iteration takes the blocks of its tiles of rows.
gpu::LaunchOp lowerAttentionToBlocks(RewriterBase &rewriter,
                                     const Attention &attention,
                                     scf::ForallOp loop = {});

} // namespace mlir::google::kernels

#endif // GOOGLE_LIB_CODEGEN_GPU_GPUKERNELS_H
