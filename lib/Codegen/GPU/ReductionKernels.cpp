//===- ReductionKernels.cpp - reductions as GPU kernels -------------------===//

#include "GpuKernels.h"

using namespace mlir;

namespace mlir::google::kernels {

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
  if (!isa<arith::AddFOp, arith::AddIOp, arith::MaximumFOp, arith::MinimumFOp,
           arith::MaxNumFOp, arith::MinNumFOp, arith::MaxSIOp, arith::MinSIOp>(
          combine) ||
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
  auto partialType = MemRefType::get({ShapedType::kDynamic}, element);
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
        rewriter, memref::LoadOp::create(rewriter, loc, input->get(), indices));
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
  for (auto [dim, index] :
       llvm::zip(parallelDims, *affine::delinearizeIndex(rewriter, loc,
                                                         launch.getBlockIds().x,
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
    Value partner =
        arith::AddIOp::create(rewriter, loc, thread, constant(stride));
    Value active = arith::AndIOp::create(
        rewriter, loc, less(thread, constant(stride)), less(partner, count));
    ifThen(active, [&] {
      Value mine = memref::LoadOp::create(rewriter, loc, partials, thread);
      Value theirs = memref::LoadOp::create(rewriter, loc, partials, partner);
      memref::StoreOp::create(rewriter, loc,
                              combine.apply(rewriter, theirs, mine), partials,
                              thread);
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

} // namespace mlir::google::kernels
