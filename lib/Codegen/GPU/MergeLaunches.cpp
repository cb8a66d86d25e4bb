//===- MergeLaunches.cpp - --google-gpu-merge-launches --------------------===//

#include "Codegen/GPU/Passes.h"

#include "GpuKernels.h"

#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::google {
#define GEN_PASS_DEF_GPUMERGELAUNCHESPASS
#include "Codegen/GPU/Passes.h.inc"
} // namespace mlir::google

using namespace mlir;
using namespace mlir::google;
using Accesses = kernels::BufferAccesses;

namespace {

/// A launch's static grid and block, or none.
struct StaticShape {
  SmallVector<int64_t, 3> grid, block;
  int64_t blocks() const { return grid[0] * grid[1] * grid[2]; }
  int64_t threads() const { return block[0] * block[1] * block[2]; }
};

/// `value` when it folds to an integer constant: the mapping computes
/// grids with arith and affine ops on constants that nothing has folded yet.
std::optional<int64_t> foldToConstant(Value value, int depth = 0) {
  if (std::optional<int64_t> constant = getConstantIntValue(value))
    return constant;
  Operation *op = value.getDefiningOp();
  if (!op || depth > 8 || op->getNumResults() != 1 ||
      op->getNumRegions() != 0 || !isMemoryEffectFree(op))
    return std::nullopt;
  SmallVector<Attribute> operands;
  for (Value operand : op->getOperands()) {
    std::optional<int64_t> constant = foldToConstant(operand, depth + 1);
    if (!constant || !operand.getType().isIntOrIndex())
      return std::nullopt;
    operands.push_back(IntegerAttr::get(operand.getType(), *constant));
  }
  SmallVector<OpFoldResult> results;
  if (failed(op->fold(operands, results)) || results.size() != 1)
    return std::nullopt;
  // (x * 1 folds to x, the operand itself.)
  if (auto same = dyn_cast<Value>(results.front()))
    for (auto [operand, constant] : llvm::zip(op->getOperands(), operands))
      if (operand == same)
        return cast<IntegerAttr>(constant).getInt();
  return getConstantIntValue(results.front());
}

std::optional<StaticShape> getStaticShape(gpu::LaunchOp launch) {
  StaticShape shape;
  gpu::KernelDim3 grid = launch.getGridSizeOperandValues();
  gpu::KernelDim3 block = launch.getBlockSizeOperandValues();
  for (Value size : {grid.x, grid.y, grid.z, block.x, block.y, block.z}) {
    std::optional<int64_t> constant = foldToConstant(size);
    if (!constant || *constant < 1)
      return std::nullopt;
    (shape.grid.size() < 3 ? shape.grid : shape.block).push_back(*constant);
  }
  return shape;
}

/// The bytes of `launch`'s workgroup buffers, or none when one is not a
/// static shape of a sized type.
std::optional<int64_t> getWorkgroupBytes(gpu::LaunchOp launch) {
  int64_t bytes = 0;
  for (BlockArgument buffer : launch.getWorkgroupAttributions()) {
    auto type = dyn_cast<MemRefType>(buffer.getType());
    if (!type || !type.hasStaticShape() ||
        !type.getElementType().isIntOrIndexOrFloat() ||
        type.getElementType().isIndex())
      return std::nullopt;
    bytes += type.getNumElements() *
             llvm::divideCeil(type.getElementTypeBitWidth(), 8);
  }
  return bytes;
}

/// Whether `launch` can be a member of a merged launch: synchronous, one
/// block of ops that know their block and grid only through the launch's
/// arguments, no dynamic shared memory, clusters or kernel attributes,
/// and no tensor-core ops (those kernels are large, their launches
/// amortized, their resources tuned).
bool isMergeable(gpu::LaunchOp launch) {
  if (launch.getAsyncToken() || !launch.getAsyncDependencies().empty() ||
      launch.getDynamicSharedMemorySize() || launch.hasClusterSize() ||
      !llvm::hasSingleElement(launch.getBody()))
    return false;
  for (NamedAttribute attribute : launch->getDiscardableAttrs())
    if (attribute.getName() !=
        gpu::LaunchOp::getNumWorkgroupAttributionsAttrName())
      return false;
  WalkResult walk = launch.getBody().walk([](Operation *op) {
    if (isa<gpu::BlockIdOp, gpu::GridDimOp, gpu::ThreadIdOp, gpu::BlockDimOp,
            gpu::GlobalIdOp, gpu::DynamicSharedMemoryOp, gpu::LaunchOp>(op) ||
        isa<nvgpu::NVGPUDialect, amdgpu::AMDGPUDialect>(op->getDialect()))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return !walk.wasInterrupted();
}

struct GpuMergeLaunchesPass
    : public google::impl::GpuMergeLaunchesPassBase<GpuMergeLaunchesPass> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func->getParentOfType<gpu::GPUModuleOp>())
      return;
    SmallVector<Block *> blocks;
    func.walk([&](Block *block) {
      if (!block->getParentOp()->getParentOfType<gpu::LaunchOp>() &&
          !isa<gpu::LaunchOp>(block->getParentOp()))
        blocks.push_back(block);
    });
    IRRewriter rewriter(&getContext());
    mergedLaunches.clear();
    for (Block *block : blocks)
      mergeInBlock(rewriter, *block);
  }

  /// What merging needs of a mergeable launch (see isMergeable), or none.
  struct Member {
    StaticShape shape;
    int64_t sharedBytes;
  };
  static std::optional<Member> getMember(gpu::LaunchOp launch) {
    if (!isMergeable(launch))
      return std::nullopt;
    std::optional<StaticShape> shape = getStaticShape(launch);
    std::optional<int64_t> sharedBytes = getWorkgroupBytes(launch);
    if (!shape || !sharedBytes)
      return std::nullopt;
    return Member{*shape, *sharedBytes};
  }

  /// The first launch after `launch` that can join it, with `launch` moved
  /// down to it: of as many threads per block, small, sharing at most
  /// 48 KB, independent of it, and every op between them that is not
  /// memory-neutral (other launches, copies, branches) independent of it
  /// too. Null when an op it depends on comes first, or after
  /// kMaxOpsPassed such ops.
  gpu::LaunchOp getPartner(gpu::LaunchOp launch) const {
    std::optional<Member> first = getMember(launch);
    // The first may be a merged launch already: each of its members was
    // small.
    if (!first ||
        (first->shape.blocks() > maxBlocks && !mergedLaunches.contains(launch)))
      return nullptr;
    Accesses accesses(launch);
    int passed = 0;
    for (Operation *op = launch->getNextNode(); op; op = op->getNextNode()) {
      if (kernels::isMemoryNeutral(op))
        continue;
      Accesses opAccesses(op);
      bool dependent = opAccesses.dependsOn(accesses);
      if (auto next = dyn_cast<gpu::LaunchOp>(op)) {
        std::optional<Member> second = getMember(next);
        if (!dependent && second &&
            second->shape.threads() == first->shape.threads() &&
            second->shape.blocks() <= maxBlocks &&
            first->sharedBytes + second->sharedBytes <= kMaxStaticSharedBytes)
          return next;
      }
      if (dependent || ++passed > kMaxOpsPassed)
        return nullptr;
    }
    return nullptr;
  }

  /// Each launch of `block` in turn, with the partners it meets.
  void mergeInBlock(RewriterBase &rewriter, Block &block) {
    SmallVector<gpu::LaunchOp> launches(block.getOps<gpu::LaunchOp>());
    // (A merged launch may take a freed launch's address: it is then
    // skipped, its merging done.)
    llvm::SmallPtrSet<Operation *, 16> erased;
    for (gpu::LaunchOp launch : launches) {
      if (erased.contains(launch))
        continue;
      while (gpu::LaunchOp next = getPartner(launch)) {
        erased.insert(launch);
        erased.insert(next);
        launch = merge(rewriter, launch, next);
        ++numMerged;
      }
    }
  }

  /// One launch, where `second` was, running `first`'s blocks, then
  /// `second`'s: block b runs the member whose range holds it, with its
  /// own block ids and grid. Both are erased.
  gpu::LaunchOp merge(RewriterBase &rewriter, gpu::LaunchOp first,
                      gpu::LaunchOp second) {
    Location loc = first.getLoc();
    StaticShape a = *getStaticShape(first), b = *getStaticShape(second);
    rewriter.setInsertionPoint(second);
    auto constant = [&](int64_t value) -> Value {
      return arith::ConstantIndexOp::create(rewriter, loc, value);
    };
    Value one = constant(1);
    SmallVector<Type> workgroup, privates;
    for (gpu::LaunchOp member : {first, second}) {
      for (BlockArgument buffer : member.getWorkgroupAttributions())
        workgroup.push_back(buffer.getType());
      for (BlockArgument buffer : member.getPrivateAttributions())
        privates.push_back(buffer.getType());
    }
    // Blocks of one shape keep it; else they are 1-D, each member's thread
    // ids taken from the linear one (CUDA's order: x fastest, so the same
    // threads make each warp).
    bool sameShape = a.block == b.block;
    SmallVector<Value, 3> threads;
    for (int64_t size :
         sameShape ? a.block : SmallVector<int64_t, 3>{a.threads(), 1, 1})
      threads.push_back(constant(size));
    auto merged = gpu::LaunchOp::create(
        rewriter, loc, constant(a.blocks() + b.blocks()), one, one, threads[0],
        threads[1], threads[2], /*dynamicSharedMemorySize=*/nullptr,
        /*asyncTokenType=*/nullptr, /*asyncDependencies=*/{}, workgroup,
        privates);
    Block &body = merged.getBody().front();
    rewriter.setInsertionPointToEnd(&body);
    gpu::TerminatorOp::create(rewriter, loc);
    rewriter.setInsertionPointToStart(&body);

    Value blockId = merged.getBlockIds().x;
    auto isFirst = scf::IfOp::create(
        rewriter, loc,
        arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ult, blockId,
                              constant(a.blocks())),
        /*withElseRegion=*/true);
    unsigned workgroupOffset = 0, privateOffset = 0;
    for (auto [member, memberShape, region, offset] :
         {std::make_tuple(first, a, &isFirst.getThenRegion(), int64_t(0)),
          std::make_tuple(second, b, &isFirst.getElseRegion(), a.blocks())}) {
      // (The lambdas below capture it: C++17 cannot capture a binding.)
      const StaticShape &shape = memberShape;
      rewriter.setInsertionPoint(region->front().getTerminator());
      IRMapping mapping;
      // Each argument the body uses: the member's block ids from its range
      // of the merged grid, its grid, the merged launch's threads.
      auto map = [&](Value argument, function_ref<Value()> value) {
        if (!argument.use_empty())
          mapping.map(argument, value());
      };
      Value local = blockId;
      if (offset != 0)
        local = arith::SubIOp::create(rewriter, loc, blockId, constant(offset));
      gpu::KernelDim3 ids = member.getBlockIds();
      if (shape.grid[1] * shape.grid[2] == 1) {
        map(ids.x, [&] { return local; });
        map(ids.y, [&] { return constant(0); });
        map(ids.z, [&] { return constant(0); });
      } else {
        Value columns = constant(shape.grid[0]);
        Value rest = arith::DivUIOp::create(rewriter, loc, local, columns);
        Value rows = constant(shape.grid[1]);
        map(ids.x, [&] {
          return arith::RemUIOp::create(rewriter, loc, local, columns);
        });
        map(ids.y,
            [&] { return arith::RemUIOp::create(rewriter, loc, rest, rows); });
        map(ids.z,
            [&] { return arith::DivUIOp::create(rewriter, loc, rest, rows); });
      }
      gpu::KernelDim3 grid = member.getGridSize();
      map(grid.x, [&] { return constant(shape.grid[0]); });
      map(grid.y, [&] { return constant(shape.grid[1]); });
      map(grid.z, [&] { return constant(shape.grid[2]); });
      gpu::KernelDim3 memberThreads = member.getThreadIds();
      gpu::KernelDim3 mergedThreads = merged.getThreadIds();
      gpu::KernelDim3 memberBlock = member.getBlockSize();
      gpu::KernelDim3 mergedBlock = merged.getBlockSize();
      if (sameShape || shape.block[1] * shape.block[2] == 1) {
        mapping.map(memberThreads.x, mergedThreads.x);
        mapping.map(memberThreads.y, mergedThreads.y);
        mapping.map(memberThreads.z, mergedThreads.z);
        mapping.map(memberBlock.x, mergedBlock.x);
        mapping.map(memberBlock.y, mergedBlock.y);
        mapping.map(memberBlock.z, mergedBlock.z);
      } else {
        Value linear = mergedThreads.x;
        Value columns = constant(shape.block[0]);
        Value rows = constant(shape.block[1]);
        map(memberThreads.x, [&] {
          return arith::RemUIOp::create(rewriter, loc, linear, columns);
        });
        Value rest;
        auto getRest = [&] {
          if (!rest)
            rest = arith::DivUIOp::create(rewriter, loc, linear, columns);
          return rest;
        };
        map(memberThreads.y, [&] {
          return arith::RemUIOp::create(rewriter, loc, getRest(), rows);
        });
        map(memberThreads.z, [&] {
          return arith::DivUIOp::create(rewriter, loc, getRest(), rows);
        });
        map(memberBlock.x, [&] { return columns; });
        map(memberBlock.y, [&] { return rows; });
        map(memberBlock.z, [&] { return constant(shape.block[2]); });
      }
      for (BlockArgument buffer : member.getWorkgroupAttributions())
        mapping.map(buffer,
                    merged.getWorkgroupAttributions()[workgroupOffset++]);
      for (BlockArgument buffer : member.getPrivateAttributions())
        mapping.map(buffer, merged.getPrivateAttributions()[privateOffset++]);
      for (Operation &op : member.getBody().front().without_terminator())
        rewriter.clone(op, mapping);
    }
    mergedLaunches.erase(first);
    rewriter.eraseOp(first);
    rewriter.eraseOp(second);
    mergedLaunches.insert(merged);
    return merged;
  }

  /// The launches this pass made.
  llvm::SmallPtrSet<Operation *, 8> mergedLaunches;
  /// The most ops (not memory-neutral) a launch moves down past to meet
  /// its partner.
  static constexpr int kMaxOpsPassed = 16;
  /// The static shared memory a block may have on every target.
  static constexpr int64_t kMaxStaticSharedBytes = 48 * 1024;
};

} // namespace
