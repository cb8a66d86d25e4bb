//===- Reference.cpp - run a function with the reference interpreter ------===//

#include "Compiler/Reference.h"

#include <cmath>
#include <limits>

#include "Compiler/Compiler.h"
#include "Dialect/Google/Transforms/Passes.h"
#include "ErrorBounds.h"
#include "Interpreter/ConcreteTensor.h"
#include "Interpreter/Interpreter.h"
#include "Support/ParserGuard.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
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
  case GOOGLE_RT_I1:
    return b.getI1Type();
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
  if (type.isInteger(1))
    return GOOGLE_RT_I1;
  return GOOGLE_RT_F32;
}

/// The runtime's description of a tensor type, if it has one.
static std::optional<google_rt_tensor_type> runtimeTypeOf(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor || tensor.getRank() > GOOGLE_RT_MAX_RANK)
    return std::nullopt;
  Type element = tensor.getElementType();
  if (!element.isF16() && !element.isBF16() && !element.isF32() &&
      !element.isF64() && !element.isInteger(32) && !element.isInteger(64) &&
      !element.isInteger(1))
    return std::nullopt;
  google_rt_tensor_type result;
  result.dtype = dtypeOf(element);
  result.rank = tensor.getRank();
  for (int64_t d = 0; d < tensor.getRank(); ++d)
    result.shape[d] = tensor.isDynamicDim(d) ? GOOGLE_RT_DYNAMIC
                                             : tensor.getDimSize(d);
  return result;
}

/// `err`'s message into `error`, the CompilerServices boundary's form
/// (the two sides of it share no LLVM copy).
static LogicalResult failWith(llvm::Error err, std::string &error) {
  error = llvm::toString(std::move(err));
  return failure();
}

namespace {

/// The reference interpreter over a module parsed in its own context.
class ReferenceModuleImpl final : public ReferenceModule {
public:
  explicit ReferenceModuleImpl(DialectRegistry &registry)
      : context(registry, MLIRContext::Threading::DISABLED) {}

  std::vector<std::string> getPublicFunctions() const override;
  LogicalResult getSignature(StringRef name,
                             std::vector<google_rt_tensor_type> &arguments,
                             std::vector<google_rt_tensor_type> &results,
                             std::string &error) const override;
  FailureOr<std::vector<HostTensor>> run(StringRef name,
                                         ArrayRef<HostTensor> inputs,
                                         std::string &error,
                                         bool *unsupported) const override;
  std::optional<std::string> findFirstNaN(StringRef name,
                                          ArrayRef<HostTensor> inputs,
                                          std::string &error) const override;
  LogicalResult checkWithinBounds(StringRef name, ArrayRef<HostTensor> inputs,
                                  ArrayRef<HostTensor> results,
                                  ArrayRef<HostTensor> interpreted,
                                  std::string &error,
                                  bool &covered) const override;

  mutable MLIRContext context;
  mutable OwningOpRef<ModuleOp> module;

private:
  /// `inputs` as the interpreter's tensors.
  llvm::Expected<SmallVector<ConcreteTensor>>
  toArguments(ArrayRef<HostTensor> inputs) const;
};

} // namespace

llvm::Expected<std::unique_ptr<ReferenceModule>>
google::parseReferenceModule(StringRef source, StringRef bufferName) {
  DialectRegistry registry;
  registerCompilerDialects(registry);
  auto result = std::make_unique<ReferenceModuleImpl>(registry);
  MLIRContext &context = result->context;
  std::string diagnostic;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
    if (diag.getSeverity() == DiagnosticSeverity::Error && diagnostic.empty())
      diagnostic = diag.str();
    return success();
  });
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      // The lexer reads up to a NUL: parse a terminated copy.
      llvm::MemoryBuffer::getMemBufferCopy(source, bufferName),
      llvm::SMLoc());
  result->module = parseModuleGuarded(sourceMgr, &context);
  if (!result->module)
    return llvm::createStringError("cannot parse the module: " + diagnostic);
  // The gradients the module asks for get their bodies, as the compiler's
  // pipeline builds them.
  PassManager pm(&context);
  pm.addPass(createDifferentiatePass());
  if (failed(pm.run(*result->module)))
    return llvm::createStringError(diagnostic);
  return std::move(result);
}

std::vector<std::string> ReferenceModuleImpl::getPublicFunctions() const {
  std::vector<std::string> names;
  for (auto func : module->getOps<func::FuncOp>())
    if (func.isPublic() && !func.isExternal())
      names.push_back(func.getSymName().str());
  return names;
}

LogicalResult
ReferenceModuleImpl::getSignature(StringRef name,
                              std::vector<google_rt_tensor_type> &arguments,
                              std::vector<google_rt_tensor_type> &results,
                              std::string &error) const {
  auto func = module->lookupSymbol<func::FuncOp>(name);
  if (!func || !func.isPublic() || func.isExternal()) {
    std::string names;
    for (const std::string &publicName : getPublicFunctions())
      names += (names.empty() ? "@" : ", @") + publicName;
    if (names.empty())
      names = "(none)";
    error = func && func.isPrivate()
                ? "@" + name.str() +
                      " is private: only public functions can be run "
                      "(remove `private`); the public functions are: " +
                      names
                : "no function @" + name.str() +
                      " in the module; its public functions are: " + names;
    return failure();
  }
  arguments.clear();
  results.clear();
  FunctionType type = func.getFunctionType();
  for (auto [types, out] :
       {std::pair(type.getInputs(), &arguments),
        std::pair(type.getResults(), &results)})
    for (Type t : types) {
      std::optional<google_rt_tensor_type> runtimeType = runtimeTypeOf(t);
      if (!runtimeType) {
        std::string text;
        llvm::raw_string_ostream os(text);
        os << t;
        error = "@" + name.str() + " has a " + text +
                " in its signature, which the reference interpreter cannot "
                "take or give";
        return failure();
      }
      out->push_back(*runtimeType);
    }
  return success();
}

/// The interpretable function `name` of `module`.
static llvm::Expected<func::FuncOp> lookupInterpretable(ModuleOp module,
                                                        StringRef name) {
  auto func = module.lookupSymbol<func::FuncOp>(name);
  if (!func) {
    Operation *lowered = module.lookupSymbol(name);
    if (!lowered)
      return llvm::createStringError(
          "the reference interpreter finds no func.func @" + name);
    return llvm::createStringError(
        "the reference interpreter runs google-dialect functions; @" + name +
        " is '" + lowered->getName().getStringRef() +
        "' (the module is already lowered: give it the module before "
        "google-opt's pipeline)");
  }
  if (llvm::Error e = verifyInterpretable(func))
    return std::move(e);
  return func;
}

llvm::Expected<SmallVector<ConcreteTensor>>
ReferenceModuleImpl::toArguments(ArrayRef<HostTensor> inputs) const {
  SmallVector<ConcreteTensor> arguments;
  for (const HostTensor &input : inputs) {
    Type elementType = elementTypeOf(&context, input.dtype());
    if (!elementType)
      return llvm::createStringError(
          Twine("the reference interpreter has no element type ") +
          google_rt_dtype_name(input.dtype()));
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
  return arguments;
}

FailureOr<std::vector<HostTensor>>
ReferenceModuleImpl::run(StringRef name, ArrayRef<HostTensor> inputs,
                     std::string &error, bool *unsupported) const {
  bool ignored;
  if (!unsupported)
    unsupported = &ignored;
  *unsupported = true;
  llvm::Expected<func::FuncOp> func = lookupInterpretable(*module, name);
  if (!func)
    return failWith(func.takeError(), error);
  llvm::Expected<SmallVector<ConcreteTensor>> arguments = toArguments(inputs);
  if (!arguments)
    return failWith(arguments.takeError(), error);
  *unsupported = false;
  llvm::Expected<SmallVector<ConcreteTensor>> results =
      interpretFunction(*func, *arguments);
  if (!results)
    return failWith(results.takeError(), error);
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

static bool hasNaN(const ConcreteTensor &value) {
  if (!value.isFloat())
    return false;
  for (int64_t n = 0, e = value.isSplat() ? 1 : value.getNumElements(); n < e;
       ++n)
    if (std::isnan(value.at(n).f))
      return true;
  return false;
}

/// `loc` as file:line:column where it has one.
static std::string describeLocation(Location loc) {
  if (auto fileLoc = dyn_cast<FileLineColLoc>(loc))
    return (fileLoc.getFilename().getValue() + ":" +
            Twine(fileLoc.getLine()) + ":" + Twine(fileLoc.getColumn()))
        .str();
  if (auto nameLoc = dyn_cast<NameLoc>(loc))
    return describeLocation(nameLoc.getChildLoc());
  if (auto callSite = dyn_cast<CallSiteLoc>(loc))
    return describeLocation(callSite.getCallee());
  if (auto fused = dyn_cast<FusedLoc>(loc))
    for (Location inner : fused.getLocations())
      if (std::string text = describeLocation(inner); !text.empty())
        return text;
  return "";
}

std::optional<std::string>
ReferenceModuleImpl::findFirstNaN(StringRef name, ArrayRef<HostTensor> inputs,
                              std::string &error) const {
  llvm::Expected<func::FuncOp> func = lookupInterpretable(*module, name);
  if (!func) {
    (void)failWith(func.takeError(), error);
    return std::nullopt;
  }
  llvm::Expected<SmallVector<ConcreteTensor>> arguments = toArguments(inputs);
  if (!arguments) {
    (void)failWith(arguments.takeError(), error);
    return std::nullopt;
  }
  std::optional<std::string> report;
  auto observe = [&](Operation *op, ArrayRef<ConcreteTensor> operands,
                     const ConcreteTensor &result) {
    if (!hasNaN(result))
      return true;
    std::string where = describeLocation(op->getLoc());
    std::string opText = op->getName().getStringRef().str() +
                         (where.empty() ? "" : " at " + where);
    for (auto [operand, value] : llvm::zip(op->getOperands(), operands)) {
      auto argument = dyn_cast<BlockArgument>(operand);
      if (argument && argument.getOwner()->getParentOp() == *func &&
          hasNaN(value)) {
        report = "argument " + std::to_string(argument.getArgNumber()) +
                 " contains NaN; first used by " + opText;
        return false;
      }
    }
    report = opText + " produced NaN (the first op to do so)";
    return false;
  };
  llvm::Expected<SmallVector<ConcreteTensor>> results =
      interpretFunction(*func, *arguments, observe);
  if (report)
    llvm::consumeError(results.takeError());
  else if (!results)
    (void)failWith(results.takeError(), error);
  return report;
}

/// `n` of `shape`'s row-major order as "[i, j]".
static std::string formatIndex(ArrayRef<int64_t> shape, int64_t n) {
  SmallVector<int64_t> index(shape.size());
  for (int64_t d = static_cast<int64_t>(shape.size()) - 1; d >= 0; --d) {
    index[d] = shape[d] ? n % shape[d] : 0;
    n = shape[d] ? n / shape[d] : 0;
  }
  std::string text = "[";
  for (auto [k, v] : llvm::enumerate(index))
    text += (k ? ", " : "") + std::to_string(v);
  return text + "]";
}

LogicalResult ReferenceModuleImpl::checkWithinBounds(
    StringRef name, ArrayRef<HostTensor> inputs, ArrayRef<HostTensor> results,
    ArrayRef<HostTensor> interpreted, std::string &error,
    bool &covered) const {
  covered = false;
  llvm::Expected<func::FuncOp> func = lookupInterpretable(*module, name);
  if (!func)
    return failWith(func.takeError(), error);
  llvm::Expected<func::FuncOp> boundFunction = buildErrorBoundFunction(*func);
  if (!boundFunction) {
    // Not covered: the caller compares with the interpreter's results.
    llvm::consumeError(boundFunction.takeError());
    return success();
  }
  llvm::Expected<SmallVector<ConcreteTensor>> arguments = toArguments(inputs);
  if (!arguments) {
    boundFunction->erase();
    return failWith(arguments.takeError(), error);
  }
  llvm::Expected<SmallVector<ConcreteTensor>> bounds =
      interpretFunction(*boundFunction, *arguments);
  boundFunction->erase();
  if (!bounds)
    return failWith(bounds.takeError(), error);
  covered = true;
  size_t next = 0;
  for (auto [i, resultType] :
       llvm::enumerate(func->getFunctionType().getResults())) {
    Type element = cast<RankedTensorType>(resultType).getElementType();
    if (!isa<FloatType>(element))
      continue;
    const ConcreteTensor &exact = (*bounds)[next++];
    const ConcreteTensor &bound = (*bounds)[next++];
    const HostTensor &got = results[i];
    std::string where = "@" + name.str() + " result " + std::to_string(i);
    if (got.shape() != exact.getShape()) {
      error = where + " has shape " +
              formatTensorType(got.shape(), got.dtype()) + ", expected " +
              formatTensorType(exact.getShape(), got.dtype());
      return failure();
    }
    // Subnormals of the result type may flush (a bound of 1 of them).
    double tiny = std::ldexp(getUnitRoundoff(element),
                             element.isF64()   ? -1021
                             : element.isF16() ? -13
                             : -125);
    // Beyond the largest finite value, rounding gives inf.
    double largest = element.isF16()    ? 65504.0
                     : element.isBF16() ? 0x1.fep127
                     : element.isF64()  ? std::numeric_limits<double>::max()
                                        : std::numeric_limits<float>::max();
    for (int64_t n = 0, e = got.numElements(); n < e; ++n) {
      double value = got.getDouble(n), x = exact.at(n).f, b = bound.at(n).f;
      bool overflows = std::isinf(value) && std::signbit(value) ==
                                                std::signbit(x) &&
                       std::fabs(x) + b >= largest;
      bool ok = std::isnan(x)   ? std::isnan(value)
                : std::isinf(x) ? value == x || std::isnan(b) || std::isinf(b)
                                : overflows ||
                                      !(std::fabs(value - x) > b + tiny);
      if (!ok && i < interpreted.size()) {
        double reference = interpreted[i].getDouble(n);
        ok = value == reference ||
             (std::isnan(value) && std::isnan(reference));
      }
      if (ok)
        continue;
      char text[160];
      std::snprintf(text, sizeof(text), " is %.9g, expected %.9g +- %.3g",
                    value, x, b + tiny);
      error = where + " element " + formatIndex(got.shape(), n) + text +
              " (its value computed in f64, and the most that rounding to " +
              google_rt_dtype_name(got.dtype()) +
              " may change it, reassociated sums included)";
      return failure();
    }
  }
  return success();
}

llvm::Expected<std::vector<HostTensor>>
google::interpretModule(StringRef source, StringRef bufferName,
                        StringRef function, ArrayRef<HostTensor> inputs,
                        bool *unsupported) {
  if (unsupported)
    *unsupported = true;
  llvm::Expected<std::unique_ptr<ReferenceModule>> module =
      parseReferenceModule(source, bufferName);
  if (!module)
    return llvm::createStringError("the reference interpreter " +
                                   llvm::toString(module.takeError()));
  std::string error;
  FailureOr<std::vector<HostTensor>> results =
      (*module)->run(function, inputs, error, unsupported);
  if (failed(results))
    return llvm::createStringError(error);
  return std::move(*results);
}
