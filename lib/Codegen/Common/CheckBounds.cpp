//===- CheckBounds.cpp - --google-check-bounds ----------------------------===//

#include "Codegen/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/RuntimeVerifiableOpInterface.h"

namespace mlir::google {
#define GEN_PASS_DEF_CHECKBOUNDSPASS
#include "Codegen/Passes.h.inc"
} // namespace mlir::google

using namespace mlir;
using namespace mlir::google;

/// "<op> at <location>: <what>".
static std::string describe(Operation *op, StringRef what) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << op->getName() << " at " << op->getLoc() << ": " << what;
  return text;
}

std::string google::describeOutOfBounds(Operation *op) {
  return describe(op, "out-of-bounds access");
}

/// Whether [first, end) lies inside [0, size).
static Value isRangeInside(OpBuilder &builder, Location loc, Value first,
                           Value end, Value size) {
  Value zero = arith::ConstantIndexOp::create(builder, loc, 0);
  return arith::AndIOp::create(
      builder, loc,
      arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::sge, first,
                            zero),
      arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::sle, end,
                            size));
}

/// `buffer`'s extent along `dim`, a constant where static (the GPU
/// emulation's race check allows no other op than loads and stores on
/// shared memory).
static Value getExtent(OpBuilder &builder, Location loc, Value buffer,
                       int64_t dim) {
  return getValueOrCreateConstantIndexOp(
      builder, loc, memref::getMixedSize(builder, loc, buffer, dim));
}

/// `all && condition`, or `condition` when `all` is null.
static Value conjoin(OpBuilder &builder, Location loc, Value all,
                     Value condition) {
  return all ? arith::AndIOp::create(builder, loc, all, condition).getResult()
             : condition;
}

Value google::isInBounds(OpBuilder &builder, Location loc, Value buffer,
                         ValueRange indices, ArrayRef<int64_t> extents) {
  int64_t rank = indices.size();
  Value inBounds;
  for (auto [dim, index] : llvm::enumerate(indices)) {
    int64_t trailing = dim + extents.size() - rank;
    int64_t extent = trailing >= 0 ? extents[trailing] : 1;
    if (extent == 0)
      continue;
    Value end = arith::AddIOp::create(
        builder, loc, index,
        arith::ConstantIndexOp::create(builder, loc, extent));
    Value size = getExtent(builder, loc, buffer, dim);
    inBounds = conjoin(builder, loc, inBounds,
                       isRangeInside(builder, loc, index, end, size));
  }
  return inBounds;
}

Value google::isRunInBounds(OpBuilder &builder, Location loc, Value buffer,
                            ValueRange indices, Value count) {
  Value leading = isInBounds(builder, loc, buffer, indices.drop_back(), {});
  Value last = indices.back();
  Value size = getExtent(builder, loc, buffer, indices.size() - 1);
  Value inside =
      isRangeInside(builder, loc, last,
                    arith::AddIOp::create(builder, loc, last, count), size);
  Value none =
      arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::eq, count,
                            arith::ConstantIndexOp::create(builder, loc, 0));
  return conjoin(builder, loc, leading,
                 arith::OrIOp::create(builder, loc, none, inside));
}

namespace {

/// The elements a transfer reads or writes along each of `op`'s buffer
/// dimensions from its indices, when they must all be in bounds: a minor
/// identity map, no mask, every vector dimension in bounds.
std::optional<SmallVector<int64_t>>
getInBoundsExtents(VectorTransferOpInterface op) {
  if (op.getMask() || !op.getPermutationMap().isMinorIdentity() ||
      !llvm::all_of(op.getInBoundsValues(), [](bool b) { return b; }))
    return std::nullopt;
  return llvm::to_vector(op.getVectorType().getShape());
}

/// A transfer with a 1-D mask that must stay in bounds where the mask is
/// set (a minor identity map, every dimension in bounds): its mask, or
/// null.
Value getInBoundsMask(VectorTransferOpInterface op) {
  if (!op.getMask() || op.getVectorType().getRank() != 1 ||
      !op.getPermutationMap().isMinorIdentity() ||
      !llvm::all_of(op.getInBoundsValues(), [](bool b) { return b; }))
    return {};
  return op.getMask();
}

/// Whether every lane that 1-D `mask` sets accesses an element inside
/// `buffer` from `indices`: the innermost index plus the lane inside the
/// innermost extent, and the other indices inside theirs when a lane is
/// set (a lane that is not set touches nothing).
Value isMaskedInBounds(OpBuilder &builder, Location loc, Value buffer,
                       ValueRange indices, Value mask) {
  int64_t lanes = cast<VectorType>(mask.getType()).getDimSize(0);
  auto indexVector = VectorType::get({lanes}, builder.getIndexType());
  auto broadcast = [&](Value scalar) -> Value {
    return vector::BroadcastOp::create(builder, loc, indexVector, scalar);
  };
  Value offsets =
      arith::ConstantOp::create(builder, loc,
                                builder.getIndexVectorAttr(llvm::to_vector(
                                    llvm::seq<int64_t>(0, lanes))));
  Value positions =
      arith::AddIOp::create(builder, loc, broadcast(indices.back()), offsets);
  Value extent = getExtent(builder, loc, buffer, indices.size() - 1);
  Value inside = arith::AndIOp::create(
      builder, loc,
      arith::CmpIOp::create(
          builder, loc, arith::CmpIPredicate::sge, positions,
          broadcast(arith::ConstantIndexOp::create(builder, loc, 0))),
      arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::slt, positions,
                            broadcast(extent)));
  auto negate = [&](Value condition) -> Value {
    auto type = condition.getType();
    Value ones = arith::ConstantOp::create(
        builder, loc,
        isa<VectorType>(type)
            ? TypedAttr(DenseElementsAttr::get(cast<ShapedType>(type), true))
            : TypedAttr(builder.getBoolAttr(true)));
    return arith::XOrIOp::create(builder, loc, condition, ones);
  };
  Value lanesInBounds = vector::ReductionOp::create(
      builder, loc, vector::CombiningKind::AND,
      arith::OrIOp::create(builder, loc, negate(mask), inside));
  Value leading = isInBounds(builder, loc, buffer, indices.drop_back(), {});
  if (!leading)
    return lanesInBounds;
  Value anySet = vector::ReductionOp::create(builder, loc,
                                             vector::CombiningKind::OR, mask);
  return arith::AndIOp::create(
      builder, loc, lanesInBounds,
      arith::OrIOp::create(builder, loc, leading, negate(anySet)));
}

/// Whether every element of view `op` lies inside its source: per
/// dimension an empty range, or offset >= 0 and offset + (size - 1) *
/// stride < the source's extent. (Upstream's check of memref.subview
/// crashes in MLIR 22.)
Value isViewInBounds(OpBuilder &builder, memref::SubViewOp op) {
  Location loc = op.getLoc();
  auto index = [&](OpFoldResult value) {
    return getValueOrCreateConstantIndexOp(builder, loc, value);
  };
  Value zero = arith::ConstantIndexOp::create(builder, loc, 0);
  Value one = arith::ConstantIndexOp::create(builder, loc, 1);
  Value inBounds;
  for (auto [dim, offset, size, stride] : llvm::enumerate(
           op.getMixedOffsets(), op.getMixedSizes(), op.getMixedStrides())) {
    Value first = index(offset), count = index(size);
    // One past the last element: first + (count - 1) * stride + 1.
    Value end = arith::AddIOp::create(
        builder, loc,
        arith::AddIOp::create(
            builder, loc, first,
            arith::MulIOp::create(
                builder, loc, arith::SubIOp::create(builder, loc, count, one),
                index(stride))),
        one);
    Value extent = getExtent(builder, loc, op.getSource(), dim);
    Value inside = isRangeInside(builder, loc, first, end, extent);
    Value dimInBounds = arith::OrIOp::create(
        builder, loc,
        arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::eq, count,
                              zero),
        arith::AndIOp::create(builder, loc, inside,
                              arith::CmpIOp::create(builder, loc,
                                                    arith::CmpIPredicate::sgt,
                                                    count, zero)));
    inBounds = conjoin(builder, loc, inBounds, dimInBounds);
  }
  return inBounds;
}

} // namespace

void google::insertBoundsChecks(OpBuilder &builder, Operation *root,
                                bool abortOnFailure) {
  SmallVector<Operation *> accesses;
  // Of the memref ops that check themselves, those that access memory
  // or make a view of part of it (the checks of reshapes and casts
  // restate what the shape checks made sure of, and upstream's of
  // expand_shape divides by zero for a group with an extent of 0).
  root->walk([&](Operation *op) {
    if (isa<memref::LoadOp, memref::StoreOp, memref::SubViewOp, memref::CopyOp,
            memref::AtomicRMWOp, memref::GenericAtomicRMWOp, vector::LoadOp,
            vector::StoreOp, vector::MaskedLoadOp, vector::MaskedStoreOp,
            vector::TransferReadOp, vector::TransferWriteOp>(op))
      accesses.push_back(op);
  });
  OpBuilder::InsertionGuard guard(builder);
  for (Operation *op : accesses) {
    builder.setInsertionPoint(op);
    Location loc = op->getLoc();
    auto check = [&](Value inBounds, std::string message) {
      auto assertOp = cf::AssertOp::create(builder, loc, inBounds, message);
      if (abortOnFailure)
        assertOp->setAttr(kAbortOnFailureAttrName, builder.getUnitAttr());
    };
    if (auto view = dyn_cast<memref::SubViewOp>(op)) {
      if (Value inBounds = isViewInBounds(builder, view))
        check(inBounds, describe(op, "view out of bounds"));
      continue;
    }
    if (isa<memref::MemRefDialect>(op->getDialect())) {
      auto verifiable = dyn_cast<RuntimeVerifiableOpInterface>(op);
      if (!verifiable)
        continue;
      Operation *before = op->getPrevNode();
      verifiable.generateRuntimeVerification(builder, loc, describe);
      // Its checks (some in scf.if) lie between `before` and `op`.
      if (abortOnFailure)
        for (Operation &check :
             llvm::make_range(before ? std::next(before->getIterator())
                                     : op->getBlock()->begin(),
                              op->getIterator()))
          check.walk([&](cf::AssertOp assertOp) {
            assertOp->setAttr(kAbortOnFailureAttrName, builder.getUnitAttr());
          });
      continue;
    }
    // Masked accesses: where the mask is set (1-D masks; others stay as
    // they are).
    auto checkMasked = [&](Value buffer, ValueRange indices, Value mask) {
      if (cast<VectorType>(mask.getType()).getRank() == 1)
        check(isMaskedInBounds(builder, loc, buffer, indices, mask),
              describeOutOfBounds(op));
    };
    if (auto load = dyn_cast<vector::MaskedLoadOp>(op)) {
      checkMasked(load.getBase(), load.getIndices(), load.getMask());
      continue;
    }
    if (auto store = dyn_cast<vector::MaskedStoreOp>(op)) {
      checkMasked(store.getBase(), store.getIndices(), store.getMask());
      continue;
    }
    if (auto transfer = dyn_cast<VectorTransferOpInterface>(op)) {
      Value mask = getInBoundsMask(transfer);
      if (mask && isa<MemRefType>(transfer.getBase().getType())) {
        checkMasked(transfer.getBase(), transfer.getIndices(), mask);
        continue;
      }
    }
    Value buffer;
    ValueRange indices;
    SmallVector<int64_t> extents;
    if (auto load = dyn_cast<vector::LoadOp>(op)) {
      buffer = load.getBase();
      indices = load.getIndices();
      extents = llvm::to_vector(load.getVectorType().getShape());
    } else if (auto store = dyn_cast<vector::StoreOp>(op)) {
      buffer = store.getBase();
      indices = store.getIndices();
      extents = llvm::to_vector(store.getVectorType().getShape());
    } else {
      // Transfers of tensors, and those allowed past the end, stay as
      // they are.
      auto transfer = cast<VectorTransferOpInterface>(op);
      std::optional<SmallVector<int64_t>> transferExtents =
          getInBoundsExtents(transfer);
      if (!transferExtents || !isa<MemRefType>(transfer.getBase().getType()))
        continue;
      buffer = transfer.getBase();
      indices = transfer.getIndices();
      extents = std::move(*transferExtents);
    }
    if (Value inBounds = isInBounds(builder, loc, buffer, indices, extents))
      check(inBounds, describeOutOfBounds(op));
  }
}

namespace {

struct CheckBoundsPass
    : public google::impl::CheckBoundsPassBase<CheckBoundsPass> {
  void runOnOperation() override {
    OpBuilder builder(&getContext());
    insertBoundsChecks(builder, getOperation(), /*abortOnFailure=*/true);
  }
};

} // namespace
