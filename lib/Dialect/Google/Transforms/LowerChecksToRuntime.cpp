//===- LowerChecksToRuntime.cpp - --google-lower-checks-to-runtime --------===//

#include "Dialect/Google/Transforms/Passes.h"

#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/LLVMIR/FunctionCallUtils.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir::google {
#define GEN_PASS_DEF_LOWERCHECKSTORUNTIMEPASS
#include "Dialect/Google/Transforms/Passes.h.inc"
} // namespace mlir::google

using namespace mlir;

namespace {

constexpr StringLiteral kFailureHook = "google_rt_check_failed";

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
    auto hook = module.lookupSymbol<LLVM::LLVMFuncOp>(kFailureHook);
    if (!hook)
      hook = LLVM::LLVMFuncOp::create(
          builder, module.getLoc(), kFailureHook,
          LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(context),
                                      {ptrType}));
    // One global per distinct message.
    llvm::StringMap<LLVM::GlobalOp> messages;
    SymbolTable symbols(module);
    for (cf::AssertOp op : asserts) {
      StringRef text = op.getMsg();
      LLVM::GlobalOp &global = messages[text];
      if (!global) {
        std::string value = text.str();
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
      LLVM::CallOp::create(b, op.getLoc(), hook, ValueRange{message});
      LLVM::UnreachableOp::create(b, op.getLoc());
      b.setInsertionPoint(op);
      cf::CondBranchOp::create(b, op.getLoc(), op.getArg(), after,
                               ValueRange{}, failed, ValueRange{});
      op.erase();
    }
  }
};

} // namespace
