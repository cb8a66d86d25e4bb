//===- Interpreter.cpp - google-dialect functions on concrete tensors -----===//

#include "Interpreter/Interpreter.h"

#include "Dialect/Google/IR/GoogleDialect.h"
#include "Dialect/Google/IR/GoogleOps.h"
#include "Dialect/Google/IR/ShapeRules.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace mlir;
using namespace mlir::google;
using llvm::createStringError;
using llvm::Error;
using llvm::Expected;

namespace {

/// Calls nest at most this deep (a recursive program would not end).
constexpr int kMaxCallDepth = 64;

std::string typeText(Type elementType, ArrayRef<int64_t> shape) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << RankedTensorType::get(shape, elementType);
  return text;
}

Error checkValue(Type declared, const ConcreteTensor &value,
                 const Twine &what) {
  auto type = dyn_cast<RankedTensorType>(declared);
  if (type && type.getElementType() == value.getElementType() &&
      succeeded(verifyCompatibleShape(type.getShape(), value.getShape())))
    return Error::success();
  std::string expected;
  llvm::raw_string_ostream os(expected);
  os << declared;
  return createStringError(what + ": expected " + expected + ", got " +
                           typeText(value.getElementType(), value.getShape()));
}

using Values = llvm::DenseMap<Value, ConcreteTensor>;

/// Runs the ops of `block` (values defined above are in `values`) and
/// returns its terminator's operands.
Expected<SmallVector<ConcreteTensor>>
runBlock(Block &block, Values &values, int depth, OpObserver observer);

Expected<SmallVector<ConcreteTensor>> call(func::FuncOp function,
                                           ArrayRef<ConcreteTensor> arguments,
                                           int depth, OpObserver observer) {
  std::string name = "@" + function.getSymName().str();
  if (function.isExternal()) {
    return createStringError(name + " has no body to interpret");
  }
  if (!function.getBody().hasOneBlock()) {
    return createStringError(name + " has more than one block; the reference "
                                    "interpreter runs straight-line "
                                    "google-dialect functions");
  }
  FunctionType type = function.getFunctionType();
  if (arguments.size() != type.getNumInputs()) {
    return createStringError(
        name + " takes " + std::to_string(type.getNumInputs()) +
        " arguments, got " + std::to_string(arguments.size()));
  }
  for (auto [i, argument] : llvm::enumerate(arguments))
    if (Error e = checkValue(type.getInput(i), argument,
                             name + " argument " + Twine(i)))
      return std::move(e);

  Values values;
  Block &body = function.getBody().front();
  for (auto [arg, value] : llvm::zip_equal(body.getArguments(), arguments))
    values[arg] = value;
  Expected<SmallVector<ConcreteTensor>> results =
      runBlock(body, values, depth, observer);
  if (!results)
    return results.takeError();
  return results;
}

SmallVector<ConcreteTensor> operandsOf(Operation *op, const Values &values) {
  SmallVector<ConcreteTensor> operands;
  for (Value operand : op->getOperands())
    operands.push_back(values.lookup(operand));
  return operands;
}

/// Whether a rank-0 boolean is true.
bool isTrue(const ConcreteTensor &value) { return value.at(0).i != 0; }

Expected<SmallVector<ConcreteTensor>>
runBlock(Block &block, Values &values, int depth, OpObserver observer) {
  for (Operation &op : block) {
    if (op.hasTrait<OpTrait::IsTerminator>())
      return operandsOf(&op, values);
    if (auto callOp = dyn_cast<func::CallOp>(op)) {
      auto callee = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
          callOp, callOp.getCalleeAttr());
      if (!callee) {
        return createStringError("@" + callOp.getCallee().str() +
                                 " is called but is not a func.func");
      }
      if (depth >= kMaxCallDepth) {
        return createStringError("calls nest deeper than " +
                                 std::to_string(kMaxCallDepth));
      }
      Expected<SmallVector<ConcreteTensor>> results =
          call(callee, operandsOf(&op, values), depth + 1, observer);
      if (!results)
        return results.takeError();
      for (auto [result, value] : llvm::zip_equal(op.getResults(), *results))
        values[result] = std::move(value);
      continue;
    }
    if (auto ifOp = dyn_cast<IfOp>(op)) {
      Region &region = isTrue(values.lookup(ifOp.getCondition()))
                           ? ifOp.getThenRegion()
                           : ifOp.getElseRegion();
      Expected<SmallVector<ConcreteTensor>> results =
          runBlock(region.front(), values, depth, observer);
      if (!results)
        return results.takeError();
      for (auto [result, value] : llvm::zip_equal(op.getResults(), *results))
        values[result] = std::move(value);
      continue;
    }
    if (auto whileOp = dyn_cast<WhileOp>(op)) {
      SmallVector<ConcreteTensor> state = operandsOf(&op, values);
      while (true) {
        Block &cond = whileOp.getCond().front();
        for (auto [arg, value] : llvm::zip_equal(cond.getArguments(), state))
          values[arg] = value;
        Expected<SmallVector<ConcreteTensor>> decision =
            runBlock(cond, values, depth, observer);
        if (!decision)
          return decision.takeError();
        if (!isTrue(decision->front()))
          break;
        Block &body = whileOp.getBody().front();
        for (auto [arg, value] : llvm::zip_equal(body.getArguments(), state))
          values[arg] = std::move(value);
        Expected<SmallVector<ConcreteTensor>> next =
            runBlock(body, values, depth, observer);
        if (!next)
          return next.takeError();
        state = std::move(*next);
      }
      for (auto [result, value] : llvm::zip_equal(op.getResults(), state))
        values[result] = std::move(value);
      continue;
    }
    if (op.getNumResults() != 1) {
      return createStringError(
          "'" + op.getName().getStringRef().str() +
          "' is not a google op: the reference interpreter runs "
          "google-dialect functions");
    }
    SmallVector<ConcreteTensor> operands = operandsOf(&op, values);
    Expected<ConcreteTensor> result = evaluateOp(&op, operands);
    if (!result)
      return result.takeError();
    if (observer && !observer(&op, operands, *result)) {
      return createStringError("stopped by the observer");
    }
    values[op.getResult(0)] = std::move(*result);
  }
  return createStringError("a block of the program has no terminator");
}

/// Checks the ops of `block` (and of the regions in it) and the functions
/// they call.
Error verifyBlock(Block &block, StringRef name,
                  llvm::SmallPtrSetImpl<Operation *> &active,
                  llvm::SmallPtrSetImpl<Operation *> &done);

Error verify(func::FuncOp function, llvm::SmallPtrSetImpl<Operation *> &active,
             llvm::SmallPtrSetImpl<Operation *> &done) {
  std::string name = "@" + function.getSymName().str();
  if (done.contains(function))
    return Error::success();
  if (!active.insert(function).second) {
    return createStringError(name +
                             " calls itself: the reference interpreter runs "
                             "non-recursive programs");
  }
  if (function.isExternal() || !function.getBody().hasOneBlock()) {
    return createStringError(name + " is not a function of one block");
  }
  if (Error e = verifyBlock(function.getBody().front(), name, active, done))
    return e;
  active.erase(function);
  done.insert(function);
  return Error::success();
}

Error verifyBlock(Block &block, StringRef name,
                  llvm::SmallPtrSetImpl<Operation *> &active,
                  llvm::SmallPtrSetImpl<Operation *> &done) {
  for (Operation &op : block) {
    if (isa<func::ReturnOp>(op) ||
        (isa<GoogleDialect>(op.getDialect()) && op.getNumRegions() == 0 &&
         (op.getNumResults() == 1 || op.hasTrait<OpTrait::IsTerminator>())))
      continue;
    if (isa<IfOp, WhileOp>(op)) {
      for (Region &region : op.getRegions())
        if (Error e = verifyBlock(region.front(), name, active, done))
          return e;
      continue;
    }
    auto callOp = dyn_cast<func::CallOp>(op);
    if (!callOp) {
      return createStringError(
          "'" + op.getName().getStringRef().str() + "' in " + name +
          " is not a google op: the reference interpreter runs "
          "google-dialect functions");
    }
    auto callee = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
        callOp, callOp.getCalleeAttr());
    if (!callee) {
      return createStringError(name + " calls @" + callOp.getCallee().str() +
                               ", which is not a func.func");
    }
    if (Error e = verify(callee, active, done))
      return e;
  }
  return Error::success();
}

} // namespace

Error google::verifyInterpretable(func::FuncOp function) {
  llvm::SmallPtrSet<Operation *, 8> active, done;
  return verify(function, active, done);
}

Expected<SmallVector<ConcreteTensor>>
google::interpretFunction(func::FuncOp function,
                          ArrayRef<ConcreteTensor> arguments,
                          OpObserver observer) {
  return call(function, arguments, 0, observer);
}
