//===- MapToGpu.cpp - --google-map-to-gpu ---------------------------------===//
//
// Every linalg op of a host function becomes a gpu.launch: its parallel
// dimensions are collapsed into one range that blocks of threads split, and
// its reduction dimensions run inside each thread. Contractions hold tiles
// of C in registers (staging slices of A and B in shared memory when they
// span whole blocks); long row reductions take a block per row.
//
//===----------------------------------------------------------------------===//

#include "GpuKernels.h"

#include "Codegen/GPU/Passes.h"
#include "Codegen/Matchers.h"

#include "mlir/Conversion/SCFToGPU/SCFToGPU.h"
#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Affine/Utils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/ParallelLoopMapper.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
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

using namespace mlir::google::kernels;

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
  (void)gpu::setMappingAttr(threads, {mapTo(context, gpu::Processor::ThreadX)});
}

/// Lowers contraction `op` (with the fill before it and the epilogue after
/// it, when given) by `aligned` when its inputs start at multiples of
/// kVectorAlignment bytes at run time, else by `fallback`: an scf.if at the
/// last of these ops holds a copy of them per branch (only ops without
/// memory effects lie between them, so moving them there is safe).
void lowerIfAligned(
    RewriterBase &rewriter, linalg::LinalgOp op, linalg::FillOp fill,
    linalg::GenericOp epilogue,
    function_ref<void(linalg::LinalgOp, linalg::FillOp, linalg::GenericOp)>
        aligned,
    function_ref<void(linalg::LinalgOp, linalg::FillOp, linalg::GenericOp)>
        fallback) {
  Operation *last = epilogue ? epilogue.getOperation() : op.getOperation();
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(last);
  Value isAligned = createAlignmentCheck(rewriter, loc, op.getDpsInputs());
  auto branch = scf::IfOp::create(rewriter, loc, isAligned,
                                  /*withElseRegion=*/true);
  auto lowerIn = [&](Block *block,
                     function_ref<void(linalg::LinalgOp, linalg::FillOp,
                                       linalg::GenericOp)>
                         lower) {
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPoint(block->getTerminator());
    auto fillCopy =
        fill ? cast<linalg::FillOp>(rewriter.clone(*fill)) : linalg::FillOp();
    auto copy = cast<linalg::LinalgOp>(rewriter.clone(*op));
    auto epilogueCopy = epilogue
                            ? cast<linalg::GenericOp>(rewriter.clone(*epilogue))
                            : linalg::GenericOp();
    lower(copy, fillCopy, epilogueCopy);
  };
  lowerIn(branch.thenBlock(), aligned);
  lowerIn(branch.elseBlock(), fallback);
  if (fill)
    rewriter.eraseOp(fill);
  if (epilogue)
    rewriter.eraseOp(epilogue);
  rewriter.eraseOp(op);
}

/// A reduction none of the block kernels takes (row, full, column) that
/// runs a thread per output element (lowerReductionToThreads).
bool isThreadReduction(linalg::LinalgOp op) {
  return getReductionCombine(op) && hasOutputOfLoops(op) &&
         !getRowReduction(op) && !getSplittableReduction(op) &&
         !getColumnReduction(op);
}

bool isInKernel(Operation *op) {
  return op->getParentOfType<gpu::LaunchOp>() != nullptr;
}

struct MapToGpuPass : public google::impl::MapToGpuPassBase<MapToGpuPass> {
  using Base::Base;

  // The wgmma kernel's fences and waits are NVVM ops. Loaded only then:
  // with NVVM loaded, LLVM 22's GPU-to-ROCDL lowering leaves math.tanh to
  // an LLVM intrinsic that AMDGPU cannot call ("no libcall available for
  // ftanh") instead of the device library's function.
  void getDependentDialects(DialectRegistry &registry) const override {
    MapToGpuPassBase::getDependentDialects(registry);
    if (wgmma)
      registry.insert<NVVM::NVVMDialect>();
  }

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func->getParentOfType<gpu::GPUModuleOp>())
      return;
    if (fusedAttention && !warpShuffles) {
      func.emitError() << "google-map-to-gpu: fused-attention needs "
                          "warp-shuffles";
      return signalPassFailure();
    }
    if (asyncCopy && !mmaSync) {
      func.emitError() << "google-map-to-gpu: async-copy needs mma-sync";
      return signalPassFailure();
    }
    if (wgmmaWarpgroups != 1 && wgmmaWarpgroups != 2) {
      func.emitError() << "google-map-to-gpu: wgmma-warpgroups must be 1 "
                          "or 2, got "
                       << static_cast<int64_t>(wgmmaWarpgroups);
      return signalPassFailure();
    }
    if (mmaSyncBlocksPerSM != 1 && mmaSyncBlocksPerSM != 2) {
      func.emitError() << "google-map-to-gpu: mma-sync-blocks-per-sm must "
                          "be 1 or 2, got "
                       << static_cast<int64_t>(mmaSyncBlocksPerSM);
      return signalPassFailure();
    }
    if (mmaSyncWarps != 8 && mmaSyncWarps != 4) {
      func.emitError() << "google-map-to-gpu: mma-sync-warps must be 8 or "
                          "4, got "
                       << static_cast<int64_t>(mmaSyncWarps);
      return signalPassFailure();
    }
    if (wgmmaSpecialized && !wgmma) {
      func.emitError() << "google-map-to-gpu: wgmma-specialized needs wgmma";
      return signalPassFailure();
    }
    if (wgmma && !mmaSync) {
      func.emitError() << "google-map-to-gpu: wgmma needs mma-sync";
      return signalPassFailure();
    }
    if (mfmaBf16 && !mfma) {
      func.emitError() << "google-map-to-gpu: mfma-bf16 needs mfma";
      return signalPassFailure();
    }
    if ((mmaSync || tf32) && mfma) {
      func.emitError() << "google-map-to-gpu: "
                       << (mmaSync ? "mma-sync" : "tf32")
                       << " (NVIDIA) and mfma (AMD) exclude each other";
      return signalPassFailure();
    }
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

    // Kernels tiled on tensors: their loops over blocks become launches.
    // A body no kernel takes runs its blocks one after another on the
    // host, each op mapped as below.
    const MmaSyncOptions mmaSyncOptions{asyncCopy, mmaSyncWarps,
                                        mmaSyncBlocksPerSM};
    SmallVector<scf::ForallOp> blockLoops;
    func.walk([&](scf::ForallOp loop) {
      if (isMappedToBlocks(loop))
        blockLoops.push_back(loop);
    });
    for (scf::ForallOp loop : blockLoops) {
      if (FailureOr<int64_t> kernels = lowerBlockLoop(
              rewriter, loop,
              {warpShuffles, tileSize, mmaSyncOptions, fusedAttention});
          succeeded(kernels)) {
        numKernels += *kernels;
        continue;
      }
      if (failed(scf::forallToForLoop(rewriter, loop))) {
        loop->emitError("google-map-to-gpu: cannot lower a loop over blocks");
        return signalPassFailure();
      }
    }

    SmallVector<linalg::LinalgOp> ops;
    func.walk([&](linalg::LinalgOp op) {
      if (!isInKernel(op))
        ops.push_back(op);
    });
    // Attention runs in one kernel, at its last op.
    llvm::SmallPtrSet<Operation *, 16> inAttention;
    DenseMap<Operation *, Attention> attentionAt;
    if (fusedAttention)
      for (linalg::LinalgOp op : ops) {
        if (inAttention.contains(op))
          continue;
        std::optional<Attention> attention = matchAttention(op);
        if (!attention)
          continue;
        SmallVector<Operation *> attentionOps = attention->getOps();
        inAttention.insert(attentionOps.begin(), attentionOps.end());
        attentionAt[attentionOps.back()] = std::move(*attention);
      }
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
      if (absorbed.contains(op) || inAttention.contains(op))
        continue;
      std::optional<linalg::ContractionDimensions> dims =
          getTileableContraction(op);
      if (!dims)
        continue;
      Fused fused{*dims, getFusableFill(op), getFusableEpilogue(op)};
      if (fused.fill && inAttention.contains(fused.fill))
        fused.fill = nullptr;
      if (fused.epilogue && inAttention.contains(fused.epilogue))
        fused.epilogue = nullptr;
      if (fused.fill && absorbed.contains(fused.fill))
        fused.fill = nullptr;
      if (fused.fill)
        absorbed.insert(fused.fill);
      if (fused.epilogue) {
        absorbed.insert(fused.epilogue);
        // What the epilogue reads may be a view made after the
        // contraction: the kernel is built where the contraction is, so
        // the ops between them, which have no memory effects (or are
        // checks or allocations), go before it.
        moveNeutralOpsBefore(op, fused.epilogue);
      }
      contractions[op] = fused;
    }

    // Reductions of every axis and column reductions start from the fill
    // before them (no kernel for it), compute their elementwise input where
    // they read it and their elementwise epilogue where they store each
    // result (no kernels, no buffers for them).
    DenseMap<Operation *, ReductionFusion> fusedReductions;
    auto fuseReduction = [&](linalg::LinalgOp op,
                             function_ref<bool(Operation *)> isFree) {
      ReductionFusion fused;
      fused.fill = getFusableFill(op);
      if (fused.fill && !isFree(fused.fill))
        fused.fill = nullptr;
      fused.producer = getFusableProducer(op, fused.fill);
      if (fused.producer && !isFree(fused.producer))
        fused.producer = nullptr;
      fused.epilogue =
          getFusableReductionEpilogue(op, fused.producer, fused.fill);
      if (fused.epilogue && !isFree(fused.epilogue))
        fused.epilogue = nullptr;
      if (fused.epilogue)
        moveNeutralOpsBefore(op, fused.epilogue);
      for (Operation *part :
           {fused.fill.getOperation(), fused.producer.getOperation(),
            fused.epilogue.getOperation()})
        if (part)
          absorbed.insert(part);
      fusedReductions[op] = fused;
    };
    for (linalg::LinalgOp op : ops) {
      if (absorbed.contains(op) || inAttention.contains(op) ||
          contractions.contains(op) || !op.hasPureBufferSemantics() ||
          getRowReduction(op) ||
          (!getSplittableReduction(op) && !getColumnReduction(op)))
        continue;
      fuseReduction(op, [&](Operation *candidate) {
        return !absorbed.contains(candidate) &&
               !inAttention.contains(candidate) &&
               !contractions.contains(candidate);
      });
    }
    // Ops over the same rows with reductions between them (softmax) run in
    // one kernel, lowered at the chain's last op.
    llvm::SmallPtrSet<Operation *, 8> taken(absorbed.begin(), absorbed.end());
    taken.insert(inAttention.begin(), inAttention.end());
    for (auto &entry : contractions)
      taken.insert(entry.first);
    for (auto &entry : fusedReductions)
      taken.insert(entry.first);
    SmallVector<RowChain> chains =
        findRowChains(ops, taken, /*shortRows=*/true, warpShuffles);
    DenseMap<Operation *, const RowChain *> chainOf;
    for (const RowChain &chain : chains)
      for (const RowStep &step : chain.steps)
        chainOf[step.op] = &chain;
    // The other reductions run a thread per output element; they take in
    // their fill, producer and epilogue too where no chain has them.
    for (linalg::LinalgOp op : ops) {
      if (taken.contains(op) || chainOf.contains(op) ||
          !op.hasPureBufferSemantics() || !isThreadReduction(op))
        continue;
      fuseReduction(op, [&](Operation *candidate) {
        return !taken.contains(candidate) && !absorbed.contains(candidate) &&
               !chainOf.contains(candidate);
      });
    }
    // Consecutive elementwise ops left over run in one kernel, a thread per
    // element computing each op's element in turn.
    taken.insert(absorbed.begin(), absorbed.end());
    for (auto &entry : chainOf)
      taken.insert(entry.first);
    for (auto &entry : fusedReductions)
      taken.insert(entry.first);
    DenseMap<Operation *, linalg::GenericOp> fusedRunAt;
    llvm::SmallPtrSet<Operation *, 16> inRun;
    for (SmallVector<linalg::GenericOp> &run :
         findElementwiseRuns(ops, taken)) {
      for (linalg::GenericOp op : run)
        inRun.insert(op);
      Operation *last = run.back();
      fusedRunAt[last] = fuseElementwiseRun(rewriter, run);
      ++numElementwiseRuns;
    }
    if (!inRun.empty()) {
      SmallVector<linalg::LinalgOp> remaining;
      for (linalg::LinalgOp op : ops) {
        if (!inRun.contains(op)) {
          remaining.push_back(op);
          continue;
        }
        if (linalg::GenericOp fused = fusedRunAt.lookup(op))
          remaining.push_back(fused);
      }
      ops = std::move(remaining);
    }

    for (linalg::LinalgOp op : ops) {
      if (absorbed.contains(op))
        continue;
      if (inAttention.contains(op)) {
        if (auto attention = attentionAt.find(op);
            attention != attentionAt.end()) {
          lowerAttentionToBlocks(rewriter, attention->second);
          ++numKernels;
        }
        continue;
      }
      if (auto chain = chainOf.find(op); chain != chainOf.end()) {
        if (chain->second->steps.back().op == op) {
          const RowChain &rows = *chain->second;
          if (rows.isShort() && rows.length > kMaxThreadRowLength)
            lowerRowChainToWarps(rewriter, rows);
          else if (rows.isShort())
            lowerRowChainToThreads(rewriter, rows);
          else
            lowerRowChainToBlocks(rewriter, rows, warpShuffles);
          ++numKernels;
        }
        continue;
      }
      // A permuted copy of what kernels before it stored: they store each
      // element where it goes instead.
      if (foldCopyIntoWriterStores(rewriter, op)) {
        ++numFoldedCopies;
        continue;
      }
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
        const ReductionFusion &fused = fusedReductions.lookup(op);
        lowerFullReductionToBlocks(rewriter, op, combine, fused);
        if (fused.producer)
          ++numFusedProducers;
        numKernels += 2;
        continue;
      }
      if (isThreadReduction(op)) {
        const ReductionFusion &fused = fusedReductions.lookup(op);
        lowerReductionToThreads(rewriter, op, getReductionCombine(op),
                                blockSize, fused);
        if (fused.producer)
          ++numFusedProducers;
        ++numKernels;
        continue;
      }
      if (ReductionCombine combine = getColumnReduction(op)) {
        const ReductionFusion &fused = fusedReductions.lookup(op);
        lowerColumnReductionToBlocks(rewriter, op, combine, fused);
        if (fused.producer)
          ++numFusedProducers;
        numKernels += 2;
        continue;
      }
      FailureOr<scf::ParallelOp> loop;
      auto contraction = contractions.find(op);
      if (contraction != contractions.end()) {
        const Fused &fused = contraction->second;
        ContractionStrategy strategy = chooseContractionKernel(
            op, fused.dims,
            {tileSize, mmaSync, mfma, mfmaBf16, tf32, wgmma, warpDots,
             wgmmaWarpgroups, wgmmaSpecialized});
        switch (strategy.kernel) {
        case ContractionKernel::SplitK:
          lowerContractionToSplitK(rewriter, op, fused.dims, strategy.size,
                                   fused.fill, fused.epilogue);
          ++numKernels;
          continue;
        case ContractionKernel::WarpDots:
          lowerContractionToWarpDots(rewriter, op, fused.dims, fused.fill,
                                     fused.epilogue, warpShuffles);
          ++numKernels;
          continue;
        case ContractionKernel::RegisterTiles:
          loop = lowerContractionToTiles(rewriter, op, fused.dims,
                                         strategy.size, strategy.size,
                                         fused.fill, fused.epilogue);
          break;
        default: {
          auto lower = [&](const ContractionStrategy &kernel) {
            return [&, kernel](linalg::LinalgOp clone, linalg::FillOp fill,
                               linalg::GenericOp epilogue) {
              lowerContractionToBlocks(rewriter, kernel, clone, fused.dims,
                                       fill, epilogue, mmaSyncOptions);
            };
          };
          if (!strategy.needsAlignedInputs()) {
            lower(strategy)(op, fused.fill, fused.epilogue);
            ++numKernels;
            continue;
          }
          // The kernel reading vectors when A and B are aligned at run
          // time, a shared-tile kernel otherwise.
          lowerIfAligned(rewriter, op, fused.fill, fused.epilogue,
                         lower(strategy),
                         lower({ContractionKernel::SharedTiles, tileSize}));
          numKernels += 2;
          continue;
        }
        }
      } else if (std::optional<unsigned> inner = getTransposedDim(op)) {
        lowerToTransposeTiles(rewriter, op, *inner);
        ++numKernels;
        continue;
      } else {
        loop = lowerToParallelLoops(rewriter, op);
      }
      if (failed(loop))
        return signalPassFailure();
      mapToBlocksAndThreads(rewriter, *loop, blockSize);
      ++numKernels;
    }

    // Buffers nothing uses any more (a product an epilogue writing another
    // buffer replaced) go.
    SmallVector<Value> unused;
    func.walk([&](Operation *allocation) {
      if (isa<gpu::AllocOp, memref::AllocOp>(allocation) &&
          !isInKernel(allocation) && isOnlyUsedBy(allocation->getResult(0), {}))
        unused.push_back(allocation->getResult(0));
    });
    for (Value buffer : unused)
      eraseAllocation(rewriter, buffer);

    ConversionTarget target(*context);
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    configureParallelLoopToGPULegality(target);
    RewritePatternSet patterns(context);
    populateParallelLoopToGPUPatterns(patterns);
    if (failed(applyPartialConversion(func, target, std::move(patterns))))
      return signalPassFailure();
    finalizeParallelLoopToGPUConversion(func);
    // The conversion marks the launches it made; nothing reads the mark.
    func.walk(
        [](gpu::LaunchOp launch) { launch->removeAttr("SCFToGPU_visited"); });

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
