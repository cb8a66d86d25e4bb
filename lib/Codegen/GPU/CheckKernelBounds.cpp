//===- CheckKernelBounds.cpp - bounds checks inside GPU kernels -----------===//
//
// --google-check-kernel-bounds puts a check before every memory access of a
// kernel; --google-lower-kernel-asserts turns the checks into a printf and
// a trap where upstream cannot lower cf.assert (ROCDL).
//
//===----------------------------------------------------------------------===//

#include "Codegen/GPU/Passes.h"
#include "Codegen/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::google {
#define GEN_PASS_DEF_CHECKKERNELBOUNDSPASS
#define GEN_PASS_DEF_LOWERKERNELASSERTSPASS
#include "Codegen/GPU/Passes.h.inc"
} // namespace mlir::google

using namespace mlir;
using namespace mlir::google;

void google::insertKernelBoundsChecks(OpBuilder &builder,
                                      gpu::LaunchOp launch) {
  insertBoundsChecks(builder, launch, /*abortOnFailure=*/false);
  SmallVector<Operation *> accesses;
  launch.walk([&](Operation *op) {
    if (isa<nvgpu::LdMatrixOp, nvgpu::DeviceAsyncCopyOp>(op))
      accesses.push_back(op);
  });
  OpBuilder::InsertionGuard guard(builder);
  for (Operation *op : accesses) {
    builder.setInsertionPoint(op);
    Location loc = op->getLoc();
    auto check = [&](Value inBounds) {
      if (inBounds)
        cf::AssertOp::create(builder, loc, inBounds, describeOutOfBounds(op));
    };
    if (auto load = dyn_cast<nvgpu::LdMatrixOp>(op)) {
      // Each lane reads a row of 16 bytes from its address.
      Value buffer = load.getSrcMemref();
      unsigned bits =
          cast<MemRefType>(buffer.getType()).getElementTypeBitWidth();
      check(isInBounds(builder, loc, buffer, load.getIndices(), {128 / bits}));
      continue;
    }
    auto copy = cast<nvgpu::DeviceAsyncCopyOp>(op);
    int64_t elements = copy.getDstElements().getZExtValue();
    check(isInBounds(builder, loc, copy.getDst(), copy.getDstIndices(),
                     {elements}));
    // With srcElements, only that many are read (the rest of the
    // destination is zero-filled).
    Value readCount = copy.getSrcElements();
    if (!readCount) {
      check(isInBounds(builder, loc, copy.getSrc(), copy.getSrcIndices(),
                       {elements}));
      continue;
    }
    check(isRunInBounds(builder, loc, copy.getSrc(), copy.getSrcIndices(),
                        readCount));
  }
}

namespace {

struct CheckKernelBoundsPass
    : public google::impl::CheckKernelBoundsPassBase<CheckKernelBoundsPass> {
  void runOnOperation() override {
    OpBuilder builder(&getContext());
    getOperation().walk([&](gpu::LaunchOp launch) {
      insertKernelBoundsChecks(builder, launch);
    });
  }
};

struct LowerKernelAssertsPass
    : public google::impl::LowerKernelAssertsPassBase<LowerKernelAssertsPass> {
  void runOnOperation() override {
    SmallVector<cf::AssertOp> asserts;
    getOperation().walk([&](cf::AssertOp op) { asserts.push_back(op); });
    IRRewriter rewriter(&getContext());
    for (cf::AssertOp op : asserts) {
      Location loc = op.getLoc();
      Block *before = op->getBlock();
      Block *after = rewriter.splitBlock(before, std::next(op->getIterator()));
      Block *failure = rewriter.createBlock(after);
      rewriter.setInsertionPointToStart(failure);
      // gpu.printf takes a format: a '%' of the message must print as one.
      std::string message = "google-mlir: run-time check failed: ";
      for (char c : op.getMsg()) {
        message += c;
        if (c == '%')
          message += '%';
      }
      message += "\n";
      gpu::PrintfOp::create(rewriter, loc, rewriter.getStringAttr(message),
                            ValueRange());
      LLVM::Trap::create(rewriter, loc);
      cf::BranchOp::create(rewriter, loc, after);
      rewriter.setInsertionPoint(op);
      cf::CondBranchOp::create(rewriter, loc, op.getArg(), after, failure);
      rewriter.eraseOp(op);
    }
  }
};

} // namespace
