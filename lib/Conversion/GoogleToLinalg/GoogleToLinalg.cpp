//===- GoogleToLinalg.cpp - --convert-google-to-linalg --------------------===//

#include "Conversion/GoogleToLinalg/GoogleToLinalg.h"
#include "Conversion/Passes.h"
#include "Dialect/Google/IR/GoogleDialect.h"
#include "Utils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::google {
#define GEN_PASS_DEF_CONVERTGOOGLETOLINALGPASS
#include "Conversion/Passes.h.inc"
} // namespace mlir::google

using namespace mlir;
using namespace mlir::google;

void google::populateGoogleToLinalgConversionPatterns(
    RewritePatternSet &patterns) {
  populateElementwiseToLinalgPatterns(patterns);
  populateMatmulToLinalgPatterns(patterns);
  populateLayoutToLinalgPatterns(patterns);
  populateReductionToLinalgPatterns(patterns);
}

void google::configureGoogleToLinalgTarget(ConversionTarget &target) {
  target.addIllegalDialect<GoogleDialect>();
  target.addLegalDialect<arith::ArithDialect, cf::ControlFlowDialect,
                         linalg::LinalgDialect, math::MathDialect,
                         tensor::TensorDialect>();
}

namespace {

struct ConvertGoogleToLinalgPass
    : public google::impl::ConvertGoogleToLinalgPassBase<ConvertGoogleToLinalgPass> {
  void runOnOperation() override {
    ConversionTarget target(getContext());
    configureGoogleToLinalgTarget(target);
    RewritePatternSet patterns(&getContext());
    populateGoogleToLinalgConversionPatterns(patterns);
    // Fails, naming the op, if any google op is left.
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
