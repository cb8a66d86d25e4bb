//===- Matmul.cpp - matmul and the fused matmul_bias_relu to linalg -------===//

#include "ArithAlgebra.h"
#include "Utils.h"

#include "Dialect/Google/IR/GoogleOps.h"
#include "Dialect/Google/IR/ScalarSemantics.h"

using namespace mlir;
using namespace mlir::google;

namespace {

int64_t firstStatic(std::initializer_list<int64_t> dims) {
  for (int64_t dim : dims)
    if (!ShapedType::isDynamic(dim))
      return dim;
  return ShapedType::kDynamic;
}

/// A zero-filled accumulator and the named matmul into it. Operands are
/// refined to every extent known statically (from the other operand or
/// the declared result) and checked at run time where that is not enough.
/// Returns the product, with static extents where known.
Value createMatmul(OpBuilder &b, Location loc, StringRef opName,
                   RankedTensorType resultType, Value lhs, Value rhs) {
  auto lhsType = cast<RankedTensorType>(lhs.getType());
  auto rhsType = cast<RankedTensorType>(rhs.getType());
  int64_t rank = resultType.getRank();
  ArrayRef<int64_t> l = lhsType.getShape(), r = rhsType.getShape(),
                    out = resultType.getShape();
  int64_t m = firstStatic({out[rank - 2], l[rank - 2]});
  int64_t n = firstStatic({out[rank - 1], r[rank - 1]});
  int64_t k = firstStatic({l[rank - 1], r[rank - 2]});
  SmallVector<int64_t> lhsShape, rhsShape;
  if (rank == 3) {
    int64_t batch = firstStatic({out[0], l[0], r[0]});
    lhsShape.push_back(batch);
    rhsShape.push_back(batch);
  }
  lhsShape.append({m, k});
  rhsShape.append({k, n});
  lhs = refineShape(b, loc, lhs, lhsShape, [&](int64_t d) {
    return extentMessage(opName, "lhs", d);
  });
  rhs = refineShape(b, loc, rhs, rhsShape, [&](int64_t d) {
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
  SmallVector<int64_t> shape;
  if (rank == 3) {
    sizes.push_back(getDimSize(b, loc, lhs, 0));
    shape.push_back(lhsShape[0]);
  }
  sizes.push_back(getDimSize(b, loc, lhs, rank - 2));
  sizes.push_back(getDimSize(b, loc, rhs, rank - 1));
  shape.append({m, n});
  auto productType = resultType.clone(shape);
  ArithAlgebra algebra(b, loc, resultType.getElementType());
  Value acc = createFilledTensor(b, loc, productType, sizes,
                                 algebra.constant(0));
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
    SmallVector<int64_t> knownShape(resultType.getShape());
    knownShape[1] = firstStatic(
        {knownShape[1],
         cast<RankedTensorType>(adaptor.getBias().getType()).getDimSize(0)});
    Value product = createMatmul(rewriter, loc, name,
                                 resultType.clone(knownShape),
                                 adaptor.getLhs(), adaptor.getRhs());
    auto productType = cast<RankedTensorType>(product.getType());
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
    Type elementType = resultType.getElementType();
    Value result = createParallelGeneric(
        rewriter, loc, productType, getDimSizes(rewriter, loc, product),
        ValueRange{product, bias},
        {rewriter.getMultiDimIdentityMap(2), biasMap},
        [&](OpBuilder &b, Location nestedLoc, ValueRange args) {
          ArithAlgebra algebra(b, nestedLoc, elementType);
          return semantics::biasRelu(algebra, args[0], args[1]);
        });
    rewriter.replaceOp(op, relaxToType(rewriter, loc, result, resultType));
    return success();
  }
};

} // namespace

void google::populateMatmulToLinalgPatterns(RewritePatternSet &patterns) {
  patterns.add<MatmulToLinalg, MatmulBiasReluToLinalg>(patterns.getContext());
}
