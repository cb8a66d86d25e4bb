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
    if (!isa<GoogleDialect>(op.getDialect()))
      return fail() << "@" << function.getSymName() << " has '"
                    << op.getName()
                    << "'; differentiate functions of google ops (calls "
                       "inlined)";
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
    AdjointBuilder b(builder, value.getLoc());
    slot = b.add(slot, ct);
  }

  /// Walks `forward` (ops already built) backwards from the cotangents
  /// accumulated so far.
  LogicalResult run(ArrayRef<Operation *> forward) {
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
      AdjointBuilder b(builder, op->getLoc());
      SmallVector<Value> operandCotangents;
      if (failed(buildAdjoint(op, b, resultCotangents, operandCotangents)))
        return failure();
      for (auto [operand, ct] :
           llvm::zip_equal(op->getOperands(), operandCotangents)) {
        if (!ct || !isFloatTensor(operand.getType()))
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

  OpBuilder &builder;
  llvm::DenseMap<Value, Value> cotangents;
};

LogicalResult buildVjpBody(func::FuncOp function, ArrayRef<int64_t> wrt,
                           func::FuncOp vjp) {
  Block *entry = vjp.addEntryBlock();
  OpBuilder builder = OpBuilder::atBlockEnd(entry);
  Block &body = function.getBody().front();
  IRMapping mapping;
  unsigned numInputs = function.getNumArguments();
  for (auto [original, argument] :
       llvm::zip(body.getArguments(), entry->getArguments()))
    mapping.map(original, argument);
  SmallVector<Operation *> forward;
  for (Operation &op : body.without_terminator())
    forward.push_back(builder.clone(op, mapping));

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
      if (failed(fillRequest(symbols, vjp)))
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
    if (failed(buildVjpBody(function, wrt.asArrayRef(), vjp)))
      return failure();
    ++numFunctions;
    return success();
  }

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
    if (failed(buildVjpBody(function, positions, vjp)))
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
