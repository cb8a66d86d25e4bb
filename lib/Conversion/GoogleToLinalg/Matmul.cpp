//===- Matmul.cpp - matmul and the fused matmul_bias_relu to linalg -------===//

#include "Utils.h"

#include "Dialect/Google/IR/GoogleOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace mlir::google;

namespace {

/// A zero-filled accumulator and the named matmul into it, after checking
/// dynamic contraction and batch extents.
Value createMatmul(OpBuilder &b, Location loc, StringRef opName,
                   RankedTensorType resultType, Value lhs, Value rhs) {
  int64_t rank = resultType.getRank();
  assertEqualExtents(b, loc, getDimSize(b, loc, lhs, rank - 1),
                     getDimSize(b, loc, rhs, rank - 2),
                     opName + ": lhs and rhs contracting dimensions differ");
  if (rank == 3)
    assertEqualExtents(b, loc, getDimSize(b, loc, lhs, 0),
                       getDimSize(b, loc, rhs, 0),
                       opName + ": lhs and rhs batch dimensions differ");
  SmallVector<OpFoldResult> sizes;
  if (rank == 3)
    sizes.push_back(getDimSize(b, loc, lhs, 0));
  sizes.push_back(getDimSize(b, loc, lhs, rank - 2));
  sizes.push_back(getDimSize(b, loc, rhs, rank - 1));
  Value zero = createScalarConstant(b, loc, resultType.getElementType(), 0);
  Value acc = createFilledTensor(b, loc, resultType, sizes, zero);
  if (rank == 3)
    return linalg::BatchMatmulOp::create(b, loc, resultType,
                                         ValueRange{lhs, rhs}, acc)
        .getResult(0);
  return linalg::MatmulOp::create(b, loc, resultType, ValueRange{lhs, rhs},
                                  acc)
      .getResult(0);
}

struct MatmulToLinalg : public OpConversionPattern<MatmulOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(MatmulOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, createMatmul(rewriter, op.getLoc(),
                                        op->getName().getStringRef(),
                                        op.getResult().getType(),
                                        adaptor.getLhs(), adaptor.getRhs()));
    return success();
  }
};

/// The product, then an epilogue that updates it in place:
/// out[i, j] = max(out[i, j] + bias[j], 0).
struct MatmulBiasReluToLinalg : public OpConversionPattern<MatmulBiasReluOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(MatmulBiasReluOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType resultType = op.getResult().getType();
    StringRef name = op->getName().getStringRef();
    Value product = createMatmul(rewriter, loc, name, resultType,
                                 adaptor.getLhs(), adaptor.getRhs());
    assertEqualExtents(rewriter, loc, getDimSize(rewriter, loc, product, 1),
                       getDimSize(rewriter, loc, adaptor.getBias(), 0),
                       name + ": bias length differs from N");
    MLIRContext *context = rewriter.getContext();
    AffineMap biasMap =
        AffineMap::get(2, 0, {getAffineDimExpr(1, context)}, context);
    AffineMap identity = rewriter.getMultiDimIdentityMap(2);
    auto epilogue = linalg::GenericOp::create(
        rewriter, loc, resultType, adaptor.getBias(), product,
        ArrayRef<AffineMap>{biasMap, identity}, parallelIterators(2),
        [&](OpBuilder &b, Location nestedLoc, ValueRange args) {
          Type type = args[0].getType();
          Value zero = createScalarConstant(b, nestedLoc, type, 0);
          Value sum, relu;
          if (isa<FloatType>(type)) {
            sum = arith::AddFOp::create(b, nestedLoc, args[1], args[0]);
            relu = arith::MaximumFOp::create(b, nestedLoc, sum, zero);
          } else {
            sum = arith::AddIOp::create(b, nestedLoc, args[1], args[0]);
            relu = arith::MaxSIOp::create(b, nestedLoc, sum, zero);
          }
          linalg::YieldOp::create(b, nestedLoc, relu);
        });
    rewriter.replaceOp(op, epilogue.getResult(0));
    return success();
  }
};

} // namespace

void google::populateMatmulToLinalgPatterns(RewritePatternSet &patterns) {
  patterns.add<MatmulToLinalg, MatmulBiasReluToLinalg>(patterns.getContext());
}
