//===- Reference.cpp - run a function with the reference interpreter ------===//

#include "Runner/Reference.h"

#include "Compiler/Compiler.h"
#include "Interpreter/Interpreter.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;
using namespace mlir::google;

static Type elementTypeOf(MLIRContext *context, google_rt_dtype dtype) {
  Builder b(context);
  switch (dtype) {
  case GOOGLE_RT_F32:
    return b.getF32Type();
  case GOOGLE_RT_F16:
    return b.getF16Type();
  case GOOGLE_RT_BF16:
    return b.getBF16Type();
  case GOOGLE_RT_F64:
    return b.getF64Type();
  case GOOGLE_RT_I32:
    return b.getI32Type();
  case GOOGLE_RT_I64:
    return b.getI64Type();
  default:
    return nullptr;
  }
}

static google_rt_dtype dtypeOf(Type type) {
  if (type.isF16())
    return GOOGLE_RT_F16;
  if (type.isBF16())
    return GOOGLE_RT_BF16;
  if (type.isF64())
    return GOOGLE_RT_F64;
  if (type.isInteger(32))
    return GOOGLE_RT_I32;
  if (type.isInteger(64))
    return GOOGLE_RT_I64;
  return GOOGLE_RT_F32;
}

FailureOr<std::vector<HostTensor>>
google::interpretModule(StringRef source, StringRef bufferName,
                        StringRef function, ArrayRef<HostTensor> inputs,
                        std::string &error, bool *unsupported) {
  bool ignored;
  if (!unsupported)
    unsupported = &ignored;
  *unsupported = true;
  DialectRegistry registry;
  registerCompilerDialects(registry);
  MLIRContext context(registry, MLIRContext::Threading::DISABLED);
  std::string diagnostic;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
    if (diag.getSeverity() == DiagnosticSeverity::Error && diagnostic.empty())
      diagnostic = diag.str();
    return success();
  });
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBuffer(source, bufferName,
                                       /*RequiresNullTerminator=*/false),
      llvm::SMLoc());
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module) {
    error = "the reference interpreter cannot parse the module: " +
            diagnostic;
    return failure();
  }
  auto func = module->lookupSymbol<func::FuncOp>(function);
  if (!func) {
    error = "the reference interpreter finds no func.func @" + function.str();
    return failure();
  }
  if (failed(verifyInterpretable(func, error)))
    return failure();
  SmallVector<ConcreteTensor> arguments;
  for (const HostTensor &input : inputs) {
    Type elementType = elementTypeOf(&context, input.dtype());
    if (!elementType) {
      error = "the reference interpreter has no element type " +
              std::string(google_rt_dtype_name(input.dtype()));
      return failure();
    }
    ConcreteTensor tensor(elementType, input.shape());
    bool isFloat = isa<FloatType>(elementType);
    for (int64_t n = 0, e = input.numElements(); n < e; ++n) {
      if (isFloat)
        tensor.at(n).f = input.getDouble(n);
      else
        tensor.at(n).i = input.getInt(n);
    }
    arguments.push_back(std::move(tensor));
  }
  *unsupported = false;
  FailureOr<SmallVector<ConcreteTensor>> results =
      interpretFunction(func, arguments, error);
  if (failed(results))
    return failure();
  std::vector<HostTensor> values;
  for (const ConcreteTensor &result : *results) {
    HostTensor value(dtypeOf(result.getElementType()), result.getShape());
    if (!value.isAllocated()) {
      error = "the reference interpreter cannot allocate a result";
      return failure();
    }
    for (int64_t n = 0, e = result.getNumElements(); n < e; ++n) {
      if (result.isFloat())
        value.setDouble(n, result.at(n).f);
      else
        value.setInt(n, result.at(n).i);
    }
    values.push_back(std::move(value));
  }
  return values;
}

LogicalResult google::compareWithReference(StringRef function,
                                           ArrayRef<HostTensor> results,
                                           ArrayRef<HostTensor> reference,
                                           std::string &error) {
  if (results.size() != reference.size()) {
    error = "@" + function.str() + " returned " +
            std::to_string(results.size()) +
            " results, the reference interpreter " +
            std::to_string(reference.size());
    return failure();
  }
  for (size_t i = 0; i < results.size(); ++i) {
    std::string mismatch;
    if (failed(compareTensors(results[i], reference[i], mismatch))) {
      error = "@" + function.str() + " result " + std::to_string(i) +
              " differs from the reference interpreter: " + mismatch;
      return failure();
    }
  }
  return success();
}
