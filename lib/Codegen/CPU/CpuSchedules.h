//===- CpuSchedules.h - the CPU schedules of --google-tile-and-vectorize -*- C++
//-*-===//
//
// Strategy apart from mechanics: CpuStrategy.cpp decides which schedule an
// op gets and its sizes (register blocks, chunks, when threads pay); one
// file per schedule applies it (MatmulSchedule.cpp: register-blocked
// matmuls and their epilogues; RowSchedule.cpp: chains of row-wise ops and
// row reductions; ElementwiseSchedule.cpp: chunks of elementwise ops for
// threads, collapsed loops, short rows; TransposeSchedule.cpp: transposes
// in vector tiles; PoolingSchedule.cpp: poolings one output row at a
// time in vector tiles; WindowCopySchedule.cpp: im2col copies a run at a
// time); TileAndVectorize.cpp runs them in order and holds the
// shared mechanics (tile-and-fuse, peeling, vectorization, hoisting).
//
//===----------------------------------------------------------------------===//

#ifndef GOOGLE_LIB_CODEGEN_CPU_CPUSCHEDULES_H
#define GOOGLE_LIB_CODEGEN_CPU_CPUSCHEDULES_H

#include "Codegen/Matchers.h"
#include "Codegen/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Rewrite/FrozenRewritePatternSet.h"
#include "llvm/ADT/SetVector.h"

#include <array>
#include <optional>

namespace mlir::google::cpu {

/// Marks the block loops (to peel) and the ops of a full block (to
/// vectorize) between the steps; removed at the end.
constexpr StringLiteral kBlockLoopAttr = "google.block_loop";
constexpr StringLiteral kVectorizeAttr = "google.vectorize";
/// The ops of a matmul's blocks (not of row reductions).
constexpr StringLiteral kMatmulBlockAttr = "google.matmul_block";
/// The most rows a block of dynamic rows can have (splitPartialRows).
constexpr StringLiteral kMaxRowsAttr = "google.max_rows";

bool isF32(Value value);
/// Whether a schedule already took `op` (marked as a block's or a
/// matmul's, or as the last rows of one).
bool isScheduled(Operation *op);
/// Whether `op` has a loop of static extent 0 (an empty tensor, or a
/// matmul with K = 0): nothing to block, chunk or vectorize.
bool hasEmptyLoop(linalg::LinalgOp op);
/// An elementwise consumer that only `matmul` feeds, through an identity
/// map, with the matmul's shape: it can run on each block of the product.
linalg::GenericOp getEpilogue(linalg::LinalgOp matmul);

//===--- Strategy (CpuStrategy.cpp)
//------------------------------------------===//

struct BlockShape {
  int64_t rows;
  int64_t columns;
};

/// MR x NR for a matmul of M x N (see CpuStrategy.cpp).
BlockShape chooseBlock(int64_t m, int64_t n, unsigned vectorBits);
/// The widest block of `rows` rows, in vectors, whose accumulators fit.
uint64_t maxBlockVectors(int64_t rows, unsigned vectorBits);
/// Whether the outer block loop goes to --google-parallelize-loops: more
/// than one outer block and, when the shape is static, enough work. (With
/// dynamic extents the loop decides at run time.)
bool isWorthThreads(RankedTensorType result, int64_t k, BlockShape block);
/// Whether a rank-2 product one column block wide (N <= NR) has enough
/// row blocks for threads (its column loop has one iteration).
bool isWorthRowThreads(RankedTensorType result, int64_t k, BlockShape block);
/// Rows shorter than this (or dynamic) are not worth a loop of their
/// own: their elementwise ops vectorize better over several rows.
constexpr int64_t kMinFusedRow = 128;
/// An elementwise op over rows of at least kMinFusedRow elements that
/// reads a value per row (softmax's divide, layer norm's scaling): the
/// end of a chain of row-wise ops when a row reduction computes it.
bool isRowChainEnd(linalg::GenericOp op);
/// Whether every indexing map of `op` grows with the loops (no reversed
/// slice's `-d0 + n`): linalg's tiling computes the operand slices of
/// other maps wrong.
bool hasIncreasingMaps(linalg::LinalgOp op);
/// Elements an elementwise op's chunk has at least (16 KiB of f32).
constexpr int64_t kMinElementwiseChunk = 4096;
/// Where an elementwise op (all loops parallel: arithmetic, broadcasts,
/// transposes) is cut into chunks for threads: its outermost non-unit
/// loop and the chunk's extent there, at least kMinElementwiseChunk
/// elements. Only ops that may have enough work: 2^16 elements or more,
/// cut into equal chunks (the chunk divides the extent); or a dynamic
/// outermost extent over static rows of kMinFusedRow elements or more,
/// cut into full chunks and a shorter last one.
std::optional<std::pair<unsigned, int64_t>>
getElementwiseChunk(linalg::LinalgOp op);
/// An elementwise op (all loops parallel, one result, two loops or more)
/// that no other schedule took.
bool isFreeElementwise(linalg::GenericOp op);
/// The groups of consecutive loops of an elementwise op that every operand
/// reads contiguously together (one loop each once collapsed); none when an
/// extent is dynamic, a map broadcasts a 1 or an operand is a window of a
/// larger tensor's inner dimensions.
SmallVector<ReassociationIndices> getCollapsibleDims(linalg::LinalgOp op);

/// Whether `fill` writes a whole static tensor of rank 2 or more that no
/// schedule took, so that it can fill it as one dimension (a nest of short
/// loops is one LLVM unrolls and vectorizes across rows, as scatters).
bool isCollapsibleFill(linalg::FillOp fill);
/// An elementwise op whose rows (its innermost loop, parallel and static,
/// left after merging loops) fill at most kMaxShortRowVectors vectors, or
/// a reduction over outer loops (a column sum: a bias gradient) with such
/// rows: 32- or 64-bit operands that read a row contiguously or broadcast
/// it, a body the vectorizer takes. LLVM unrolled such rows and vectorized
/// across them with gathers and scatters at the rows' stride, or left them
/// scalar (a max pooling gradient's rows of 16 divided by a broadcast
/// window count; a column sum's rows of 16 or 64 as scalar adds and
/// stores), slow to run and slower to compile; each row is one vector op
/// instead.
bool isShortRowOp(linalg::LinalgOp op, unsigned vectorBits);
constexpr int64_t kMaxShortRowVectors = 8;
/// Rows longer than this are reduced into partial results
/// (getPartialReductionWidth), or else in chunks of at most this many
/// elements, one vector reduction each.
constexpr int64_t kMaxVectorReduction = 1024;
/// A long row reduces into at most this many vectors of partial results
/// (independent accumulators: the adds' latency overlaps).
constexpr int64_t kMaxPartialVectors = 8;
/// The partial results' width for a row of `length` elements with
/// `lanes` per vector: the widest multiple of `lanes` up to
/// kMaxPartialVectors vectors that divides `length`, else its largest
/// divisor between one vector and that many; 0 when none is.
int64_t getPartialReductionWidth(int64_t length, int64_t lanes);
/// A row split into chunks shorter than this stays scalar.
constexpr int64_t kMinReductionChunk = 64;
/// The chunk a static row of `length` elements is reduced in: the row
/// itself up to kMaxVectorReduction, else its largest divisor that is
/// not longer (and at least kMinReductionChunk); 0 when there is none.
int64_t getReductionChunk(int64_t length);
/// A generic or reduce on f32/f64 tensors whose loops are all parallel
/// but the innermost, a reduction over a static row that every operand
/// reads contiguously and that getReductionChunk can split.
/// (LLVM vectorizes elementwise loops as well as tiling them here does,
/// but not float reductions, which it may not reassociate.)
bool isRowReduction(linalg::LinalgOp op);
/// The tile (lanes x lanes) a transpose that moves the input's innermost
/// dimension goes in: 32-bit elements, a vector's lanes on chips with
/// 256-bit vectors or wider, both moved dimensions dynamic or at least
/// kMinTransposeExtent. (Others stay loops for LLVM.)
std::optional<int64_t> getTransposeTile(linalg::TransposeOp op,
                                        unsigned vectorBits);
constexpr int64_t kMinTransposeExtent = 4;
/// Whether a transpose that moves the input's innermost dimension is small
/// enough (static, at most kSmallTransposeElements) to run as scalar
/// loops: a weight's W^T for a gradient's dY W^T takes a few microseconds
/// either way, and a 16 x 16 register transpose is a hundred ops of IR
/// per tile (three of them were 40% of a CNN gradient's vectorized IR).
bool isSmallTranspose(linalg::TransposeOp op);
constexpr int64_t kSmallTransposeElements = 4096;
/// Whether the register-blocked schedule takes `matmul`'s maps: linalg's
/// default ones, or a 2-D matmul's with A stored transposed (whose block
/// reads a row of A^T per K step, as contiguous as the default's column).
bool hasBlockableMaps(linalg::LinalgOp matmul);
/// The 2-D transpose a matmul's A comes from, when folding it into the
/// matmul's maps saves a copy: f32, and the matmul its only user.
linalg::TransposeOp getFoldableLhsTranspose(linalg::MatmulOp matmul);
/// The tile a 2-D max or sum pooling (NHWC) runs in, one output row at a
/// time: `columns` output columns by `channels` channels, each a few
/// vectors, over which the window's columns are vector ops; its rows are
/// a loop around them.
struct PoolTile {
  int64_t columns;
  int64_t channels;
};
/// The tile of `op`, when it is a pooling of f32 or f64 with static rows,
/// columns, channels and window (any batch): tiles divide the output.
std::optional<PoolTile> getPoolTile(linalg::LinalgOp op, unsigned vectorBits);
/// The run of a window copy (an im2col copy, a reversed slice): a generic
/// that copies its input through an affine map that is not a projected
/// permutation into an output read in order, each innermost row a
/// contiguous run of the input (the innermost loop only in the input's
/// last index, with coefficient 1) of static length, at most
/// kMaxWindowRunBytes, of f32, f64 or integers of whole bytes. std::nullopt
/// for other ops.
std::optional<int64_t> getWindowCopyRun(linalg::GenericOp op);
constexpr int64_t kMaxWindowRunBytes = 1024;
/// B's rows are N elements apart: for more than a few row blocks over a
/// wide B, each block column of B is worth copying into a contiguous
/// panel once, so that the K loop streams through it.
bool shouldPackRhs(ShapedType result, ShapedType rhs, BlockShape block);

//===--- Schedules
//-----------------------------------------------------------===//

/// The schedules applied to one function.
class CpuScheduler {
public:
  CpuScheduler(func::FuncOp func, unsigned vectorBits,
               const FrozenRewritePatternSet &simplifyPatterns,
               const FrozenRewritePatternSet &vectorCleanupPatterns)
      : func(func), vectorBits(vectorBits), simplifyPatterns(simplifyPatterns),
        vectorCleanupPatterns(vectorCleanupPatterns) {}

  /// Tiles and vectorizes every op a schedule takes.
  LogicalResult run();

  int64_t numTiled = 0;
  int64_t numVectorized = 0;

private:
  func::FuncOp getOperation() { return func; }
  MLIRContext &getContext() { return *func.getContext(); }

  // Mechanics (TileAndVectorize.cpp).
  FailureOr<scf::SCFTileAndFuseResult>
  tileAndFuse(IRRewriter &rewriter, linalg::LinalgOp root,
              ArrayRef<int64_t> sizes, ArrayRef<int64_t> interchange,
              function_ref<bool(Operation *)> fuse);
  void peelBlockLoops(IRRewriter &rewriter);
  LogicalResult simplify();
  void vectorizeFullBlocks(IRRewriter &rewriter);
  LogicalResult hoistAccumulators(IRRewriter &rewriter);

  // Matmuls (MatmulSchedule.cpp).
  void foldTransposedLhs(IRRewriter &rewriter);
  /// The two parts of a split along M: each part's matmul and root (its
  /// part of the epilogue, or the matmul).
  struct RowSplit {
    std::array<linalg::LinalgOp, 2> matmuls;
    std::array<linalg::LinalgOp, 2> roots;
  };
  LogicalResult tileMatmul(IRRewriter &rewriter, linalg::LinalgOp matmul);
  FailureOr<RowSplit>
  splitRows(IRRewriter &rewriter, linalg::LinalgOp matmul,
            linalg::GenericOp epilogue,
            function_ref<OpFoldResult(Location, OpFoldResult)> splitAt);
  LogicalResult tileRowBlocks(IRRewriter &rewriter, linalg::LinalgOp matmul,
                              bool fullRows);
  LogicalResult tileLastRows(IRRewriter &rewriter, linalg::LinalgOp matmul,
                             linalg::LinalgOp root, int64_t blockRows);
  static SmallVector<Operation *> getChain(linalg::LinalgOp matmul,
                                           linalg::LinalgOp root);
  static bool canPadRows(linalg::LinalgOp matmul, linalg::LinalgOp root);
  LogicalResult padLastRows(IRRewriter &rewriter, linalg::LinalgOp matmul,
                            linalg::LinalgOp root, int64_t blockRows);
  static Value padRows(IRRewriter &rewriter, linalg::LinalgOp op,
                       OpOperand &operand, const IRMapping &padded,
                       int64_t blockRows);
  FailureOr<scf::SCFTileAndFuseResult>
  tileMatmulRoot(IRRewriter &rewriter, linalg::LinalgOp matmul,
                 linalg::LinalgOp root, ArrayRef<int64_t> sizes,
                 ArrayRef<int64_t> interchange);
  void assumeFullBlocks(IRRewriter &rewriter, scf::ForOp loop, int64_t size);
  SmallVector<linalg::LinalgOp> getBlockRoots();
  FailureOr<scf::SCFTileAndFuseResult> tileBlock(IRRewriter &rewriter,
                                                 linalg::LinalgOp root,
                                                 ArrayRef<int64_t> sizes);
  LogicalResult splitPartialRows(IRRewriter &rewriter);
  LogicalResult splitColumns(IRRewriter &rewriter);
  LogicalResult splitColumnsOnce(IRRewriter &rewriter, int64_t lanes,
                                 bool &split);
  LogicalResult tileBlocksK(IRRewriter &rewriter);
  void packRhs(IRRewriter &rewriter, linalg::LinalgOp tiledMatmul,
               ArrayRef<LoopLikeOpInterface> loops, BlockShape block,
               bool dynamicRows);
  bool packTransposedRhs(IRRewriter &rewriter, tensor::ExtractSliceOp slice,
                         Value panel);
  void versionForLargeM(IRRewriter &rewriter, scf::ForOp rowBlocks,
                        int64_t minRows);

  // Row chains and row reductions (RowSchedule.cpp).
  static bool readsRows(AffineMap map, unsigned rowDims);
  static llvm::SetVector<Operation *> getRowChain(linalg::GenericOp end);
  LogicalResult fuseRowChains(IRRewriter &rewriter);
  LogicalResult tileRowReduction(IRRewriter &rewriter, linalg::LinalgOp op);
  LogicalResult collapseReductions(IRRewriter &rewriter);
  LogicalResult tileIntoPartialReductions(IRRewriter &rewriter,
                                          linalg::LinalgOp row, int64_t length);

  // Elementwise ops (ElementwiseSchedule.cpp).
  LogicalResult tileElementwise(IRRewriter &rewriter);

  LogicalResult collapseElementwise(IRRewriter &rewriter);
  LogicalResult tileShortRows(IRRewriter &rewriter, bool &tiledAny);

  // Transposes (TransposeSchedule.cpp).
  void collapseTransposes(IRRewriter &rewriter);
  void loopSmallTransposes(IRRewriter &rewriter);
  LogicalResult tileTransposes(IRRewriter &rewriter);

  // Poolings (PoolingSchedule.cpp).
  LogicalResult tilePools(IRRewriter &rewriter, bool &tiledAny);

  // Window copies (WindowCopySchedule.cpp).
  void vectorizeWindowCopies(IRRewriter &rewriter);

  /// Marks `loops` for LLVM neither to unroll nor, with `noVectorize`, to
  /// vectorize them (an scf.for attribute that the lowering to cf carries
  /// to the back edge's llvm.loop metadata).
  void annotateLoops(ArrayRef<scf::ForOp> loops, bool noVectorize);

  func::FuncOp func;
  unsigned vectorBits;
  const FrozenRewritePatternSet &simplifyPatterns;
  const FrozenRewritePatternSet &vectorCleanupPatterns;
};

} // namespace mlir::google::cpu

#endif // GOOGLE_LIB_CODEGEN_CPU_CPUSCHEDULES_H
