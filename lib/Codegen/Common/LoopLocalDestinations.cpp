//===- LoopLocalDestinations.cpp - --google-loop-local-destinations ------===//

#include "Codegen/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"

namespace mlir::google {
#define GEN_PASS_DEF_LOOPLOCALDESTINATIONSPASS
#include "Codegen/Passes.h.inc"
} // namespace mlir::google

using namespace mlir;

namespace {

/// Whether `value` is an empty tensor or a fill of one: contents a
/// destination can be made with again anywhere.
bool isRematerializable(Value value) {
  if (value.getDefiningOp<tensor::EmptyOp>())
    return true;
  auto fill = value.getDefiningOp<linalg::FillOp>();
  return fill && fill.hasPureTensorSemantics() &&
         fill.getDpsInitOperand(0)->get().getDefiningOp<tensor::EmptyOp>();
}

bool isReshape(Operation *op) {
  return isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp, tensor::CastOp>(
      op);
}

/// Where the destinations of a value a loop body yields come from: `root`,
/// the last operand followed (through destination-style ops' inits, nested
/// loops' inits and reshapes) before a value that is not such a result or
/// is defined outside the body, and `firstWriter`, the first op on that
/// chain that writes (not a reshape).
struct DestinationChain {
  OpOperand *root = nullptr;
  Operation *firstWriter = nullptr;
};

DestinationChain findDestinationChain(Region &body, Value yielded) {
  DestinationChain chain;
  Value current = yielded;
  while (true) {
    auto result = dyn_cast<OpResult>(current);
    if (!result || !body.isAncestor(current.getParentRegion()))
      return chain;
    Operation *op = result.getOwner();
    OpOperand *via = nullptr;
    if (auto dps = dyn_cast<DestinationStyleOpInterface>(op))
      via = dps.getTiedOpOperand(result);
    else if (auto nested = dyn_cast<scf::ForOp>(op))
      via = nested.getTiedLoopInit(result);
    else if (isReshape(op))
      via = &op->getOpOperand(0);
    if (!via)
      return chain;
    if (!isReshape(op))
      chain.firstWriter = op;
    chain.root = via;
    current = via->get();
  }
}

/// Whether `use` only reads its value, makes no alias of it and writes
/// nothing that depends on it being unchanged later.
bool isPlainRead(OpOperand &use) {
  Operation *user = use.getOwner();
  if (auto dps = dyn_cast<DestinationStyleOpInterface>(user))
    return dps.isDpsInput(&use);
  if (auto insert = dyn_cast<tensor::InsertSliceOp>(user))
    return use.get() == insert.getSource();
  return isa<tensor::ExtractOp, tensor::DimOp>(user);
}

/// Whether reshapes `a` and `b` make the same view of their sources (the
/// same op, attributes, result type and any extents they take).
bool isSameReshape(Operation *a, Operation *b) {
  return a->getName() == b->getName() && a->getAttrs() == b->getAttrs() &&
         a->getResultTypes() == b->getResultTypes() &&
         llvm::equal(a->getOperands().drop_front(),
                     b->getOperands().drop_front());
}

/// Whether `a` and `b` are the same static reshapes of `aBase` and `bBase`.
bool isSameView(Value a, Value aBase, Value b, Value bBase) {
  while (a != aBase && b != bBase) {
    Operation *aOp = a.getDefiningOp(), *bOp = b.getDefiningOp();
    if (!aOp || !bOp || !isReshape(aOp) || aOp->getNumOperands() != 1 ||
        !isSameReshape(aOp, bOp))
      return false;
    a = aOp->getOperand(0);
    b = bOp->getOperand(0);
  }
  return a == aBase && b == bBase;
}

/// Whether `writer` may compute its result in `state`'s buffer at no cost:
/// every read of `state` (or of a reshape or slice of it) comes before
/// `writer` in `body`, or is `writer` itself reading it elementwise where
/// it writes (`init`: its destination, `root` the value it derives from).
bool isFreeToOverwrite(Block &body, BlockArgument state, Operation *writer,
                       Value init, Value root) {
  SmallVector<Value> views = {state};
  while (!views.empty()) {
    Value view = views.pop_back_val();
    for (OpOperand &use : view.getUses()) {
      Operation *user = use.getOwner();
      if (isa<tensor::ExtractSliceOp>(user) || isReshape(user)) {
        views.push_back(user->getResult(0));
        continue;
      }
      Operation *ancestor = body.findAncestorOpInBlock(*user);
      if (!ancestor)
        return false;
      if (ancestor == writer) {
        auto generic = dyn_cast<linalg::GenericOp>(writer);
        if (!generic || user != writer || !generic.isDpsInput(&use) ||
            generic.getNumLoops() != generic.getNumParallelLoops())
          return false;
        OpOperand *output = generic.getDpsInitOperand(0);
        if (generic.getNumDpsInits() != 1 ||
            generic.getMatchingIndexingMap(&use) !=
                generic.getMatchingIndexingMap(output) ||
            !isSameView(use.get(), state, init, root))
          return false;
        continue;
      }
      if (!ancestor->isBeforeInBlock(writer) || !isPlainRead(use))
        return false;
    }
  }
  return true;
}

/// A destination to take from a loop's iteration argument: `init`, the
/// first writer's operand, made from an empty tensor through `reshapes`
/// (root first).
struct StateWrite {
  OpOperand *init;
  SmallVector<Operation *> reshapes;
  Value root;
  BlockArgument state;
};

/// The write of `yielded`'s destination chain into `state`, if it is free
/// (see isFreeToOverwrite) and its reshapes are used by the chain alone.
std::optional<StateWrite> findStateWrite(Region &body, Value yielded,
                                         BlockArgument state) {
  if (!isa<RankedTensorType>(yielded.getType()) ||
      yielded.getType() != state.getType())
    return std::nullopt;
  DestinationChain chain = findDestinationChain(body, yielded);
  if (!chain.root || !chain.firstWriter ||
      chain.root->get().getType() != state.getType())
    return std::nullopt;
  auto empty = chain.root->get().getDefiningOp<tensor::EmptyOp>();
  if (!empty)
    return std::nullopt;
  // The state's extents may change from one iteration to the next: the
  // empty tensor's dynamic ones must be the state's.
  for (auto [i, size] : llvm::enumerate(empty.getMixedSizes())) {
    auto value = dyn_cast<Value>(size);
    if (!value)
      continue;
    auto dim = value.getDefiningOp<tensor::DimOp>();
    std::optional<int64_t> index = dim ? dim.getConstantIndex() : std::nullopt;
    if (!dim || dim.getSource() != state || index != static_cast<int64_t>(i))
      return std::nullopt;
  }
  StateWrite write{chain.root, {}, chain.root->get(), state};
  while (write.init->getOwner() != chain.firstWriter) {
    Operation *reshape = write.init->getOwner();
    if (!reshape->getResult(0).hasOneUse())
      return std::nullopt;
    write.reshapes.push_back(reshape);
    write.init = &*reshape->getResult(0).getUses().begin();
  }
  Block &block = body.front();
  Operation *writer = chain.firstWriter;
  if (writer->getBlock() != &block ||
      !isFreeToOverwrite(block, state, writer, write.init->get(), write.root))
    return std::nullopt;
  return write;
}

/// Makes `write`'s destination `state`, through the same reshapes (made
/// again on `state` before the writer, or equal ones it already reads).
void writeIntoState(RewriterBase &rewriter, const StateWrite &write) {
  Operation *writer = write.init->getOwner();
  rewriter.setInsertionPoint(writer);
  Value current = write.state;
  for (Operation *reshape : write.reshapes) {
    Operation *made = nullptr;
    for (Operation *other : current.getUsers())
      if (isSameReshape(other, reshape) &&
          other->getBlock() == writer->getBlock() &&
          other->isBeforeInBlock(writer)) {
        made = other;
        break;
      }
    if (!made) {
      IRMapping mapping;
      mapping.map(reshape->getOperand(0), current);
      made = rewriter.clone(*reshape, mapping);
    }
    current = made->getResult(0);
  }
  rewriter.modifyOpInPlace(writer, [&] { write.init->set(current); });
  for (Operation *reshape : llvm::reverse(write.reshapes))
    if (reshape->use_empty())
      rewriter.eraseOp(reshape);
  if (Operation *empty = write.root.getDefiningOp();
      empty && empty->use_empty())
    rewriter.eraseOp(empty);
}

/// A loop's body (an `scf.for`'s, or an `scf.while`'s after region), the
/// values it yields and, for each, the iteration argument it replaces. An
/// `scf.while`'s argument is null where its condition does not pass the
/// state on unchanged (its buffer is then not the same through both
/// regions).
struct LoopBody {
  Region *body;
  ValueRange yielded;
  SmallVector<BlockArgument> states;
};

std::optional<LoopBody> getLoopBody(Operation *loop) {
  if (auto forOp = dyn_cast<scf::ForOp>(loop))
    return LoopBody{&forOp.getRegion(), forOp.getYieldedValues(),
                    llvm::to_vector(forOp.getRegionIterArgs())};
  auto whileOp = dyn_cast<scf::WhileOp>(loop);
  if (!whileOp)
    return std::nullopt;
  LoopBody loopBody{&whileOp.getAfter(), whileOp.getYieldOp().getResults(),
                    llvm::to_vector(whileOp.getAfterArguments())};
  ValueRange passed = whileOp.getConditionOp().getArgs();
  Block::BlockArgListType before = whileOp.getBeforeArguments();
  for (auto [i, state] : llvm::enumerate(loopBody.states))
    if (i >= passed.size() || i >= before.size() || passed[i] != before[i] ||
        before[i].getType() != state.getType())
      state = nullptr;
  return loopBody;
}

/// The operand through which `yielded`'s destinations leave `loop`'s
/// body, if the chain ends at a value defined above the loop that can be
/// made again in it.
OpOperand *findDestinationAbove(Region &body, Value yielded) {
  DestinationChain chain = findDestinationChain(body, yielded);
  if (!chain.root || body.isAncestor(chain.root->get().getParentRegion()) ||
      !isRematerializable(chain.root->get()))
    return nullptr;
  return chain.root;
}

struct LoopLocalDestinationsPass
    : public google::impl::LoopLocalDestinationsPassBase<
          LoopLocalDestinationsPass> {
  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    // The iteration argument's buffer first: no allocation at all.
    SmallVector<StateWrite> writes;
    getOperation().walk([&](Operation *op) {
      if (std::optional<LoopBody> loop = getLoopBody(op))
        for (auto [value, state] : llvm::zip(loop->yielded, loop->states))
          if (state)
            if (std::optional<StateWrite> write =
                    findStateWrite(*loop->body, value, state))
              writes.push_back(std::move(*write));
    });
    for (const StateWrite &write : writes)
      writeIntoState(rewriter, write);
    numStateWrites += writes.size();

    SetVector<OpOperand *> operands;
    getOperation().walk([&](Operation *op) {
      if (std::optional<LoopBody> loop = getLoopBody(op))
        for (Value value : loop->yielded)
          if (isa<RankedTensorType>(value.getType()))
            if (OpOperand *operand = findDestinationAbove(*loop->body, value))
              operands.insert(operand);
    });
    numLocalDestinations += operands.size();
    for (OpOperand *operand : operands) {
      Value value = operand->get();
      Operation *user = operand->getOwner();
      rewriter.setInsertionPoint(user);
      IRMapping mapping;
      Operation *made = value.getDefiningOp();
      if (auto fill = dyn_cast<linalg::FillOp>(made)) {
        Operation *empty = fill.getDpsInitOperand(0)->get().getDefiningOp();
        mapping.map(empty->getResult(0), rewriter.clone(*empty)->getResult(0));
      }
      Operation *copy = rewriter.clone(*made, mapping);
      rewriter.modifyOpInPlace(user, [&] { operand->set(copy->getResult(0)); });
    }
  }
};

} // namespace
