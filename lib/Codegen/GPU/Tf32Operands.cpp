//===- Tf32Operands.cpp - --google-gpu-tf32-operands ----------------------===//

#include "Codegen/GPU/Passes.h"

#include "GpuKernels.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace mlir::google {
#define GEN_PASS_DEF_GPUTF32OPERANDSPASS
#include "Codegen/GPU/Passes.h.inc"
} // namespace mlir::google

using namespace mlir;
using namespace mlir::google;
using namespace mlir::google::kernels;

namespace {

/// `input` rounded to TF32 by an elementwise op, its last two dimensions
/// swapped with `transpose`. A transpose of the last two dimensions before
/// it is read through instead.
Value createRoundedCopy(RewriterBase &rewriter, Location loc, Value input,
                        bool transpose) {
  if (Value source = getSwappedTransposeSource(input)) {
    input = source;
    transpose = !transpose;
  }
  auto type = cast<RankedTensorType>(input.getType());
  int64_t rank = type.getRank();
  SmallVector<int64_t> shape(type.getShape());
  SmallVector<unsigned> permutation =
      llvm::to_vector(llvm::seq<unsigned>(0, rank));
  if (transpose) {
    std::swap(shape[rank - 2], shape[rank - 1]);
    std::swap(permutation[rank - 2], permutation[rank - 1]);
  }
  Value empty =
      tensor::EmptyOp::create(rewriter, loc, shape, type.getElementType());
  MLIRContext *context = rewriter.getContext();
  SmallVector<AffineMap> maps = {
      AffineMap::getPermutationMap(permutation, context),
      AffineMap::getMultiDimIdentityMap(rank, context)};
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  auto copy = linalg::GenericOp::create(
      rewriter, loc, empty.getType(), input, empty, maps, iterators,
      [](OpBuilder &builder, Location nested, ValueRange arguments) {
        linalg::YieldOp::create(
            builder, nested,
            createTf32Rounding(builder, nested, arguments.front()));
      });
  return copy.getResult(0);
}

/// `op` reading A (M x K) and B^T (N x K) rounded, each transposed where
/// it is read the other way.
void roundOperands(RewriterBase &rewriter, linalg::LinalgOp op,
                   const linalg::ContractionDimensions &dims) {
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  SmallVector<Value> operands = op.getDpsInputs();
  SmallVector<Value> rounded;
  SmallVector<AffineMap> maps;
  for (auto [index, rows] : llvm::enumerate(
           std::array<unsigned, 2>{dims.m.front(), dims.n.front()})) {
    OpOperand *operand = op.getDpsInputOperand(index);
    bool transpose = !readsInOrder(op, *operand, dims, rows, dims.k.front());
    rounded.push_back(
        createRoundedCopy(rewriter, loc, operand->get(), transpose));
    maps.push_back(getOperandMap(op.getContext(), op.getNumLoops(), dims, rows,
                                 dims.k.front()));
  }
  linalg::GenericOp generic =
      createContractionWithInputs(rewriter, op, rounded, maps);
  generic->setAttr(kTf32OperandsAttr, rewriter.getUnitAttr());

  auto fill = op.getDpsInits().front().getDefiningOp<linalg::FillOp>();
  rewriter.replaceOp(op, generic->getResults());
  // The kernel takes in the fill of C right before it (getFusableFill).
  if (fill && fill->hasOneUse())
    rewriter.moveOpBefore(fill, generic);
  for (Value operand : operands)
    if (Operation *producer = operand.getDefiningOp();
        producer && isa<linalg::TransposeOp>(producer) && producer->use_empty())
      rewriter.eraseOp(producer);
}

struct GpuTf32OperandsPass
    : public google::impl::GpuTf32OperandsPassBase<GpuTf32OperandsPass> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func->getParentOfType<gpu::GPUModuleOp>())
      return;
    SmallVector<linalg::LinalgOp> ops;
    func.walk([&](linalg::LinalgOp op) {
      if (op.hasPureTensorSemantics() && !op->hasAttr(kTf32OperandsAttr))
        ops.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (linalg::LinalgOp op : ops) {
      std::optional<linalg::ContractionDimensions> dims =
          getTileableContraction(op);
      if (!dims || getSplitKFactor(op, *dims))
        continue;
      if (!fitsWgmmaTf32(op, *dims, /*kernelLayout=*/false))
        continue;
      roundOperands(rewriter, op, *dims);
      ++numContractions;
    }
  }
};

} // namespace
