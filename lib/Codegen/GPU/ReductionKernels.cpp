//===- ReductionKernels.cpp - reductions as GPU kernels -------------------===//

#include "GpuKernels.h"

#include "Codegen/Matchers.h"

using namespace mlir;

namespace mlir::google::kernels {

/// The combine of a reduction with one input read through a permutation
/// and a body `yield combine(f(in), out)` (either operand order), where f
/// is none or effect-free ops of `in` and values from outside the body;
/// empty otherwise.
ReductionCombine getReductionCombine(linalg::LinalgOp op) {
  if (op.getNumReductionLoops() == 0 || op.getNumDpsInputs() != 1 ||
      op.getNumDpsInits() != 1 || op.hasIndexSemantics() ||
      !op.getMatchingIndexingMap(op.getDpsInputOperand(0)).isPermutation())
    return {};
  Block *body = op.getBlock();
  Value out = body->getArgument(1);
  ReductionCombine result;
  for (Operation &nested : body->without_terminator()) {
    // (Kernels may compute f on elements they then drop: no divisions,
    // which could trap there.)
    if (nested.getNumRegions() != 0 || nested.getNumResults() != 1 ||
        !isMemoryEffectFree(&nested) ||
        isa<arith::DivSIOp, arith::DivUIOp, arith::RemSIOp, arith::RemUIOp,
            arith::CeilDivSIOp, arith::CeilDivUIOp, arith::FloorDivSIOp>(
            nested))
      return {};
    result.convert.push_back(&nested);
  }
  if (result.convert.empty())
    return {};
  Operation *combine = result.convert.pop_back_val();
  if (!isa<arith::AddFOp, arith::AddIOp, arith::MaximumFOp, arith::MinimumFOp,
           arith::MaxNumFOp, arith::MinNumFOp, arith::MaxSIOp, arith::MinSIOp>(
          combine) ||
      combine->getNumOperands() != 2 ||
      body->getTerminator()->getOperand(0) != combine->getResult(0))
    return {};
  // f reads the element, its own results and values from outside only.
  for (Operation *convert : result.convert)
    for (Value operand : convert->getOperands())
      if (operand.getParentBlock() == body && operand != body->getArgument(0) &&
          !llvm::is_contained(result.convert, operand.getDefiningOp()))
        return {};
  Value in = result.convert.empty() ? Value(body->getArgument(0))
                                    : result.convert.back()->getResult(0);
  if (in.getType() != out.getType() ||
      !((combine->getOperand(0) == in && combine->getOperand(1) == out) ||
        (combine->getOperand(0) == out && combine->getOperand(1) == in)))
    return {};
  result.combine = combine;
  return result;
}

namespace {

/// What `value` views, through view-like ops.
Value skipViews(Value value) {
  while (auto view = value.getDefiningOp<ViewLikeOpInterface>())
    value = view.getViewSource();
  return value;
}

} // namespace

Value getBufferRoot(Value value) {
  value = skipViews(value);
  if (auto argument = dyn_cast<BlockArgument>(value)) {
    Operation *owner = argument.getOwner()->getParentOp();
    if (isa<FunctionOpInterface>(owner))
      return value;
    // A loop's buffer: the one it starts from, where every iteration
    // yields a buffer allocated in it (a new one, which no buffer of the
    // iteration it is read in aliases) or this one.
    auto loop = dyn_cast<scf::ForOp>(owner);
    if (!loop || argument.getArgNumber() == 0)
      return Value();
    unsigned index = argument.getArgNumber() - 1;
    Value yieldedRoot =
        skipViews(loop.getBody()->getTerminator()->getOperand(index));
    bool fresh = yieldedRoot == argument ||
                 ((yieldedRoot.getDefiningOp<gpu::AllocOp>() ||
                   yieldedRoot.getDefiningOp<memref::AllocOp>()) &&
                  yieldedRoot.getParentBlock() == loop.getBody());
    return fresh ? getBufferRoot(loop.getInitArgs()[index]) : Value();
  }
  if (value.getDefiningOp<gpu::AllocOp>() ||
      value.getDefiningOp<memref::AllocOp>())
    return value;
  return Value();
}

bool mayAlias(Value a, Value b) {
  Value rootA = getBufferRoot(a), rootB = getBufferRoot(b);
  return !rootA || !rootB || rootA == rootB;
}

bool isOnlyUsedBy(Value buffer, ArrayRef<Operation *> users) {
  if (!buffer.getDefiningOp<gpu::AllocOp>() &&
      !buffer.getDefiningOp<memref::AllocOp>())
    return false;
  return llvm::all_of(buffer.getUsers(), [&](Operation *user) {
    if (llvm::is_contained(users, user) ||
        isa<memref::DeallocOp, gpu::DeallocOp>(user))
      return true;
    auto dim = dyn_cast<memref::DimOp>(user);
    return dim && dim.getConstantIndex();
  });
}

void eraseAllocation(RewriterBase &rewriter, Value buffer) {
  Operation *allocation = buffer.getDefiningOp();
  auto type = cast<MemRefType>(buffer.getType());
  ValueRange sizes = isa<gpu::AllocOp>(allocation)
                         ? cast<gpu::AllocOp>(allocation).getDynamicSizes()
                         : cast<memref::AllocOp>(allocation).getDynamicSizes();
  for (Operation *user : llvm::make_early_inc_range(buffer.getUsers())) {
    auto dim = dyn_cast<memref::DimOp>(user);
    if (!dim) {
      rewriter.eraseOp(user);
      continue;
    }
    int64_t index = *dim.getConstantIndex();
    rewriter.setInsertionPoint(dim);
    rewriter.replaceOp(
        dim, type.isDynamicDim(index)
                 ? sizes[type.getDynamicDimIndex(index)]
                 : arith::ConstantIndexOp::create(rewriter, dim.getLoc(),
                                                  type.getDimSize(index)));
  }
  rewriter.eraseOp(allocation);
}

namespace {

/// A column reduction's block: kColumnTile consecutive columns (a warp's
/// coalesced 128 bytes of f32) by kColumnTileRows rows of threads; rows are
/// split over more blocks down to kMinColumnRowsPerThread rows per thread
/// (fewer rows cost less than a second kernel's launch).
constexpr int64_t kColumnTile = 32;
constexpr int64_t kColumnTileRows = kRowReductionThreads / kColumnTile;
constexpr int64_t kMinColumnRowsPerThread = 64;

auto constantIndex(RewriterBase &rewriter, Location loc, int64_t value) {
  return arith::ConstantIndexOp::create(rewriter, loc, value).getResult();
}

Value lessThan(RewriterBase &rewriter, Location loc, Value lhs, Value rhs) {
  return arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::slt, lhs,
                               rhs)
      .getResult();
}

void ifThen(RewriterBase &rewriter, Location loc, Value condition,
            function_ref<void()> then) {
  auto branch = scf::IfOp::create(rewriter, loc, condition);
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPointToStart(branch.thenBlock());
  then();
}

/// Emits, in a block of kRowReductionThreads threads (`thread`), the
/// reduction of the `count` elements `load` reads (by index, in [0,
/// count)): thread t combines elements t, t + 256, ... in order, then the
/// partials meet in a tree in `partials` (halving the active threads after
/// each barrier). After it, partials[0] holds the result where count > 0.
void emitTreeReduction(RewriterBase &rewriter, Location loc,
                       const ReductionCombine &combine,
                       function_ref<Value(Value)> load, Value count,
                       Value thread, Value partials) {
  Value block = constantIndex(rewriter, loc, kRowReductionThreads);
  ifThen(rewriter, loc, lessThan(rewriter, loc, thread, count), [&] {
    Value first = load(thread);
    Value next = arith::AddIOp::create(rewriter, loc, thread, block);
    auto strided = scf::ForOp::create(
        rewriter, loc, next, count, block, ValueRange{first},
        [&](OpBuilder &, Location, Value i, ValueRange accumulator) {
          scf::YieldOp::create(
              rewriter, loc,
              combine.apply(rewriter, load(i), accumulator.front()));
        });
    memref::StoreOp::create(rewriter, loc, strided.getResult(0), partials,
                            thread);
  });
  for (int64_t stride = kRowReductionThreads / 2; stride >= 1; stride /= 2) {
    gpu::BarrierOp::create(rewriter, loc);
    Value partner = arith::AddIOp::create(rewriter, loc, thread,
                                          constantIndex(rewriter, loc, stride));
    Value active = arith::AndIOp::create(
        rewriter, loc,
        lessThan(rewriter, loc, thread, constantIndex(rewriter, loc, stride)),
        lessThan(rewriter, loc, partner, count));
    ifThen(rewriter, loc, active, [&] {
      Value mine = memref::LoadOp::create(rewriter, loc, partials, thread);
      Value theirs = memref::LoadOp::create(rewriter, loc, partials, partner);
      memref::StoreOp::create(rewriter, loc,
                              combine.apply(rewriter, theirs, mine), partials,
                              thread);
    });
  }
}

/// Whether `thread` is thread 0 of a block that reduced `count` > 0
/// elements: the one that writes the result.
Value writesResult(RewriterBase &rewriter, Location loc, Value thread,
                   Value count) {
  Value zero = constantIndex(rewriter, loc, 0);
  return arith::AndIOp::create(rewriter, loc,
                               arith::CmpIOp::create(rewriter, loc,
                                                     arith::CmpIPredicate::eq,
                                                     thread, zero),
                               lessThan(rewriter, loc, zero, count));
}

/// Emits, in a block of kRowReductionThreads threads (`thread`), the
/// reduction of one row of `op` (emitTreeReduction): `loops` holds the
/// row's parallel loop indices. Thread 0 combines the row's value into the
/// output.
void emitBlockReduction(RewriterBase &rewriter, Location loc,
                        linalg::LinalgOp op, const ReductionCombine &combine,
                        SmallVector<Value> &loops,
                        ArrayRef<unsigned> reductionDims,
                        ArrayRef<Value> reductionExtents, Value count,
                        Value thread, Value partials) {
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
  emitTreeReduction(rewriter, loc, combine, loadElement, count, thread,
                    partials);
  ifThen(rewriter, loc, writesResult(rewriter, loc, thread, count), [&] {
    SmallVector<Value> element = getIndices(op, *output, loops);
    Value row = memref::LoadOp::create(rewriter, loc, partials,
                                       constantIndex(rewriter, loc, 0));
    Value initial =
        memref::LoadOp::create(rewriter, loc, output->get(), element);
    memref::StoreOp::create(rewriter, loc,
                            combine.apply(rewriter, row, initial),
                            output->get(), element);
  });
}

/// The shared memory of a block reduction into `op`'s output type: a value
/// per thread, or `count` of them.
MemRefType getPartialsType(linalg::LinalgOp op,
                           int64_t count = kRowReductionThreads) {
  return MemRefType::get(
      {count}, getElementTypeOrSelf(op.getDpsInitOperand(0)->get().getType()),
      MemRefLayoutAttrInterface(),
      gpu::AddressSpaceAttr::get(op->getContext(),
                                 gpu::AddressSpace::Workgroup));
}

/// The extents of `op`'s loops `dims` into `extents`; returns their
/// product.
Value getLoopExtents(RewriterBase &rewriter, Location loc, linalg::LinalgOp op,
                     ArrayRef<unsigned> dims, SmallVector<Value> &extents) {
  SmallVector<Range> ranges = op.createLoopRanges(rewriter, loc);
  Value product = arith::ConstantIndexOp::create(rewriter, loc, 1);
  for (unsigned dim : dims) {
    extents.push_back(
        getValueOrCreateConstantIndexOp(rewriter, loc, ranges[dim].size));
    product = arith::MulIOp::create(rewriter, loc, product, extents.back());
  }
  return product;
}

/// `op`'s payload's results, its shaped operands read by `read` (operands
/// that are not shaped, like a fill's value, are used as they are; an
/// output whose value the payload does not use is not read).
SmallVector<Value> computePayload(RewriterBase &rewriter, linalg::LinalgOp op,
                                  function_ref<Value(OpOperand &)> read) {
  IRMapping mapping;
  for (OpOperand &operand : op->getOpOperands()) {
    BlockArgument argument = op.getMatchingBlockArgument(&operand);
    if (!isa<ShapedType>(operand.get().getType())) {
      mapping.map(argument, operand.get());
      continue;
    }
    if (op.isDpsInit(&operand) && !op.payloadUsesValueFromOperand(&operand))
      continue;
    mapping.map(argument, read(operand));
  }
  Block *body = op.getBlock();
  for (Operation &payload : body->without_terminator())
    rewriter.clone(payload, mapping);
  return llvm::map_to_vector(
      body->getTerminator()->getOperands(),
      [&](Value value) { return mapping.lookupOrDefault(value); });
}

/// The indices of `operand` of `op` at loop indices `loops` (its map may
/// give constants).
SmallVector<Value> getOperandIndices(RewriterBase &rewriter, Location loc,
                                     linalg::LinalgOp op, OpOperand &operand,
                                     ArrayRef<Value> loops) {
  SmallVector<Value> indices;
  for (AffineExpr result : op.getMatchingIndexingMap(&operand).getResults())
    indices.push_back(
        isa<AffineDimExpr>(result)
            ? loops[cast<AffineDimExpr>(result).getPosition()]
            : arith::ConstantIndexOp::create(
                  rewriter, loc, cast<AffineConstantExpr>(result).getValue()));
  return indices;
}

/// The element of reduction `op`'s input at loop indices `loops` as an
/// accumulator: loaded, or computed by `producer` (see getFusableProducer:
/// its loops are the input's indices).
Value readInput(RewriterBase &rewriter, Location loc, linalg::LinalgOp op,
                const ReductionCombine &combine, linalg::GenericOp producer,
                ArrayRef<Value> loops) {
  OpOperand *input = op.getDpsInputOperand(0);
  SmallVector<Value> indices = getIndices(op, *input, loops);
  if (!producer)
    return combine.toAccumulator(
        rewriter, memref::LoadOp::create(rewriter, loc, input->get(), indices));
  Value element =
      computePayload(rewriter, producer, [&](OpOperand &operand) -> Value {
        return memref::LoadOp::create(
            rewriter, loc, operand.get(),
            getOperandIndices(rewriter, loc, producer, operand, indices));
      }).front();
  return combine.toAccumulator(rewriter, element);
}

/// The value reduction `op`'s output element at `indices` starts from:
/// `fill`'s, or the output's own.
Value getInitialValue(RewriterBase &rewriter, Location loc, linalg::LinalgOp op,
                      linalg::FillOp fill, ValueRange indices) {
  if (fill)
    return fill.getInputs()[0];
  return memref::LoadOp::create(rewriter, loc, op.getDpsInitOperand(0)->get(),
                                indices);
}

/// Erases reduction `op` and the ops `fused` lowered with it: the
/// producer with its buffer, the epilogue with the product's buffer when
/// the epilogue writes another.
void eraseFused(RewriterBase &rewriter, linalg::LinalgOp op,
                const ReductionFusion &fused) {
  Value buffer = op.getDpsInputOperand(0)->get();
  Value product = op.getDpsInitOperand(0)->get();
  rewriter.eraseOp(op);
  if (fused.fill)
    rewriter.eraseOp(fused.fill);
  if (fused.producer) {
    rewriter.eraseOp(fused.producer);
    eraseAllocation(rewriter, buffer);
  }
  if (linalg::GenericOp epilogue = fused.epilogue) {
    bool inPlace = epilogue.getDpsInitOperand(0)->get() == product;
    rewriter.eraseOp(epilogue);
    if (!inPlace)
      eraseAllocation(rewriter, product);
  }
}

/// Stores `value`, reduction `op`'s output element at `at`, or with
/// `epilogue` (see getFusableReductionEpilogue) the epilogue's element
/// computed from it.
void storeResult(RewriterBase &rewriter, Location loc, linalg::LinalgOp op,
                 linalg::GenericOp epilogue, Value value, ArrayRef<Value> at) {
  Value product = op.getDpsInitOperand(0)->get();
  if (!epilogue) {
    memref::StoreOp::create(rewriter, loc, value, product, at);
    return;
  }
  // The epilogue's loops are the product's indices (identity maps).
  Value result =
      computePayload(rewriter, epilogue, [&](OpOperand &operand) -> Value {
        if (operand.get() == product &&
            epilogue.getMatchingIndexingMap(&operand).isIdentity())
          return value;
        return memref::LoadOp::create(
            rewriter, loc, operand.get(),
            getOperandIndices(rewriter, loc, epilogue, operand, at));
      }).front();
  memref::StoreOp::create(rewriter, loc, result,
                          epilogue.getDpsInitOperand(0)->get(), at);
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
  SmallVector<unsigned> parallelDims, reductionDims;
  op.getParallelDims(parallelDims);
  op.getReductionDims(reductionDims);
  SmallVector<Value> parallelExtents, reductionExtents;
  Value rows = getLoopExtents(rewriter, loc, op, parallelDims, parallelExtents);
  Value count =
      getLoopExtents(rewriter, loc, op, reductionDims, reductionExtents);
  auto launch = createLaunch(
      rewriter, loc, rows,
      arith::ConstantIndexOp::create(rewriter, loc, kRowReductionThreads),
      arith::ConstantIndexOp::create(rewriter, loc, 1),
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

linalg::GenericOp getFusableProducer(linalg::LinalgOp op, linalg::FillOp fill) {
  Value buffer = op.getDpsInputOperand(0)->get();
  linalg::GenericOp producer;
  for (Operation *prev = op->getPrevNode(); prev; prev = prev->getPrevNode()) {
    if (prev == fill.getOperation() ||
        isa<cf::AssertOp, gpu::AllocOp, memref::AllocOp>(prev) ||
        isMemoryEffectFree(prev))
      continue;
    producer = dyn_cast<linalg::GenericOp>(prev);
    break;
  }
  if (!producer || !producer.hasPureBufferSemantics() ||
      producer.getNumDpsInits() != 1 || producer.hasIndexSemantics() ||
      producer.getNumReductionLoops() != 0 || !hasEffectFreePayload(producer))
    return nullptr;
  OpOperand *output = producer.getDpsInitOperand(0);
  if (output->get() != buffer ||
      !producer.getMatchingIndexingMap(output).isIdentity() ||
      producer.payloadUsesValueFromOperand(output) ||
      llvm::is_contained(producer.getDpsInputs(), buffer))
    return nullptr;
  if (!isOnlyUsedBy(buffer, {op, producer}))
    return nullptr;
  // The reduction may write its output before every element is read: the
  // producer must not read the output's buffer.
  Value outputRoot = getBufferRoot(op.getDpsInitOperand(0)->get());
  if (!outputRoot)
    return nullptr;
  for (Value read : producer.getDpsInputs()) {
    if (!isa<MemRefType>(read.getType()))
      continue;
    Value root = getBufferRoot(read);
    if (!root || root == outputRoot)
      return nullptr;
  }
  return producer;
}

linalg::GenericOp getFusableReductionEpilogue(linalg::LinalgOp op,
                                              linalg::GenericOp producer,
                                              linalg::FillOp fill) {
  Value product = op.getDpsInitOperand(0)->get();
  linalg::GenericOp epilogue;
  for (Operation *next = op->getNextNode(); next; next = next->getNextNode()) {
    if (isMemoryNeutral(next))
      continue;
    epilogue = dyn_cast<linalg::GenericOp>(next);
    break;
  }
  if (!epilogue || !epilogue.hasPureBufferSemantics() ||
      !isElementwiseEpilogue(epilogue, product) ||
      !hasEffectFreePayload(epilogue))
    return nullptr;
  Value result = epilogue.getDpsInitOperand(0)->get();
  Value resultRoot = getBufferRoot(result);
  if (!resultRoot)
    return nullptr;
  AffineMap resultMap =
      epilogue.getMatchingIndexingMap(epilogue.getDpsInitOperand(0));
  for (OpOperand *input : epilogue.getDpsInputOperands()) {
    if (input->get() == product || !isa<MemRefType>(input->get().getType()))
      continue;
    // The element it replaces (an update in place, `b - lr * db`): read by
    // the thread that writes it.
    if (input->get() == result &&
        epilogue.getMatchingIndexingMap(input) == resultMap)
      continue;
    Value root = getBufferRoot(input->get());
    if (!root || root == resultRoot)
      return nullptr;
  }
  SmallVector<Value> read;
  if (producer)
    llvm::append_range(read, producer.getDpsInputs());
  else
    read.push_back(op.getDpsInputOperand(0)->get());
  for (Value value : read) {
    if (!isa<MemRefType>(value.getType()))
      continue;
    Value root = getBufferRoot(value);
    if (!root || root == resultRoot)
      return nullptr;
  }
  if (result == product)
    return epilogue;
  // The product is then never stored: a buffer of this function that
  // nothing else uses.
  if (!isOnlyUsedBy(product, {op, epilogue, fill}) ||
      getBufferRoot(product) == resultRoot)
    return nullptr;
  return epilogue;
}

/// Emits one block's reduction of `count` values (`load` gives value i)
/// into `op`'s output, at the rewriter's insertion point in a launch
/// (`thread` of kRowReductionThreads, workgroup partials `shared`): a tree
/// (emitTreeReduction), the result combined with the output's initial
/// value (`fused`'s fill) and stored through `fused`'s epilogue.
void emitBlockToOutput(RewriterBase &rewriter, Location loc,
                       linalg::LinalgOp op, const ReductionCombine &combine,
                       const ReductionFusion &fused,
                       function_ref<Value(Value)> load, Value count,
                       Value thread, Value shared) {
  auto constant = [&](int64_t value) {
    return constantIndex(rewriter, loc, value);
  };
  emitTreeReduction(rewriter, loc, combine, load, count, thread, shared);
  OpOperand *output = op.getDpsInitOperand(0);
  auto outputType = cast<MemRefType>(output->get().getType());
  SmallVector<Value> at(outputType.getRank(), constant(0));
  auto initial = [&] {
    return getInitialValue(rewriter, loc, op, fused.fill, at);
  };
  ifThen(rewriter, loc, writesResult(rewriter, loc, thread, count), [&] {
    Value value = memref::LoadOp::create(rewriter, loc, shared, constant(0));
    storeResult(rewriter, loc, op, fused.epilogue,
                combine.apply(rewriter, value, initial()), at);
  });
  // No elements: the output is its initial value (the fill's; through the
  // epilogue).
  if (fused.fill || fused.epilogue) {
    Value none = arith::AndIOp::create(
        rewriter, loc,
        arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq, thread,
                              constant(0)),
        arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq, count,
                              constant(0)));
    ifThen(rewriter, loc, none, [&] {
      storeResult(rewriter, loc, op, fused.epilogue, initial(), at);
    });
  }
}

/// A reduction of all of `op`'s dimensions: blocks of kRowReductionThreads
/// threads each reduce a consecutive range of the elements
/// (emitTreeReduction: coalesced reads, a tree in shared memory) into a
/// partial result; then one block reduces the partials the same way and
/// combines the result into the output. Where one block takes every
/// element (a static count of at most kRowReductionThreads *
/// kMinFullReductionPerThread), that block reduces them into the output
/// itself: one kernel. With `producer`, the kernel reading the elements
/// computes each as it reads it.
void lowerFullReductionToBlocks(RewriterBase &rewriter, linalg::LinalgOp op,
                                const ReductionCombine &combine,
                                const ReductionFusion &fused) {
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  auto constant = [&](int64_t value) {
    return constantIndex(rewriter, loc, value);
  };
  auto dims = llvm::to_vector(llvm::seq<unsigned>(0, op.getNumLoops()));
  SmallVector<Value> extents;
  Value count = getLoopExtents(rewriter, loc, op, dims, extents);
  Value threads = constant(kRowReductionThreads);
  auto loadFrom = [&](Value begin) {
    return [&, begin](Value i) {
      Value linear = arith::AddIOp::create(rewriter, loc, begin, i);
      return readInput(
          rewriter, loc, op, combine, fused.producer,
          *affine::delinearizeIndex(rewriter, loc, linear, extents));
    };
  };

  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  if (!ShapedType::isDynamicShape(ranges) &&
      std::accumulate(ranges.begin(), ranges.end(), int64_t(1),
                      std::multiplies<int64_t>()) <=
          kRowReductionThreads * kMinFullReductionPerThread) {
    auto block = createLaunch(rewriter, loc, constant(1), threads, constant(1),
                              TypeRange{getPartialsType(op)});
    rewriter.setInsertionPoint(block.getBody().front().getTerminator());
    emitBlockToOutput(rewriter, loc, op, combine, fused, loadFrom(constant(0)),
                      count, block.getThreadIds().x,
                      block.getWorkgroupAttributions().front());
    rewriter.setInsertionPointAfter(block);
    eraseFused(rewriter, op, fused);
    return;
  }

  // blocks = clamp(ceil(count / (threads * per thread)), 1, max); range =
  // ceil(count / blocks) elements each; ceil(count / range) of them have
  // any (none for no elements).
  Value blocks = arith::MinSIOp::create(
      rewriter, loc,
      arith::MaxSIOp::create(
          rewriter, loc,
          arith::CeilDivSIOp::create(
              rewriter, loc, count,
              constant(kRowReductionThreads * kMinFullReductionPerThread)),
          constant(1)),
      constant(kMaxFullReductionBlocks));
  Value range = arith::MaxSIOp::create(
      rewriter, loc, arith::CeilDivSIOp::create(rewriter, loc, count, blocks),
      constant(1));
  Value used = arith::CeilDivSIOp::create(rewriter, loc, count, range);
  OpOperand *output = op.getDpsInitOperand(0);
  Type element = getElementTypeOrSelf(output->get().getType());
  Value partial =
      gpu::AllocOp::create(
          rewriter, loc, MemRefType::get({ShapedType::kDynamic}, element),
          Type(), ValueRange(), ValueRange{blocks}, ValueRange(), UnitAttr())
          .getMemref();

  // Stage 1: partial[b] = block b's range of elements combined.
  auto stage = createLaunch(rewriter, loc, blocks, threads, constant(1),
                            TypeRange{getPartialsType(op)});
  {
    rewriter.setInsertionPoint(stage.getBody().front().getTerminator());
    Value b = stage.getBlockIds().x;
    Value begin = arith::MulIOp::create(rewriter, loc, b, range);
    Value left = arith::SubIOp::create(rewriter, loc, count, begin);
    Value mine = arith::MaxSIOp::create(
        rewriter, loc, arith::MinSIOp::create(rewriter, loc, left, range),
        constant(0));
    Value thread = stage.getThreadIds().x;
    Value shared = stage.getWorkgroupAttributions().front();
    emitTreeReduction(rewriter, loc, combine, loadFrom(begin), mine, thread,
                      shared);
    ifThen(rewriter, loc, writesResult(rewriter, loc, thread, mine), [&] {
      Value value = memref::LoadOp::create(rewriter, loc, shared, constant(0));
      memref::StoreOp::create(rewriter, loc, value, partial, ValueRange{b});
    });
  }

  // Stage 2: one block combines the partials into the output's value.
  rewriter.setInsertionPointAfter(stage);
  auto fold = createLaunch(rewriter, loc, constant(1), threads, constant(1),
                           TypeRange{getPartialsType(op)});
  rewriter.setInsertionPoint(fold.getBody().front().getTerminator());
  auto loadPartial = [&](Value i) -> Value {
    return memref::LoadOp::create(rewriter, loc, partial, ValueRange{i});
  };
  emitBlockToOutput(rewriter, loc, op, combine, fused, loadPartial, used,
                    fold.getThreadIds().x,
                    fold.getWorkgroupAttributions().front());
  rewriter.setInsertionPointAfter(fold);
  gpu::DeallocOp::create(rewriter, loc, Type(), ValueRange(), partial);
  eraseFused(rewriter, op, fused);
}

void lowerColumnReductionToBlocks(RewriterBase &rewriter, linalg::LinalgOp op,
                                  const ReductionCombine &combine,
                                  const ReductionFusion &fused) {
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  auto constant = [&](int64_t value) {
    return constantIndex(rewriter, loc, value);
  };
  auto ceilDiv = [&](Value lhs, Value rhs) -> Value {
    return arith::CeilDivSIOp::create(rewriter, loc, lhs, rhs);
  };
  auto min = [&](Value lhs, Value rhs) -> Value {
    return arith::MinSIOp::create(rewriter, loc, lhs, rhs);
  };
  auto max = [&](Value lhs, Value rhs) -> Value {
    return arith::MaxSIOp::create(rewriter, loc, lhs, rhs);
  };
  // The loops in the order of the input's dimensions: rows (reduction
  // loops) outside, columns (parallel loops) inside.
  AffineMap inputMap = op.getMatchingIndexingMap(op.getDpsInputOperand(0));
  SmallVector<unsigned> rowDims, columnDims;
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  for (AffineExpr result : inputMap.getResults()) {
    unsigned dim = cast<AffineDimExpr>(result).getPosition();
    (iterators[dim] == utils::IteratorType::parallel ? columnDims : rowDims)
        .push_back(dim);
  }
  SmallVector<Value> columnExtents, rowExtents;
  Value columns = getLoopExtents(rewriter, loc, op, columnDims, columnExtents);
  Value rows = getLoopExtents(rewriter, loc, op, rowDims, rowExtents);

  // splits = clamp(min(ceil(max blocks / tiles), ceil(rows / (8 *
  // kMinColumnRowsPerThread))), 1, ...) blocks along the rows, chunk rows
  // each; `used` of them have rows. Statically 1 split (many columns or
  // few rows): one kernel combines into the output itself.
  std::optional<int64_t> staticSplits;
  {
    SmallVector<int64_t> ranges = op.getStaticLoopRanges();
    if (!ShapedType::isDynamicShape(ranges)) {
      int64_t staticColumns = 1, staticRows = 1;
      for (unsigned dim : columnDims)
        staticColumns *= ranges[dim];
      for (unsigned dim : rowDims)
        staticRows *= ranges[dim];
      int64_t tiles =
          std::max<int64_t>(llvm::divideCeil(staticColumns, kColumnTile), 1);
      staticSplits = std::max<int64_t>(
          std::min(llvm::divideCeil(kMaxFullReductionBlocks, tiles),
                   llvm::divideCeil(staticRows,
                                    kColumnTileRows * kMinColumnRowsPerThread)),
          1);
    }
  }
  Value tiles = ceilDiv(columns, constant(kColumnTile));
  Value splits =
      staticSplits ? constant(*staticSplits)
                   : max(min(ceilDiv(constant(kMaxFullReductionBlocks),
                                     max(tiles, constant(1))),
                             ceilDiv(rows, constant(kColumnTileRows *
                                                    kMinColumnRowsPerThread))),
                         constant(1));
  bool oneSplit = staticSplits == 1;
  Value chunk = max(ceilDiv(rows, splits), constant(1));
  Value used = ceilDiv(rows, chunk);
  Type element = getElementTypeOrSelf(op.getDpsInitOperand(0)->get().getType());
  Value partial;
  if (!oneSplit)
    partial =
        gpu::AllocOp::create(
            rewriter, loc, MemRefType::get({ShapedType::kDynamic}, element),
            Type(), ValueRange(),
            ValueRange{arith::MulIOp::create(rewriter, loc, splits, columns)},
            ValueRange(), UnitAttr())
            .getMemref();
  // The loop indices of column `column` (the row loops unset).
  auto columnLoops = [&](Value column) {
    SmallVector<Value> loops(op.getNumLoops());
    for (auto [dim, index] :
         llvm::zip(columnDims, *affine::delinearizeIndex(rewriter, loc, column,
                                                         columnExtents)))
      loops[dim] = index;
    return loops;
  };
  auto inColumns = [&](Value column) {
    return lessThan(rewriter, loc, column, columns);
  };

  // Kernel 1: block (tile, split) reduces its columns over its rows.
  auto sharedType = MemRefType::get(
      {kColumnTileRows, kColumnTile}, element, MemRefLayoutAttrInterface(),
      gpu::AddressSpaceAttr::get(op->getContext(),
                                 gpu::AddressSpace::Workgroup));
  auto blocks = createLaunch(
      rewriter, loc, arith::MulIOp::create(rewriter, loc, tiles, splits),
      constant(kColumnTile), constant(kColumnTileRows), TypeRange{sharedType});
  {
    rewriter.setInsertionPoint(blocks.getBody().front().getTerminator());
    Value b = blocks.getBlockIds().x;
    Value tx = blocks.getThreadIds().x;
    Value ty = blocks.getThreadIds().y;
    Value shared = blocks.getWorkgroupAttributions().front();
    Value tile = arith::RemSIOp::create(rewriter, loc, b, tiles);
    Value split = arith::DivSIOp::create(rewriter, loc, b, tiles);
    Value column = arith::AddIOp::create(
        rewriter, loc,
        arith::MulIOp::create(rewriter, loc, tile, constant(kColumnTile)), tx);
    Value begin = arith::MulIOp::create(rewriter, loc, split, chunk);
    Value end = min(arith::AddIOp::create(rewriter, loc, begin, chunk), rows);
    Value count =
        max(arith::SubIOp::create(rewriter, loc, end, begin), constant(0));
    Value rowsOfThreads = min(count, constant(kColumnTileRows));
    ifThen(rewriter, loc,
           arith::AndIOp::create(rewriter, loc, inColumns(column),
                                 lessThan(rewriter, loc, ty, count)),
           [&] {
             SmallVector<Value> loops = columnLoops(column);
             auto read = [&](Value row) {
               for (auto [dim, index] :
                    llvm::zip(rowDims, *affine::delinearizeIndex(
                                           rewriter, loc, row, rowExtents)))
                 loops[dim] = index;
               return readInput(rewriter, loc, op, combine, fused.producer,
                                loops);
             };
             Value first = arith::AddIOp::create(rewriter, loc, begin, ty);
             auto strided = scf::ForOp::create(
                 rewriter, loc,
                 arith::AddIOp::create(rewriter, loc, first,
                                       constant(kColumnTileRows)),
                 end, constant(kColumnTileRows), ValueRange{read(first)},
                 [&](OpBuilder &, Location, Value row, ValueRange accumulator) {
                   scf::YieldOp::create(
                       rewriter, loc,
                       combine.apply(rewriter, read(row), accumulator.front()));
                 });
             memref::StoreOp::create(rewriter, loc, strided.getResult(0),
                                     shared, ValueRange{ty, tx});
           });
    gpu::BarrierOp::create(rewriter, loc);
    // Thread row 0 combines the thread rows' partials, from the output's
    // initial value (one split) or the first partial.
    auto combineRows = [&](Value from, Value initial) {
      return scf::ForOp::create(
                 rewriter, loc, from, rowsOfThreads, constant(1),
                 ValueRange{initial},
                 [&](OpBuilder &, Location, Value j, ValueRange accumulator) {
                   Value value = memref::LoadOp::create(rewriter, loc, shared,
                                                        ValueRange{j, tx});
                   scf::YieldOp::create(
                       rewriter, loc,
                       combine.apply(rewriter, value, accumulator.front()));
                 })
          .getResult(0);
    };
    Value firstRow = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::eq, ty, constant(0));
    if (oneSplit) {
      ifThen(rewriter, loc,
             arith::AndIOp::create(rewriter, loc, firstRow, inColumns(column)),
             [&] {
               SmallVector<Value> at = getIndices(op, *op.getDpsInitOperand(0),
                                                  columnLoops(column));
               Value value =
                   combineRows(constant(0), getInitialValue(rewriter, loc, op,
                                                            fused.fill, at));
               storeResult(rewriter, loc, op, fused.epilogue, value, at);
             });
    } else {
      Value writes = arith::AndIOp::create(
          rewriter, loc,
          arith::AndIOp::create(rewriter, loc, firstRow, inColumns(column)),
          lessThan(rewriter, loc, constant(0), count));
      ifThen(rewriter, loc, writes, [&] {
        Value value = combineRows(
            constant(1), memref::LoadOp::create(rewriter, loc, shared,
                                                ValueRange{constant(0), tx}));
        Value at = arith::AddIOp::create(
            rewriter, loc, arith::MulIOp::create(rewriter, loc, split, columns),
            column);
        memref::StoreOp::create(rewriter, loc, value, partial, at);
      });
    }
  }

  // Kernel 2: a thread per column combines the splits' partials.
  if (!oneSplit) {
    rewriter.setInsertionPointAfter(blocks);
    Value threads = constant(kRowReductionThreads);
    auto fold = createLaunch(rewriter, loc, ceilDiv(columns, threads), threads,
                             constant(1), TypeRange());
    rewriter.setInsertionPoint(fold.getBody().front().getTerminator());
    Value column = arith::AddIOp::create(
        rewriter, loc,
        arith::MulIOp::create(rewriter, loc, fold.getBlockIds().x, threads),
        fold.getThreadIds().x);
    ifThen(rewriter, loc, inColumns(column), [&] {
      SmallVector<Value> at =
          getIndices(op, *op.getDpsInitOperand(0), columnLoops(column));
      auto combined = scf::ForOp::create(
          rewriter, loc, constant(0), used, constant(1),
          ValueRange{getInitialValue(rewriter, loc, op, fused.fill, at)},
          [&](OpBuilder &, Location, Value split, ValueRange accumulator) {
            Value at = arith::AddIOp::create(
                rewriter, loc,
                arith::MulIOp::create(rewriter, loc, split, columns), column);
            Value value = memref::LoadOp::create(rewriter, loc, partial, at);
            scf::YieldOp::create(
                rewriter, loc,
                combine.apply(rewriter, value, accumulator.front()));
          });
      storeResult(rewriter, loc, op, fused.epilogue, combined.getResult(0), at);
    });
    rewriter.setInsertionPointAfter(fold);
    gpu::DeallocOp::create(rewriter, loc, Type(), ValueRange(), partial);
  }
  eraseFused(rewriter, op, fused);
}

bool hasOutputOfLoops(linalg::LinalgOp op) {
  AffineMap map = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  return map.isProjectedPermutation(/*allowZeroInResults=*/false) &&
         map.getNumResults() == op.getNumParallelLoops();
}

void lowerReductionToThreads(RewriterBase &rewriter, linalg::LinalgOp op,
                             const ReductionCombine &combine, int64_t blockSize,
                             const ReductionFusion &fused) {
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  auto constant = [&](int64_t value) {
    return constantIndex(rewriter, loc, value);
  };
  OpOperand *output = op.getDpsInitOperand(0);
  // Output elements in the output's order (consecutive threads write
  // consecutive elements).
  SmallVector<unsigned> outputDims, reductionDims;
  for (AffineExpr result : op.getMatchingIndexingMap(output).getResults())
    outputDims.push_back(cast<AffineDimExpr>(result).getPosition());
  op.getReductionDims(reductionDims);
  SmallVector<Value> outputExtents, reductionExtents;
  Value outputs = getLoopExtents(rewriter, loc, op, outputDims, outputExtents);
  getLoopExtents(rewriter, loc, op, reductionDims, reductionExtents);
  // Fewer threads than a block where there are fewer (static) outputs.
  int64_t threadCount = blockSize;
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  if (llvm::none_of(outputDims, [&](unsigned dim) {
        return ShapedType::isDynamic(ranges[dim]);
      })) {
    int64_t count = 1;
    for (unsigned dim : outputDims)
      count *= ranges[dim];
    threadCount = std::clamp<int64_t>(count, 1, blockSize);
  }
  Value threads = constant(threadCount);
  auto launch =
      createLaunch(rewriter, loc,
                   arith::CeilDivSIOp::create(rewriter, loc, outputs, threads),
                   threads, constant(1), TypeRange());
  rewriter.setInsertionPoint(launch.getBody().front().getTerminator());
  Value index = arith::AddIOp::create(
      rewriter, loc,
      arith::MulIOp::create(rewriter, loc, launch.getBlockIds().x, threads),
      launch.getThreadIds().x);
  ifThen(rewriter, loc, lessThan(rewriter, loc, index, outputs), [&] {
    SmallVector<Value> loops(op.getNumLoops());
    if (!outputDims.empty())
      for (auto [dim, value] :
           llvm::zip(outputDims, *affine::delinearizeIndex(rewriter, loc, index,
                                                           outputExtents)))
        loops[dim] = value;
    SmallVector<Value> at = getIndices(op, *output, loops);
    Value initial = getInitialValue(rewriter, loc, op, fused.fill, at);
    SmallVector<Value> lower(reductionDims.size(), constant(0));
    SmallVector<Value> steps(reductionDims.size(), constant(1));
    scf::LoopNest nest = scf::buildLoopNest(
        rewriter, loc, lower, reductionExtents, steps, ValueRange{initial},
        [&](OpBuilder &, Location, ValueRange indices,
            ValueRange accumulator) -> scf::ValueVector {
          for (auto [dim, value] : llvm::zip(reductionDims, indices))
            loops[dim] = value;
          return {combine.apply(
              rewriter,
              readInput(rewriter, loc, op, combine, fused.producer, loops),
              accumulator.front())};
        });
    storeResult(rewriter, loc, op, fused.epilogue, nest.results.front(), at);
  });
  rewriter.setInsertionPointAfter(launch);
  eraseFused(rewriter, op, fused);
}

namespace {

/// Computes `op`'s payload at loop indices `loops` and stores the results.
void emitPayload(RewriterBase &rewriter, Location loc, linalg::LinalgOp op,
                 ArrayRef<Value> loops) {
  SmallVector<Value> results =
      computePayload(rewriter, op, [&](OpOperand &operand) -> Value {
        return memref::LoadOp::create(
            rewriter, loc, operand.get(),
            getOperandIndices(rewriter, loc, op, operand, loops));
      });
  for (auto [value, init] : llvm::zip(results, op.getDpsInitsMutable()))
    memref::StoreOp::create(rewriter, loc, value, init.get(),
                            getIndices(op, init, loops));
}

/// The most elements of a row each thread holds in registers (see
/// RowInRegisters).
constexpr int64_t kMaxRowSlots = 16;

/// A row chain run with every row's values in registers, `threads` threads
/// per row (a block's 256, a warp's 32, or one): thread t holds elements
/// t + threads s (slot s) of each buffer the chain accesses at the element
/// and every per-row value (each thread computes Row steps itself);
/// reductions combine in the thread, across the warp by shuffles, then
/// (a block's row) across the block's 8 warps through shared memory, with
/// one barrier. Reads of what the chain wrote come from registers and
/// every element the chain writes is stored once, at the end (none of a
/// fresh buffer that only the chain uses); row values by thread 0, after
/// a barrier when threads read such a buffer's old row value. With
/// `rowValid`, nothing is stored where it is false (a warp past the last
/// row, computing on a row that exists).
class RowInRegisters {
public:
  RowInRegisters(RewriterBase &rewriter, Location loc, const RowChain &chain,
                 Value thread, ArrayRef<Value> row, int64_t threads,
                 Value rowValid = {})
      : rewriter(rewriter), loc(loc), chain(chain), thread(thread), row(row),
        threads(threads), rowValid(rowValid) {
    for (RowStep step : chain.steps)
      for (Value init : step.op.getDpsInits())
        inits.insert(init);
    int64_t slots = llvm::divideCeil(chain.length, threads);
    Value last = constant(chain.length - 1);
    for (int64_t slot = 0; slot < slots; ++slot) {
      Value element =
          slot == 0 ? thread : add(thread, constant(slot * threads));
      elements.push_back(element);
      bool whole = (slot + 1) * threads <= chain.length;
      valid.push_back(whole ? Value()
                            : arith::CmpIOp::create(
                                  rewriter, loc, arith::CmpIPredicate::slt,
                                  element, constant(chain.length)));
      clamped.push_back(
          whole ? element
                : arith::MinSIOp::create(rewriter, loc, element, last));
    }
  }

  /// Whether `chain` can run so with `threads` per row: at least one
  /// element and at most kMaxRowSlots per thread, and reductions into
  /// 32-bit values (what a shuffle moves).
  static bool fits(const RowChain &chain, int64_t threads) {
    if (threads == 1)
      return chain.length >= 1 && chain.length <= kMaxThreadRowLength;
    if (chain.length < threads || chain.length > kMaxRowSlots * threads)
      return false;
    return llvm::all_of(chain.steps, [](RowStep step) {
      if (step.kind != RowStep::Kind::Reduction)
        return true;
      Type accumulator =
          getElementTypeOrSelf(step.op.getDpsInitOperand(0)->get());
      return accumulator.isF32() || accumulator.isInteger(32);
    });
  }

  /// A Row or Elements step.
  void emitStep(const RowStep &step) {
    linalg::LinalgOp op = step.op;
    if (step.kind == RowStep::Kind::Row) {
      emitAt(op, kRowSlot);
      return;
    }
    for (int64_t slot = 0; slot < getNumSlots(); ++slot)
      emitAt(op, slot);
  }

  /// A Reduction step, through shared memory `partials` when a block
  /// reduces a row.
  void emitReduction(const RowStep &step, Value partials) {
    linalg::LinalgOp op = step.op;
    ReductionCombine combine = getReductionCombine(op);
    OpOperand *input = op.getDpsInputOperand(0);
    OpOperand *init = op.getDpsInitOperand(0);
    Value partial;
    for (int64_t slot = 0; slot < getNumSlots(); ++slot) {
      Value element = combine.toAccumulator(rewriter, read(op, *input, slot));
      if (!partial) {
        partial = element;
        continue;
      }
      Value combined = combine.apply(rewriter, element, partial);
      partial = valid[slot] ? arith::SelectOp::create(
                                  rewriter, loc, valid[slot], combined, partial)
                                  .getResult()
                            : combined;
    }
    Value total = partial;
    if (threads > 1)
      total = createWarpButterfly(rewriter, loc, partial,
                                  [&](Value mine, Value other) {
                                    return combine.apply(rewriter, other, mine);
                                  });
    if (threads > kWarpLanes)
      total = combineWarps(combine, total, partials);
    write(*init, kRowSlot,
          combine.apply(rewriter, total, read(op, *init, kRowSlot)));
  }

  /// Every step of the chain in turn (its reductions through `partials`,
  /// one per reduction, when a block reduces a row), then the stores.
  void emitChain(ValueRange partials = {}) {
    unsigned reduction = 0;
    for (const RowStep &step : chain.steps) {
      if (step.kind != RowStep::Kind::Reduction)
        emitStep(step);
      else
        emitReduction(step, partials.empty() ? Value() : partials[reduction++]);
    }
    emitStores();
  }

  /// Stores what the chain wrote: each thread its elements, thread 0 the
  /// row values.
  void emitStores() {
    // (A thread alone on its row read the old values itself.)
    if (readsRowsWritten && threads > 1)
      gpu::BarrierOp::create(rewriter, loc);
    Value isFirst =
        threads == 1
            ? Value()
            : arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq,
                                    thread, constant(0));
    auto andRowValid = [&](Value condition) -> Value {
      if (!rowValid)
        return condition;
      if (!condition)
        return rowValid;
      return arith::AndIOp::create(rewriter, loc, condition, rowValid);
    };
    for (int64_t slot = kRowSlot; slot < getNumSlots(); ++slot) {
      SmallVector<std::pair<Value, Value>> stores;
      for (auto [key, value] : written)
        if (key.second == slot && !isPrivate(key.first))
          stores.push_back({key.first, value});
      if (stores.empty())
        continue;
      Value condition = andRowValid(slot == kRowSlot ? isFirst : valid[slot]);
      OpBuilder::InsertionGuard guard(rewriter);
      if (condition) {
        auto branch = scf::IfOp::create(rewriter, loc, condition);
        rewriter.setInsertionPointToStart(branch.thenBlock());
      }
      SmallVector<Value> at(row);
      if (slot != kRowSlot)
        at.push_back(elements[slot]);
      for (auto [buffer, value] : stores)
        memref::StoreOp::create(rewriter, loc, value, buffer, at);
    }
  }

private:
  static constexpr int64_t kRowSlot = -1;
  using Key = std::pair<Value, int64_t>;

  /// The block's value from each warp's `partial`, through `partials`.
  Value combineWarps(const ReductionCombine &combine, Value partial,
                     Value partials) {
    Value lane =
        arith::RemUIOp::create(rewriter, loc, thread, constant(kWarpLanes));
    Value warp =
        arith::DivUIOp::create(rewriter, loc, thread, constant(kWarpLanes));
    auto first = scf::IfOp::create(
        rewriter, loc,
        arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq, lane,
                              constant(0)));
    {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(first.thenBlock());
      memref::StoreOp::create(rewriter, loc, partial, partials, warp);
    }
    gpu::BarrierOp::create(rewriter, loc);
    Value total = memref::LoadOp::create(rewriter, loc, partials, constant(0));
    for (int64_t other = 1; other < kRowReductionThreads / kWarpLanes; ++other)
      total = combine.apply(
          rewriter,
          memref::LoadOp::create(rewriter, loc, partials, constant(other)),
          total);
    return total;
  }

  Value constant(int64_t value) {
    return arith::ConstantIndexOp::create(rewriter, loc, value);
  }
  Value add(Value a, Value b) {
    return arith::AddIOp::create(rewriter, loc, a, b);
  }
  int64_t getNumSlots() const { return elements.size(); }

  /// The loop indices of `op` at `slot` (element loops at a clamped
  /// element: always in range).
  SmallVector<Value> getLoops(linalg::LinalgOp op, int64_t slot) {
    SmallVector<Value> loops(row);
    if (op.getNumLoops() > row.size())
      loops.push_back(slot == kRowSlot ? constant(0) : clamped[slot]);
    return loops;
  }

  /// The buffer a row value is known by: a view adding unit dimensions to
  /// a per-row buffer is its source (see isRaceFree).
  static Value getRowBuffer(linalg::LinalgOp op, OpOperand &operand) {
    if (auto view = operand.get().getDefiningOp<memref::ExpandShapeOp>();
        view && !op.isDpsInit(&operand))
      return view.getSrc();
    return operand.get();
  }

  /// `operand` of `op` at `slot`: a value the chain wrote or read before,
  /// else loaded (and kept when read at the element or at the row).
  Value read(linalg::LinalgOp op, OpOperand &operand, int64_t slot) {
    bool atElement = slot != kRowSlot &&
                     op.getMatchingIndexingMap(&operand).isIdentity() &&
                     op.getNumLoops() == row.size() + 1;
    bool atRow = !atElement && isReadAtRow(op, operand, chain.rows);
    std::optional<Key> key;
    if (atElement)
      key = Key{operand.get(), slot};
    else if (atRow)
      key = Key{getRowBuffer(op, operand), kRowSlot};
    if (key)
      if (Value known = values.lookup(*key))
        return known;
    SmallVector<Value> indices =
        getOperandIndices(rewriter, loc, op, operand, getLoops(op, slot));
    Value loaded;
    // Past the row's end (or past the last row) the clamped element is
    // another thread's, which it may be writing: not read (a race, though
    // its value would be dropped); zero instead.
    if (Value inRange = getInRange(slot)) {
      Type type = getElementTypeOrSelf(operand.get());
      auto guarded = scf::IfOp::create(rewriter, loc, type, inRange,
                                       /*withElseRegion=*/true);
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(guarded.thenBlock());
      scf::YieldOp::create(rewriter, loc,
                           ValueRange{memref::LoadOp::create(
                               rewriter, loc, operand.get(), indices)});
      rewriter.setInsertionPointToStart(guarded.elseBlock());
      scf::YieldOp::create(
          rewriter, loc,
          ValueRange{arith::ConstantOp::create(
              rewriter, loc, cast<TypedAttr>(rewriter.getZeroAttr(type)))});
      loaded = guarded.getResult(0);
    } else {
      loaded = memref::LoadOp::create(rewriter, loc, operand.get(), indices);
    }
    // Others (x[row, 0], a bias along the row) are read where they are.
    if (key)
      values[*key] = loaded;
    // Thread 0 stores its row values at the end: every thread must have
    // read the old ones by then.
    if (atRow && inits.contains(key->first))
      readsRowsWritten = true;
    return loaded;
  }

  /// Whether `slot`'s element and the row exist; null where both always
  /// do.
  Value getInRange(int64_t slot) {
    Value element = slot == kRowSlot ? Value() : valid[slot];
    if (!element || !rowValid)
      return element ? element : rowValid;
    return arith::AndIOp::create(rewriter, loc, element, rowValid);
  }

  void write(OpOperand &init, int64_t slot, Value value) {
    Key key{init.get(), slot};
    values[key] = value;
    written[key] = value;
  }

  void emitAt(linalg::LinalgOp op, int64_t slot) {
    SmallVector<Value> results =
        computePayload(rewriter, op, [&](OpOperand &operand) {
          return read(op, operand, slot);
        });
    for (auto [value, init] : llvm::zip(results, op.getDpsInitsMutable()))
      write(init, slot, value);
  }

  /// Whether `buffer` is fresh and only the chain's ops use it (besides
  /// its deallocation): nothing reads what the chain leaves in it.
  bool isPrivate(Value buffer) const {
    auto isStep = [&](Operation *user) {
      return llvm::any_of(chain.steps, [&](RowStep step) {
        return step.op.getOperation() == user;
      });
    };
    // A block's view of a buffer hoisted out of its loop (see
    // hoistBlockAllocations).
    Operation *view = nullptr;
    if (auto subview = buffer.getDefiningOp<memref::SubViewOp>()) {
      if (!llvm::all_of(subview->getUsers(), isStep))
        return false;
      view = subview;
      buffer = subview.getSource();
    }
    if (!buffer.getDefiningOp<gpu::AllocOp>() &&
        !buffer.getDefiningOp<memref::AllocOp>())
      return false;
    return llvm::all_of(buffer.getUsers(), [&](Operation *user) {
      return isa<gpu::DeallocOp, memref::DeallocOp>(user) ||
             (view ? user == view : isStep(user));
    });
  }

  RewriterBase &rewriter;
  Location loc;
  const RowChain &chain;
  Value thread;
  SmallVector<Value> row;
  int64_t threads;
  Value rowValid;
  /// Per slot: the element, whether it is in the row (null: always), and
  /// the element clamped into the row.
  SmallVector<Value> elements, valid, clamped;
  DenseMap<Key, Value> values;
  /// The last value the chain wrote at each buffer and slot.
  llvm::MapVector<Key, Value> written;
  /// The buffers the chain writes.
  llvm::SmallDenseSet<Value> inits;
  /// Whether threads loaded a row value of a buffer the chain writes.
  bool readsRowsWritten = false;
};

} // namespace

namespace {

/// The workgroup buffers of `chain`'s kernel: one per reduction.
SmallVector<Type> getRowChainSharedTypes(const RowChain &chain,
                                         bool inRegisters) {
  SmallVector<Type> sharedTypes;
  for (const RowStep &step : chain.steps)
    if (step.kind == RowStep::Kind::Reduction)
      sharedTypes.push_back(
          inRegisters
              ? getPartialsType(step.op, kRowReductionThreads / kWarpLanes)
              : getPartialsType(step.op));
  return sharedTypes;
}

/// Emits a block's work on one row of `chain` (at indices `row`, thread
/// `thread` of kRowReductionThreads, workgroup buffers `partials`); the
/// chain's ops stay for the caller to erase. Row steps run on thread 0 between
/// barriers; element steps give thread t the row's elements t, t + 256, ...
/// (coalesced; a later step reads what the thread wrote, so they need no
/// barrier); reductions are block reductions (see lowerRowReductionToBlocks)
/// followed by a barrier, after which every thread reads the row's value.
void emitRowChain(RewriterBase &rewriter, Location loc, const RowChain &chain,
                  bool inRegisters, Value thread, ArrayRef<Value> row,
                  ValueRange partials) {
  auto constant = [&](int64_t value) -> Value {
    return arith::ConstantIndexOp::create(rewriter, loc, value);
  };
  unsigned rank = chain.rows.size();
  if (inRegisters) {
    RowInRegisters(rewriter, loc, chain, thread, row, kRowReductionThreads)
        .emitChain(partials);
    return;
  }

  Value zero = constant(0);
  Value length = constant(chain.length);
  Value block = constant(kRowReductionThreads);
  Value isFirst = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq,
                                        thread, zero);
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
      SmallVector<Value> loops(row);
      loops.push_back(elements.getInductionVar());
      emitPayload(rewriter, loc, step.op, loops);
      synced = false;
      break;
    }
    case RowStep::Kind::Reduction: {
      SmallVector<Value> loops(row);
      loops.push_back(zero);
      emitBlockReduction(rewriter, loc, step.op, getReductionCombine(step.op),
                         loops, {rank}, {length}, length, thread,
                         partials[reduction++]);
      gpu::BarrierOp::create(rewriter, loc);
      synced = true;
      break;
    }
    }
  }
}

/// Erases `chain`'s ops, then the allocations of the buffers they wrote
/// that nothing uses any more but deallocations (values the kernel kept in
/// registers).
void eraseChain(RewriterBase &rewriter, const RowChain &chain) {
  SmallVector<Value> written;
  for (RowStep step : chain.steps)
    for (Value init : step.op.getDpsInits())
      if (!llvm::is_contained(written, init))
        written.push_back(init);
  for (const RowStep &step : chain.steps)
    rewriter.eraseOp(step.op);
  for (Value buffer : written)
    if (isOnlyUsedBy(buffer, {}))
      eraseAllocation(rewriter, buffer);
}

} // namespace

/// One gpu.launch for `chain` (see RowChain), at its last op: a block of
/// kRowReductionThreads threads per row (see emitRowChain).
gpu::LaunchOp lowerRowChainToBlocks(RewriterBase &rewriter,
                                    const RowChain &chain, bool warpShuffles) {
  linalg::LinalgOp last = chain.steps.back().op;
  Location loc = last.getLoc();
  rewriter.setInsertionPoint(last);
  auto constant = [&](int64_t value) -> Value {
    return arith::ConstantIndexOp::create(rewriter, loc, value);
  };
  bool inRegisters =
      warpShuffles && RowInRegisters::fits(chain, kRowReductionThreads);
  auto launch = createLaunch(rewriter, loc, constant(chain.getNumRows()),
                             constant(kRowReductionThreads), constant(1),
                             getRowChainSharedTypes(chain, inRegisters));
  SmallVector<Value> rowExtents = llvm::map_to_vector(
      chain.rows, [&](int64_t extent) { return constant(extent); });
  SmallVector<Value> row = *affine::delinearizeIndex(
      rewriter, loc, launch.getBlockIds().x, rowExtents);
  emitRowChain(rewriter, loc, chain, inRegisters, launch.getThreadIds().x, row,
               launch.getWorkgroupAttributions());
  eraseChain(rewriter, chain);
  return launch;
}

bool canRunRowChainOnWarps(const RowChain &chain) {
  return chain.length > kMaxThreadRowLength &&
         RowInRegisters::fits(chain, kWarpLanes);
}

gpu::LaunchOp lowerRowChainToWarps(RewriterBase &rewriter,
                                   const RowChain &chain) {
  linalg::LinalgOp last = chain.steps.back().op;
  Location loc = last.getLoc();
  rewriter.setInsertionPoint(last);
  auto constant = [&](int64_t value) -> Value {
    return arith::ConstantIndexOp::create(rewriter, loc, value);
  };
  int64_t rows = chain.getNumRows();
  int64_t warps =
      std::clamp<int64_t>(rows, 1, kRowReductionThreads / kWarpLanes);
  auto launch =
      createLaunch(rewriter, loc, constant(llvm::divideCeil(rows, warps)),
                   constant(warps * kWarpLanes), constant(1), {});
  WarpIds ids = getWarpIds(rewriter, loc, launch, warps);
  Value index = ids.index;
  // The last block's warps past the last row work on it too (every lane
  // takes part in the shuffles and barriers) but store nothing.
  Value rowValid;
  if (rows % warps != 0) {
    rowValid = lessThan(rewriter, loc, index, constant(rows));
    index = arith::MinUIOp::create(rewriter, loc, index, constant(rows - 1));
  }
  SmallVector<Value> rowExtents = llvm::map_to_vector(
      chain.rows, [&](int64_t extent) { return constant(extent); });
  SmallVector<Value> row =
      *affine::delinearizeIndex(rewriter, loc, index, rowExtents);
  RowInRegisters(rewriter, loc, chain, ids.lane, row, kWarpLanes, rowValid)
      .emitChain();
  eraseChain(rewriter, chain);
  return launch;
}

gpu::LaunchOp lowerRowChainToThreads(RewriterBase &rewriter,
                                     const RowChain &chain) {
  assert(RowInRegisters::fits(chain, 1) && "expected rows of 1 to 32");
  linalg::LinalgOp last = chain.steps.back().op;
  Location loc = last.getLoc();
  rewriter.setInsertionPoint(last);
  auto constant = [&](int64_t value) -> Value {
    return arith::ConstantIndexOp::create(rewriter, loc, value);
  };
  int64_t rows = chain.getNumRows();
  int64_t threads = std::clamp<int64_t>(rows, 1, kRowReductionThreads);
  auto launch =
      createLaunch(rewriter, loc, constant(llvm::divideCeil(rows, threads)),
                   constant(threads), constant(1), TypeRange());
  rewriter.setInsertionPoint(launch.getBody().front().getTerminator());
  Value index = arith::AddIOp::create(
      rewriter, loc,
      arith::MulIOp::create(rewriter, loc, launch.getBlockIds().x,
                            constant(threads)),
      launch.getThreadIds().x);
  ifThen(rewriter, loc, lessThan(rewriter, loc, index, constant(rows)), [&] {
    SmallVector<Value> rowExtents = llvm::map_to_vector(
        chain.rows, [&](int64_t extent) { return constant(extent); });
    SmallVector<Value> row =
        *affine::delinearizeIndex(rewriter, loc, index, rowExtents);
    RowInRegisters(rewriter, loc, chain, constant(0), row, 1).emitChain();
  });
  eraseChain(rewriter, chain);
  return launch;
}

gpu::LaunchOp lowerRowChainLoopToBlocks(RewriterBase &rewriter,
                                        scf::ForallOp loop,
                                        const RowChain &chain,
                                        bool warpShuffles) {
  bool inRegisters =
      warpShuffles && RowInRegisters::fits(chain, kRowReductionThreads);
  gpu::LaunchOp launch =
      createLaunchFromLoop(rewriter, loop, kRowReductionThreads, 1,
                           getRowChainSharedTypes(chain, inRegisters));
  linalg::LinalgOp last = chain.steps.back().op;
  Location loc = last.getLoc();
  rewriter.setInsertionPoint(last);
  SmallVector<Value> row(chain.rows.size(),
                         arith::ConstantIndexOp::create(rewriter, loc, 0));
  emitRowChain(rewriter, loc, chain, inRegisters, launch.getThreadIds().x, row,
               launch.getWorkgroupAttributions());
  for (const RowStep &step : chain.steps)
    rewriter.eraseOp(step.op);
  return launch;
}

gpu::LaunchOp lowerRowReductionLoopToBlocks(RewriterBase &rewriter,
                                            scf::ForallOp loop,
                                            const BlockRowReduction &work) {
  linalg::LinalgOp op = work.reduction;
  SmallVector<Type> shared = {getPartialsType(op)};
  for (Operation *buffer : work.buffers) {
    auto type = cast<MemRefType>(buffer->getResult(0).getType());
    shared.push_back(MemRefType::get(
        type.getShape(), type.getElementType(), MemRefLayoutAttrInterface(),
        gpu::AddressSpaceAttr::get(op->getContext(),
                                   gpu::AddressSpace::Workgroup)));
  }
  gpu::LaunchOp launch =
      createLaunchFromLoop(rewriter, loop, kRowReductionThreads, 1, shared);
  for (auto [buffer, attribution] : llvm::zip(
           work.buffers, launch.getWorkgroupAttributions().drop_front())) {
    for (Operation *user : llvm::to_vector(buffer->getUsers()))
      if (isa<memref::DeallocOp, gpu::DeallocOp>(user))
        rewriter.eraseOp(user);
    rewriter.replaceAllUsesWith(buffer->getResult(0), attribution);
    rewriter.eraseOp(buffer);
  }
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(work.fill ? work.fill : op);
  Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
  Value thread = launch.getThreadIds().x;
  // Thread 0 alone touches the row's values: it fills the output, combines
  // the row into it last, then goes on with it. Each step is emitted at
  // its op, after what the op reads and writes is defined.
  auto onFirstThread = [&](ArrayRef<linalg::LinalgOp> ops) {
    if (ops.empty())
      return;
    rewriter.setInsertionPoint(ops.back());
    Value isFirst = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::eq, thread, zero);
    auto first = scf::IfOp::create(rewriter, loc, isFirst);
    rewriter.setInsertionPointToStart(first.thenBlock());
    for (linalg::LinalgOp rowOp : ops)
      emitPayload(rewriter, loc, rowOp,
                  SmallVector<Value>(rowOp.getNumLoops(), zero));
  };
  if (work.fill)
    onFirstThread(linalg::LinalgOp(work.fill));
  rewriter.setInsertionPoint(op);
  SmallVector<unsigned> reductionDims;
  op.getReductionDims(reductionDims);
  SmallVector<Value> reductionExtents;
  Value count =
      getLoopExtents(rewriter, loc, op, reductionDims, reductionExtents);
  SmallVector<Value> loops(op.getNumLoops(), zero);
  emitBlockReduction(rewriter, loc, op, getReductionCombine(op), loops,
                     reductionDims, reductionExtents, count, thread,
                     launch.getWorkgroupAttributions().front());
  onFirstThread(work.consumers);
  for (linalg::LinalgOp consumer : llvm::reverse(work.consumers))
    rewriter.eraseOp(consumer);
  rewriter.eraseOp(op);
  if (work.fill)
    rewriter.eraseOp(work.fill);
  return launch;
}

} // namespace mlir::google::kernels
