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

namespace {

/// Emits, in a block of kRowReductionThreads threads (`thread`), the
/// reduction of one row of `op`: `loops` holds the row's parallel loop
/// indices. Thread t combines the row's elements t, t + 256, ... in order
/// (along the input's innermost dimension: coalesced), then the partials
/// meet in a tree in `partials` (halving the active threads after each
/// barrier), and thread 0 combines the row's value into the output.
void emitBlockReduction(RewriterBase &rewriter, Location loc,
                        linalg::LinalgOp op, const ReductionCombine &combine,
                        SmallVector<Value> &loops,
                        ArrayRef<unsigned> reductionDims,
                        ArrayRef<Value> reductionExtents, Value count,
                        Value thread, Value partials) {
  auto constant = [&](int64_t value) -> Value {
    return arith::ConstantIndexOp::create(rewriter, loc, value);
  };
  OpOperand *input = op.getDpsInputOperand(0);
  OpOperand *output = op.getDpsInitOperand(0);
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
}

/// The shared memory of a block reduction into `op`'s output type.
MemRefType getPartialsType(linalg::LinalgOp op) {
  return MemRefType::get(
      {kRowReductionThreads},
      getElementTypeOrSelf(op.getDpsInitOperand(0)->get().getType()),
      MemRefLayoutAttrInterface(),
      gpu::AddressSpaceAttr::get(op->getContext(),
                                 gpu::AddressSpace::Workgroup));
}

} // namespace

/// A gpu.launch with a block per output element of reduction `op`: thread
/// t combines the row's elements t, t + 256, ... in order (along the input's
/// innermost dimension: coalesced), then the partials meet in a tree in
/// shared memory (halving the active threads after each barrier), and
/// thread 0 combines the row's value into the output.
gpu::LaunchOp lowerRowReductionToBlocks(RewriterBase &rewriter,
                                        linalg::LinalgOp op,
                                        const ReductionCombine &combine) {
  Location loc = op.getLoc();
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
  auto launch =
      createLaunch(rewriter, loc, rows, constant(kRowReductionThreads), one,
                   TypeRange{getPartialsType(op)});

  SmallVector<Value> loops(op.getNumLoops());
  for (auto [dim, index] :
       llvm::zip(parallelDims, *affine::delinearizeIndex(rewriter, loc,
                                                         launch.getBlockIds().x,
                                                         parallelExtents)))
    loops[dim] = index;
  emitBlockReduction(rewriter, loc, op, combine, loops, reductionDims,
                     reductionExtents, count, launch.getThreadIds().x,
                     launch.getWorkgroupAttributions().front());
  rewriter.eraseOp(op);
  return launch;
}

namespace {

/// Computes `op`'s payload at loop indices `loops` and stores the results
/// (operands that are not shaped, like a fill's value, are used as they
/// are; inputs may be read at constant indices).
void emitPayload(RewriterBase &rewriter, Location loc, linalg::LinalgOp op,
                 ArrayRef<Value> loops) {
  IRMapping mapping;
  for (OpOperand &operand : op->getOpOperands()) {
    BlockArgument argument = op.getMatchingBlockArgument(&operand);
    if (!isa<ShapedType>(operand.get().getType())) {
      mapping.map(argument, operand.get());
      continue;
    }
    if (op.isDpsInit(&operand) && !op.payloadUsesValueFromOperand(&operand))
      continue;
    SmallVector<Value> indices;
    for (AffineExpr result : op.getMatchingIndexingMap(&operand).getResults())
      indices.push_back(isa<AffineDimExpr>(result)
                            ? loops[cast<AffineDimExpr>(result).getPosition()]
                            : arith::ConstantIndexOp::create(
                                  rewriter, loc,
                                  cast<AffineConstantExpr>(result).getValue()));
    mapping.map(argument,
                memref::LoadOp::create(rewriter, loc, operand.get(), indices));
  }
  Block *body = op.getBlock();
  for (Operation &payload : body->without_terminator())
    rewriter.clone(payload, mapping);
  for (auto [value, init] :
       llvm::zip(body->getTerminator()->getOperands(), op.getDpsInitsMutable()))
    memref::StoreOp::create(rewriter, loc, mapping.lookupOrDefault(value),
                            init.get(), getIndices(op, init, loops));
}

} // namespace

/// One gpu.launch for `chain` (see RowChain), at its last op: a block of
/// kRowReductionThreads threads per row. Row steps run on thread 0 between
/// barriers; element steps give thread t the row's elements t, t + 256, ...
/// (coalesced; a later step reads what the thread wrote, so they need no
/// barrier); reductions are block reductions (see lowerRowReductionToBlocks)
/// followed by a barrier, after which every thread reads the row's value.
gpu::LaunchOp lowerRowChainToBlocks(RewriterBase &rewriter,
                                    const RowChain &chain) {
  linalg::LinalgOp last = chain.steps.back().op;
  Location loc = last.getLoc();
  rewriter.setInsertionPoint(last);
  auto constant = [&](int64_t value) -> Value {
    return arith::ConstantIndexOp::create(rewriter, loc, value);
  };
  SmallVector<Type> sharedTypes;
  for (const RowStep &step : chain.steps)
    if (step.kind == RowStep::Kind::Reduction)
      sharedTypes.push_back(getPartialsType(step.op));
  Value one = constant(1);
  auto launch = createLaunch(rewriter, loc, constant(chain.getNumRows()),
                             constant(kRowReductionThreads), one, sharedTypes);
  Value thread = launch.getThreadIds().x;
  Value zero = constant(0);
  Value length = constant(chain.length);
  Value block = constant(kRowReductionThreads);
  Value isFirst = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq,
                                        thread, zero);
  SmallVector<Value> rowExtents = llvm::map_to_vector(
      chain.rows, [&](int64_t extent) { return constant(extent); });
  SmallVector<Value> row = *affine::delinearizeIndex(
      rewriter, loc, launch.getBlockIds().x, rowExtents);
  unsigned rank = chain.rows.size();

  // Whether every thread's writes are visible to the block.
  bool synced = true;
  unsigned reduction = 0;
  for (const RowStep &step : chain.steps) {
    switch (step.kind) {
    case RowStep::Kind::Row: {
      if (!synced)
        gpu::BarrierOp::create(rewriter, loc);
      auto first = scf::IfOp::create(rewriter, loc, isFirst);
      {
        OpBuilder::InsertionGuard guard(rewriter);
        rewriter.setInsertionPointToStart(first.thenBlock());
        emitPayload(rewriter, loc, step.op, row);
      }
      gpu::BarrierOp::create(rewriter, loc);
      synced = true;
      break;
    }
    case RowStep::Kind::Elements: {
      auto elements = scf::ForOp::create(rewriter, loc, thread, length, block);
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPoint(elements.getBody()->getTerminator());
      SmallVector<Value> loops = row;
      loops.push_back(elements.getInductionVar());
      emitPayload(rewriter, loc, step.op, loops);
      synced = false;
      break;
    }
    case RowStep::Kind::Reduction: {
      SmallVector<Value> loops = row;
      loops.push_back(zero);
      emitBlockReduction(rewriter, loc, step.op, getReductionCombine(step.op),
                         loops, {rank}, {length}, length, thread,
                         launch.getWorkgroupAttributions()[reduction++]);
      gpu::BarrierOp::create(rewriter, loc);
      synced = true;
      break;
    }
    }
  }
  for (const RowStep &step : chain.steps)
    rewriter.eraseOp(step.op);
  return launch;
}

} // namespace mlir::google::kernels
