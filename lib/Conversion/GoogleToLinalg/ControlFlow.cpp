//===- ControlFlow.cpp - google.if / google.while to scf ------------------===//

#include "Utils.h"

#include "Dialect/Google/IR/GoogleOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::google;

namespace {

/// The i1 a rank-0 boolean tensor holds.
Value extractCondition(OpBuilder &b, Location loc, Value condition) {
  return tensor::ExtractOp::create(b, loc, condition, ValueRange());
}

/// google.if => scf.if on the extracted condition, the regions moved.
struct IfToScf : public OpConversionPattern<IfOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(IfOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value condition =
        extractCondition(rewriter, op.getLoc(), adaptor.getCondition());
    auto ifOp = scf::IfOp::create(rewriter, op.getLoc(), op.getResultTypes(),
                                  condition, /*addThenBlock=*/false,
                                  /*addElseBlock=*/false);
    rewriter.inlineRegionBefore(op.getThenRegion(), ifOp.getThenRegion(),
                                ifOp.getThenRegion().end());
    rewriter.inlineRegionBefore(op.getElseRegion(), ifOp.getElseRegion(),
                                ifOp.getElseRegion().end());
    rewriter.replaceOp(op, ifOp.getResults());
    return success();
  }
};

/// A google.while that counts: its cond only compares one state value, an
/// integer scalar (the counter), with a bound the loop does not change, and
/// its body steps the counter by a constant toward the bound (fori_loop,
/// scan, and the backward loops of their gradients). Such a loop runs a
/// number of times known on entry.
struct CountedLoop {
  unsigned counter;
  /// The bound: a constant, or a value defined above the loop.
  Value bound;
  std::optional<APInt> constantBound;
  /// Whether the loop counts up (`counter < bound`, `counter <= bound`);
  /// otherwise it counts down (`>`, `>=`).
  bool up;
  /// Whether the comparison is strict (`<`, `>`).
  bool strict;
  /// The step's magnitude (its sign is the direction).
  APInt stride;
  /// For each state value, the (signed) constant the body steps it by, if
  /// it does (the counter does): it is first + iteration * step.
  SmallVector<std::optional<APInt>> steps;
};

bool isCounterType(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor || tensor.getRank() != 0)
    return false;
  auto integer = dyn_cast<IntegerType>(tensor.getElementType());
  return integer && integer.isSignless() && integer.getWidth() > 1 &&
         integer.getWidth() <= 64;
}

std::optional<CountedLoop> matchCountedLoop(WhileOp op) {
  Block &cond = op.getCond().front();
  auto condition = cast<ConditionOp>(cond.getTerminator());
  Operation *compare = condition.getCondition().getDefiningOp();
  if (!compare || compare->getBlock() != &cond)
    return std::nullopt;
  for (Operation &nested : cond.without_terminator())
    if (&nested != compare && !isa<ConstantOp>(nested))
      return std::nullopt;
  // The comparison with the counter on the left.
  bool up, strict;
  if (isa<LtOp>(compare))
    up = true, strict = true;
  else if (isa<LeOp>(compare))
    up = true, strict = false;
  else if (isa<GtOp>(compare))
    up = false, strict = true;
  else if (isa<GeOp>(compare))
    up = false, strict = false;
  else
    return std::nullopt;
  Value lhs = compare->getOperand(0), rhs = compare->getOperand(1);
  auto counterArg = dyn_cast<BlockArgument>(lhs);
  Value bound = rhs;
  if (!counterArg || counterArg.getOwner() != &cond) {
    counterArg = dyn_cast<BlockArgument>(rhs);
    bound = lhs;
    up = !up; // `bound < counter` is `counter > bound`.
  }
  if (!counterArg || counterArg.getOwner() != &cond ||
      !isCounterType(counterArg.getType()) ||
      bound.getType() != counterArg.getType())
    return std::nullopt;
  CountedLoop loop{
      counterArg.getArgNumber(), bound, std::nullopt, up, strict, APInt(), {}};
  APInt boundValue;
  if (matchPattern(bound, m_ConstantInt(&boundValue)))
    loop.constantBound = boundValue;
  // Otherwise the bound is defined above the loop. (A block without a
  // region: an enclosing loop's body, being converted.)
  Region *boundRegion = bound.getParentRegion();
  if (!loop.constantBound && boundRegion &&
      op->isAncestor(boundRegion->getParentOp()))
    return std::nullopt;

  for (unsigned index = 0; index < op.getInit().size(); ++index)
    loop.steps.push_back(isCounterType(op.getInit()[index].getType())
                             ? op.getStateStep(index)
                             : std::nullopt);
  if (!loop.steps[loop.counter])
    return std::nullopt;
  const APInt &step = *loop.steps[loop.counter];
  if (step.isZero() || step.isNegative() == up || step.isMinSignedValue())
    return std::nullopt;
  loop.stride = step.abs();
  // The counter must not wrap around before the comparison stops the loop:
  // its last value and one step more stay representable. Proven for a
  // constant bound; for another bound, with steps of one and a strict
  // comparison.
  if (!loop.constantBound) {
    if (!loop.stride.isOne() || !strict)
      return std::nullopt;
    return loop;
  }
  bool overflow = false;
  // The last value is at most bound - 1 (strict) or bound, up; at least
  // bound + 1 or bound, down.
  APInt reach = strict ? loop.stride - 1 : loop.stride;
  if (up)
    (void)loop.constantBound->sadd_ov(reach, overflow);
  else
    (void)loop.constantBound->ssub_ov(reach, overflow);
  if (overflow)
    return std::nullopt;
  return loop;
}

/// How many times `loop` runs (an i64) when its counter starts at `first`
/// (a scalar of the counter's type); `bound` is the bound's tensor unless it
/// is a constant.
Value buildTripCount(OpBuilder &b, Location loc, const CountedLoop &loop,
                     Value first, Value bound) {
  Type i64 = b.getI64Type();
  auto widen = [&](Value element) -> Value {
    if (element.getType() == i64)
      return element;
    return arith::ExtSIOp::create(b, loc, i64, element);
  };
  auto constant = [&](int64_t value) -> Value {
    return arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(value));
  };
  Value start = widen(first);
  Value last =
      loop.constantBound
          ? constant(loop.constantBound->getSExtValue())
          : widen(tensor::ExtractOp::create(b, loc, bound, ValueRange()));
  Value from = loop.up ? start : last, to = loop.up ? last : start;
  // The loop runs while from < to (strict) or from <= to; its steps then
  // cover to - from, exact as an unsigned number.
  Value runs = arith::CmpIOp::create(b, loc,
                                     loop.strict ? arith::CmpIPredicate::slt
                                                 : arith::CmpIPredicate::sle,
                                     from, to);
  Value distance = arith::SubIOp::create(b, loc, to, from);
  Value stride = constant(loop.stride.getZExtValue());
  Value count;
  if (loop.strict)
    count = arith::CeilDivUIOp::create(b, loc, distance, stride);
  else
    count = arith::AddIOp::create(
        b, loc, arith::DivUIOp::create(b, loc, distance, stride), constant(1));
  Value zero = constant(0);
  count = arith::SelectOp::create(b, loc, runs, count, zero);
  // More than 2^63 steps (an i64 counter's): a loop that never ends either
  // way, not one that never starts.
  Value endless =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, count, zero);
  return arith::SelectOp::create(
      b, loc, endless, constant(std::numeric_limits<int64_t>::max()), count);
}

/// A stepped state value after `steps` steps (an index or an i64) from
/// `first`, as a rank-0 tensor of `type`: first + steps * step, wrapping
/// around as the loop's own additions would.
Value buildInductionValue(OpBuilder &b, Location loc, RankedTensorType type,
                          Value first, const APInt &step, Value steps) {
  Type element = type.getElementType();
  Value count = isa<IndexType>(steps.getType())
                    ? Value(arith::IndexCastOp::create(b, loc, element, steps))
                : element == steps.getType()
                    ? steps
                    : Value(arith::TruncIOp::create(b, loc, element, steps));
  Value stepValue =
      arith::ConstantOp::create(b, loc, b.getIntegerAttr(element, step));
  Value value = arith::AddIOp::create(
      b, loc, first, arith::MulIOp::create(b, loc, count, stepValue));
  return tensor::FromElementsOp::create(b, loc, type, value);
}

/// google.while => scf.for when it counts (see CountedLoop): the body runs
/// the computed number of times, the cond is dropped, and the stepped
/// state values (the counter among them) are computed from the induction
/// variable instead of carried. A for loop's state bufferizes in place where a
/// while loop's is copied every iteration, and a GPU's host code need not read
/// the condition back from the device each time. Otherwise => scf.while: `cond`
/// becomes the before region (its google.condition an scf.condition forwarding
/// the state), `body` the after region.
struct WhileToScf : public OpConversionPattern<WhileOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(WhileOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    if (std::optional<CountedLoop> counted = matchCountedLoop(op)) {
      // The stepped state values are not carried: each iteration computes
      // them from the induction variable, as scalars the host knows.
      unsigned count = op.getInit().size();
      SmallVector<Value> firsts(count), init;
      for (unsigned index = 0; index < count; ++index) {
        if (counted->steps[index])
          firsts[index] = tensor::ExtractOp::create(
              rewriter, loc, adaptor.getInit()[index], ValueRange());
        else
          init.push_back(adaptor.getInit()[index]);
      }
      Value bound = counted->constantBound
                        ? Value()
                        : rewriter.getRemappedValue(counted->bound);
      Value trips = buildTripCount(rewriter, loc, *counted,
                                   firsts[counted->counter], bound);
      Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
      Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
      auto forOp =
          scf::ForOp::create(rewriter, loc, zero,
                             arith::IndexCastOp::create(
                                 rewriter, loc, rewriter.getIndexType(), trips),
                             one, init);
      Block *body = forOp.getBody();
      if (!body->empty())
        rewriter.eraseOp(body->getTerminator());
      // The state at iteration `steps`: the loop's values, the stepped
      // ones computed.
      auto state = [&](ValueRange carried, Value steps) {
        SmallVector<Value> values;
        auto next = carried.begin();
        for (unsigned index = 0; index < count; ++index)
          values.push_back(
              counted->steps[index]
                  ? buildInductionValue(
                        rewriter, loc,
                        cast<RankedTensorType>(op.getInit()[index].getType()),
                        firsts[index], *counted->steps[index], steps)
                  : *next++);
        return values;
      };
      rewriter.setInsertionPointToStart(body);
      SmallVector<Value> arguments =
          state(forOp.getRegionIterArgs(), forOp.getInductionVar());
      Operation *yield = op.getBody().front().getTerminator();
      rewriter.modifyOpInPlace(yield, [&] {
        for (int index = count - 1; index >= 0; --index)
          if (counted->steps[index])
            yield->eraseOperand(index);
      });
      rewriter.mergeBlocks(&op.getBody().front(), body, arguments);
      rewriter.setInsertionPointAfter(forOp);
      rewriter.replaceOp(op, state(forOp.getResults(), trips));
      return success();
    }
    auto whileOp = scf::WhileOp::create(rewriter, loc, op.getResultTypes(),
                                        adaptor.getInit());
    rewriter.inlineRegionBefore(op.getCond(), whileOp.getBefore(),
                                whileOp.getBefore().end());
    rewriter.inlineRegionBefore(op.getBody(), whileOp.getAfter(),
                                whileOp.getAfter().end());
    rewriter.replaceOp(op, whileOp.getResults());
    return success();
  }
};

struct YieldToScf : public OpConversionPattern<YieldOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(YieldOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<scf::YieldOp>(op, adaptor.getValues());
    return success();
  }
};

struct ConditionToScf : public OpConversionPattern<ConditionOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ConditionOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value condition =
        extractCondition(rewriter, op.getLoc(), adaptor.getCondition());
    rewriter.replaceOpWithNewOp<scf::ConditionOp>(
        op, condition, op->getBlock()->getArguments());
    return success();
  }
};

/// Whether `tensor` is a rank-0 integer tensor whose scalar is known where
/// it is made: a tensor.from_elements, a constant or a fill.
bool isKnownScalar(Value tensor) {
  auto type = dyn_cast<RankedTensorType>(tensor.getType());
  if (!type || type.getRank() != 0 || !type.getElementType().isIntOrIndex())
    return false;
  if (auto fill = tensor.getDefiningOp<linalg::FillOp>())
    return fill.hasPureTensorSemantics();
  DenseIntElementsAttr attr;
  return tensor.getDefiningOp<tensor::FromElementsOp>() ||
         matchPattern(tensor, m_Constant(&attr));
}

/// The scalar of a tensor isKnownScalar accepts.
Value getKnownScalar(OpBuilder &b, Location loc, Value tensor) {
  if (auto made = tensor.getDefiningOp<tensor::FromElementsOp>())
    return made.getElements()[0];
  if (auto fill = tensor.getDefiningOp<linalg::FillOp>())
    return fill.getInputs()[0];
  DenseIntElementsAttr attr;
  (void)matchPattern(tensor, m_Constant(&attr));
  return arith::ConstantOp::create(b, loc, attr.getSplatValue<IntegerAttr>());
}

/// A rank-0 integer linalg.generic whose operands are known scalars (a
/// counted loop's counter, index checks on it, its arithmetic) becomes its
/// body's scalar ops: a GPU's host code then computes it instead of a
/// one-thread kernel whose result it reads back.
struct ScalarizeKnownRank0Generic : public OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    if (op.getNumLoops() != 0 || !op.hasPureTensorSemantics())
      return failure();
    Block *body = op.getBody();
    for (Operation &nested : body->without_terminator())
      if (nested.getNumRegions() != 0 || !isMemoryEffectFree(&nested))
        return failure();
    for (Value result : op->getResults())
      if (!cast<RankedTensorType>(result.getType())
               .getElementType()
               .isIntOrIndex())
        return failure();
    SmallVector<OpOperand *> read;
    for (OpOperand &operand : op->getOpOperands()) {
      if (op.isDpsInit(&operand) &&
          op.getMatchingBlockArgument(&operand).use_empty())
        continue;
      if (!isKnownScalar(operand.get()))
        return failure();
      read.push_back(&operand);
    }
    IRMapping mapping;
    for (OpOperand *operand : read)
      mapping.map(op.getMatchingBlockArgument(operand),
                  getKnownScalar(rewriter, op.getLoc(), operand->get()));
    for (Operation &nested : body->without_terminator())
      rewriter.clone(nested, mapping);
    SmallVector<Value> results;
    for (auto [result, yielded] :
         llvm::zip(op->getResults(), body->getTerminator()->getOperands()))
      results.push_back(tensor::FromElementsOp::create(
          rewriter, op.getLoc(), result.getType(),
          mapping.lookupOrDefault(yielded)));
    rewriter.replaceOp(op, results);
    return success();
  }
};

/// tensor.extract of a rank-0 tensor.from_elements: its scalar.
struct ExtractKnownScalar : public OpRewritePattern<tensor::ExtractOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tensor::ExtractOp op,
                                PatternRewriter &rewriter) const override {
    auto made = op.getTensor().getDefiningOp<tensor::FromElementsOp>();
    if (!made || op.getTensor().getType().getRank() != 0)
      return failure();
    rewriter.replaceOp(op, made.getElements()[0]);
    return success();
  }
};

} // namespace

void google::populateControlFlowToScfPatterns(RewritePatternSet &patterns) {
  patterns.add<IfToScf, WhileToScf, YieldToScf, ConditionToScf>(
      patterns.getContext());
}

void google::populateKnownScalarPatterns(RewritePatternSet &patterns) {
  patterns.add<ScalarizeKnownRank0Generic, ExtractKnownScalar>(
      patterns.getContext());
}
