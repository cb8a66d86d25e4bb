//===- LowerKMajorWgmma.cpp - --google-lower-k-major-wgmma ----------------===//

#include "Codegen/GPU/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::google {
#define GEN_PASS_DEF_LOWERKMAJORWGMMAPASS
#include "Codegen/GPU/Passes.h.inc"
} // namespace mlir::google

using namespace mlir;
using namespace mlir::google;

namespace {

/// The rows of A of one wgmma.mma_async, and the bytes of K of one step
/// (8 f32 of TF32, 16 16-bit elements).
constexpr int64_t kChunkRows = 64, kStepBytes = 32;

/// `op` (B K-major: TF32 marked kTf32WgmmaAttr, f32 as pairs of 16-bit
/// elements, or f16 or bf16 without transposeB) as NVVM's wgmma ops.
LogicalResult lowerKMajorWgmma(RewriterBase &rewriter,
                               nvgpu::WarpgroupMmaOp op) {
  rewriter.setInsertionPoint(op);
  MemRefType lhs = op.getDescriptorA().getType().getTensor();
  MemRefType rhs = op.getDescriptorB().getType().getTensor();
  VectorType accumulatorType = op.getMatrixC().getType().getFragmented();
  int64_t rows = accumulatorType.getDimSize(0);
  int64_t columns = accumulatorType.getDimSize(1);
  bool tf32 = op->hasAttr(kTf32WgmmaAttr);
  Type element = lhs.getElementType();
  // A's rows: their bytes, and K in wgmma's steps.
  int64_t rowBytes = lhs.getDimSize(1) * 2;
  if (lhs.getElementTypeBitWidth() != 16 || rhs.getElementType() != element ||
      (!tf32 && !element.isF16() && !element.isBF16()) ||
      rows % kChunkRows != 0 || rowBytes % kStepBytes != 0 ||
      op.getTransposeA() || op.getTransposeB() ||
      !accumulatorType.getElementType().isF32())
    return op.emitOpError(
        "google-lower-k-major-wgmma: expected K-major f16 or bf16 tiles "
        "(or, marked google.tf32, 16-bit tiles holding f32 pairs) and an "
        "f32 accumulator of 64-row chunks");
  MLIRContext *context = rewriter.getContext();
  Location loc = op.getLoc();
  Type f32 = rewriter.getF32Type(), i64 = rewriter.getI64Type();
  // As --convert-nvgpu-to-nvvm converts accumulators: a struct per 64-row
  // chunk, each thread's N / 2 elements of it.
  auto chunkType = LLVM::LLVMStructType::getLiteral(
      context, SmallVector<Type>(columns / 2, f32));
  auto structType = LLVM::LLVMStructType::getLiteral(
      context, SmallVector<Type>(rows / kChunkRows, chunkType));
  auto cast = [&](Value value, Type type) -> Value {
    return UnrealizedConversionCastOp::create(rewriter, loc, type, value)
        .getResult(0);
  };
  Value accumulator = cast(op.getMatrixC(), structType);
  Value lhsDescriptor = cast(op.getDescriptorA(), i64);
  Value rhsDescriptor = cast(op.getDescriptorB(), i64);
  // A descriptor's start address counts 16-byte units.
  auto advance = [&](Value descriptor, int64_t bytes) -> Value {
    if (bytes == 0)
      return descriptor;
    return LLVM::AddOp::create(
        rewriter, loc, descriptor,
        LLVM::ConstantOp::create(rewriter, loc, i64,
                                 rewriter.getI64IntegerAttr(bytes >> 4)));
  };
  NVVM::WGMMATypes type = tf32              ? NVVM::WGMMATypes::tf32
                          : element.isF16() ? NVVM::WGMMATypes::f16
                                            : NVVM::WGMMATypes::bf16;
  int64_t stepDepth = kStepBytes / (tf32 ? 4 : 2);
  NVVM::WgmmaFenceAlignedOp::create(rewriter, loc);
  Value result = LLVM::PoisonOp::create(rewriter, loc, structType);
  for (int64_t chunk = 0; chunk < rows / kChunkRows; ++chunk) {
    Value part =
        LLVM::ExtractValueOp::create(rewriter, loc, accumulator, chunk);
    for (int64_t step = 0; step < rowBytes / kStepBytes; ++step) {
      int64_t stepBytes = step * kStepBytes;
      part = NVVM::WgmmaMmaAsyncOp::create(
          rewriter, loc, chunkType, part,
          advance(lhsDescriptor, chunk * kChunkRows * rowBytes + stepBytes),
          advance(rhsDescriptor, stepBytes),
          NVVM::MMAShapeAttr::get(context, kChunkRows, columns, stepDepth),
          type, type, NVVM::WGMMATypes::f32, NVVM::WGMMAScaleOut::one,
          NVVM::WGMMAScaleIn::one, NVVM::WGMMAScaleIn::one,
          NVVM::MMALayout::row, NVVM::MMALayout::col,
          /*satfinite=*/NVVM::MMAIntOverflowAttr());
    }
    result = LLVM::InsertValueOp::create(rewriter, loc, result, part, chunk);
  }
  NVVM::WgmmaGroupSyncAlignedOp::create(rewriter, loc);
  NVVM::WgmmaWaitGroupSyncOp::create(rewriter, loc, op.getWaitGroup());
  rewriter.replaceOp(op, cast(result, op.getMatrixD().getType()));
  return success();
}

/// Whether `op`'s descriptors describe tiles that TMA loads as f32.
bool readsF32Tiles(nvgpu::WarpgroupMmaOp op) {
  return llvm::any_of(
      ValueRange{op.getDescriptorA(), op.getDescriptorB()}, [](Value value) {
        auto descriptor =
            value.getDefiningOp<nvgpu::WarpgroupGenerateDescriptorOp>();
        return descriptor && descriptor.getTensorMap()
                                 .getType()
                                 .getTensor()
                                 .getElementType()
                                 .isF32();
      });
}

struct LowerKMajorWgmmaPass
    : google::impl::LowerKMajorWgmmaPassBase<LowerKMajorWgmmaPass> {
  void runOnOperation() override {
    SmallVector<nvgpu::WarpgroupMmaOp> ops;
    WalkResult unmarked = getOperation().walk([&](nvgpu::WarpgroupMmaOp op) {
      // Unmarked, f32 tiles would go on as 16-bit ones: wrong values
      // without an error.
      if (!op->hasAttr(kTf32WgmmaAttr) && readsF32Tiles(op)) {
        op.emitOpError("google-lower-k-major-wgmma: a wgmma reading f32 tiles "
                       "(loaded through f32 TMA maps) without google.tf32");
        return WalkResult::interrupt();
      }
      // Transposed (MN-major) 16-bit B goes to --convert-nvgpu-to-nvvm.
      if (op->hasAttr(kTf32WgmmaAttr) || !op.getTransposeB())
        ops.push_back(op);
      return WalkResult::advance();
    });
    if (unmarked.wasInterrupted())
      return signalPassFailure();
    IRRewriter rewriter(&getContext());
    for (nvgpu::WarpgroupMmaOp op : ops)
      if (failed(lowerKMajorWgmma(rewriter, op)))
        return signalPassFailure();
  }
};

} // namespace
