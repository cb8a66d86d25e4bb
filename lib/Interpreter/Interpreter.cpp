//===- Interpreter.cpp - google-dialect functions on concrete tensors -----===//

#include "Interpreter/Interpreter.h"

#include "Dialect/Google/IR/GoogleDialect.h"
#include "Dialect/Google/IR/ShapeRules.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace mlir;
using namespace mlir::google;

namespace {

/// Calls nest at most this deep (a recursive program would not end).
constexpr int kMaxCallDepth = 64;

std::string typeText(Type elementType, ArrayRef<int64_t> shape) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << RankedTensorType::get(shape, elementType);
  return text;
}

LogicalResult checkValue(Type declared, const ConcreteTensor &value,
                         const Twine &what, std::string &error) {
  auto type = dyn_cast<RankedTensorType>(declared);
  if (type && type.getElementType() == value.getElementType() &&
      succeeded(verifyCompatibleShape(type.getShape(), value.getShape())))
    return success();
  std::string expected;
  llvm::raw_string_ostream os(expected);
  os << declared;
  error = (what + ": expected " + expected + ", got " +
           typeText(value.getElementType(), value.getShape()))
              .str();
  return failure();
}

FailureOr<SmallVector<ConcreteTensor>> call(func::FuncOp function,
                                            ArrayRef<ConcreteTensor> arguments,
                                            int depth, std::string &error,
                                            OpObserver observer) {
  std::string name = "@" + function.getSymName().str();
  if (function.isExternal()) {
    error = name + " has no body to interpret";
    return failure();
  }
  if (!function.getBody().hasOneBlock()) {
    error = name + " has more than one block; the reference interpreter "
                   "runs straight-line google-dialect functions";
    return failure();
  }
  FunctionType type = function.getFunctionType();
  if (arguments.size() != type.getNumInputs()) {
    error = name + " takes " + std::to_string(type.getNumInputs()) +
            " arguments, got " + std::to_string(arguments.size());
    return failure();
  }
  for (auto [i, argument] : llvm::enumerate(arguments))
    if (failed(checkValue(type.getInput(i), argument,
                          name + " argument " + Twine(i), error)))
      return failure();

  llvm::DenseMap<Value, ConcreteTensor> values;
  Block &body = function.getBody().front();
  for (auto [arg, value] : llvm::zip_equal(body.getArguments(), arguments))
    values[arg] = value;
  auto operandsOf = [&](Operation *op) {
    SmallVector<ConcreteTensor> operands;
    for (Value operand : op->getOperands())
      operands.push_back(values.lookup(operand));
    return operands;
  };
  for (Operation &op : body) {
    if (auto ret = dyn_cast<func::ReturnOp>(op))
      return operandsOf(&op);
    if (auto callOp = dyn_cast<func::CallOp>(op)) {
      auto callee = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
          callOp, callOp.getCalleeAttr());
      if (!callee) {
        error = name + " calls @" + callOp.getCallee().str() +
                ", which is not a func.func";
        return failure();
      }
      if (depth >= kMaxCallDepth) {
        error = name + ": calls nest deeper than " +
                std::to_string(kMaxCallDepth);
        return failure();
      }
      FailureOr<SmallVector<ConcreteTensor>> results =
          call(callee, operandsOf(&op), depth + 1, error, observer);
      if (failed(results))
        return failure();
      for (auto [result, value] : llvm::zip_equal(op.getResults(), *results))
        values[result] = std::move(value);
      continue;
    }
    if (op.getNumResults() != 1) {
      error = "'" + op.getName().getStringRef().str() +
              "' is not a google op: the reference interpreter runs "
              "google-dialect functions";
      return failure();
    }
    SmallVector<ConcreteTensor> operands = operandsOf(&op);
    FailureOr<ConcreteTensor> result = evaluateOp(&op, operands, error);
    if (failed(result))
      return failure();
    if (observer && !observer(&op, operands, *result)) {
      error.clear();
      return failure();
    }
    values[op.getResult(0)] = std::move(*result);
  }
  error = name + " does not end with func.return";
  return failure();
}

LogicalResult verify(func::FuncOp function,
                     llvm::SmallPtrSetImpl<Operation *> &active,
                     llvm::SmallPtrSetImpl<Operation *> &done,
                     std::string &error) {
  std::string name = "@" + function.getSymName().str();
  if (done.contains(function))
    return success();
  if (!active.insert(function).second) {
    error = name + " calls itself: the reference interpreter runs "
                   "non-recursive programs";
    return failure();
  }
  if (function.isExternal() || !function.getBody().hasOneBlock()) {
    error = name + " is not a function of one block";
    return failure();
  }
  for (Operation &op : function.getBody().front()) {
    if (isa<func::ReturnOp>(op) ||
        (isa<GoogleDialect>(op.getDialect()) && op.getNumResults() == 1))
      continue;
    auto callOp = dyn_cast<func::CallOp>(op);
    if (!callOp) {
      error = "'" + op.getName().getStringRef().str() + "' in " + name +
              " is not a google op: the reference interpreter runs "
              "google-dialect functions";
      return failure();
    }
    auto callee = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
        callOp, callOp.getCalleeAttr());
    if (!callee) {
      error = name + " calls @" + callOp.getCallee().str() +
              ", which is not a func.func";
      return failure();
    }
    if (failed(verify(callee, active, done, error)))
      return failure();
  }
  active.erase(function);
  done.insert(function);
  return success();
}

} // namespace

LogicalResult google::verifyInterpretable(func::FuncOp function,
                                          std::string &error) {
  llvm::SmallPtrSet<Operation *, 8> active, done;
  return verify(function, active, done, error);
}

FailureOr<SmallVector<ConcreteTensor>>
google::interpretFunction(func::FuncOp function,
                          ArrayRef<ConcreteTensor> arguments,
                          std::string &error, OpObserver observer) {
  return call(function, arguments, 0, error, observer);
}
