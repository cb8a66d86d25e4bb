//===- LowerChecksToRuntime.cpp - --google-lower-checks-to-runtime --------===//

#include "Codegen/Passes.h"
#include "google_runtime_abi.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/LLVMIR/FunctionCallUtils.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir::google {
#define GEN_PASS_DEF_LOWERCHECKSTORUNTIMEPASS
#include "Codegen/Passes.h.inc"
} // namespace mlir::google

using namespace mlir;

namespace {

constexpr StringLiteral kFailureHook = GOOGLE_RT_CHECK_FAILED_HOOK;
constexpr StringLiteral kAbortHook = GOOGLE_RT_ABORT_HOOK;

/// The two integers an `arith.cmpi eq` condition compares, or none.
std::optional<std::pair<Value, Value>> comparedValues(Value condition) {
  auto cmp = condition.getDefiningOp<arith::CmpIOp>();
  if (!cmp || cmp.getPredicate() != arith::CmpIPredicate::eq)
    return std::nullopt;
  return std::make_pair(cmp.getLhs(), cmp.getRhs());
}

/// `value` (index or integer) as an i64.
Value toI64(OpBuilder &b, Location loc, Value value) {
  Type i64 = b.getI64Type();
  if (value.getType() == i64)
    return value;
  if (value.getType().isIndex())
    return arith::IndexCastOp::create(b, loc, i64, value);
  if (value.getType().getIntOrFloatBitWidth() < 64)
    return arith::ExtSIOp::create(b, loc, i64, value);
  return arith::TruncIOp::create(b, loc, i64, value);
}

struct LowerChecksToRuntimePass
    : public google::impl::LowerChecksToRuntimePassBase<
          LowerChecksToRuntimePass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<cf::AssertOp> asserts;
    module.walk([&](cf::AssertOp op) { asserts.push_back(op); });
    if (asserts.empty())
      return;
    MLIRContext *context = &getContext();
    auto ptrType = LLVM::LLVMPointerType::get(context);
    OpBuilder builder = OpBuilder::atBlockBegin(module.getBody());
    // The hooks the checks call, declared first.
    auto declare = [&](StringRef name, ArrayRef<Type> parameters) {
      auto hook = module.lookupSymbol<LLVM::LLVMFuncOp>(name);
      if (!hook)
        hook = LLVM::LLVMFuncOp::create(
            builder, module.getLoc(), name,
            LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(context),
                                        parameters));
      return hook;
    };
    auto aborts = [](cf::AssertOp op) {
      return op->hasAttr(google::kAbortOnFailureAttrName);
    };
    Type i64 = builder.getI64Type();
    LLVM::LLVMFuncOp failureHook, abortHook;
    if (!llvm::all_of(asserts, aborts))
      failureHook = declare(kFailureHook, {ptrType, i64, i64});
    if (llvm::any_of(asserts, aborts))
      abortHook = declare(kAbortHook, {ptrType});
    // One global per distinct message.
    llvm::StringMap<LLVM::GlobalOp> messages;
    SymbolTable symbols(module);
    for (cf::AssertOp op : asserts) {
      std::optional<std::pair<Value, Value>> compared =
          comparedValues(op.getArg());
      std::string text = op.getMsg().str();
      if (!compared) {
        // Nothing to fill the placeholders with.
        for (StringRef placeholder : {"{0}", "{1}"})
          for (size_t at; (at = text.find(placeholder)) != std::string::npos;)
            text.replace(at, placeholder.size(), "?");
      }
      LLVM::GlobalOp &global = messages[text];
      if (!global) {
        std::string value = text;
        value.push_back('\0');
        global = LLVM::GlobalOp::create(
            builder, op.getLoc(),
            LLVM::LLVMArrayType::get(IntegerType::get(context, 8),
                                     value.size()),
            /*isConstant=*/true, LLVM::Linkage::Private, "google_check_msg",
            builder.getStringAttr(value));
        symbols.insert(global);
      }
      // Split: everything after the assert continues; a new block fails.
      Block *before = op->getBlock();
      Block *after = before->splitBlock(op->getNextNode());
      Region *region = before->getParent();
      Block *failed = new Block();
      region->getBlocks().insert(after->getIterator(), failed);
      OpBuilder b = OpBuilder::atBlockEnd(failed);
      Value message = LLVM::AddressOfOp::create(b, op.getLoc(), global);
      if (aborts(op)) {
        LLVM::CallOp::create(b, op.getLoc(), abortHook, ValueRange{message});
      } else {
        Value actual, expected;
        if (compared) {
          actual = toI64(b, op.getLoc(), compared->first);
          expected = toI64(b, op.getLoc(), compared->second);
        } else {
          actual = expected = LLVM::ConstantOp::create(
              b, op.getLoc(), b.getI64Type(), b.getI64IntegerAttr(0));
        }
        LLVM::CallOp::create(b, op.getLoc(), failureHook,
                             ValueRange{message, actual, expected});
      }
      LLVM::UnreachableOp::create(b, op.getLoc());
      b.setInsertionPoint(op);
      cf::CondBranchOp::create(b, op.getLoc(), op.getArg(), after,
                               ValueRange{}, failed, ValueRange{});
      op.erase();
    }
  }
};

} // namespace
