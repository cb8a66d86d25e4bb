//===- Differentiate.cpp - --google-differentiate -------------------------===//
//
// Reverse accumulation over a function of google ops: the forward ops are
// cloned into the VJP function, then walked backwards, each op's adjoint
// rule (Adjoints.cpp) turning its results' cotangents into its operands'.
// Cotangents of a value used several times are summed. A google.if's
// adjoint is a google.if whose branches recompute the forward branch and
// differentiate it (a branch's values exist only inside it).
//
//===----------------------------------------------------------------------===//

#include "Adjoints.h"

#include "Dialect/Google/IR/GoogleDialect.h"
#include "Dialect/Google/IR/GoogleOps.h"
#include "Dialect/Google/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Transforms/RegionUtils.h"

namespace mlir::google {
#define GEN_PASS_DEF_DIFFERENTIATEPASS
#include "Dialect/Google/Transforms/Passes.h.inc"
} // namespace mlir::google

using namespace mlir;
using namespace mlir::google;

namespace {

/// The attribute of a declaration whose body the pass builds.
constexpr StringLiteral kVjpAttr = "google.vjp";

bool isFloatTensor(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && isa<FloatType>(tensor.getElementType());
}

/// The VJP's type: f's arguments and its results' cotangents, to f's
/// results and the cotangents of the `wrt` arguments.
FunctionType getVjpType(func::FuncOp function, ArrayRef<int64_t> wrt) {
  FunctionType type = function.getFunctionType();
  SmallVector<Type> inputs(type.getInputs());
  llvm::append_range(inputs, type.getResults());
  SmallVector<Type> results(type.getResults());
  for (int64_t position : wrt)
    results.push_back(type.getInput(position));
  return FunctionType::get(function.getContext(), inputs, results);
}

/// Checks that `function` can be differentiated with respect to `wrt`.
LogicalResult verifyDifferentiable(Operation *user, func::FuncOp function,
                                   ArrayRef<int64_t> wrt) {
  auto fail = [&]() {
    return user->emitError("google-differentiate: ");
  };
  if (function.isExternal() || !function.getBody().hasOneBlock())
    return fail() << "@" << function.getSymName()
                  << " is not a function of one block";
  for (Operation &op : function.getBody().front().without_terminator())
    if (!isa<GoogleDialect>(op.getDialect()) && !isa<func::CallOp>(op))
      return fail() << "@" << function.getSymName() << " has '"
                    << op.getName()
                    << "'; differentiate functions of google ops and calls";
  int64_t numInputs = function.getNumArguments();
  for (int64_t position : wrt) {
    if (position < 0 || position >= numInputs)
      return fail() << "argument " << position << " of @"
                    << function.getSymName() << " does not exist (it has "
                    << numInputs << ")";
    if (!isFloatTensor(function.getArgumentTypes()[position]))
      return fail() << "argument " << position << " of @"
                    << function.getSymName() << " is "
                    << function.getArgumentTypes()[position]
                    << "; gradients are taken with respect to float tensors";
  }
  return success();
}

/// Whether `shift`'s cotangent is exactly zero: c in c + log(sum(exp(x -
/// c))) summed over axes along which c is constant (the numerically
/// stable log-sum-exp, log(sum(exp(x))) whatever c is), used only there,
/// with one use of each value in between, so that every cotangent reaching
/// c cancels: ct_y through the add, -ct_y through the sub. A max as c then
/// needs no one-hot of its argmax (JAX's logsumexp stops its gradient).
bool isCancellingShift(Value shift) {
  if (!shift.hasNUses(2))
    return false;
  Operation *sub = nullptr, *add = nullptr;
  for (Operation *user : shift.getUsers()) {
    if (isa<SubOp>(user) && user->getOperand(1) == shift &&
        user->getOperand(0) != shift)
      sub = user;
    else if (isa<AddOp>(user) && user->getOperand(0) != user->getOperand(1))
      add = user;
  }
  auto onlyUser = [](Operation *op) -> Operation * {
    return op && op->getResult(0).hasOneUse() ? *op->getUsers().begin()
                                              : nullptr;
  };
  Operation *exp = onlyUser(sub);
  auto sum = dyn_cast_or_null<ReduceSumOp>(
      isa_and_nonnull<ExpOp>(exp) ? onlyUser(exp) : nullptr);
  Operation *log = onlyUser(sum);
  if (!add || !sum || !sum.getKeepDims() || !isa_and_nonnull<LogOp>(log) ||
      onlyUser(log) != add)
    return false;
  // c lines up with the sum (1 along its axes), x is not broadcast.
  auto shiftType = cast<RankedTensorType>(shift.getType());
  return shiftType == log->getResult(0).getType() &&
         sub->getOperand(0).getType() == sub->getResult(0).getType() &&
         llvm::all_of(sum.getNormalizedAxes(), [&](int64_t axis) {
           return shiftType.getDimSize(axis) == 1;
         });
}

/// `slot` + `ct` as one scatter_add into `slot` when `ct` scatters one
/// index's updates into zeros, as a gather's adjoint does (a scan reading
/// its inputs step by step): each element gets the same sum, but for the
/// sign of a zero, without a pass over the zeros. `ct` is left for
/// dead-code removal (other cotangents may still name it). Null otherwise.
static Value scatterInto(OpBuilder &builder, Value slot, Value ct) {
  auto scatter = ct.getDefiningOp<ScatterAddOp>();
  if (!scatter || slot.getType() != ct.getType() ||
      cast<RankedTensorType>(scatter.getIndices().getType()).getRank() != 0)
    return nullptr;
  auto zeros = scatter.getBase().getDefiningOp<ConstantOp>();
  auto values = zeros ? dyn_cast<DenseElementsAttr>(zeros.getValue())
                      : DenseElementsAttr();
  if (!values || !values.isSplat())
    return nullptr;
  Attribute element = values.getSplatValue<Attribute>();
  auto floatZero = dyn_cast<FloatAttr>(element);
  auto intZero = dyn_cast<IntegerAttr>(element);
  if (!(floatZero && floatZero.getValue().isZero()) &&
      !(intZero && intZero.getValue().isZero()))
    return nullptr;
  return ScatterAddOp::create(builder, scatter.getLoc(), ct.getType(), slot,
                              scatter.getIndices(), scatter.getUpdates(),
                              scatter.getAxisAttr());
}

/// The sum of two cotangents of one value.
static Value addCotangents(OpBuilder &builder, Location loc, Value slot,
                           Value ct) {
  if (Value scattered = scatterInto(builder, slot, ct))
    return scattered;
  return AdjointBuilder(builder, loc).add(slot, ct);
}

/// Builds the body of `vjp` (a declaration of getVjpType's type) from
/// `function`.
/// Cotangents accumulated backwards over ops built with one builder.
class Backward {
public:
  explicit Backward(OpBuilder &builder) : builder(builder) {}

  /// Adds `ct` to `value`'s cotangent.
  void accumulate(Value value, Value ct) {
    Value &slot = cotangents[value];
    if (!slot) {
      slot = ct;
      return;
    }
    slot = addCotangents(builder, value.getLoc(), slot, ct);
  }

  /// Walks `forward` (ops already built) backwards from the cotangents
  /// accumulated so far.
  LogicalResult run(ArrayRef<Operation *> forward) {
    // Found before the backward ops add uses.
    llvm::DenseSet<Value> cancelling;
    for (Operation *op : forward)
      for (Value result : op->getResults())
        if (isCancellingShift(result))
          cancelling.insert(result);
    for (Operation *op : llvm::reverse(forward)) {
      SmallVector<Value> resultCotangents;
      for (Value result : op->getResults())
        resultCotangents.push_back(cotangents.lookup(result));
      if (llvm::none_of(resultCotangents, [](Value v) { return bool(v); }))
        continue;
      if (auto ifOp = dyn_cast<IfOp>(op)) {
        if (failed(ifAdjoint(ifOp, resultCotangents)))
          return failure();
        continue;
      }
      if (auto whileOp = dyn_cast<WhileOp>(op)) {
        if (failed(whileAdjoint(whileOp, resultCotangents)))
          return failure();
        continue;
      }
      AdjointBuilder b(builder, op->getLoc());
      SmallVector<Value> operandCotangents;
      if (failed(buildAdjoint(op, b, resultCotangents, operandCotangents)))
        return failure();
      for (auto [operand, ct] :
           llvm::zip_equal(op->getOperands(), operandCotangents)) {
        if (!ct || !isFloatTensor(operand.getType()) ||
            cancelling.contains(operand))
          continue;
        accumulate(operand, b.unbroadcast(
                                ct, cast<RankedTensorType>(operand.getType())));
      }
    }
    return success();
  }

  const llvm::DenseMap<Value, Value> &getCotangents() const {
    return cotangents;
  }

private:
  /// google.if: a google.if on the same condition whose branches recompute
  /// the forward branch (its values live only inside the region) and run
  /// backwards through it, yielding the cotangents of the float values
  /// the branches use from above (zeros where a branch uses none).
  LogicalResult ifAdjoint(IfOp op, ArrayRef<Value> resultCotangents) {
    SetVector<Value> used;
    getUsedValuesDefinedAbove(op->getRegions(), used);
    SmallVector<Value> captured;
    for (Value value : used)
      if (isFloatTensor(value.getType()))
        captured.push_back(value);
    if (captured.empty())
      return success();
    SmallVector<Type> types;
    for (Value value : captured)
      types.push_back(value.getType());
    Location loc = op.getLoc();
    auto adjoint = IfOp::create(builder, loc, types, op.getCondition());
    for (auto [original, region] :
         {std::pair{&op.getThenRegion(), &adjoint.getThenRegion()},
          std::pair{&op.getElseRegion(), &adjoint.getElseRegion()}}) {
      Block *block = new Block();
      region->push_back(block);
      OpBuilder inner = OpBuilder::atBlockEnd(block);
      IRMapping mapping;
      SmallVector<Operation *> forward;
      Block &branch = original->front();
      for (Operation &nested : branch.without_terminator())
        forward.push_back(inner.clone(nested, mapping));
      Backward nested(inner);
      auto yield = cast<YieldOp>(branch.getTerminator());
      for (auto [value, ct] :
           llvm::zip_equal(yield.getValues(), resultCotangents))
        if (ct && isFloatTensor(value.getType()))
          nested.accumulate(mapping.lookupOrDefault(value), ct);
      if (failed(nested.run(forward)))
        return failure();
      AdjointBuilder b(inner, loc);
      SmallVector<Value> yielded;
      for (Value value : captured) {
        Value ct = nested.cotangents.lookup(value);
        if (!ct)
          ct = b.zerosLike(value);
        if (ct.getType() != value.getType())
          ct = ReshapeOp::create(inner, loc, value.getType(), ct);
        yielded.push_back(ct);
      }
      YieldOp::create(inner, loc, yielded);
    }
    for (auto [value, ct] : llvm::zip_equal(captured, adjoint.getResults()))
      accumulate(value, ct);
    return success();
  }

  /// google.while with a trip count: the forward loop becomes one that
  /// also records the state each iteration starts from (the tape: one
  /// scatter_add into -0.0 per state value, exact), then a loop runs
  /// backwards over the iterations, each reading its state from the tape,
  /// recomputing the body and differentiating it: its cotangents of the
  /// state flow to the previous iteration, those of the float values the
  /// body uses from above are summed. The results of the body's tanh,
  /// exp, sigmoid and sqrt (whose derivatives need only the result) are
  /// taped too: the backward loop reads them instead of recomputing what
  /// feeds them (an RNN step's matmuls).
  LogicalResult whileAdjoint(WhileOp op, ArrayRef<Value> resultCotangents) {
    auto notYet = [&](StringRef why) {
      return op.emitError("google-differentiate: google.while is not "
                          "differentiable ")
             << why;
    };
    std::optional<uint64_t> tripCount = op.getTripCount();
    if (!tripCount)
      return notYet("without a trip count (a fori_loop with static bounds "
                    "or a scan is; a while_loop is not, as in JAX)");
    Location loc = op.getLoc();
    auto i64Scalar = RankedTensorType::get({}, builder.getI64Type());
    SmallVector<RankedTensorType> state;
    for (Type type : op.getInit().getTypes())
      state.push_back(cast<RankedTensorType>(type));
    int64_t count = static_cast<int64_t>(*tripCount);
    if (count == 0) {
      // The body never runs: the results are the initial state.
      for (auto [init, ct] : llvm::zip_equal(op.getInit(), resultCotangents))
        if (ct && isFloatTensor(init.getType()))
          accumulate(init, ct);
      return success();
    }
    // State values the body steps by a constant (a fori_loop's or scan's
    // counter) are not taped: iteration j starts from init + j * step.
    SmallVector<std::optional<APInt>> steps;
    for (size_t k = 0; k < op.getInit().size(); ++k)
      steps.push_back(op.getStateStep(k));
    // Body results taped besides the state.
    SmallVector<Value> recorded;
    for (Operation &nested : op.getBody().front().without_terminator())
      if (isa<TanhOp, ExpOp, SigmoidOp, SqrtOp>(nested) &&
          cast<RankedTensorType>(nested.getResult(0).getType())
              .hasStaticShape())
        recorded.push_back(nested.getResult(0));
    // The tape's element type: i1 states are recorded as i32.
    auto tapeType = [&](RankedTensorType type) {
      SmallVector<int64_t> shape = {count};
      llvm::append_range(shape, type.getShape());
      Type element = type.getElementType().isInteger(1)
                         ? builder.getI32Type()
                         : type.getElementType();
      return RankedTensorType::get(shape, element);
    };
    auto constant = [&](OpBuilder &b, RankedTensorType type, double value) {
      Type element = type.getElementType();
      Attribute attr = isa<FloatType>(element)
                           ? Attribute(b.getFloatAttr(element, value))
                           : Attribute(b.getIntegerAttr(
                                 element, static_cast<int64_t>(value)));
      return ConstantOp::create(b, loc, DenseElementsAttr::get(type, attr))
          .getResult();
    };

    // The taped loop, where the forward one was (which it replaces):
    // (t, state..., tapes...).
    OpBuilder::InsertPoint backwardPoint = builder.saveInsertionPoint();
    builder.setInsertionPoint(op);
    SmallVector<Value> init = {constant(builder, i64Scalar, 0)};
    llvm::append_range(init, op.getInit());
    SmallVector<RankedTensorType> tapedTypes(state);
    for (Value value : recorded)
      tapedTypes.push_back(cast<RankedTensorType>(value.getType()));
    for (auto [index, type] : llvm::enumerate(tapedTypes)) {
      RankedTensorType tape = tapeType(type);
      double empty = isa<FloatType>(tape.getElementType()) ? -0.0 : 0.0;
      if (type.hasStaticShape()) {
        init.push_back(constant(builder, tape, empty));
        continue;
      }
      // A state of dynamic shape (recorded values are static): the tape
      // is count x the initial state's shape (a state whose shape changes
      // from one iteration to the next fails the tape's run-time check).
      // `empty` broadcast to it: a select that never picks the state.
      AdjointBuilder ab(builder, loc);
      Value like = ab.cast(op.getInit()[index], tape.getElementType());
      SmallVector<int64_t> ones(tape.getRank(), 1);
      ones[0] = count;
      init.push_back(ab.select(
          ab.lt(like, like), like,
          constant(builder, RankedTensorType::get(ones, tape.getElementType()),
                   empty)));
    }
    SmallVector<Type> types;
    for (Value value : init)
      types.push_back(value.getType());
    size_t n = state.size();
    // Both loops run as many times as the forward one (so that they can be
    // differentiated again).
    IntegerAttr trips = op.getTripCountAttr();
    auto taped = WhileOp::create(builder, loc, types, init, trips);
    {
      OpBuilder b(op.getContext());
      Block *cond = b.createBlock(&taped.getCond(), {}, types,
                                  SmallVector<Location>(types.size(), loc));
      IRMapping mapping;
      Block &original = op.getCond().front();
      for (auto [from, to] : llvm::zip(original.getArguments(),
                                       cond->getArguments().slice(1, n)))
        mapping.map(from, to);
      for (Operation &nested : original)
        b.clone(nested, mapping);
    }
    {
      OpBuilder b(op.getContext());
      Block *body = b.createBlock(&taped.getBody(), {}, types,
                                  SmallVector<Location>(types.size(), loc));
      Value t = body->getArgument(0);
      SmallVector<Value> tapes;
      for (size_t k = 0; k < n; ++k) {
        Value value = body->getArgument(1 + k);
        Value tape = body->getArgument(1 + n + k);
        if (steps[k]) {
          tapes.push_back(tape);
          continue;
        }
        auto tapeTensor = cast<RankedTensorType>(tape.getType());
        if (tapeTensor.getElementType() != state[k].getElementType())
          value = CastOp::create(b, loc, state[k].clone(
                                             tapeTensor.getElementType()),
                                 value);
        tapes.push_back(ScatterAddOp::create(b, loc, tapeTensor, tape, t,
                                             value, b.getI64IntegerAttr(0)));
      }
      IRMapping mapping;
      Block &original = op.getBody().front();
      for (auto [from, to] : llvm::zip(original.getArguments(),
                                       body->getArguments().slice(1, n)))
        mapping.map(from, to);
      for (Operation &nested : original.without_terminator())
        b.clone(nested, mapping);
      for (auto [index, value] : llvm::enumerate(recorded)) {
        Value tape = body->getArgument(1 + 2 * n + index);
        tapes.push_back(ScatterAddOp::create(b, loc, tape.getType(), tape, t,
                                             mapping.lookup(value),
                                             b.getI64IntegerAttr(0)));
      }
      AdjointBuilder ab(b, loc);
      SmallVector<Value> next = {ab.add(t, constant(b, i64Scalar, 1))};
      for (Value value : cast<YieldOp>(original.getTerminator()).getValues())
        next.push_back(mapping.lookupOrDefault(value));
      llvm::append_range(next, tapes);
      YieldOp::create(b, loc, next);
    }

    builder.restoreInsertionPoint(backwardPoint);
    SmallVector<Value> forwardResults(taped.getResults().slice(1, n));

    // The float values the body uses from above.
    SetVector<Value> used;
    getUsedValuesDefinedAbove(op.getBody(), used);
    SmallVector<Value> captured;
    for (Value value : used)
      if (isFloatTensor(value.getType()))
        captured.push_back(value);

    // The backward loop: (j, cotangents of the float state..., sums of
    // the captured values' cotangents...).
    AdjointBuilder outer(builder, loc);
    SmallVector<int64_t> floats;
    for (size_t k = 0; k < n; ++k)
      if (isFloatTensor(state[k]))
        floats.push_back(k);
    SmallVector<Value> backInit = {taped.getResult(0)};
    for (int64_t k : floats)
      backInit.push_back(resultCotangents[k]
                             ? resultCotangents[k]
                             : outer.zerosLike(forwardResults[k]));
    for (Value value : captured)
      backInit.push_back(outer.zerosLike(value));
    SmallVector<Type> backTypes;
    for (Value value : backInit)
      backTypes.push_back(value.getType());
    auto backward = WhileOp::create(builder, loc, backTypes, backInit, trips);
    {
      OpBuilder b(op.getContext());
      Block *cond = b.createBlock(&backward.getCond(), {}, backTypes,
                                  SmallVector<Location>(backTypes.size(), loc));
      AdjointBuilder ab(b, loc);
      ConditionOp::create(b, loc,
                          ab.gt(cond->getArgument(0),
                                constant(b, i64Scalar, 0)));
    }
    {
      OpBuilder b(op.getContext());
      Block *body = b.createBlock(&backward.getBody(), {}, backTypes,
                                  SmallVector<Location>(backTypes.size(), loc));
      AdjointBuilder ab(b, loc);
      Value j = ab.sub(body->getArgument(0), constant(b, i64Scalar, 1));
      // The state iteration j started from.
      IRMapping mapping;
      Block &original = op.getBody().front();
      SmallVector<Value> from;
      for (size_t k = 0; k < n; ++k) {
        if (steps[k]) {
          Value step = ConstantOp::create(
              b, loc,
              DenseElementsAttr::get(
                  state[k],
                  b.getIntegerAttr(state[k].getElementType(), *steps[k])));
          Value value =
              ab.add(op.getInit()[k],
                     ab.mul(ab.cast(j, state[k].getElementType()), step));
          mapping.map(original.getArgument(k), value);
          from.push_back(value);
          continue;
        }
        Value tape = taped.getResult(1 + n + k);
        auto tapeTensor = cast<RankedTensorType>(tape.getType());
        Value value = GatherOp::create(
            b, loc, state[k].clone(tapeTensor.getElementType()), tape, j,
            b.getI64IntegerAttr(0));
        if (tapeTensor.getElementType() != state[k].getElementType())
          value = CastOp::create(b, loc, state[k], value);
        mapping.map(original.getArgument(k), value);
        from.push_back(value);
      }
      SmallVector<Operation *> forward;
      for (Operation &nested : original.without_terminator())
        forward.push_back(b.clone(nested, mapping));
      Backward nested(b);
      auto yield = cast<YieldOp>(original.getTerminator());
      for (auto [index, k] : llvm::enumerate(floats))
        nested.accumulate(mapping.lookupOrDefault(yield.getValues()[k]),
                          body->getArgument(1 + index));
      if (failed(nested.run(forward)))
        return failure();
      // Taped results replace their recomputation (and, once dead, what
      // fed it).
      for (auto [index, value] : llvm::enumerate(recorded)) {
        Value recomputed = mapping.lookup(value);
        Operation *producer = recomputed.getDefiningOp();
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPoint(producer);
        Value read = GatherOp::create(b, loc, recomputed.getType(),
                                      taped.getResult(1 + 2 * n + index), j,
                                      b.getI64IntegerAttr(0));
        recomputed.replaceAllUsesWith(read);
        if (producer->use_empty())
          producer->erase();
      }
      SmallVector<Value> next = {j};
      for (int64_t k : floats) {
        Value ct = nested.cotangents.lookup(from[k]);
        next.push_back(ct ? ct : ab.zerosLike(from[k]));
      }
      for (auto [index, value] : llvm::enumerate(captured)) {
        Value sum = body->getArgument(1 + floats.size() + index);
        if (Value ct = nested.cotangents.lookup(value))
          sum = addCotangents(b, loc, sum, ct);
        next.push_back(sum);
      }
      YieldOp::create(b, loc, next);
    }
    for (auto [index, k] : llvm::enumerate(floats))
      accumulate(op.getInit()[k], backward.getResult(1 + index));
    for (auto [index, value] : llvm::enumerate(captured))
      accumulate(value, backward.getResult(1 + floats.size() + index));
    // The forward loop's users take the taped loop's results (the forward
    // loop, now unused, goes with the next dead-code removal).
    op->replaceAllUsesWith(forwardResults);
    for (auto [result, replacement] :
         llvm::zip_equal(op.getResults(), forwardResults))
      replacements[result] = replacement;
    return success();
  }

public:
  /// `value`, or what replaced it (a forward loop's result).
  Value getForward(Value value) const {
    return replacements.lookup(value) ? replacements.lookup(value) : value;
  }

private:
  llvm::DenseMap<Value, Value> replacements;

  OpBuilder &builder;
  llvm::DenseMap<Value, Value> cotangents;
};

/// Clones `body`'s ops with `builder`, calls inlined (their callees'
/// bodies, recursively; `ensureBody` gives a VJP declaration its body
/// first), into `forward`; `mapping` maps the block's arguments.
LogicalResult cloneInlined(OpBuilder &builder, Block &body,
                           IRMapping &mapping,
                           SmallVectorImpl<Operation *> &forward,
                           function_ref<LogicalResult(func::FuncOp)> ensureBody,
                           int depth = 0) {
  for (Operation &op : body.without_terminator()) {
    auto call = dyn_cast<func::CallOp>(op);
    if (!call) {
      forward.push_back(builder.clone(op, mapping));
      continue;
    }
    auto callee = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
        call, call.getCalleeAttr());
    if (!callee)
      return call.emitError("google-differentiate: no function ")
             << call.getCalleeAttr();
    if (depth > 64)
      return call.emitError("google-differentiate: calls nest too deep "
                            "(recursion?)");
    if (failed(ensureBody(callee)))
      return failure();
    if (callee.isExternal() || !callee.getBody().hasOneBlock())
      return call.emitError("google-differentiate: @")
             << callee.getSymName() << " has no body to differentiate";
    Block &calleeBody = callee.getBody().front();
    IRMapping inner;
    for (auto [arg, operand] :
         llvm::zip_equal(calleeBody.getArguments(), call.getOperands()))
      inner.map(arg, mapping.lookupOrDefault(operand));
    if (failed(cloneInlined(builder, calleeBody, inner, forward, ensureBody,
                            depth + 1)))
      return failure();
    for (auto [result, returned] :
         llvm::zip_equal(call.getResults(),
                         calleeBody.getTerminator()->getOperands()))
      mapping.map(result, inner.lookupOrDefault(returned));
  }
  return success();
}

LogicalResult buildVjpBody(func::FuncOp function, ArrayRef<int64_t> wrt,
                           func::FuncOp vjp,
                           function_ref<LogicalResult(func::FuncOp)> ensureBody) {
  Block *entry = vjp.addEntryBlock();
  OpBuilder builder = OpBuilder::atBlockEnd(entry);
  Block &body = function.getBody().front();
  IRMapping mapping;
  unsigned numInputs = function.getNumArguments();
  for (auto [original, argument] :
       llvm::zip(body.getArguments(), entry->getArguments()))
    mapping.map(original, argument);
  SmallVector<Operation *> forward;
  if (failed(cloneInlined(builder, body, mapping, forward, ensureBody)))
    return failure();

  Backward backward(builder);
  auto returnOp = cast<func::ReturnOp>(body.getTerminator());
  SmallVector<Value> results;
  for (auto [index, result] : llvm::enumerate(returnOp.getOperands())) {
    Value mapped = mapping.lookup(result);
    results.push_back(mapped);
    if (isFloatTensor(mapped.getType()))
      backward.accumulate(mapped, entry->getArgument(numInputs + index));
  }
  if (failed(backward.run(forward)))
    return failure();
  const llvm::DenseMap<Value, Value> &cotangents = backward.getCotangents();

  AdjointBuilder b(builder, function.getLoc());
  for (int64_t position : wrt) {
    Value argument = entry->getArgument(position);
    Value ct = cotangents.lookup(argument);
    results.push_back(ct ? ct : b.zerosLike(argument));
  }
  for (Value &result : results)
    result = backward.getForward(result);
  func::ReturnOp::create(builder, function.getLoc(), results);
  return success();
}

struct DifferentiatePass
    : public google::impl::DifferentiatePassBase<DifferentiatePass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    // Declarations the front end asks to fill.
    SmallVector<func::FuncOp> requests;
    for (auto func : module.getOps<func::FuncOp>())
      if (func.isExternal() && func->hasAttr(kVjpAttr))
        requests.push_back(func);
    for (func::FuncOp vjp : requests)
      if (vjp.isExternal() && failed(fillRequest(symbols, vjp)))
        return signalPassFailure();
    if (!function.empty() && failed(addNamedFunctions(symbols)))
      return signalPassFailure();
  }

  LogicalResult fillRequest(SymbolTable &symbols, func::FuncOp vjp) {
    auto request = dyn_cast<DictionaryAttr>(vjp->getAttr(kVjpAttr));
    auto of = request ? request.getAs<FlatSymbolRefAttr>("of") : nullptr;
    auto wrt = request ? request.getAs<DenseI64ArrayAttr>("wrt") : nullptr;
    if (!of || !wrt)
      return vjp.emitError("google-differentiate: expected ")
             << kVjpAttr << " = {of = @function, wrt = array<i64: ...>}";
    auto function = symbols.lookup<func::FuncOp>(of.getValue());
    if (!function)
      return vjp.emitError("google-differentiate: no function ") << of;
    if (failed(verifyDifferentiable(vjp, function, wrt.asArrayRef())))
      return failure();
    FunctionType expected = getVjpType(function, wrt.asArrayRef());
    if (vjp.getFunctionType() != expected)
      return vjp.emitError("google-differentiate: the VJP of ")
             << of << " has type " << expected << ", got "
             << vjp.getFunctionType();
    vjp->removeAttr(kVjpAttr);
    inProgress.insert(vjp);
    LogicalResult built = buildVjpBody(function, wrt.asArrayRef(), vjp,
                                       [&](func::FuncOp callee) {
                                         return ensureBody(symbols, callee);
                                       });
    inProgress.erase(vjp);
    if (failed(built))
      return failure();
    ++numFunctions;
    return success();
  }

  /// A VJP declaration the front end asks for gets its body before a
  /// function calling it is differentiated (higher-order gradients).
  LogicalResult ensureBody(SymbolTable &symbols, func::FuncOp callee) {
    // (A VJP being built has its entry block already.)
    if (inProgress.contains(callee))
      return callee.emitError("google-differentiate: the VJP of a function "
                              "that calls it (recursion)");
    if (!callee.isExternal())
      return success();
    if (!callee->hasAttr(kVjpAttr))
      return success();
    return fillRequest(symbols, callee);
  }

  /// VJP declarations whose bodies are being built.
  llvm::SmallPtrSet<Operation *, 4> inProgress;

  LogicalResult addNamedFunctions(SymbolTable &symbols) {
    ModuleOp module = getOperation();
    auto function = symbols.lookup<func::FuncOp>(this->function);
    if (!function)
      return module.emitError("google-differentiate: no function @")
             << this->function;
    SmallVector<int64_t> positions(wrt.begin(), wrt.end());
    if (positions.empty())
      positions.push_back(0);
    if (failed(verifyDifferentiable(function, function, positions)))
      return failure();
    OpBuilder builder = OpBuilder::atBlockEnd(module.getBody());
    Location loc = function.getLoc();
    auto vjp = func::FuncOp::create(builder, loc,
                                    this->function + "_vjp",
                                    getVjpType(function, positions));
    symbols.insert(vjp);
    if (failed(buildVjpBody(function, positions, vjp,
                            [&](func::FuncOp callee) {
                              return ensureBody(symbols, callee);
                            })))
      return failure();
    ++numFunctions;

    FunctionType type = function.getFunctionType();
    auto scalar = type.getNumResults() == 1
                      ? dyn_cast<RankedTensorType>(type.getResult(0))
                      : nullptr;
    if (!scalar || scalar.getRank() != 0 ||
        !isa<FloatType>(scalar.getElementType()))
      return success(); // a gradient needs one rank-0 float result
    SmallVector<Type> gradients;
    for (int64_t position : positions)
      gradients.push_back(type.getInput(position));
    auto grad = func::FuncOp::create(
        builder, loc, this->function + "_grad",
        FunctionType::get(&getContext(), type.getInputs(), gradients));
    symbols.insert(grad);
    Block *entry = grad.addEntryBlock();
    builder.setInsertionPointToEnd(entry);
    AdjointBuilder b(builder, loc);
    SmallVector<Value> operands(entry->getArguments());
    operands.push_back(b.scalar(1, scalar.getElementType()));
    auto call = func::CallOp::create(builder, loc, vjp, operands);
    func::ReturnOp::create(builder, loc, call.getResults().drop_front(1));
    return success();
  }
};

} // namespace
