//===- ConvolutionToMatmul.cpp - --google-convolution-to-matmul -----------===//
//
// linalg.conv_2d_nhwc_hwcf becomes an im2col copy (N x OH x OW x kh x kw x
// C: each output position's window, a generic with affine reads) and a
// linalg.matmul of its (N*OH*OW) x (kh*kw*C) collapse by the filter's
// (kh*kw*C) x F collapse, which the matmul schedules (CPU register blocks,
// GPU shared-memory tiles) then take. The window copy costs kh*kw reads of
// the input; the matmul is where the FMAs are.
//
//===----------------------------------------------------------------------===//

#include "Codegen/Passes.h"

#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace mlir::google {
#define GEN_PASS_DEF_CONVOLUTIONTOMATMULPASS
#include "Codegen/Passes.h.inc"
} // namespace mlir::google

using namespace mlir;
using namespace mlir::google;

namespace {

SmallVector<int64_t> pairOf(DenseIntElementsAttr attr) {
  return llvm::to_vector(llvm::map_range(
      attr.getValues<APInt>(), [](APInt v) { return v.getSExtValue(); }));
}

bool isConvolutionAsMatmul(linalg::Conv2DNhwcHwcfOp conv) {
  if (!conv.hasPureTensorSemantics())
    return false;
  auto input = cast<RankedTensorType>(conv.getInputs()[0].getType());
  auto filter = cast<RankedTensorType>(conv.getInputs()[1].getType());
  auto output = cast<RankedTensorType>(conv.getOutputs()[0].getType());
  // Static windows, channels and outputs; a dynamic batch only.
  return filter.hasStaticShape() &&
         llvm::all_of(input.getShape().drop_front(),
                      [](int64_t d) { return !ShapedType::isDynamic(d); }) &&
         llvm::all_of(output.getShape().drop_front(),
                      [](int64_t d) { return !ShapedType::isDynamic(d); }) &&
         llvm::none_of(output.getShape(), [](int64_t d) { return d == 0; }) &&
         llvm::none_of(filter.getShape(), [](int64_t d) { return d == 0; });
}

struct ConvolutionToMatmulPass
    : public google::impl::ConvolutionToMatmulPassBase<
          ConvolutionToMatmulPass> {
  void runOnOperation() override;
};

} // namespace

void ConvolutionToMatmulPass::runOnOperation() {
  IRRewriter rewriter(&getContext());
  SmallVector<linalg::Conv2DNhwcHwcfOp> convolutions;
  getOperation()->walk([&](linalg::Conv2DNhwcHwcfOp conv) {
    if (isConvolutionAsMatmul(conv))
      convolutions.push_back(conv);
  });
  for (linalg::Conv2DNhwcHwcfOp conv : convolutions) {
    Location loc = conv.getLoc();
    rewriter.setInsertionPoint(conv);
    Value input = conv.getInputs()[0], filter = conv.getInputs()[1];
    Value init = conv.getOutputs()[0];
    auto filterType = cast<RankedTensorType>(filter.getType());
    auto outputType = cast<RankedTensorType>(init.getType());
    ArrayRef<int64_t> f = filterType.getShape(), o = outputType.getShape();
    SmallVector<int64_t> strides = pairOf(conv.getStrides());
    SmallVector<int64_t> dilations = pairOf(conv.getDilations());
    OpFoldResult batch =
        tensor::getMixedSize(rewriter, loc, init, /*dim=*/0);

    // The windows: patches[n, y, x, i, j, c] = input[n, y*s0 + i*d0,
    // x*s1 + j*d1, c].
    SmallVector<int64_t> patchShape = {o[0], o[1], o[2], f[0], f[1], f[2]};
    SmallVector<OpFoldResult> patchSizes = {batch};
    for (int64_t extent : ArrayRef(patchShape).drop_front())
      patchSizes.push_back(rewriter.getIndexAttr(extent));
    Value empty = tensor::EmptyOp::create(
        rewriter, loc, patchSizes,
        cast<RankedTensorType>(input.getType()).getElementType());
    MLIRContext *context = rewriter.getContext();
    AffineExpr n, y, x, i, j, c;
    bindDims(context, n, y, x, i, j, c);
    AffineMap read = AffineMap::get(
        6, 0,
        {n, y * strides[0] + i * dilations[0],
         x * strides[1] + j * dilations[1], c},
        context);
    auto patches = linalg::GenericOp::create(
        rewriter, loc, empty.getType(), input, empty,
        ArrayRef<AffineMap>{read, rewriter.getMultiDimIdentityMap(6)},
        SmallVector<utils::IteratorType>(6, utils::IteratorType::parallel),
        [](OpBuilder &b, Location nestedLoc, ValueRange args) {
          linalg::YieldOp::create(b, nestedLoc, args[0]);
        });

    // (N*OH*OW) x (kh*kw*C) times (kh*kw*C) x F.
    SmallVector<ReassociationIndices> rowsAndDepth = {{0, 1, 2}, {3, 4, 5}};
    Value lhs = tensor::CollapseShapeOp::create(
        rewriter, loc, patches.getResult(0), rowsAndDepth);
    Value rhs = tensor::CollapseShapeOp::create(
        rewriter, loc, filter,
        SmallVector<ReassociationIndices>{{0, 1, 2}, {3}});
    SmallVector<ReassociationIndices> rowsAndColumns = {{0, 1, 2}, {3}};
    Value acc =
        tensor::CollapseShapeOp::create(rewriter, loc, init, rowsAndColumns);
    auto matmul = linalg::MatmulOp::create(
        rewriter, loc, acc.getType(), ValueRange{lhs, rhs}, acc);
    SmallVector<OpFoldResult> outputSizes = {batch};
    for (int64_t extent : o.drop_front())
      outputSizes.push_back(rewriter.getIndexAttr(extent));
    Value result = tensor::ExpandShapeOp::create(
        rewriter, loc, outputType, matmul.getResult(0), rowsAndColumns,
        outputSizes);
    rewriter.replaceOp(conv, result);
    ++numConverted;
  }
}
