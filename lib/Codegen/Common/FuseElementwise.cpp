//===- FuseElementwise.cpp - --google-fuse-elementwise --------------------===//

#include "Codegen/Epilogues.h"
#include "Codegen/Matchers.h"
#include "Codegen/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Linalg/Utils/Utils.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "google-fuse-elementwise"

namespace mlir::google {
#define GEN_PASS_DEF_FUSEELEMENTWISEPASS
#include "Codegen/Passes.h.inc"
} // namespace mlir::google

using namespace mlir;

namespace {

/// The most ops a fused elementwise body may hold.
constexpr size_t kMaxFusedBodyOps = 64;

/// The ops in a linalg op's body (0 for other ops).
size_t getBodySize(Operation *op) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp || op->getNumRegions() != 1 || op->getRegion(0).empty())
    return 0;
  return linalgOp.getBlock()->getOperations().size();
}

/// Whether `producer` may fuse into `consumer`: its only user, bodies
/// within kMaxFusedBodyOps, and, into a reduction, only ops that vectorize
/// as instructions (isVectorArithmetic; a reduction's vector body would
/// call exp or log once per lane, and has no vector f64 erf at all).
bool isFusible(Operation *producer, Operation *consumer) {
  if (!producer || !producer->hasOneUse() ||
      getBodySize(producer) + getBodySize(consumer) > kMaxFusedBodyOps)
    return false;
  auto reduction = dyn_cast<linalg::LinalgOp>(consumer);
  auto elementwise = dyn_cast<linalg::LinalgOp>(producer);
  if (!reduction || reduction.getNumReductionLoops() == 0 || !elementwise)
    return true;
  return llvm::all_of(
      elementwise.getBlock()->without_terminator(),
      [](Operation &op) { return google::isVectorArithmetic(&op); });
}

bool hasStaticShapes(TypeRange types) {
  return llvm::all_of(types, [](Type type) {
    auto shaped = dyn_cast<ShapedType>(type);
    return !shaped || shaped.hasStaticShape();
  });
}

/// Whether an elementwise generic `producer` whose only user is a reshape
/// would fuse into the reshape's only user, `consumer`, once the reshape
/// moved out of the way: both elementwise, every shape static.
bool fusesThroughReshape(Operation *producer, Operation *reshape,
                         Operation *consumer) {
  auto producerOp = dyn_cast_or_null<linalg::GenericOp>(producer);
  auto consumerOp = dyn_cast_or_null<linalg::GenericOp>(consumer);
  return producerOp && consumerOp && reshape->hasOneUse() &&
         linalg::isElementwise(producerOp) &&
         linalg::isElementwise(consumerOp) &&
         hasStaticShapes(producer->getOperandTypes()) &&
         hasStaticShapes(reshape->getResultTypes()) &&
         hasStaticShapes(consumer->getOperandTypes()) &&
         isFusible(producer, consumer);
}

/// Upstream's reshape propagation by expansion, only where it lets an
/// elementwise producer fuse into an elementwise consumer across a
/// collapse_shape (the consumer expands) or an expand_shape (the producer
/// expands). Static shapes only: with two dynamic extents in one group the
/// reshape crashes MLIR 22's --expand-strided-metadata.
bool isFusibleThroughReshape(OpOperand *fused) {
  Operation *owner = fused->getOwner();
  if (auto collapse = fused->get().getDefiningOp<tensor::CollapseShapeOp>())
    return fusesThroughReshape(collapse.getSrc().getDefiningOp(), collapse,
                               owner);
  if (auto expand = dyn_cast<tensor::ExpandShapeOp>(owner))
    return expand->hasOneUse() &&
           fusesThroughReshape(fused->get().getDefiningOp(), expand,
                               *expand->getUsers().begin());
  return false;
}

/// A reduction of an elementwise op's only result becomes a generic, which
/// the elementwise fusion then takes the producer into: one loop nest, no
/// tensor in between (a max pooling gradient's positions, 1 MiB of i64).
struct GeneralizeReductionOfElementwise
    : public OpRewritePattern<linalg::ReduceOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::ReduceOp reduce,
                                PatternRewriter &rewriter) const override {
    if (!reduce.hasPureTensorSemantics() ||
        llvm::none_of(reduce.getInputs(), [&](Value input) {
          auto producer = input.getDefiningOp<linalg::GenericOp>();
          return producer &&
                 producer.getNumLoops() == producer.getNumParallelLoops() &&
                 isFusible(producer, reduce);
        }))
      return failure();
    return linalg::generalizeNamedOp(rewriter, reduce);
  }
};

struct FuseElementwisePass
    : public google::impl::FuseElementwisePassBase<FuseElementwisePass> {
  using Base::Base;

  void runOnOperation() override {
    MLIRContext *context = &getContext();
    RewritePatternSet patterns(context);
    // A fusion clones both bodies into a new op: a long chain fused into
    // one op would cost time quadratic in its length (3000 ops: seconds),
    // so bodies stop growing at kMaxFusedBodyOps (the chain then runs as
    // several loops, each as large).
    linalg::ControlFusionFn onlyUser = [](OpOperand *fused) {
      return isFusible(fused->get().getDefiningOp(), fused->getOwner());
    };
    linalg::populateElementwiseOpsFusionPatterns(patterns, onlyUser);
    if (reductions)
      patterns.add<GeneralizeReductionOfElementwise>(context);
    if (reshapes)
      linalg::populateFoldReshapeOpsByExpansionPatterns(
          patterns, isFusibleThroughReshape);
    linalg::populateConstantFoldLinalgOperations(patterns, onlyUser);
    affine::AffineApplyOp::getCanonicalizationPatterns(patterns, context);
    linalg::GenericOp::getCanonicalizationPatterns(patterns, context);
    context->getLoadedDialect<linalg::LinalgDialect>()
        ->getCanonicalizationPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      LLVM_DEBUG(llvm::dbgs() << "elementwise fusion did not converge\n");
    if (epilogues)
      collapseContractionEpilogues();
  }

  /// After the fusions (upstream's reshape propagation would expand the
  /// collapsed ops back, one pattern undoing the other).
  void collapseContractionEpilogues() {
    SmallVector<std::pair<tensor::ExpandShapeOp, Value>> expansions;
    getOperation()->walk([&](tensor::ExpandShapeOp expand) {
      auto contraction = expand.getSrc().getDefiningOp<linalg::LinalgOp>();
      if (contraction && contraction.hasPureTensorSemantics() &&
          contraction.getNumDpsInits() == 1 &&
          linalg::isaContractionOpInterface(contraction))
        expansions.emplace_back(expand, contraction.getDpsInits()[0]);
    });
    IRRewriter rewriter(&getContext());
    for (auto [expand, accumulator] : expansions)
      numEpilogues += google::collapseEpilogues(rewriter, expand, accumulator);
  }
};

} // namespace
