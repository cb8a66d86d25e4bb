//===- ConvolutionToMatmul.cpp - --google-convolution-to-matmul -----------===//
//
// linalg.conv_2d_nhwc_hwcf becomes an im2col copy (N x OH x OW x kh x kw x
// C: each output position's window, a generic with affine reads) and a
// linalg.matmul of its (N*OH*OW) x (kh*kw*C) collapse by the filter's
// (kh*kw*C) x F collapse, which the matmul schedules (CPU register blocks,
// GPU shared-memory tiles) then take. The window copy costs kh*kw reads of
// the input; the matmul is where the FMAs are.
//
// With direct-min-width (the CPU's pipeline), wide f32 convolutions skip
// the copy: each output row is kh*kw matmuls of shifted input rows (a
// strided view of the input) by the filter's slices, accumulating in the
// row, so the only memory traffic is the input, the filter and the output.
//
//===----------------------------------------------------------------------===//

#include "Codegen/Epilogues.h"
#include "Codegen/Matchers.h"
#include "Codegen/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Dominance.h"

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

/// Whether `conv` is f32 throughout with output rows of at least
/// `minWidth` positions (0: never).
bool isDirectCandidate(linalg::Conv2DNhwcHwcfOp conv, int64_t minWidth) {
  auto output = cast<RankedTensorType>(conv.getOutputs()[0].getType());
  auto filter = cast<RankedTensorType>(conv.getInputs()[1].getType());
  // One input channel: each window offset's matmul would have K = 1 (the
  // window copy's one matmul has K = kh*kw), and its strided row slice,
  // rank-reduced past a unit channel, crashes MLIR 22's
  // --expand-strided-metadata (test/Pipelines/conv-one-channel.mlir).
  return minWidth > 0 && output.getDimSize(2) >= minWidth &&
         filter.getDimSize(2) > 1 &&
         llvm::all_of(conv->getOperandTypes(), [](Type type) {
           return getElementTypeOrSelf(type).isF32();
         });
}

/// The input row that window row `i` of output row `y` reads:
/// y*s0 + i*d0.
Value getInputRow(OpBuilder &b, Location loc, Value y, Value i,
                  ArrayRef<int64_t> strides, ArrayRef<int64_t> dilations) {
  AffineExpr d0 = b.getAffineDimExpr(0), d1 = b.getAffineDimExpr(1);
  return affine::AffineApplyOp::create(
      b, loc, AffineMap::get(2, 0, d0 * strides[0] + d1 * dilations[0]),
      ValueRange{y, i});
}

/// The direct form (see the file comment): one loop over the N*OH output
/// rows, marked parallel, and loops over the window's rows and columns
/// around a matmul of the shifted input rows by the filter's slice.
Value rewriteAsRowMatmuls(RewriterBase &rewriter,
                          linalg::Conv2DNhwcHwcfOp conv) {
  Location loc = conv.getLoc();
  Value input = conv.getInputs()[0], filter = conv.getInputs()[1];
  Value init = conv.getOutputs()[0];
  auto filterType = cast<RankedTensorType>(filter.getType());
  auto outputType = cast<RankedTensorType>(init.getType());
  Type element = outputType.getElementType();
  ArrayRef<int64_t> f = filterType.getShape(), o = outputType.getShape();
  SmallVector<int64_t> strides = pairOf(conv.getStrides());
  SmallVector<int64_t> dilations = pairOf(conv.getDilations());
  auto index = [&](int64_t value) -> OpFoldResult {
    return rewriter.getIndexAttr(value);
  };
  auto constant = [&](int64_t value) -> Value {
    return arith::ConstantIndexOp::create(rewriter, loc, value);
  };
  Value batch = tensor::getMixedSize(rewriter, loc, init, /*dim=*/0)
                    .dyn_cast<Value>();
  if (!batch)
    batch = constant(o[0]);
  Value rows = arith::MulIOp::create(rewriter, loc, batch, constant(o[1]));
  auto rowType = RankedTensorType::get({o[2], o[3]}, element);
  auto lhsType = RankedTensorType::get({o[2], f[2]}, element);
  auto rhsType = RankedTensorType::get({f[2], f[3]}, element);
  // Made here, in front of the loops.
  Value zero = constant(0), one = constant(1);
  Value windowHeight = constant(f[0]), windowWidth = constant(f[1]);
  auto rowLoop = scf::ForOp::create(
      rewriter, loc, zero, rows, one, ValueRange{init},
      [&](OpBuilder &b, Location nestedLoc, Value row, ValueRange outputs) {
        AffineExpr r = b.getAffineDimExpr(0);
        Value n = affine::AffineApplyOp::create(
            b, nestedLoc, AffineMap::get(1, 0, r.floorDiv(o[1])), row);
        Value y = affine::AffineApplyOp::create(
            b, nestedLoc, AffineMap::get(1, 0, r % o[1]), row);
        Value acc = tensor::ExtractSliceOp::create(
            b, nestedLoc, rowType, outputs[0],
            ArrayRef<OpFoldResult>{n, y, index(0), index(0)},
            ArrayRef<OpFoldResult>{index(1), index(1), index(o[2]),
                                   index(o[3])},
            ArrayRef<OpFoldResult>{index(1), index(1), index(1), index(1)});
        auto windowRows = scf::ForOp::create(
            b, nestedLoc, zero, windowHeight, one, ValueRange{acc},
            [&](OpBuilder &b, Location loc, Value i, ValueRange rowAcc) {
              auto windowColumns = scf::ForOp::create(
                  b, loc, zero, windowWidth, one, rowAcc,
                  [&](OpBuilder &b, Location loc, Value j,
                      ValueRange columnAcc) {
                    AffineExpr d0 = b.getAffineDimExpr(0);
                    Value inputRow =
                        getInputRow(b, loc, y, i, strides, dilations);
                    Value inputColumn = affine::AffineApplyOp::create(
                        b, loc, AffineMap::get(1, 0, d0 * dilations[1]), j);
                    Value lhs = tensor::ExtractSliceOp::create(
                        b, loc, lhsType, input,
                        ArrayRef<OpFoldResult>{n, inputRow, inputColumn,
                                               index(0)},
                        ArrayRef<OpFoldResult>{index(1), index(1),
                                               index(o[2]), index(f[2])},
                        ArrayRef<OpFoldResult>{index(1), index(1),
                                               index(strides[1]), index(1)});
                    Value rhs = tensor::ExtractSliceOp::create(
                        b, loc, rhsType, filter,
                        ArrayRef<OpFoldResult>{i, j, index(0), index(0)},
                        ArrayRef<OpFoldResult>{index(1), index(1),
                                               index(f[2]), index(f[3])},
                        ArrayRef<OpFoldResult>{index(1), index(1), index(1),
                                               index(1)});
                    auto matmul = linalg::MatmulOp::create(
                        b, loc, rowType, ValueRange{lhs, rhs}, columnAcc[0]);
                    scf::YieldOp::create(b, loc, matmul.getResult(0));
                  });
              scf::YieldOp::create(b, loc, windowColumns.getResult(0));
            });
        Value updated = tensor::InsertSliceOp::create(
            b, nestedLoc, windowRows.getResult(0), outputs[0],
            ArrayRef<OpFoldResult>{n, y, index(0), index(0)},
            ArrayRef<OpFoldResult>{index(1), index(1), index(o[2]),
                                   index(o[3])},
            ArrayRef<OpFoldResult>{index(1), index(1), index(1), index(1)});
        scf::YieldOp::create(b, nestedLoc, updated);
      });
  rowLoop->setAttr(kParallelLoopAttrName, rewriter.getUnitAttr());
  return rowLoop.getResult(0);
}

/// The window copy built run by run (see row-copy-min-run): patches[:, y,
/// x, i, :] = source[:, y*s0 + i*d0, x*s1*C : x*s1*C + run] for each
/// output row y, column x and window row i.
Value copyWindowRuns(RewriterBase &rewriter, Location loc, Value source,
                     Value patches, OpFoldResult batch, ArrayRef<int64_t> o,
                     int64_t windowRows, int64_t run, int64_t channels,
                     ArrayRef<int64_t> strides, ArrayRef<int64_t> dilations) {
  auto index = [&](int64_t value) -> OpFoldResult {
    return rewriter.getIndexAttr(value);
  };
  auto constant = [&](int64_t value) -> Value {
    return arith::ConstantIndexOp::create(rewriter, loc, value);
  };
  Type element = cast<RankedTensorType>(source.getType()).getElementType();
  SmallVector<int64_t> runShape = {
      getConstantIntValue(batch).value_or(ShapedType::kDynamic), run};
  auto runType = RankedTensorType::get(runShape, element);
  // Made here, in front of the loops.
  Value zero = constant(0), one = constant(1);
  Value outputRows = constant(o[1]), outputColumns = constant(o[2]),
        windowRowCount = constant(windowRows);
  auto loop = [&](OpBuilder &b, Location nestedLoc, Value extent, Value into,
                  function_ref<Value(OpBuilder &, Value, Value)> body) {
    return scf::ForOp::create(
               b, nestedLoc, zero, extent, one, ValueRange{into},
               [&](OpBuilder &b, Location loc, Value iv, ValueRange args) {
                 scf::YieldOp::create(b, loc, body(b, iv, args[0]));
               })
        .getResult(0);
  };
  return loop(
      rewriter, loc, outputRows, patches,
      [&](OpBuilder &b, Value y, Value rows) {
        return loop(
            b, loc, outputColumns, rows,
            [&](OpBuilder &b, Value x, Value columns) {
              return loop(
                  b, loc, windowRowCount, columns,
                  [&](OpBuilder &b, Value i, Value window) {
                    AffineExpr d0 = b.getAffineDimExpr(0);
                    Value row = getInputRow(b, loc, y, i, strides, dilations);
                    Value column = affine::AffineApplyOp::create(
                        b, loc,
                        AffineMap::get(1, 0, d0 * (strides[1] * channels)), x);
                    Value runs = tensor::ExtractSliceOp::create(
                        b, loc, runType, source,
                        ArrayRef<OpFoldResult>{index(0), row, column},
                        ArrayRef<OpFoldResult>{batch, index(1), index(run)},
                        ArrayRef<OpFoldResult>{index(1), index(1), index(1)});
                    return tensor::InsertSliceOp::create(
                               b, loc, runs, window,
                               ArrayRef<OpFoldResult>{index(0), y, x, i,
                                                      index(0)},
                               ArrayRef<OpFoldResult>{batch, index(1), index(1),
                                                      index(1), index(run)},
                               ArrayRef<OpFoldResult>{index(1), index(1),
                                                      index(1), index(1),
                                                      index(1)})
                        .getResult();
                  });
            });
      });
}

/// An im2col matrix (N*OH*OW) x (kh*kw*C) of one input, kept for the
/// other convolutions of the same input and windows (a filter's gradient
/// reads the windows its forward convolution read).
struct Patches {
  Value input;
  SmallVector<int64_t> key; // OH, OW, kh, kw, strides, dilations
  Value matrix;
};

class PatchBuilder {
public:
  PatchBuilder(RewriterBase &rewriter, Operation *scope, int64_t rowCopyMinRun)
      : rewriter(rewriter), dominance(scope), rowCopyMinRun(rowCopyMinRun) {}

  /// patches[(n, y, x), (i, j, c)] = input[n, y*s0 + i*d0, x*s1 + j*d1, c]
  /// for y < OH, x < OW, i < kh, j < kw (`outputs` OH, OW; `window` kh,
  /// kw), built at the rewriter's insertion point for `user` or reused.
  Value get(Operation *user, Value input, ArrayRef<int64_t> outputs,
            ArrayRef<int64_t> window, ArrayRef<int64_t> strides,
            ArrayRef<int64_t> dilations);

  int64_t numRunCopies = 0;

private:
  Value build(Location loc, Value input, ArrayRef<int64_t> outputs,
              ArrayRef<int64_t> window, ArrayRef<int64_t> strides,
              ArrayRef<int64_t> dilations);

  RewriterBase &rewriter;
  DominanceInfo dominance;
  int64_t rowCopyMinRun;
  SmallVector<Patches> built;
};

Value PatchBuilder::get(Operation *user, Value input, ArrayRef<int64_t> outputs,
                        ArrayRef<int64_t> window, ArrayRef<int64_t> strides,
                        ArrayRef<int64_t> dilations) {
  SmallVector<int64_t> key = llvm::to_vector(outputs);
  llvm::append_range(key, window);
  llvm::append_range(key, strides);
  llvm::append_range(key, dilations);
  for (const Patches &patches : built)
    if (patches.input == input && patches.key == key &&
        dominance.properlyDominates(patches.matrix, user))
      return patches.matrix;
  Value matrix =
      build(user->getLoc(), input, outputs, window, strides, dilations);
  built.push_back({input, std::move(key), matrix});
  return matrix;
}

Value PatchBuilder::build(Location loc, Value input, ArrayRef<int64_t> outputs,
                          ArrayRef<int64_t> window, ArrayRef<int64_t> strides,
                          ArrayRef<int64_t> dilations) {
  auto inputType = cast<RankedTensorType>(input.getType());
  int64_t channels = inputType.getDimSize(3);
  OpFoldResult batch = tensor::getMixedSize(rewriter, loc, input, /*dim=*/0);
  std::array<int64_t, 3> o = {inputType.getDimSize(0), outputs[0], outputs[1]};

  // The windows: patches[n, y, x, i, j, c] = input[n, y*s0 + i*d0,
  // x*s1 + j*d1, c]. With d1 = 1 a window row's (j, c) is one run of
  // kw*C input elements, read as one dimension of the input's [N, H,
  // W*C] view: patches[n, y, x, i, t] = input'[n, y*s0 + i*d0,
  // x*s1*C + t], vectorized along t.
  MLIRContext *context = rewriter.getContext();
  Type element = inputType.getElementType();
  bool rowRuns = dilations[1] == 1;
  SmallVector<int64_t> patchShape = {o[0], o[1], o[2], window[0]};
  if (rowRuns)
    patchShape.push_back(window[1] * channels);
  else
    patchShape.append({window[1], channels});
  int64_t rank = patchShape.size();
  SmallVector<OpFoldResult> patchSizes = {batch};
  for (int64_t extent : ArrayRef(patchShape).drop_front())
    patchSizes.push_back(rewriter.getIndexAttr(extent));
  Value empty = tensor::EmptyOp::create(rewriter, loc, patchSizes, element);
  AffineExpr n = getAffineDimExpr(0, context), y = getAffineDimExpr(1, context),
             x = getAffineDimExpr(2, context), i = getAffineDimExpr(3, context);
  Value source = input;
  AffineMap read;
  if (rowRuns) {
    source = tensor::CollapseShapeOp::create(
        rewriter, loc, input,
        SmallVector<ReassociationIndices>{{0}, {1}, {2, 3}});
    AffineExpr t = getAffineDimExpr(4, context);
    read = AffineMap::get(
        rank, 0,
        {n, y * strides[0] + i * dilations[0], x * (strides[1] * channels) + t},
        context);
  } else {
    AffineExpr j = getAffineDimExpr(4, context),
               c = getAffineDimExpr(5, context);
    read = AffineMap::get(rank, 0,
                          {n, y * strides[0] + i * dilations[0],
                           x * strides[1] + j * dilations[1], c},
                          context);
  }
  Value patches;
  if (rowRuns && rowCopyMinRun > 0 && window[1] * channels >= rowCopyMinRun) {
    patches =
        copyWindowRuns(rewriter, loc, source, empty, batch, o, window[0],
                       window[1] * channels, channels, strides, dilations);
    ++numRunCopies;
  } else {
    patches =
        linalg::GenericOp::create(
            rewriter, loc, empty.getType(), source, empty,
            ArrayRef<AffineMap>{read, rewriter.getMultiDimIdentityMap(rank)},
            SmallVector<utils::IteratorType>(rank,
                                             utils::IteratorType::parallel),
            [](OpBuilder &b, Location nestedLoc, ValueRange args) {
              linalg::YieldOp::create(b, nestedLoc, args[0]);
            })
            .getResult(0);
  }
  SmallVector<ReassociationIndices> rowsAndDepth = {
      {0, 1, 2}, llvm::to_vector(llvm::seq<int64_t>(3, rank))};
  return tensor::CollapseShapeOp::create(rewriter, loc, patches, rowsAndDepth);
}

/// A filter's gradient as the differentiation pass writes it:
/// transpose(conv(transpose(x), transpose(ct))), the batch as the
/// channels, into a zero-filled accumulator.
struct FilterGradient {
  linalg::Conv2DNhwcHwcfOp conv;
  linalg::TransposeOp result;
  Value input;     // x: N x H x W x C
  Value cotangent; // ct: N x OH x OW x F
  linalg::FillOp accumulator;
};

std::optional<FilterGradient>
matchFilterGradient(linalg::Conv2DNhwcHwcfOp conv) {
  if (!conv.hasPureTensorSemantics() || !conv->hasOneUse())
    return std::nullopt;
  auto transposed = [](Value value, ArrayRef<int64_t> perm) {
    auto transpose = value.getDefiningOp<linalg::TransposeOp>();
    return transpose && transpose.getPermutation() == perm ? transpose
                                                           : nullptr;
  };
  linalg::TransposeOp input = transposed(conv.getInputs()[0], {3, 1, 2, 0});
  linalg::TransposeOp cotangent = transposed(conv.getInputs()[1], {1, 2, 0, 3});
  auto result = dyn_cast<linalg::TransposeOp>(*conv->user_begin());
  auto accumulator = conv.getOutputs()[0].getDefiningOp<linalg::FillOp>();
  if (!input || !cotangent || !result || !accumulator ||
      result.getPermutation() != ArrayRef<int64_t>{1, 2, 0, 3} ||
      !accumulator.hasPureTensorSemantics())
    return std::nullopt;
  Type element = getElementTypeOrSelf(conv->getResult(0).getType());
  for (Value value : std::array<Value, 3>{
           input.getInput(), cotangent.getInput(), conv->getResult(0)}) {
    auto type = cast<RankedTensorType>(value.getType());
    if (!type.hasStaticShape() || type.getElementType() != element ||
        llvm::is_contained(type.getShape(), 0))
      return std::nullopt;
  }
  return FilterGradient{conv, result, input.getInput(), cotangent.getInput(),
                        accumulator};
}

/// `value`, or the tensor it is a leading corner of (windows that stay in
/// the corner read the same elements of either).
Value getCornerSource(Value value) {
  auto slice = value.getDefiningOp<tensor::ExtractSliceOp>();
  if (!slice || slice.getSourceType().getRank() != slice.getType().getRank() ||
      !slice.getSourceType().hasStaticShape() ||
      !llvm::all_of(slice.getMixedOffsets(), isZeroInteger) ||
      !llvm::all_of(slice.getMixedStrides(), isOneInteger))
    return value;
  return slice.getSource();
}

/// result[i, j, c, f] = sum over n, y, x of x[n, y*d0 + i*s0, x*d1 + j*s1,
/// c] ct[n, y, x, f] (s, d: the convolution's strides and dilations, the
/// forward convolution's dilations and strides): the forward's windows,
/// transposed, times ct, one matmul that reads A^T where it is.
void rewriteFilterGradient(RewriterBase &rewriter, PatchBuilder &patches,
                           FilterGradient gradient) {
  linalg::Conv2DNhwcHwcfOp conv = gradient.conv;
  Location loc = conv.getLoc();
  rewriter.setInsertionPoint(gradient.result);
  auto cotangentType = cast<RankedTensorType>(gradient.cotangent.getType());
  auto resultType =
      cast<RankedTensorType>(gradient.result->getResult(0).getType());
  ArrayRef<int64_t> ct = cotangentType.getShape(), r = resultType.getShape();
  SmallVector<int64_t> strides = pairOf(conv.getStrides());
  SmallVector<int64_t> dilations = pairOf(conv.getDilations());
  Value windows = patches.get(gradient.result, getCornerSource(gradient.input),
                              {ct[1], ct[2]}, {r[0], r[1]},
                              /*strides=*/dilations, /*dilations=*/strides);
  Value rows = tensor::CollapseShapeOp::create(
      rewriter, loc, gradient.cotangent,
      SmallVector<ReassociationIndices>{{0, 1, 2}, {3}});
  Type element = resultType.getElementType();
  auto productType = RankedTensorType::get({r[0] * r[1] * r[2], r[3]}, element);
  Value empty =
      tensor::EmptyOp::create(rewriter, loc, productType.getShape(), element);
  Value init = linalg::FillOp::create(
                   rewriter, loc, gradient.accumulator.getInputs()[0], empty)
                   .getResult(0);
  auto matmul = createTransposedLhsMatmul(rewriter, loc, windows, rows, init);
  Value result = tensor::ExpandShapeOp::create(
      rewriter, loc, resultType, matmul.getResult(0),
      SmallVector<ReassociationIndices>{{0, 1, 2}, {3}});
  rewriter.replaceOp(gradient.result, result);
  Operation *input = conv.getInputs()[0].getDefiningOp();
  Operation *cotangent = conv.getInputs()[1].getDefiningOp();
  rewriter.eraseOp(conv);
  for (Operation *op : {input, cotangent, gradient.accumulator.getOperation()})
    if (op->use_empty())
      rewriter.eraseOp(op);
}

/// The matmul's accumulator: a fill of a fresh matrix when the
/// convolution's is a fill of an empty tensor (the matmul schedules fuse a
/// fill they see, not one behind a reshape), else its collapse. `shape`
/// holds the convolution's output extents (the tensor the fill writes).
Value getMatrixInit(RewriterBase &rewriter, Location loc, Value init,
                    Value shape,
                    ArrayRef<ReassociationIndices> rowsAndColumns) {
  auto fill = init.getDefiningOp<linalg::FillOp>();
  if (!fill || !shape.getDefiningOp<tensor::EmptyOp>())
    return tensor::CollapseShapeOp::create(rewriter, loc, init, rowsAndColumns);
  auto type = cast<RankedTensorType>(init.getType());
  RankedTensorType matrixType =
      tensor::CollapseShapeOp::inferCollapsedType(type, rowsAndColumns);
  SmallVector<Value> dynamicRows;
  if (matrixType.isDynamicDim(0)) {
    // N * OH * OW, with N the only dynamic extent.
    Value batch = tensor::DimOp::create(rewriter, loc, shape, 0);
    Value positions = arith::ConstantIndexOp::create(
        rewriter, loc, type.getDimSize(1) * type.getDimSize(2));
    dynamicRows.push_back(
        arith::MulIOp::create(rewriter, loc, batch, positions));
  }
  Value empty =
      tensor::EmptyOp::create(rewriter, loc, matrixType.getShape(),
                              matrixType.getElementType(), dynamicRows);
  return linalg::FillOp::create(rewriter, loc, fill.getInputs(), empty)
      .getResult(0);
}

struct ConvolutionToMatmulPass
    : public google::impl::ConvolutionToMatmulPassBase<
          ConvolutionToMatmulPass> {
  using Base::Base;
  void runOnOperation() override;
};

} // namespace

void ConvolutionToMatmulPass::runOnOperation() {
  IRRewriter rewriter(&getContext());
  PatchBuilder patches(rewriter, getOperation(), rowCopyMinRun);
  SmallVector<linalg::Conv2DNhwcHwcfOp> convolutions;
  getOperation()->walk([&](linalg::Conv2DNhwcHwcfOp conv) {
    if (isConvolutionAsMatmul(conv))
      convolutions.push_back(conv);
  });
  for (linalg::Conv2DNhwcHwcfOp conv : convolutions) {
    if (filterGradients) {
      if (std::optional<FilterGradient> gradient = matchFilterGradient(conv)) {
        rewriteFilterGradient(rewriter, patches, *gradient);
        ++numFilterGradients;
        continue;
      }
    }
    Location loc = conv.getLoc();
    rewriter.setInsertionPoint(conv);
    if (isDirectCandidate(conv, directMinWidth)) {
      rewriter.replaceOp(conv, rewriteAsRowMatmuls(rewriter, conv));
      ++numDirect;
      continue;
    }
    Value input = conv.getInputs()[0], filter = conv.getInputs()[1];
    Value init = conv.getOutputs()[0];
    auto filterType = cast<RankedTensorType>(filter.getType());
    auto outputType = cast<RankedTensorType>(init.getType());
    ArrayRef<int64_t> f = filterType.getShape(), o = outputType.getShape();
    Value lhs =
        patches.get(conv, input, {o[1], o[2]}, {f[0], f[1]},
                    pairOf(conv.getStrides()), pairOf(conv.getDilations()));
    // (N*OH*OW) x (kh*kw*C) times (kh*kw*C) x F.
    Value rhs = tensor::CollapseShapeOp::create(
        rewriter, loc, filter,
        SmallVector<ReassociationIndices>{{0, 1, 2}, {3}});
    SmallVector<ReassociationIndices> rowsAndColumns = {{0, 1, 2}, {3}};
    // The extents from the tensor a fill writes, so that the fill of the
    // convolution's shape goes away.
    Value shape = init;
    if (auto fill = init.getDefiningOp<linalg::FillOp>())
      shape = fill.getOutputs()[0];
    Value acc = getMatrixInit(rewriter, loc, init, shape, rowsAndColumns);
    auto matmul = linalg::MatmulOp::create(rewriter, loc, acc.getType(),
                                           ValueRange{lhs, rhs}, acc);
    SmallVector<OpFoldResult> outputSizes = {
        tensor::getMixedSize(rewriter, loc, shape, /*dim=*/0)};
    for (int64_t extent : o.drop_front())
      outputSizes.push_back(rewriter.getIndexAttr(extent));
    auto result = tensor::ExpandShapeOp::create(rewriter, loc, outputType,
                                                matmul.getResult(0),
                                                rowsAndColumns, outputSizes);
    rewriter.replaceOp(conv, result);
    if (Operation *oldInit = init.getDefiningOp();
        oldInit && oldInit != acc.getDefiningOp() && isPure(oldInit) &&
        oldInit->use_empty())
      rewriter.eraseOp(oldInit);
    numEpilogues += collapseEpilogues(rewriter, result, acc);
    ++numConverted;
  }
  numRunCopies += patches.numRunCopies;
}
