//===- Matmul.cpp - matmul and the fused matmul_bias_relu to linalg -------===//

#include "ArithAlgebra.h"
#include "Utils.h"

#include "Dialect/Google/IR/GoogleOps.h"
#include "Dialect/Google/IR/ScalarSemantics.h"
#include "Dialect/Google/IR/ShapeRules.h"

using namespace mlir;
using namespace mlir::google;

namespace {

/// A zero-filled accumulator and the named matmul into it. Operands are
/// refined to every extent known statically (from the other operand, the
/// declared result or a bias of `biasLength`) and checked at run time where
/// that is not enough. Returns the product, with static extents where
/// known.
Value createMatmul(OpBuilder &b, Location loc, StringRef opName,
                   RankedTensorType resultType, Value lhs, Value rhs,
                   int64_t biasLength = ShapedType::kDynamic) {
  int64_t rank = resultType.getRank();
  MatmulShapes known = knownMatmulShapes(
      cast<RankedTensorType>(lhs.getType()).getShape(),
      cast<RankedTensorType>(rhs.getType()).getShape(),
      resultType.getShape(), biasLength);
  lhs = refineShape(b, loc, lhs, known.lhs, [&](int64_t d) {
    return extentMessage(opName, "lhs", d);
  });
  rhs = refineShape(b, loc, rhs, known.rhs, [&](int64_t d) {
    return extentMessage(opName, "rhs", d);
  });
  emitExtentCheck(b, loc, getDimSize(b, loc, rhs, rank - 2),
                  getDimSize(b, loc, lhs, rank - 1),
                  opName + ": the contracting dimension of rhs is {0}, "
                           "expected {1} like lhs's");
  if (rank == 3)
    emitExtentCheck(b, loc, getDimSize(b, loc, rhs, 0),
                    getDimSize(b, loc, lhs, 0),
                    opName + ": the batch dimension of rhs is {0}, expected "
                             "{1} like lhs's");
  SmallVector<OpFoldResult> sizes;
  if (rank == 3)
    sizes.push_back(getDimSize(b, loc, lhs, 0));
  sizes.push_back(getDimSize(b, loc, lhs, rank - 2));
  sizes.push_back(getDimSize(b, loc, rhs, rank - 1));
  // f16 and bf16 accumulate in f32 (linalg's matmuls extend the operands
  // to the accumulator's type), rounded once by the caller.
  Type elementType = resultType.getElementType();
  auto productType = RankedTensorType::get(
      known.product, semantics::getAccumulatorType(elementType));
  ArithAlgebra algebra(b, loc, elementType);
  Value acc = createFilledTensor(b, loc, productType, sizes,
                                 algebra.accumulator().constant(0));
  if (rank == 3)
    return linalg::BatchMatmulOp::create(b, loc, productType,
                                         ValueRange{lhs, rhs}, acc)
        .getResult(0);
  return linalg::MatmulOp::create(b, loc, productType, ValueRange{lhs, rhs},
                                  acc)
      .getResult(0);
}

struct MatmulToLinalg : public OpConversionPattern<MatmulOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(MatmulOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value product = createMatmul(rewriter, op.getLoc(),
                                 op->getName().getStringRef(),
                                 op.getResult().getType(), adaptor.getLhs(),
                                 adaptor.getRhs());
    product = roundAccumulators(rewriter, op.getLoc(), product,
                                op.getResult().getType().getElementType());
    rewriter.replaceOp(op, relaxToType(rewriter, op.getLoc(), product,
                                       op.getResult().getType()));
    return success();
  }
};

/// The product, then an epilogue reading it and the bias broadcast over
/// rows: out[i, j] = relu(product[i, j] + bias[j]).
struct MatmulBiasReluToLinalg : public OpConversionPattern<MatmulBiasReluOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(MatmulBiasReluOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType resultType = op.getResult().getType();
    StringRef name = op->getName().getStringRef();
    // A static bias length is N too.
    Value product = createMatmul(
        rewriter, loc, name, resultType, adaptor.getLhs(), adaptor.getRhs(),
        cast<RankedTensorType>(adaptor.getBias().getType()).getDimSize(0));
    Type elementType = resultType.getElementType();
    auto productType =
        cast<RankedTensorType>(product.getType()).clone(elementType);
    std::string biasMessage =
        (name + ": the bias has {0} elements, expected N = {1}").str();
    Value bias =
        refineShape(rewriter, loc, adaptor.getBias(),
                    {productType.getDimSize(1)},
                    [&](int64_t) { return biasMessage; });
    emitExtentCheck(rewriter, loc, getDimSize(rewriter, loc, bias, 0),
                    getDimSize(rewriter, loc, product, 1), biasMessage);
    MLIRContext *context = rewriter.getContext();
    AffineMap biasMap =
        AffineMap::get(2, 0, {getAffineDimExpr(1, context)}, context);
    Value result = createParallelGeneric(
        rewriter, loc, productType, getDimSizes(rewriter, loc, product),
        ValueRange{product, bias},
        {rewriter.getMultiDimIdentityMap(2), biasMap},
        [&](OpBuilder &b, Location nestedLoc, ValueRange args) {
          ArithAlgebra algebra(b, nestedLoc, elementType);
          return semantics::biasRelu(algebra,
                                     algebra.fromAccumulator(args[0]),
                                     args[1]);
        });
    rewriter.replaceOp(op, relaxToType(rewriter, loc, result, resultType));
    return success();
  }
};

} // namespace

void google::populateMatmulToLinalgPatterns(RewritePatternSet &patterns) {
  patterns.add<MatmulToLinalg, MatmulBiasReluToLinalg>(patterns.getContext());
}
