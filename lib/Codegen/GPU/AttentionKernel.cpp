//===- AttentionKernel.cpp - softmax(Q K^T) V in one GPU kernel -----------===//
//
// Attention as linalg on buffers is a contraction (the scores), elementwise
// ops on the scores (scale, mask), softmax's six ops (fill, max, exp, fill,
// sum, divide) and a second contraction (the probabilities times V): four
// or more kernels, and the scores make two round trips through memory.
// Here one kernel runs it all, flash-attention style: a block owns 64 rows
// of queries and walks the keys in tiles of 64, keeping the scores of a
// tile in registers and a running maximum and sum per row (an online
// softmax: the partial output and sum are rescaled whenever the maximum
// grows), so that the scores never reach memory.
//
//===----------------------------------------------------------------------===//

#include "GpuKernels.h"

#include "Codegen/Matchers.h"

#include "mlir/Dialect/Math/IR/Math.h"

using namespace mlir;

namespace mlir::google::kernels {

namespace {

/// Whether `op` (between the ops of an attention) leaves memory alone, or
/// only allocates.
bool isNeutral(Operation *op) {
  return isa<cf::AssertOp, gpu::AllocOp, memref::AllocOp>(op) ||
         isMemoryEffectFree(op);
}

/// The next op after `op` that is not neutral, or null.
Operation *getNextStep(Operation *op) {
  for (Operation *next = op->getNextNode(); next; next = next->getNextNode())
    if (!isNeutral(next))
      return next;
  return nullptr;
}

bool isF32Buffer(Value value) {
  auto type = dyn_cast<MemRefType>(value.getType());
  return type && type.hasStaticShape() && type.getElementType().isF32();
}

/// Whether `op` runs over a buffer of rank `rank`: every loop parallel
/// (`reductions` == 0) or all but the last (`reductions` == 1).
bool hasRowLoops(linalg::LinalgOp op, int64_t rank, int64_t reductions) {
  if (op.getNumLoops() != rank)
    return false;
  for (auto [dim, iterator] : llvm::enumerate(op.getIteratorTypesArray()))
    if ((iterator == utils::IteratorType::reduction) !=
        (reductions == 1 && dim + 1 == static_cast<size_t>(rank)))
      return false;
  return true;
}

/// Whether `operand` of `op` is read at the row (the leading rank - 1
/// loops) or at the element (every loop), in order.
bool isReadAt(linalg::LinalgOp op, OpOperand &operand, bool row) {
  unsigned rank = op.getNumLoops();
  SmallVector<AffineExpr> dims;
  for (unsigned dim = 0; dim < (row ? rank - 1 : rank); ++dim)
    dims.push_back(getAffineDimExpr(dim, op->getContext()));
  return op.getMatchingIndexingMap(&operand) ==
         AffineMap::get(rank, 0, dims, op->getContext());
}

/// The float constant `value` is, if it is one.
std::optional<APFloat> getFloatConstant(Value value) {
  FloatAttr attr;
  if (matchPattern(value, m_Constant(&attr)))
    return attr.getValue();
  return std::nullopt;
}

/// `op` as a fill of `buffer` with the float constant `expected` (any
/// constant when there is none), or null.
linalg::FillOp asFill(Operation *op, Value buffer,
                      std::optional<APFloat> expected) {
  auto fill = dyn_cast_or_null<linalg::FillOp>(op);
  if (!fill || fill.getDpsInitOperand(0)->get() != buffer)
    return nullptr;
  std::optional<APFloat> value =
      getFloatConstant(fill.getDpsInputOperand(0)->get());
  if (!value || (expected && !value->bitwiseIsEqual(*expected)))
    return nullptr;
  return fill;
}

/// Whether the body of `op` (inputs: a score, the row's maximum) computes
/// exp(score - maximum), as google.softmax lowers it: `exp(d)`, or
/// `select(d < c, 0, exp(maximumf(d, c)))` with a negative constant c
/// (exp's underflow made exact). Those are the functions an online softmax may
/// factor: f(a) f(b) = f(a + b) up to rounding.
bool isShiftedExp(linalg::GenericOp op) {
  Block *body = op.getBlock();
  auto ops =
      llvm::to_vector(llvm::make_pointer_range(body->without_terminator()));
  if (ops.empty())
    return false;
  auto difference = dyn_cast<arith::SubFOp>(ops.front());
  if (!difference || difference.getLhs() != body->getArgument(0) ||
      difference.getRhs() != body->getArgument(1))
    return false;
  Value yielded = body->getTerminator()->getOperand(0);
  if (ops.size() == 2) {
    auto exp = dyn_cast<math::ExpOp>(ops[1]);
    return exp && exp.getOperand() == difference && yielded == exp;
  }
  if (ops.size() != 5)
    return false;
  auto compare = dyn_cast<arith::CmpFOp>(ops[1]);
  auto clamp = dyn_cast<arith::MaximumFOp>(ops[2]);
  auto exp = dyn_cast<math::ExpOp>(ops[3]);
  auto select = dyn_cast<arith::SelectOp>(ops[4]);
  if (!compare || !clamp || !exp || !select || yielded != select)
    return false;
  std::optional<APFloat> bound = getFloatConstant(compare.getRhs());
  std::optional<APFloat> zero = getFloatConstant(select.getTrueValue());
  return compare.getPredicate() == arith::CmpFPredicate::OLT &&
         compare.getLhs() == difference && bound && bound->isNegative() &&
         clamp.getLhs() == difference && clamp.getRhs() == compare.getRhs() &&
         exp.getOperand() == clamp && select.getCondition() == compare &&
         zero && zero->isPosZero() && select.getFalseValue() == exp;
}

/// Whether the body of `op` is `in0 / in1`.
bool isQuotient(linalg::GenericOp op) {
  Block *body = op.getBlock();
  auto divide = dyn_cast<arith::DivFOp>(&body->front());
  return divide && divide->getNextNode() == body->getTerminator() &&
         divide.getLhs() == body->getArgument(0) &&
         divide.getRhs() == body->getArgument(1) &&
         body->getTerminator()->getOperand(0) == divide;
}

/// Whether `op` is an elementwise op on the scores `scores` (rank `rank`):
/// every loop parallel, one output at the element whose old value it does
/// not read, `scores` read once at the element, other inputs through
/// projected permutations.
bool isScoreStep(linalg::GenericOp op, Value scores, int64_t rank) {
  if (!hasRowLoops(op, rank, 0) || op.getNumDpsInits() != 1 ||
      !isF32Buffer(op.getDpsInitOperand(0)->get()) ||
      !isReadAt(op, *op.getDpsInitOperand(0), /*row=*/false) ||
      op.payloadUsesValueFromOperand(op.getDpsInitOperand(0)))
    return false;
  int64_t reads = 0;
  for (OpOperand *input : op.getDpsInputOperands()) {
    if (input->get() == scores) {
      if (!isReadAt(op, *input, /*row=*/false))
        return false;
      ++reads;
      continue;
    }
    if (!op.getMatchingIndexingMap(input).isProjectedPermutation())
      return false;
  }
  return reads == 1;
}

/// A row reduction of `input` into `output` (`rank` loops, the last
/// reduced) with the combine `kinds` allow.
template <typename... Kinds>
bool isRowReductionOf(linalg::LinalgOp op, Value input, Value output,
                      int64_t rank) {
  ReductionCombine combine = getReductionCombine(op);
  return combine && combine.convert.empty() && isa<Kinds...>(combine.combine) &&
         hasRowLoops(op, rank, 1) && op.getDpsInputOperand(0)->get() == input &&
         isReadAt(op, *op.getDpsInputOperand(0), /*row=*/false) &&
         op.getDpsInitOperand(0)->get() == output &&
         isReadAt(op, *op.getDpsInitOperand(0), /*row=*/true);
}

/// Whether `next` is a fill of a buffer with the float constant `start`
/// (any constant when none) followed by a row reduction of `input` into
/// it (see isRowReductionOf); sets `fill` and `reduction` when so.
template <typename... Kinds>
bool matchFilledRowReduction(Operation *next, Value input, int64_t rank,
                             std::optional<APFloat> start, linalg::FillOp &fill,
                             linalg::LinalgOp &reduction) {
  auto candidate = dyn_cast_or_null<linalg::FillOp>(next);
  if (!candidate)
    return false;
  Value rows = candidate.getDpsInitOperand(0)->get();
  fill = asFill(candidate, rows, start);
  reduction = dyn_cast_or_null<linalg::LinalgOp>(getNextStep(candidate));
  return fill && reduction &&
         isRowReductionOf<Kinds...>(reduction, input, rows, rank);
}

/// Whether generic `op` reads `elements` at the element and `rows` at the
/// row and writes one buffer at the element, all loops parallel.
bool isRowwise(linalg::GenericOp op, Value elements, Value rows, int64_t rank) {
  return hasRowLoops(op, rank, 0) && op.getNumDpsInputs() == 2 &&
         op.getNumDpsInits() == 1 &&
         op.getDpsInputOperand(0)->get() == elements &&
         isReadAt(op, *op.getDpsInputOperand(0), /*row=*/false) &&
         op.getDpsInputOperand(1)->get() == rows &&
         isReadAt(op, *op.getDpsInputOperand(1), /*row=*/true) &&
         isF32Buffer(op.getDpsInitOperand(0)->get()) &&
         isReadAt(op, *op.getDpsInitOperand(0), /*row=*/false) &&
         !op.payloadUsesValueFromOperand(op.getDpsInitOperand(0));
}

/// Whether `op`'s body multiplies its inputs and adds the product to the
/// accumulator, in f32.
bool isPlainProduct(linalg::LinalgOp op) {
  Block *body = op.getBlock();
  if (!llvm::hasNItems(body->without_terminator(), 2))
    return false;
  auto multiply = dyn_cast<arith::MulFOp>(&body->front());
  Operation *add = getAccumulation(op);
  return multiply && add && isa<arith::AddFOp>(add) &&
         llvm::is_contained(add->getOperands(), multiply.getResult()) &&
         multiply.getLhs() == body->getArgument(0) &&
         multiply.getRhs() == body->getArgument(1) &&
         llvm::all_of(op->getOperands(), isF32Buffer);
}

/// Whether only `ops` (and deallocations, dims) use `buffer`.
bool isUsedOnlyBy(Value buffer, const llvm::SmallPtrSetImpl<Operation *> &ops) {
  return llvm::all_of(buffer.getUsers(), [&](Operation *user) {
    return ops.contains(user) ||
           isa<memref::DeallocOp, gpu::DeallocOp, memref::DimOp>(user);
  });
}

/// Whether `buffer` is a buffer of the function that only `ops` use.
bool isPrivate(Value buffer, const llvm::SmallPtrSetImpl<Operation *> &ops) {
  return (buffer.getDefiningOp<gpu::AllocOp>() ||
          buffer.getDefiningOp<memref::AllocOp>()) &&
         isUsedOnlyBy(buffer, ops);
}

} // namespace

SmallVector<Operation *> Attention::getOps() const {
  SmallVector<Operation *> ops;
  if (keysTranspose)
    ops.push_back(keysTranspose);
  ops.append({scoresFill, scores});
  for (linalg::GenericOp step : steps)
    ops.push_back(step);
  ops.append({maxFill, max, exp, sumFill, sum, normalize, outputFill, output});
  if (outputEpilogue)
    ops.push_back(outputEpilogue);
  return ops;
}

std::optional<Attention> matchAttention(linalg::LinalgOp scores) {
  Attention a;
  a.scores = scores;
  std::optional<linalg::ContractionDimensions> scoreDims =
      getTileableContraction(scores);
  if (!scoreDims || !isPlainProduct(scores))
    return std::nullopt;
  a.scoreDims = *scoreDims;
  unsigned m = scoreDims->m.front(), n = scoreDims->n.front(),
           k = scoreDims->k.front();
  OpOperand *scoresOut = scores.getDpsInitOperand(0);
  if (!readsInOrder(scores, *scoresOut, *scoreDims, m, n))
    return std::nullopt;
  Value current = scoresOut->get();
  int64_t rank = cast<MemRefType>(current.getType()).getRank();
  APFloat zero = APFloat::getZero(APFloat::IEEEsingle());
  a.scoresFill = asFill(getFusableFill(scores), current, zero);
  if (!a.scoresFill)
    return std::nullopt;

  // Elementwise ops on the scores, then softmax's ops in the order
  // google.softmax lowers them.
  Operation *next = getNextStep(scores);
  while (auto step = dyn_cast_or_null<linalg::GenericOp>(next)) {
    if (!isScoreStep(step, current, rank))
      break;
    a.steps.push_back(step);
    a.stepScores.push_back(current);
    current = step.getDpsInitOperand(0)->get();
    next = getNextStep(step);
  }
  if (!matchFilledRowReduction<arith::MaxNumFOp, arith::MaximumFOp>(
          next, current, rank, std::nullopt, a.maxFill, a.max))
    return std::nullopt;
  Value rowValues = a.maxFill.getDpsInitOperand(0)->get();
  a.exp = dyn_cast_or_null<linalg::GenericOp>(getNextStep(a.max));
  if (!a.exp || !isRowwise(a.exp, current, rowValues, rank) ||
      !isShiftedExp(a.exp))
    return std::nullopt;
  Value exps = a.exp.getDpsInitOperand(0)->get();
  if (!matchFilledRowReduction<arith::AddFOp>(getNextStep(a.exp), exps, rank,
                                              zero, a.sumFill, a.sum))
    return std::nullopt;
  Value sums = a.sumFill.getDpsInitOperand(0)->get();
  a.normalize = dyn_cast_or_null<linalg::GenericOp>(getNextStep(a.sum));
  if (!a.normalize || !isRowwise(a.normalize, exps, sums, rank) ||
      !isQuotient(a.normalize))
    return std::nullopt;
  Value probabilities = a.normalize.getDpsInitOperand(0)->get();

  // The probabilities times V, from zero.
  auto outputFill = dyn_cast_or_null<linalg::FillOp>(getNextStep(a.normalize));
  if (!outputFill)
    return std::nullopt;
  a.output = dyn_cast_or_null<linalg::LinalgOp>(getNextStep(outputFill));
  if (!a.output)
    return std::nullopt;
  std::optional<linalg::ContractionDimensions> outputDims =
      getTileableContraction(a.output);
  if (!outputDims || !isPlainProduct(a.output) ||
      outputDims->batch.size() != scoreDims->batch.size())
    return std::nullopt;
  a.outputDims = *outputDims;
  a.outputFill = getFusableFill(a.output);
  if (a.outputFill != outputFill ||
      !asFill(outputFill, outputFill.getDpsInitOperand(0)->get(), zero))
    return std::nullopt;
  unsigned om = outputDims->m.front(), on = outputDims->n.front(),
           ok = outputDims->k.front();
  if (a.output.getDpsInputOperand(0)->get() != probabilities ||
      !readsInOrder(a.output, *a.output.getDpsInputOperand(0), *outputDims, om,
                    ok) ||
      !readsInOrder(a.output, *a.output.getDpsInitOperand(0), *outputDims, om,
                    on))
    return std::nullopt;
  // An elementwise op on O right after it: the kernel stores its values
  // instead of O's (O is then a buffer only these ops use).
  Value product = a.output.getDpsInitOperand(0)->get();
  if (auto epilogue =
          dyn_cast_or_null<linalg::GenericOp>(getNextStep(a.output));
      epilogue && isElementwiseEpilogue(epilogue, product) &&
      hasEffectFreePayload(epilogue) &&
      isF32Buffer(epilogue.getDpsInitOperand(0)->get()))
    a.outputEpilogue = epilogue;

  // Shapes the kernel takes: any number of queries and keys (the last
  // tiles partial), depths of 16 to 64.
  SmallVector<int64_t> scoreRanges = scores.getStaticLoopRanges();
  SmallVector<int64_t> outputRanges = a.output.getStaticLoopRanges();
  a.batch = scoreDims->batch.empty() ? 1 : scoreRanges[scoreDims->batch[0]];
  a.rows = scoreRanges[m];
  a.keys = scoreRanges[n];
  a.depth = scoreRanges[k];
  a.valueDepth = outputRanges[on];
  if (a.rows < 1 || a.keys < 1 || a.depth % 16 != 0 ||
      a.depth > kAttentionTile || a.valueDepth % 16 != 0 ||
      a.valueDepth > kAttentionTile || outputRanges[om] != a.rows ||
      outputRanges[ok] != a.keys ||
      (!outputDims->batch.empty() &&
       outputRanges[outputDims->batch[0]] != a.batch))
    return std::nullopt;

  // K^T in a buffer of its own, made just before: K is read instead.
  Value keys = scores.getDpsInputOperand(1)->get();
  Operation *before = a.scoresFill->getPrevNode();
  while (before && isNeutral(before))
    before = before->getPrevNode();
  if (auto transpose = dyn_cast_or_null<linalg::TransposeOp>(before);
      transpose && transpose.getInit() == keys) {
    ArrayRef<int64_t> permutation = transpose.getPermutation();
    int64_t last = permutation.size() - 1;
    bool swapsLastTwo = last >= 1 && permutation[last] == last - 1 &&
                        permutation[last - 1] == last;
    for (int64_t dim = 0; dim + 1 < last; ++dim)
      swapsLastTwo &= permutation[dim] == dim;
    if (swapsLastTwo)
      a.keysTranspose = transpose;
  }

  // What the kernel does not write must be buffers nothing else reads;
  // what it reads, buffers it does not write.
  SmallVector<Operation *> ops = a.getOps();
  llvm::SmallPtrSet<Operation *, 16> opSet(ops.begin(), ops.end());
  SmallVector<Value> internal = {scoresOut->get(), rowValues, exps, sums,
                                 probabilities};
  for (linalg::GenericOp step : a.steps)
    internal.push_back(step.getDpsInitOperand(0)->get());
  if (a.keysTranspose)
    internal.push_back(keys);
  SmallVector<Value> reads = {scores.getDpsInputOperand(0)->get(),
                              a.output.getDpsInputOperand(1)->get(),
                              a.keysTranspose ? a.keysTranspose.getInput()
                                              : keys};
  for (auto [step, stepScores] : llvm::zip(a.steps, a.stepScores))
    for (OpOperand *input : step.getDpsInputOperands())
      if (input->get() != stepScores)
        reads.push_back(input->get());
  Value result = product;
  if (a.outputEpilogue) {
    result = a.outputEpilogue.getDpsInitOperand(0)->get();
    if (result != product)
      internal.push_back(product);
    for (OpOperand *input : a.outputEpilogue.getDpsInputOperands())
      if (input->get() != product)
        reads.push_back(input->get());
  }
  SmallVector<Value> writes = {result};
  // The result's buffer may have held the scores (bufferization reuses
  // it): the last op overwrites all of it, and nothing else uses it.
  for (Value buffer : internal)
    if (buffer == result ? !isUsedOnlyBy(buffer, opSet)
                         : !isPrivate(buffer, opSet))
      return std::nullopt;
  // (Blocks write their rows of the result while others read every row of
  // K and V: no read may overlap it, through a view either.)
  for (Value read : reads)
    if (llvm::is_contained(internal, read) ||
        (isa<MemRefType>(read.getType()) &&
         llvm::any_of(writes,
                      [&](Value write) { return mayAlias(read, write); })))
      return std::nullopt;
  for (Value write : writes)
    if (write != result && llvm::is_contained(internal, write))
      return std::nullopt;
  return a;
}

namespace {

/// Column `column` of row `row` of a 64-wide shared tile whose 4-element
/// groups are XOR-swizzled by the row: a warp's stores along rows and its
/// vector loads along columns then spread over the banks.
Value swizzle(const IndexBuilder &ix, Value row, Value column) {
  return arith::XOrIOp::create(ix.rewriter, ix.loc, column,
                               ix.mul(ix.rem(row, 16), 4));
}

/// The scalar `op`'s body computes at loop indices `loops`, with the
/// operand `scores` standing for `score` and the other inputs loaded.
Value applyStep(RewriterBase &rewriter, Location loc, linalg::GenericOp op,
                Value scores, Value score, ArrayRef<Value> loops) {
  IRMapping mapping;
  for (OpOperand *input : op.getDpsInputOperands()) {
    BlockArgument argument = op.getMatchingBlockArgument(input);
    if (input->get() == scores) {
      mapping.map(argument, score);
      continue;
    }
    SmallVector<Value> indices;
    for (AffineExpr result : op.getMatchingIndexingMap(input).getResults())
      indices.push_back(loops[cast<AffineDimExpr>(result).getPosition()]);
    mapping.map(argument,
                memref::LoadOp::create(rewriter, loc, input->get(), indices));
  }
  Block *body = op.getBlock();
  for (Operation &payload : body->without_terminator()) {
    if (auto index = dyn_cast<linalg::IndexOp>(payload)) {
      mapping.map(index.getResult(), loops[index.getDim()]);
      continue;
    }
    rewriter.clone(payload, mapping);
  }
  return mapping.lookupOrDefault(body->getTerminator()->getOperand(0));
}

/// The body of a two-input elementwise op applied to `lhs` and `rhs`.
Value applyBinary(RewriterBase &rewriter, linalg::GenericOp op, Value lhs,
                  Value rhs) {
  IRMapping mapping;
  Block *body = op.getBlock();
  mapping.map(body->getArgument(0), lhs);
  mapping.map(body->getArgument(1), rhs);
  for (Operation &payload : body->without_terminator())
    rewriter.clone(payload, mapping);
  return mapping.lookupOrDefault(body->getTerminator()->getOperand(0));
}

} // namespace

gpu::LaunchOp lowerAttentionToBlocks(RewriterBase &rewriter,
                                     const Attention &attention,
                                     scf::ForallOp loop) {
  Attention a = attention;
  Operation *last = a.outputEpilogue ? a.outputEpilogue.getOperation()
                                     : a.output.getOperation();
  Location loc = a.output.getLoc();
  MLIRContext *context = rewriter.getContext();
  rewriter.setInsertionPoint(last);
  IndexBuilder ix{rewriter, loc};
  const int64_t tile = kAttentionTile;
  const int64_t threads = kAttentionThreads;
  const int64_t vector = 4;
  Type f32 = rewriter.getF32Type();
  auto workgroup =
      gpu::AddressSpaceAttr::get(context, gpu::AddressSpace::Workgroup);
  // Q^T and K^T of a tile (depth x 64, swizzled), reused for P^T of a
  // tile (64 keys x 64 rows, swizzled), and V of a tile (64 x its depth).
  auto queriesType = MemRefType::get({a.depth, tile}, f32,
                                     MemRefLayoutAttrInterface(), workgroup);
  auto keysType = MemRefType::get({tile, tile}, f32,
                                  MemRefLayoutAttrInterface(), workgroup);
  auto valuesType = MemRefType::get({tile, a.valueDepth}, f32,
                                    MemRefLayoutAttrInterface(), workgroup);
  int64_t rowTiles = llvm::divideCeil(a.rows, tile);
  SmallVector<Type> shared = {queriesType, keysType, valuesType};
  gpu::LaunchOp launch =
      loop ? createLaunchFromLoop(rewriter, loop, threads, 1, shared,
                                  a.batch * rowTiles)
           : createLaunch(rewriter, loc, ix.constant(a.batch * rowTiles),
                          ix.constant(threads), ix.constant(1), shared);
  // The kernel is built at the attention's last op, in the loop's body.
  if (loop)
    rewriter.setInsertionPoint(last);
  Value sharedQueries = launch.getWorkgroupAttributions()[0];
  Value sharedKeys = launch.getWorkgroupAttributions()[1];
  Value sharedValues = launch.getWorkgroupAttributions()[2];

  // Thread (x, y) of 16 x 16 owns rows 4y..4y+3 of the block's queries
  // and, per key tile, keys 4x..4x+3 of the scores and columns 4x..4x+3
  // of the output.
  Value thread = launch.getThreadIds().x;
  Value x = ix.rem(thread, 16), y = ix.div(thread, 16);
  // With V narrower than the tile, threads x < depth / 4 own its columns.
  Value hasColumns;
  if (a.valueDepth < tile)
    hasColumns = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ult,
                                       x, ix.constant(a.valueDepth / vector));
  Value block = launch.getBlockIds().x;
  if (loop)
    block = ix.rem(block, a.batch * rowTiles);
  Value batch = ix.div(block, rowTiles);
  Value firstRow = ix.mul(ix.rem(block, rowTiles), tile);
  Value zeroIndex = ix.constant(0);
  // A partial last tile of rows starts at rows - 64 instead, overlapping
  // the tile before it, whose rows it computes but does not store (two
  // blocks' stores of one element race): no row needs a clamp, which cost
  // 64 registers. With fewer than 64 rows, and in a partial last tile of
  // keys, rows and keys past the end read the last one (their values are
  // not stored, their scores are -inf and V's rows 0).
  Value ownedRow;
  if (a.rows > tile && a.rows % tile != 0) {
    ownedRow = firstRow;
    firstRow = arith::MinUIOp::create(rewriter, loc, firstRow,
                                      ix.constant(a.rows - tile));
  }
  bool partialRows = a.rows < tile, partialKeys = a.keys % tile != 0;
  auto clamp = [&](Value index, int64_t size, bool partial) -> Value {
    if (!partial)
      return index;
    return arith::MinUIOp::create(rewriter, loc, index, ix.constant(size - 1));
  };
  auto isBefore = [&](Value index, int64_t size) -> Value {
    return arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ult,
                                 index, ix.constant(size));
  };

  const linalg::ContractionDimensions &sd = a.scoreDims;
  const linalg::ContractionDimensions &od = a.outputDims;
  auto scoreLoops = [&](Value row, Value key, Value depth) {
    SmallVector<Value> loops(a.scores.getNumLoops(), zeroIndex);
    if (!sd.batch.empty())
      loops[sd.batch.front()] = batch;
    loops[sd.m.front()] = row;
    loops[sd.n.front()] = key;
    loops[sd.k.front()] = depth;
    return loops;
  };
  auto outputLoops = [&](Value row, Value column, Value key) {
    SmallVector<Value> loops(a.output.getNumLoops(), zeroIndex);
    if (!od.batch.empty())
      loops[od.batch.front()] = batch;
    loops[od.m.front()] = row;
    loops[od.n.front()] = column;
    loops[od.k.front()] = key;
    return loops;
  };
  auto load = [&](linalg::LinalgOp op, OpOperand &operand,
                  ArrayRef<Value> loops) -> Value {
    return memref::LoadOp::create(rewriter, loc, operand.get(),
                                  getIndices(op, operand, loops));
  };
  OpOperand &queries = *a.scores.getDpsInputOperand(0);
  OpOperand &keys = *a.scores.getDpsInputOperand(1);
  OpOperand &values = *a.output.getDpsInputOperand(1);
  auto loadKey = [&](Value key, Value depth) -> Value {
    SmallVector<Value> indices =
        getIndices(a.scores, keys, scoreLoops(zeroIndex, key, depth));
    if (!a.keysTranspose)
      return memref::LoadOp::create(rewriter, loc, keys.get(), indices);
    // K^T[i] = K[j] with j[permutation[d]] = i[d].
    ArrayRef<int64_t> permutation = a.keysTranspose.getPermutation();
    SmallVector<Value> source(indices.size());
    for (auto [dim, index] : llvm::enumerate(indices))
      source[permutation[dim]] = index;
    return memref::LoadOp::create(rewriter, loc, a.keysTranspose.getInput(),
                                  source);
  };

  // A depth x 64 tile of `read(row, depth)`, transposed into `shared`:
  // consecutive threads read consecutive depths.
  auto stageTransposed = [&](Value shared,
                             function_ref<Value(Value, Value)> read) {
    for (int64_t step = 0; step < tile * a.depth / threads; ++step) {
      Value element = ix.addConstant(thread, step * threads);
      Value row = ix.div(element, a.depth);
      Value depth = ix.rem(element, a.depth);
      memref::StoreOp::create(rewriter, loc, read(row, depth), shared,
                              ValueRange{depth, swizzle(ix, depth, row)});
    }
  };
  stageTransposed(sharedQueries, [&](Value row, Value depth) {
    return load(a.scores, queries,
                scoreLoops(clamp(ix.add(firstRow, row), a.rows, partialRows),
                           zeroIndex, depth));
  });

  auto floatConstant = [&](const APFloat &value) -> Value {
    return arith::ConstantOp::create(rewriter, loc, f32,
                                     rewriter.getFloatAttr(f32, value));
  };
  Value zero = floatConstant(APFloat::getZero(APFloat::IEEEsingle()));
  Value minusInfinity =
      floatConstant(APFloat::getInf(APFloat::IEEEsingle(), true));
  Value maxStart = a.maxFill.getDpsInputOperand(0)->get();
  ReductionCombine maxCombine = getReductionCombine(a.max);
  ReductionCombine sumCombine = getReductionCombine(a.sum);
  auto vectorType = VectorType::get({vector}, f32);
  auto loadVector = [&](Value shared, Value row, Value column) {
    Value loaded = vector::LoadOp::create(
        rewriter, loc, vectorType, shared, ValueRange{row, column},
        /*nontemporal=*/false, llvm::MaybeAlign(vector * 4));
    SmallVector<Value> elements;
    for (int64_t i = 0; i < vector; ++i)
      elements.push_back(vector::ExtractOp::create(rewriter, loc, loaded, i));
    return elements;
  };
  // The value of `combine` over the 16 threads of a row (lanes l and
  // l ^ 1, 2, 4, 8 of a warp).
  auto acrossRow = [&](const ReductionCombine &combine, Value value) {
    for (int64_t offset = 1; offset < 16; offset *= 2) {
      Value other = gpu::ShuffleOp::create(rewriter, loc, value, offset, 32,
                                           gpu::ShuffleMode::XOR)
                        .getShuffleResult();
      value = combine.apply(rewriter, other, value);
    }
    return value;
  };

  // Per thread: its 4 x 4 output accumulators, then each row's maximum
  // and sum so far.
  SmallVector<Value> initial(vector * vector, zero);
  initial.append(vector, maxStart);
  initial.append(vector, zero);
  Value scoresStart = a.scoresFill.getDpsInputOperand(0)->get();
  auto keyTiles = scf::ForOp::create(
      rewriter, loc, zeroIndex, ix.constant(a.keys), ix.constant(tile), initial,
      [&](OpBuilder &builder, Location, Value firstKey, ValueRange carried) {
        OpBuilder::InsertionGuard guard(rewriter);
        rewriter.setInsertionPointToStart(builder.getInsertionBlock());
        SmallVector<Value> output(carried.take_front(vector * vector));
        SmallVector<Value> maxima(carried.slice(vector * vector, vector));
        SmallVector<Value> sums(carried.take_back(vector));

        stageTransposed(sharedKeys, [&](Value key, Value depth) {
          return loadKey(clamp(ix.add(firstKey, key), a.keys, partialKeys),
                         depth);
        });
        for (int64_t step = 0; step < tile * a.valueDepth / threads; ++step) {
          Value element = ix.addConstant(thread, step * threads);
          Value key = ix.div(element, a.valueDepth);
          Value column = ix.rem(element, a.valueDepth);
          Value valueKey = ix.add(firstKey, key);
          Value value = load(a.output, values,
                             outputLoops(zeroIndex, column,
                                         clamp(valueKey, a.keys, partialKeys)));
          // (0, not the last row again: 0 * inf would be NaN.)
          if (partialKeys)
            value = arith::SelectOp::create(
                rewriter, loc, isBefore(valueKey, a.keys), value, zero);
          memref::StoreOp::create(rewriter, loc, value, sharedValues,
                                  ValueRange{key, column});
        }
        gpu::BarrierOp::create(rewriter, loc);

        // S = Q K^T for the thread's 4 x 4 scores.
        SmallVector<Value> start(vector * vector, scoresStart);
        auto depthLoop = scf::ForOp::create(
            rewriter, loc, zeroIndex, ix.constant(a.depth), ix.constant(16),
            start,
            [&](OpBuilder &inner, Location, Value firstDepth,
                ValueRange accumulators) {
              OpBuilder::InsertionGuard innerGuard(rewriter);
              rewriter.setInsertionPointToStart(inner.getInsertionBlock());
              SmallVector<Value> partial(accumulators);
              for (int64_t step = 0; step < 16; ++step) {
                Value depth = ix.addConstant(firstDepth, step);
                // (depth % 16 == step: the swizzle is a constant.)
                SmallVector<Value> queryColumn =
                    loadVector(sharedQueries, depth,
                               ix.mul(ix.xorConstant(y, step), vector));
                SmallVector<Value> keyRow = loadVector(
                    sharedKeys, depth, ix.mul(ix.xorConstant(x, step), vector));
                for (int64_t i = 0; i < vector; ++i)
                  for (int64_t j = 0; j < vector; ++j)
                    partial[i * vector + j] =
                        accumulate(rewriter, a.scores, queryColumn[i],
                                   keyRow[j], partial[i * vector + j]);
              }
              scf::YieldOp::create(rewriter, loc, partial);
            });
        SmallVector<Value> scores(depthLoop.getResults());

        // The elementwise steps, then the online softmax per row.
        Value rowBase = ix.add(firstRow, ix.mul(y, vector));
        Value keyBase = ix.add(firstKey, ix.mul(x, vector));
        for (int64_t i = 0; i < vector; ++i)
          for (int64_t j = 0; j < vector; ++j) {
            Value key = ix.addConstant(keyBase, j);
            SmallVector<Value> loops = {
                clamp(ix.addConstant(rowBase, i), a.rows, partialRows),
                clamp(key, a.keys, partialKeys)};
            if (!sd.batch.empty())
              loops.insert(loops.begin(), batch);
            Value &score = scores[i * vector + j];
            for (auto [step, stepScores] : llvm::zip(a.steps, a.stepScores))
              score = applyStep(rewriter, loc, step, stepScores, score, loops);
            if (partialKeys)
              score = arith::SelectOp::create(
                  rewriter, loc, isBefore(key, a.keys), score, minusInfinity);
          }
        SmallVector<Value> probabilities(vector * vector);
        for (int64_t i = 0; i < vector; ++i) {
          Value tileMax = scores[i * vector];
          for (int64_t j = 1; j < vector; ++j)
            tileMax =
                maxCombine.apply(rewriter, scores[i * vector + j], tileMax);
          Value newMax = maxCombine.apply(
              rewriter, acrossRow(maxCombine, tileMax), maxima[i]);
          // While every score of the row is -inf, exp(score - max) would
          // be NaN: shifting by 0 gives the zeros the row's terms are
          // (a row that stays -inf divides 0 by 0 at the end: NaN, as
          // without fusion).
          Value unbounded = arith::CmpFOp::create(
              rewriter, loc, arith::CmpFPredicate::OEQ, newMax, minusInfinity);
          Value shift =
              arith::SelectOp::create(rewriter, loc, unbounded, zero, newMax);
          Value rescale = applyBinary(rewriter, a.exp, maxima[i], shift);
          Value tileSum;
          for (int64_t j = 0; j < vector; ++j) {
            Value p =
                applyBinary(rewriter, a.exp, scores[i * vector + j], shift);
            probabilities[i * vector + j] = p;
            tileSum = tileSum ? sumCombine.apply(rewriter, p, tileSum) : p;
          }
          Value rescaled =
              arith::MulFOp::create(rewriter, loc, sums[i], rescale);
          sums[i] = sumCombine.apply(rewriter, acrossRow(sumCombine, tileSum),
                                     rescaled);
          for (int64_t c = 0; c < vector; ++c)
            output[i * vector + c] = arith::MulFOp::create(
                rewriter, loc, output[i * vector + c], rescale);
          maxima[i] = newMax;
        }

        // P^T into K's place once every thread is done with K.
        gpu::BarrierOp::create(rewriter, loc);
        for (int64_t j = 0; j < vector; ++j) {
          SmallVector<Value> column;
          for (int64_t i = 0; i < vector; ++i)
            column.push_back(probabilities[i * vector + j]);
          Value key = ix.addConstant(ix.mul(x, vector), j);
          Value packed =
              vector::FromElementsOp::create(rewriter, loc, vectorType, column);
          vector::StoreOp::create(
              rewriter, loc, packed, sharedKeys,
              ValueRange{key, swizzle(ix, key, ix.mul(y, vector))},
              /*nontemporal=*/false, llvm::MaybeAlign(vector * 4));
        }
        gpu::BarrierOp::create(rewriter, loc);

        // O += P V, by the threads that own columns of V.
        scf::IfOp ownsColumns;
        if (hasColumns) {
          ownsColumns = scf::IfOp::create(rewriter, loc, TypeRange(output),
                                          hasColumns, /*withElseRegion=*/true);
          rewriter.setInsertionPointToStart(ownsColumns.elseBlock());
          scf::YieldOp::create(rewriter, loc, output);
          rewriter.setInsertionPointToStart(ownsColumns.thenBlock());
        }
        auto keyLoop = scf::ForOp::create(
            rewriter, loc, zeroIndex, ix.constant(tile), ix.constant(16),
            output,
            [&](OpBuilder &inner, Location, Value firstKeyOfGroup,
                ValueRange accumulators) {
              OpBuilder::InsertionGuard innerGuard(rewriter);
              rewriter.setInsertionPointToStart(inner.getInsertionBlock());
              SmallVector<Value> partial(accumulators);
              for (int64_t step = 0; step < 16; ++step) {
                Value key = ix.addConstant(firstKeyOfGroup, step);
                SmallVector<Value> pColumn = loadVector(
                    sharedKeys, key, ix.mul(ix.xorConstant(y, step), vector));
                SmallVector<Value> valueRow =
                    loadVector(sharedValues, key, ix.mul(x, vector));
                for (int64_t i = 0; i < vector; ++i)
                  for (int64_t c = 0; c < vector; ++c)
                    partial[i * vector + c] =
                        accumulate(rewriter, a.output, pColumn[i], valueRow[c],
                                   partial[i * vector + c]);
              }
              scf::YieldOp::create(rewriter, loc, partial);
            });
        SmallVector<Value> next(keyLoop.getResults());
        if (ownsColumns) {
          scf::YieldOp::create(rewriter, loc, next);
          rewriter.setInsertionPointAfter(ownsColumns);
          next.assign(ownsColumns.getResults().begin(),
                      ownsColumns.getResults().end());
        }
        // The next tile's K and V replace these once every thread is done.
        gpu::BarrierOp::create(rewriter, loc);
        next.append(maxima);
        next.append(sums);
        scf::YieldOp::create(rewriter, loc, next);
      });

  // O / sum, through the epilogue.
  OpOperand &out = *a.output.getDpsInitOperand(0);
  if (hasColumns) {
    auto stores = scf::IfOp::create(rewriter, loc, hasColumns);
    rewriter.setInsertionPointToStart(stores.thenBlock());
  }
  for (int64_t i = 0; i < vector; ++i) {
    Value sum = keyTiles.getResult(vector * vector + vector + i);
    Value row = ix.add(firstRow, ix.addConstant(ix.mul(y, vector), i));
    OpBuilder::InsertionGuard guard(rewriter);
    if (partialRows) {
      auto inRange = scf::IfOp::create(rewriter, loc, isBefore(row, a.rows));
      rewriter.setInsertionPointToStart(inRange.thenBlock());
    }
    if (ownedRow) {
      auto owned = scf::IfOp::create(
          rewriter, loc,
          arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::uge, row,
                                ownedRow));
      rewriter.setInsertionPointToStart(owned.thenBlock());
    }
    for (int64_t c = 0; c < vector; ++c) {
      Value column = ix.addConstant(ix.mul(x, vector), c);
      Value value = arith::DivFOp::create(
          rewriter, loc, keyTiles.getResult(i * vector + c), sum);
      SmallVector<Value> element =
          getIndices(a.output, out, outputLoops(row, column, zeroIndex));
      if (!a.outputEpilogue) {
        memref::StoreOp::create(rewriter, loc, value, out.get(), element);
        continue;
      }
      linalg::GenericOp epilogue = a.outputEpilogue;
      IRMapping mapping;
      for (OpOperand &operand : epilogue->getOpOperands()) {
        BlockArgument argument = epilogue.getMatchingBlockArgument(&operand);
        if (operand.get() == out.get()) {
          mapping.map(argument, value);
          continue;
        }
        if (epilogue.isDpsInit(&operand) &&
            !epilogue.payloadUsesValueFromOperand(&operand))
          continue;
        SmallVector<Value> indices;
        for (AffineExpr result :
             epilogue.getMatchingIndexingMap(&operand).getResults())
          indices.push_back(element[cast<AffineDimExpr>(result).getPosition()]);
        mapping.map(argument, memref::LoadOp::create(rewriter, loc,
                                                     operand.get(), indices));
      }
      Block *body = epilogue.getBlock();
      for (Operation &payload : body->without_terminator())
        rewriter.clone(payload, mapping);
      memref::StoreOp::create(
          rewriter, loc, mapping.lookup(body->getTerminator()->getOperand(0)),
          epilogue.getDpsInitOperand(0)->get(), element);
    }
  }

  rewriter.setInsertionPointAfter(launch);
  SmallVector<Operation *> ops = a.getOps();
  llvm::SetVector<Value> buffers;
  for (Operation *op : ops)
    for (Value init : cast<DestinationStyleOpInterface>(op).getDpsInits())
      buffers.insert(init);
  for (Operation *op : llvm::reverse(ops))
    rewriter.eraseOp(op);
  // The scores' and the rows' buffers are no longer used: no allocation
  // (the scores of 16x1024x64 took 64 MiB).
  for (Value buffer : buffers) {
    Operation *alloc = buffer.getDefiningOp();
    if (!isa_and_nonnull<gpu::AllocOp, memref::AllocOp>(alloc) ||
        !llvm::all_of(buffer.getUsers(), [](Operation *user) {
          return isa<gpu::DeallocOp, memref::DeallocOp>(user);
        }))
      continue;
    for (Operation *user : llvm::make_early_inc_range(buffer.getUsers()))
      rewriter.eraseOp(user);
    if (alloc->use_empty())
      rewriter.eraseOp(alloc);
  }
  return launch;
}

} // namespace mlir::google::kernels
