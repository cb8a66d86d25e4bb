//===- LowerBf16MmaSync.cpp - --google-lower-bf16-mma-sync ----------------===//

#include "Codegen/GPU/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::google {
#define GEN_PASS_DEF_LOWERBF16MMASYNCPASS
#include "Codegen/GPU/Passes.h.inc"
} // namespace mlir::google

using namespace mlir;
using namespace mlir::google;

namespace {

/// nvgpu.mma.sync m16n8k16 of bf16 into f32 as nvvm.mma.sync.
struct LowerBf16MmaSync : OpRewritePattern<nvgpu::MmaSyncOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(nvgpu::MmaSyncOp op,
                                PatternRewriter &rewriter) const override {
    Type bf16 = rewriter.getBF16Type(), f32 = rewriter.getF32Type();
    if (op.getMmaShapeAsArray() != std::array<int64_t, 3>{16, 8, 16} ||
        op.getMatrixA().getType() != VectorType::get({4, 2}, bf16) ||
        op.getMatrixB().getType() != VectorType::get({2, 2}, bf16) ||
        op.getMatrixC().getType() != VectorType::get({2, 2}, f32))
      return rewriter.notifyMatchFailure(op, "not m16n8k16 of bf16 into f32");
    Location loc = op.getLoc();
    auto registerType = VectorType::get({1}, rewriter.getI32Type());
    // Each row of a fragment (two bf16) is one 32-bit register.
    auto registers = [&](Value fragment) {
      SmallVector<Value> values;
      for (int64_t row = 0;
           row < cast<VectorType>(fragment.getType()).getDimSize(0); ++row) {
        Value pair = vector::ExtractOp::create(rewriter, loc, fragment,
                                               ArrayRef<int64_t>{row});
        Value bits =
            vector::BitCastOp::create(rewriter, loc, registerType, pair);
        values.push_back(vector::ExtractOp::create(rewriter, loc, bits,
                                                   ArrayRef<int64_t>{0}));
      }
      return values;
    };
    SmallVector<Value> accumulators;
    for (int64_t e = 0; e < 4; ++e)
      accumulators.push_back(vector::ExtractOp::create(
          rewriter, loc, op.getMatrixC(), ArrayRef<int64_t>{e / 2, e % 2}));
    auto resultType = LLVM::LLVMStructType::getLiteral(
        rewriter.getContext(), SmallVector<Type>(4, f32));
    Value result = NVVM::MmaOp::create(
        rewriter, loc, resultType, registers(op.getMatrixA()),
        registers(op.getMatrixB()), accumulators, {16, 8, 16},
        /*b1Op=*/std::nullopt, /*intOverflow=*/std::nullopt,
        std::array<NVVM::MMATypes, 2>{NVVM::MMATypes::bf16,
                                      NVVM::MMATypes::bf16},
        std::array<NVVM::MMALayout, 2>{NVVM::MMALayout::row,
                                       NVVM::MMALayout::col});
    SmallVector<Value> elements;
    for (int64_t e = 0; e < 4; ++e)
      elements.push_back(LLVM::ExtractValueOp::create(rewriter, loc, result,
                                                      ArrayRef<int64_t>{e}));
    rewriter.replaceOpWithNewOp<vector::FromElementsOp>(
        op, op.getMatrixC().getType(), elements);
    return success();
  }
};

struct LowerBf16MmaSyncPass
    : google::impl::LowerBf16MmaSyncPassBase<LowerBf16MmaSyncPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<LowerBf16MmaSync>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace
