//===- CheckShapeAssumptions.cpp - --google-check-shape-assumptions -------===//
//
// Tensor-level rewrites may move a shape refinement away from the check the
// lowering put in front of it (fusion can turn `dim(%a) == 4` into a cast
// of another value, and the check folds to true). After bufferization every
// assumption is explicit in a few memref and linalg ops, so checking those
// covers whatever the earlier passes did.
//
//===----------------------------------------------------------------------===//

#include "Codegen/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "google-check-shape-assumptions"

namespace mlir::google {
#define GEN_PASS_DEF_CHECKSHAPEASSUMPTIONSPASS
#include "Codegen/Passes.h.inc"
} // namespace mlir::google

using namespace mlir;

namespace {

/// The google op `op` was lowered from (its location's name), else its own
/// name.
std::string describe(Operation *op) {
  std::string name;
  op->getLoc()->walk([&](Location loc) {
    if (auto named = dyn_cast<NameLoc>(loc)) {
      name = named.getName().str();
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return name.empty() ? op->getName().getStringRef().str() : name;
}

class Checker {
public:
  explicit Checker(Operation *op)
      : op(op), builder(op), message(describe(op) +
                                     ": an extent is {0} at run time where "
                                     "{1} is assumed") {}

  /// The extent of a memref or tensor, folded where it can be (the size
  /// operand of a subview, say).
  OpFoldResult extent(Value shaped, int64_t dim) {
    auto type = cast<ShapedType>(shaped.getType());
    if (!type.isDynamicDim(dim))
      return builder.getIndexAttr(type.getDimSize(dim));
    Value index = arith::ConstantIndexOp::create(builder, op->getLoc(), dim);
    Value extent =
        isa<MemRefType>(type)
            ? builder.createOrFold<memref::DimOp>(op->getLoc(), shaped, index)
            : builder.createOrFold<tensor::DimOp>(op->getLoc(), shaped, index);
    if (std::optional<int64_t> constant = getConstantIntValue(extent))
      return builder.getIndexAttr(*constant);
    return extent;
  }

  Value toValue(OpFoldResult value) {
    if (auto v = dyn_cast<Value>(value))
      return v;
    return arith::ConstantIndexOp::create(
        builder, op->getLoc(),
        cast<IntegerAttr>(cast<Attribute>(value)).getInt());
  }

  /// Asserts actual == assumed unless both are static.
  void check(OpFoldResult actual, OpFoldResult assumed) {
    if (isa<Attribute>(actual) && isa<Attribute>(assumed))
      return;
    if (actual == assumed)
      return;
    std::optional<int64_t> actualValue = getConstantIntValue(actual);
    if (actualValue && actualValue == getConstantIntValue(assumed))
      return;
    Location loc = op->getLoc();
    Value equal = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::eq,
                                        toValue(actual), toValue(assumed));
    cf::AssertOp::create(builder, loc, equal, message);
    ++count;
  }

  OpFoldResult product(ArrayRef<OpFoldResult> extents) {
    int64_t known = 1;
    Value dynamic;
    for (OpFoldResult e : extents) {
      if (auto attr = dyn_cast<Attribute>(e)) {
        known *= cast<IntegerAttr>(attr).getInt();
        continue;
      }
      dynamic = dynamic ? arith::MulIOp::create(builder, op->getLoc(), dynamic,
                                                cast<Value>(e))
                              .getResult()
                        : cast<Value>(e);
    }
    if (!dynamic)
      return builder.getIndexAttr(known);
    if (known == 1)
      return dynamic;
    return arith::MulIOp::create(builder, op->getLoc(), dynamic,
                                 toValue(builder.getIndexAttr(known)))
        .getResult();
  }

  int64_t count = 0;

private:
  Operation *op;
  OpBuilder builder;
  std::string message;
};

void checkCast(memref::CastOp cast, int64_t &count) {
  auto source = dyn_cast<MemRefType>(cast.getSource().getType());
  auto result = dyn_cast<MemRefType>(cast.getType());
  if (!source || !result)
    return;
  Checker checker(cast);
  for (int64_t d = 0; d < source.getRank(); ++d)
    if (source.isDynamicDim(d) && !result.isDynamicDim(d))
      checker.check(checker.extent(cast.getSource(), d),
                    checker.extent(cast.getResult(), d));
  count += checker.count;
}

void checkExpandShape(memref::ExpandShapeOp expand, int64_t &count) {
  Checker checker(expand);
  SmallVector<OpFoldResult> outputShape = expand.getMixedOutputShape();
  for (auto [source, group] :
       llvm::enumerate(expand.getReassociationIndices())) {
    SmallVector<OpFoldResult> extents;
    for (int64_t d : group)
      extents.push_back(outputShape[d]);
    checker.check(checker.extent(expand.getSrc(), source),
                  checker.product(extents));
  }
  count += checker.count;
}

void checkCopy(memref::CopyOp copy, int64_t &count) {
  auto source = dyn_cast<MemRefType>(copy.getSource().getType());
  if (!source)
    return;
  Checker checker(copy);
  for (int64_t d = 0; d < source.getRank(); ++d)
    checker.check(checker.extent(copy.getSource(), d),
                  checker.extent(copy.getTarget(), d));
  count += checker.count;
}

/// A dynamically sized allocation gets a check that its byte count does not
/// overflow (a wrapped count would allocate a small buffer for a huge loop).
void checkAlloc(memref::AllocOp alloc, int64_t &count) {
  MemRefType type = alloc.getType();
  if (type.hasStaticShape() || !type.getLayout().isIdentity())
    return;
  Checker checker(alloc);
  OpBuilder builder(alloc);
  Location loc = alloc.getLoc();
  uint64_t elementBytes =
      llvm::divideCeil(type.getElementTypeBitWidth(), 8);
  Value bytes = arith::ConstantIndexOp::create(
      builder, loc, static_cast<int64_t>(elementBytes));
  Value fits = arith::ConstantIntOp::create(builder, loc, 1, 1);
  for (OpFoldResult size : alloc.getMixedSizes())
    bytes = google::multiplyBufferBytes(builder, loc, bytes,
                                        checker.toValue(size), fits);
  std::string text;
  llvm::raw_string_ostream os(text);
  os << describe(alloc) << ": a " << type
     << " buffer is too large to allocate (2^62 bytes or more)";
  cf::AssertOp::create(builder, loc, fits, text);
  ++count;
}

} // namespace

Value google::multiplyBufferBytes(OpBuilder &builder, Location loc,
                                  Value bytes, Value extent, Value &fits) {
  // Buffers of 2^62 bytes or more cannot exist: the byte count of an
  // allocation must not reach it, or its computation could wrap around.
  constexpr int64_t kMaxAllocationBytes = int64_t(1) << 62;
  auto constant = [&](int64_t value) {
    return arith::ConstantIndexOp::create(builder, loc, value).getResult();
  };
  // extent == 0 || bytes <= limit / extent, in unsigned arithmetic.
  Value isZero = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::eq,
                                       extent, constant(0));
  Value divisor =
      arith::SelectOp::create(builder, loc, isZero, constant(1), extent);
  Value bound = arith::DivUIOp::create(builder, loc,
                                       constant(kMaxAllocationBytes), divisor);
  Value small = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ule,
                                      bytes, bound);
  fits = arith::AndIOp::create(
      builder, loc, fits, arith::OrIOp::create(builder, loc, isZero, small));
  return arith::MulIOp::create(builder, loc, bytes, extent);
}

int64_t google::checkLinalgExtents(linalg::LinalgOp linalgOp) {
  Checker checker(linalgOp);
  SmallVector<OpFoldResult> ranges(linalgOp.getNumLoops());
  for (OpOperand &operand : linalgOp->getOpOperands()) {
    if (!isa<MemRefType, RankedTensorType>(operand.get().getType()))
      continue;
    AffineMap map = linalgOp.getMatchingIndexingMap(&operand);
    for (auto [dim, expr] : llvm::enumerate(map.getResults())) {
      auto loop = dyn_cast<AffineDimExpr>(expr);
      if (!loop)
        continue;
      OpFoldResult extent = checker.extent(operand.get(), dim);
      OpFoldResult &range = ranges[loop.getPosition()];
      if (!range)
        range = extent;
      else
        checker.check(extent, range);
    }
  }
  return checker.count;
}

namespace {

struct CheckShapeAssumptionsPass
    : public google::impl::CheckShapeAssumptionsPassBase<
          CheckShapeAssumptionsPass> {
  void runOnOperation() override {
    int64_t count = 0;
    getOperation()->walk<WalkOrder::PreOrder>([&](Operation *op) {
      // Only the tiling makes OpenMP loops, and it checked the ops it tiled
      // first (a thread other than the caller's cannot fail the call).
      if (isa<omp::ParallelOp>(op))
        return WalkResult::skip();
      if (auto cast = dyn_cast<memref::CastOp>(op))
        checkCast(cast, count);
      else if (auto expand = dyn_cast<memref::ExpandShapeOp>(op))
        checkExpandShape(expand, count);
      else if (auto copy = dyn_cast<memref::CopyOp>(op))
        checkCopy(copy, count);
      else if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
               linalgOp && linalgOp.hasPureBufferSemantics())
        count += google::checkLinalgExtents(linalgOp);
      else if (auto alloc = dyn_cast<memref::AllocOp>(op))
        checkAlloc(alloc, count);
      return WalkResult::advance();
    });
    LLVM_DEBUG(llvm::dbgs() << "added " << count << " shape checks\n");
  }
};

} // namespace
