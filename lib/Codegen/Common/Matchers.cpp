//===- Matchers.cpp - op shapes the CPU and GPU schedules both take -------===//

#include "Codegen/Matchers.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/ValueBoundsOpInterface.h"

using namespace mlir;

bool google::isElementwiseEpilogue(linalg::GenericOp epilogue, Value product) {
  auto productType = cast<ShapedType>(product.getType());
  if (epilogue.getNumDpsInits() != 1 || epilogue.hasIndexSemantics() ||
      epilogue.getNumParallelLoops() != epilogue.getNumLoops() ||
      epilogue.getNumLoops() != productType.getRank() ||
      !epilogue.getMatchingIndexingMap(epilogue.getDpsInitOperand(0))
           .isIdentity())
    return false;
  bool readsProduct = false;
  for (OpOperand *input : epilogue.getDpsInputOperands()) {
    AffineMap map = epilogue.getMatchingIndexingMap(input);
    if (!map.isProjectedPermutation())
      return false;
    if (input->get() == product) {
      if (!map.isIdentity())
        return false;
      readsProduct = true;
    }
  }
  return readsProduct;
}

bool google::isRowReduction(linalg::LinalgOp op) {
  if (op.getNumDpsInits() != 1 || op.getNumReductionLoops() == 0)
    return false;
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  bool readsRows = false;
  for (OpOperand *input : op.getDpsInputOperands()) {
    AffineMap map = op.getMatchingIndexingMap(input);
    if (!map.isProjectedPermutation())
      return false;
    if (map.getNumResults() > 0 &&
        iterators[map.getDimPosition(map.getNumResults() - 1)] ==
            utils::IteratorType::reduction)
      readsRows = true;
  }
  return readsRows;
}

SmallVector<AffineMap> google::getTransposedLhsMaps(MLIRContext *context) {
  AffineExpr m, n, k;
  bindDims(context, m, n, k);
  return {AffineMap::get(3, 0, {k, m}, context),
          AffineMap::get(3, 0, {k, n}, context),
          AffineMap::get(3, 0, {m, n}, context)};
}

bool google::isVectorArithmetic(Operation *op) {
  if (isa<math::TanhOp, math::ErfOp>(op))
    return op->getResult(0).getType().isF32();
  return isa<arith::ArithDialect>(op->getDialect()) ||
         isa<math::SqrtOp, math::RsqrtOp, math::AbsFOp, math::FmaOp,
             math::FloorOp, math::CeilOp, math::RoundOp, math::RoundEvenOp,
             math::TruncOp, math::CopySignOp>(op);
}

linalg::MatmulOp google::createTransposedLhsMatmul(OpBuilder &builder,
                                                   Location loc, Value lhs,
                                                   Value rhs, Value init) {
  SmallVector<Attribute> maps;
  for (AffineMap map : getTransposedLhsMaps(builder.getContext()))
    maps.push_back(AffineMapAttr::get(map));
  return linalg::MatmulOp::create(
      builder, loc, init.getType(), ValueRange{lhs, rhs}, init,
      {builder.getNamedAttr("indexing_maps", builder.getArrayAttr(maps))});
}

void google::foldUnitExpansions(RewriterBase &rewriter,
                                linalg::GenericOp generic) {
  SmallVector<AffineMap> maps = generic.getIndexingMapsArray();
  for (OpOperand *input : generic.getDpsInputOperands()) {
    auto expand = input->get().getDefiningOp<tensor::ExpandShapeOp>();
    if (!expand)
      continue;
    AffineMap map = maps[input->getOperandNumber()];
    ArrayRef<int64_t> shape = expand.getResultType().getShape();
    auto isUnitAtZero = [&](int64_t dim) {
      auto constant = dyn_cast<AffineConstantExpr>(map.getResult(dim));
      return shape[dim] == 1 && constant && constant.getValue() == 0;
    };
    SmallVector<AffineExpr> kept;
    for (ReassociationIndices group : expand.getReassociationIndices()) {
      SmallVector<int64_t> others;
      for (int64_t dim : group)
        if (!isUnitAtZero(dim))
          others.push_back(dim);
      if (others.size() > 1)
        break;
      kept.push_back(
          map.getResult(others.empty() ? group.front() : others.front()));
    }
    if (kept.size() != expand.getReassociationIndices().size())
      continue;
    SmallVector<AffineMap> folded(maps);
    folded[input->getOperandNumber()] =
        AffineMap::get(map.getNumDims(), 0, kept, rewriter.getContext());
    // Every loop must still be read somewhere (a unit reduction loop
    // that only this input indexed would lose its range).
    if (!inversePermutation(concatAffineMaps(folded, rewriter.getContext())))
      continue;
    maps = folded;
    rewriter.modifyOpInPlace(generic, [&] {
      input->set(expand.getSrc());
      generic.setIndexingMapsAttr(rewriter.getAffineMapArrayAttr(maps));
    });
    if (expand->use_empty())
      rewriter.eraseOp(expand);
  }
}

std::optional<int64_t> google::getLoopRangeBound(linalg::LinalgOp op,
                                                 unsigned dim) {
  for (OpOperand &operand : op->getOpOperands()) {
    AffineMap map = op.getMatchingIndexingMap(&operand);
    for (auto [position, result] : llvm::enumerate(map.getResults())) {
      if (result != getAffineDimExpr(dim, op.getContext()))
        continue;
      FailureOr<int64_t> bound = ValueBoundsConstraintSet::computeConstantBound(
          presburger::BoundType::UB,
          ValueBoundsConstraintSet::Variable(operand.get(), position),
          /*stopCondition=*/nullptr, /*closedUB=*/true);
      if (succeeded(bound) && *bound >= 0)
        return *bound;
    }
  }
  return std::nullopt;
}
