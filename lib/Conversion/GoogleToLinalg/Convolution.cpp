//===- Convolution.cpp - conv2d and pooling to linalg ---------------------===//
//
// The named linalg convolutions and poolings over an input padded
// explicitly (tensor.pad's fill + insert_slice), so that every window they
// read lies inside their operand.
//
//===----------------------------------------------------------------------===//

#include "ArithAlgebra.h"
#include "Utils.h"

#include "Dialect/Google/IR/GoogleOps.h"
#include "Dialect/Google/IR/ScalarSemantics.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::google;

namespace {

/// linalg's strides/dilations attribute: dense<[a, b]> : tensor<2xi64>.
DenseIntElementsAttr pairAttr(OpBuilder &b, ArrayRef<int64_t> values) {
  return DenseIntElementsAttr::get(RankedTensorType::get({2}, b.getI64Type()),
                                   values);
}

/// The NHWC `input` refined to the op's static H, W, C and, where the
/// result states it, N; then padded with `value` around H and W.
Value prepareInput(OpBuilder &b, Location loc, Operation *op, Value input,
                   ArrayRef<int64_t> padding, Value value) {
  auto declared = cast<RankedTensorType>(op->getOperand(0).getType());
  SmallVector<int64_t> known(declared.getShape());
  known[0] = cast<RankedTensorType>(op->getResult(0).getType()).getDimSize(0);
  input = refineShape(b, loc, input, known, [&](int64_t d) {
    return extentMessage(op->getName().getStringRef(), "the input", d);
  });
  return createPaddedTensor(b, loc, input, {0, padding[0], padding[2], 0},
                            {0, padding[1], padding[3], 0}, value);
}

/// The op's static output shape with N as the (prepared) input's.
SmallVector<int64_t> outputShape(SmallVector<int64_t> shape, Value input) {
  shape[0] = cast<RankedTensorType>(input.getType()).getDimSize(0);
  return shape;
}

/// The result's extents: N from the input, the rest static.
SmallVector<OpFoldResult> outputSizes(OpBuilder &b, Location loc, Value input,
                                      ArrayRef<int64_t> shape) {
  SmallVector<OpFoldResult> sizes = {getDimSize(b, loc, input, 0)};
  for (int64_t extent : shape.drop_front())
    sizes.push_back(b.getIndexAttr(extent));
  return sizes;
}

/// linalg.conv_2d_nhwc_hwcf, or for groups > 1 linalg.conv_2d_nhwgc_gfhwc
/// on the channels split into groups; f16 and bf16 accumulate in f32.
struct Conv2DToLinalg : public OpConversionPattern<Conv2DOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(Conv2DOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType resultType = op.getResult().getType();
    Type elementType = resultType.getElementType();
    ArithAlgebra algebra(rewriter, loc, elementType);
    Value input = prepareInput(rewriter, loc, op, adaptor.getInput(),
                               op.getPadding(), algebra.constant(0));
    Value filter = adaptor.getFilter();
    SmallVector<int64_t> shape = outputShape(op.getOutputShape(), input);
    SmallVector<OpFoldResult> sizes = outputSizes(rewriter, loc, input, shape);
    Type accumulator = semantics::getAccumulatorType(elementType);
    Value zero = algebra.accumulator().constant(0);
    DenseIntElementsAttr strides = pairAttr(rewriter, op.getStrides());
    DenseIntElementsAttr dilations = pairAttr(rewriter, op.getDilations());
    int64_t groups = op.getGroups();
    Value result;
    if (groups == 1) {
      auto type = RankedTensorType::get(shape, accumulator);
      Value acc = createFilledTensor(rewriter, loc, type, sizes, zero);
      result = linalg::Conv2DNhwcHwcfOp::create(
                   rewriter, loc, TypeRange{type}, ValueRange{input, filter},
                   ValueRange{acc}, strides, dilations)
                   .getResult(0);
    } else {
      auto inputType = cast<RankedTensorType>(input.getType());
      auto filterType = cast<RankedTensorType>(filter.getType());
      int64_t channels = inputType.getDimSize(3) / groups;
      int64_t outputs = filterType.getDimSize(3) / groups;
      SmallVector<ReassociationIndices> split = {{0}, {1}, {2}, {3, 4}};
      // N x H x W x G x C/G.
      SmallVector<int64_t> groupedShape(inputType.getShape().take_front(3));
      groupedShape.append({groups, channels});
      SmallVector<OpFoldResult> groupedSizes =
          getDimSizes(rewriter, loc, input);
      groupedSizes.back() = rewriter.getIndexAttr(groups);
      groupedSizes.push_back(rewriter.getIndexAttr(channels));
      Value groupedInput = tensor::ExpandShapeOp::create(
          rewriter, loc, inputType.clone(groupedShape), input, split,
          groupedSizes);
      // kh x kw x C/G x G x F, then G x F x kh x kw x C/G.
      ArrayRef<int64_t> f = filterType.getShape();
      auto splitFilterType =
          filterType.clone({f[0], f[1], f[2], groups, outputs});
      Value splitFilter = tensor::ExpandShapeOp::create(
          rewriter, loc, splitFilterType, filter, split);
      SmallVector<int64_t> perm = {3, 4, 0, 1, 2};
      auto groupedFilterType =
          filterType.clone({groups, outputs, f[0], f[1], f[2]});
      Value groupedFilter = linalg::TransposeOp::create(
                                rewriter, loc, splitFilter,
                                tensor::EmptyOp::create(
                                    rewriter, loc, groupedFilterType.getShape(),
                                    filterType.getElementType()),
                                perm)
                                .getResult()[0];
      SmallVector<int64_t> accShape(shape.begin(), shape.begin() + 3);
      accShape.append({groups, outputs});
      SmallVector<OpFoldResult> accSizes(sizes.begin(), sizes.begin() + 3);
      accSizes.append(
          {rewriter.getIndexAttr(groups), rewriter.getIndexAttr(outputs)});
      auto accType = RankedTensorType::get(accShape, accumulator);
      Value acc = createFilledTensor(rewriter, loc, accType, accSizes, zero);
      Value grouped = linalg::Conv2DNhwgcGfhwcOp::create(
                          rewriter, loc, TypeRange{accType},
                          ValueRange{groupedInput, groupedFilter},
                          ValueRange{acc}, strides, dilations)
                          .getResult(0);
      result = tensor::CollapseShapeOp::create(
          rewriter, loc, RankedTensorType::get(shape, accumulator), grouped,
          split);
    }
    result = roundAccumulators(rewriter, loc, result, elementType);
    rewriter.replaceOp(op, relaxToType(rewriter, loc, result, resultType));
    return success();
  }
};

/// linalg.pooling_nhwc_max over the input padded with the lowest value.
struct MaxPool2DToLinalg : public OpConversionPattern<MaxPool2DOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(MaxPool2DOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType resultType = op.getResult().getType();
    Type elementType = resultType.getElementType();
    ArithAlgebra algebra(rewriter, loc, elementType);
    Value lowest = algebra.lowest();
    Value input = prepareInput(rewriter, loc, op, adaptor.getInput(),
                               op.getPadding(), lowest);
    SmallVector<int64_t> shape = outputShape(op.getOutputShape(), input);
    auto type = RankedTensorType::get(shape, elementType);
    Value acc = createFilledTensor(
        rewriter, loc, type, outputSizes(rewriter, loc, input, shape), lowest);
    Value window =
        tensor::EmptyOp::create(rewriter, loc, op.getWindow(), elementType);
    Value result =
        linalg::PoolingNhwcMaxOp::create(
            rewriter, loc, TypeRange{type}, ValueRange{input, window},
            ValueRange{acc}, pairAttr(rewriter, op.getStrides()),
            pairAttr(rewriter, {1, 1}))
            .getResult(0);
    rewriter.replaceOp(op, relaxToType(rewriter, loc, result, resultType));
    return success();
  }
};

/// linalg.pooling_nhwc_sum over the zero-padded input, in the accumulator
/// type, then each sum divided by the number of input elements its window
/// covers (computed from the window's position; the window's size without
/// padding).
struct AvgPool2DToLinalg : public OpConversionPattern<AvgPool2DOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AvgPool2DOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType resultType = op.getResult().getType();
    Type elementType = resultType.getElementType();
    ArithAlgebra algebra(rewriter, loc, elementType);
    ArrayRef<int64_t> padding = op.getPadding(), window = op.getWindow(),
                      strides = op.getStrides();
    Value input = prepareInput(rewriter, loc, op, adaptor.getInput(), padding,
                               algebra.constant(0));
    SmallVector<int64_t> shape = outputShape(op.getOutputShape(), input);
    SmallVector<OpFoldResult> sizes = outputSizes(rewriter, loc, input, shape);
    auto accType = RankedTensorType::get(
        shape, semantics::getAccumulatorType(elementType));
    Value acc = createFilledTensor(rewriter, loc, accType, sizes,
                                   algebra.accumulator().constant(0));
    Value windowTensor =
        tensor::EmptyOp::create(rewriter, loc, window, elementType);
    Value sums = linalg::PoolingNhwcSumOp::create(
                     rewriter, loc, TypeRange{accType},
                     ValueRange{input, windowTensor}, ValueRange{acc},
                     pairAttr(rewriter, strides), pairAttr(rewriter, {1, 1}))
                     .getResult(0);
    RankedTensorType inputType = op.getInput().getType();
    int64_t extents[2] = {inputType.getDimSize(1), inputType.getDimSize(2)};
    auto type = RankedTensorType::get(shape, elementType);
    Value result = createParallelGeneric(
        rewriter, loc, type, sizes, sums, rewriter.getMultiDimIdentityMap(4),
        [&](OpBuilder &b, Location nestedLoc, ValueRange args) {
          // Input rows (columns) [o * stride - pad, ... + window) clipped
          // to [0, extent).
          auto covered = [&](int64_t dim, int64_t axis) {
            auto constant = [&](int64_t v) {
              return arith::ConstantIndexOp::create(b, nestedLoc, v);
            };
            Value position = linalg::IndexOp::create(b, nestedLoc, dim);
            Value start = arith::SubIOp::create(
                b, nestedLoc,
                arith::MulIOp::create(b, nestedLoc, position,
                                      constant(strides[axis])),
                constant(padding[2 * axis]));
            Value end = arith::AddIOp::create(b, nestedLoc, start,
                                              constant(window[axis]));
            Value first =
                arith::MaxSIOp::create(b, nestedLoc, start, constant(0));
            Value last = arith::MinSIOp::create(b, nestedLoc, end,
                                                constant(extents[axis]));
            return arith::SubIOp::create(b, nestedLoc, last, first).getResult();
          };
          // Unpadded windows all lie inside the input.
          Value count;
          if (llvm::all_equal(padding) && padding.front() == 0)
            count = arith::ConstantIndexOp::create(b, nestedLoc,
                                                   window[0] * window[1]);
          else
            count = arith::MulIOp::create(b, nestedLoc, covered(1, 0),
                                          covered(2, 1));
          ArithAlgebra a(b, nestedLoc, elementType);
          ArithAlgebra w = a.accumulator();
          return semantics::mean(a, w, args[0], count);
        });
    rewriter.replaceOp(op, relaxToType(rewriter, loc, result, resultType));
    return success();
  }
};

} // namespace

void google::populateConvolutionToLinalgPatterns(RewritePatternSet &patterns) {
  patterns.add<Conv2DToLinalg, MaxPool2DToLinalg, AvgPool2DToLinalg>(
      patterns.getContext());
}
