//===- TestRunLaunchesOnHost.cpp - GPU kernel mapping, checked on the CPU -===//
//
// A test tool, not a backend: it checks the GPU pipeline's own decisions
// (device buffers, how each op maps onto blocks and threads, the index
// arithmetic and guards of every kernel) by running the kernels' bodies
// sequentially on the host, where the e2e tests and the differential
// tester compare them with NumPy and the reference interpreter. Barriers
// split a block's threads into phases, each thread running a phase to its
// end before the next starts (an adversarial schedule: a missing barrier
// shows as a wrong result). The lowering of kernels to NVVM/ROCDL and the
// drivers are checked elsewhere (device binaries, GPU tests where a GPU
// exists).
//
//   --google-test-run-launches-on-host: gpu.launch -> loops over blocks and
//     threads; gpu.alloc/memcpy/dealloc -> memref ops.
//   --google-test-gpu-mapping-on-host="<extreme pipeline options>": the GPU
//     pipeline up to the kernels, the launches run on the host, then the
//     CPU lowering: a module google-run runs with --target=cpu. Its kernels
//     are NVVM's (tensor cores included, TF32 with tf32=true, cp.async
//     staging with async-copy=true, their nvgpu ops emulated: see
//     emulateMmaSync and emulateAsyncCopies; wgmma=true's TMA loads and
//     warpgroup MMAs and mbarriers: see emulateWgmma; warp shuffles: see
//     emulateShuffles), or with mfma=true ROCDL's
//     (see emulateMfma). Every access of a kernel is bounds-checked (the
//     checks of --google-check-kernel-bounds).
//
//===----------------------------------------------------------------------===//

#include "Codegen/GPU/IndexBuilder.h"
#include "Codegen/GPU/Passes.h"
#include "Codegen/Passes.h"
#include "Conversion/Passes.h"
#include "Pipelines/Pipelines.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Utils/MemRefUtils.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;
using namespace mlir::google;

namespace {

/// Marks the barriers the emulation of a warp's (or wave's) exchange adds:
/// they order the threads of one warp only, as the instruction does.
constexpr StringLiteral kWarpBarrier = "google.test.warp_barrier";

/// Marks the barriers the emulation adds to run a loop's iterations in
/// lockstep: they end a phase but order nothing (see emulateWgmma).
constexpr StringLiteral kLockstepBarrier = "google.test.lockstep_barrier";

void createWarpBarrier(RewriterBase &rewriter, Location loc) {
  gpu::BarrierOp::create(rewriter, loc)->setAttr(kWarpBarrier,
                                                  rewriter.getUnitAttr());
}

/// A load or store of a memref: what the race checks look at.
struct MemoryAccess {
  Operation *op;
  Value memref;
  ValueRange indices;
  int64_t elements;
  bool isStore;
};

/// `op` as a memory access, if it is a memref or vector load or store.
std::optional<MemoryAccess> getMemoryAccess(Operation *op) {
  if (auto load = dyn_cast<memref::LoadOp>(op))
    return MemoryAccess{op, load.getMemRef(), load.getIndices(), 1, false};
  if (auto store = dyn_cast<memref::StoreOp>(op))
    return MemoryAccess{op, store.getMemRef(), store.getIndices(), 1, true};
  if (auto load = dyn_cast<vector::LoadOp>(op))
    return MemoryAccess{op, load.getBase(), load.getIndices(),
                        load.getVectorType().getNumElements(), false};
  if (auto store = dyn_cast<vector::StoreOp>(op))
    return MemoryAccess{op, store.getBase(), store.getIndices(),
                        store.getVectorType().getNumElements(), true};
  return std::nullopt;
}

/// Race detection on shared memory, for kernels whose warp-wide ops are
/// emulated (tensor and matrix cores, cp.async): the emulations' barriers
/// order the whole block on the host, so a kernel missing a barrier of its
/// own may still compute the right values here. For each element of a
/// workgroup buffer: the thread that last wrote it and the block's barrier
/// counts then, and the threads that read it since. A thread that reads
/// or writes an element another thread wrote since the block's last
/// barrier, or writes an element another thread read since then, fails
/// the launch (a run-time check), unless both are lanes of one warp that a
/// warp's exchange has ordered since. Other kernels run without it (it
/// doubles the host run's compile time): their phases alone show a missing
/// barrier.
struct RaceCheck {
  /// Per host shared buffer, flat, row-major: writers (thread or -1),
  /// block barriers and warp barriers seen at the write; the last reader,
  /// whether others read it too in the same block phase, the readers'
  /// warp (-1: several), and the barrier counts at the last read.
  struct Shadow {
    Value writer, blockEpoch, warpEpoch;
    Value reader, severalReaders, readerWarp, readBlockEpoch, readWarpEpoch;
    SmallVector<int64_t> strides;
  };
  /// Empty when the launch is not checked.
  DenseMap<Value, Shadow> shadows;
  /// [block barriers, all barriers] of the current block.
  Value epochs;
  /// Threads of a warp (32) or wave (64).
  int64_t group = 32;
};

bool containsBarrier(Operation *op) {
  return op->walk([](gpu::BarrierOp) { return WalkResult::interrupt(); })
      .wasInterrupted();
}

/// Runs the body of a launch for each thread of one block, one thread after
/// another. A barrier ends a phase: every thread runs up to it before any
/// runs on. Barriers may sit in the body or in scf.for loops (uniform across
/// the block, as on a GPU) nested in it; values that live across a barrier
/// are kept in per-thread buffers.
class BlockOnHost {
public:
  BlockOnHost(RewriterBase &rewriter, gpu::LaunchOp launch,
              OpBuilder::InsertPoint allocPoint, IRMapping &uniform,
              const RaceCheck &races)
      : rewriter(rewriter), launch(launch), loc(launch.getLoc()),
        allocPoint(allocPoint), uniform(uniform), races(races) {}

  /// Emits the ops of `ops` at the rewriter's insertion point.
  LogicalResult emit(iterator_range<Block::iterator> ops) {
    SmallVector<Operation *> phase;
    for (Operation &op : ops) {
      if (op.hasTrait<OpTrait::IsTerminator>() || perBlock.contains(&op))
        continue;
      if (!containsBarrier(&op)) {
        phase.push_back(&op);
        continue;
      }
      if (failed(emitPhase(phase)))
        return failure();
      phase.clear();
      if (isa<gpu::BarrierOp>(op)) {
        if (!op.hasAttr(kLockstepBarrier))
          advanceEpochs(/*block=*/!op.hasAttr(kWarpBarrier));
        continue;
      }
      if (auto branch = dyn_cast<scf::IfOp>(op)) {
        if (failed(emitBranch(branch)))
          return failure();
        continue;
      }
      auto loop = dyn_cast<scf::ForOp>(op);
      if (!loop)
        return op.emitError("google-test-run-launches-on-host: a barrier "
                            "inside this op cannot run on the host (only "
                            "scf.for loops and scf.if without results may "
                            "hold barriers)");
      if (failed(emitLoop(loop)))
        return failure();
    }
    return emitPhase(phase);
  }

  /// Runs the ops of `block` (the body's, or a branch's) that the block's
  /// threads compute alike before they part (views of its rows, their
  /// offsets) once for the block: views cannot be kept per thread.
  void emitUniformOps(Block &block) {
    Block &body = launch.getBody().front();
    gpu::KernelDim3 ids = launch.getThreadIds();
    auto isPerThread = [&](Value operand) {
      if (operand == ids.x || operand == ids.y || operand == ids.z)
        return true;
      // The launch's other arguments are the block's; a nested block's
      // (a loop's induction variable) may be a thread's.
      if (auto argument = dyn_cast<BlockArgument>(operand))
        return argument.getOwner() != &body &&
               launch->isAncestor(argument.getOwner()->getParentOp());
      Operation *definer = operand.getDefiningOp();
      return launch->isAncestor(definer) && !perBlock.contains(definer);
    };
    for (Operation &op : block.without_terminator()) {
      if (op.getNumRegions() != 0 || !isMemoryEffectFree(&op) ||
          llvm::any_of(op.getOperands(), isPerThread))
        continue;
      rewriter.clone(op, uniform);
      perBlock.insert(&op);
    }
  }

  /// Buffers to free after the launch.
  SmallVector<Value> buffers;

  /// Ops of the body that ran once for the block, before its threads.
  llvm::SmallPtrSet<Operation *, 16> perBlock;

private:
  /// A per-thread buffer for values of `type`, allocated before the launch.
  FailureOr<Value> createBuffer(Value value) {
    Type type = value.getType();
    if (!MemRefType::isValidElementType(type) || isa<MemRefType>(type))
      return emitError(value.getLoc(),
                       "google-test-run-launches-on-host: a value of type ")
             << type << " lives across a barrier";
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.restoreInsertionPoint(allocPoint);
    if (!threads)
      threads = arith::MulIOp::create(
          rewriter, loc,
          arith::MulIOp::create(rewriter, loc, launch.getBlockSizeX(),
                                launch.getBlockSizeY()),
          launch.getBlockSizeZ());
    Value buffer = memref::AllocOp::create(
        rewriter, loc, MemRefType::get({ShapedType::kDynamic}, type),
        ValueRange{threads});
    buffers.push_back(buffer);
    return buffer;
  }

  /// Counts a barrier: every barrier, and the block's unless it is a warp's.
  void advanceEpochs(bool block) {
    if (races.shadows.empty())
      return;
    Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
    for (int64_t which : {0, 1}) {
      if (which == 0 && !block)
        continue;
      Value at = arith::ConstantIndexOp::create(rewriter, loc, which);
      Value count = memref::LoadOp::create(rewriter, loc, races.epochs, at);
      memref::StoreOp::create(rewriter, loc,
                              arith::AddIOp::create(rewriter, loc, count, one),
                              races.epochs, at);
    }
  }

  /// Checks `access` (a load or store of shared memory by thread `thread`)
  /// against the elements' last writers, and records a store's.
  void checkAccess(Operation *access, Value buffer, ValueRange indices,
                   int64_t elements, bool isStore, Value thread) {
    const RaceCheck::Shadow &shadow = races.shadows.find(buffer)->second;
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPoint(access);
    auto constant = [&](int64_t value) -> Value {
      return arith::ConstantIndexOp::create(rewriter, loc, value);
    };
    auto compare = [&](arith::CmpIPredicate predicate, Value a, Value b) {
      return arith::CmpIOp::create(rewriter, loc, predicate, a, b);
    };
    Value offset = constant(0);
    for (auto [index, stride] : llvm::zip(indices, shadow.strides))
      offset = arith::AddIOp::create(
          rewriter, loc, offset,
          arith::MulIOp::create(rewriter, loc, index, constant(stride)));
    Value blockEpoch =
        memref::LoadOp::create(rewriter, loc, races.epochs, constant(0));
    Value warpEpoch =
        memref::LoadOp::create(rewriter, loc, races.epochs, constant(1));
    Value group = constant(races.group);
    for (int64_t e = 0; e < elements; ++e) {
      Value at = arith::AddIOp::create(rewriter, loc, offset, constant(e));
      Value writer = memref::LoadOp::create(rewriter, loc, shadow.writer, at);
      Value writtenIn =
          memref::LoadOp::create(rewriter, loc, shadow.blockEpoch, at);
      Value writtenAt =
          memref::LoadOp::create(rewriter, loc, shadow.warpEpoch, at);
      Value sameWarp = compare(
          arith::CmpIPredicate::eq,
          arith::DivSIOp::create(rewriter, loc, writer, group),
          arith::DivSIOp::create(rewriter, loc, thread, group));
      Value warpOrdered = arith::AndIOp::create(
          rewriter, loc, sameWarp,
          compare(arith::CmpIPredicate::slt, writtenAt, warpEpoch));
      Value race = arith::AndIOp::create(
          rewriter, loc,
          arith::AndIOp::create(
              rewriter, loc,
              compare(arith::CmpIPredicate::sge, writer, constant(0)),
              compare(arith::CmpIPredicate::ne, writer, thread)),
          arith::AndIOp::create(
              rewriter, loc,
              compare(arith::CmpIPredicate::eq, writtenIn, blockEpoch),
              arith::XOrIOp::create(
                  rewriter, loc, warpOrdered,
                  arith::ConstantIntOp::create(rewriter, loc, 1, 1))));
      // {0}: the writer, {1}: this thread (see LowerChecksToRuntime).
      Value shown = arith::SelectOp::create(rewriter, loc, race, writer, thread);
      cf::AssertOp::create(
          rewriter, loc, compare(arith::CmpIPredicate::eq, shown, thread),
          isStore ? "google-test-run-launches-on-host: shared-memory race: "
                    "thread {1} overwrites an element thread {0} wrote since "
                    "the last barrier"
                  : "google-test-run-launches-on-host: shared-memory race: "
                    "thread {1} reads an element thread {0} wrote since the "
                    "last barrier");
      Value readNow = compare(
          arith::CmpIPredicate::eq,
          memref::LoadOp::create(rewriter, loc, shadow.readBlockEpoch, at),
          blockEpoch);
      Value reader = memref::LoadOp::create(rewriter, loc, shadow.reader, at);
      Value several =
          memref::LoadOp::create(rewriter, loc, shadow.severalReaders, at);
      Value readerWarp =
          memref::LoadOp::create(rewriter, loc, shadow.readerWarp, at);
      Value warp = arith::DivSIOp::create(rewriter, loc, thread, group);
      if (!isStore) {
        // Another thread's read in this phase makes several readers, and
        // of one warp only while they share it.
        Value other = arith::AndIOp::create(
            rewriter, loc, readNow,
            arith::OrIOp::create(
                rewriter, loc,
                compare(arith::CmpIPredicate::ne, several, constant(0)),
                compare(arith::CmpIPredicate::ne, reader, thread)));
        Value sharedWarp = arith::OrIOp::create(
            rewriter, loc,
            arith::XOrIOp::create(
                rewriter, loc, readNow,
                arith::ConstantIntOp::create(rewriter, loc, 1, 1)),
            compare(arith::CmpIPredicate::eq, readerWarp, warp));
        memref::StoreOp::create(rewriter, loc, thread, shadow.reader, at);
        memref::StoreOp::create(rewriter, loc,
                                arith::SelectOp::create(rewriter, loc, other,
                                                        constant(1),
                                                        constant(0)),
                                shadow.severalReaders, at);
        memref::StoreOp::create(rewriter, loc,
                                arith::SelectOp::create(rewriter, loc,
                                                        sharedWarp, warp,
                                                        constant(-1)),
                                shadow.readerWarp, at);
        memref::StoreOp::create(rewriter, loc, blockEpoch,
                                shadow.readBlockEpoch, at);
        memref::StoreOp::create(rewriter, loc, warpEpoch, shadow.readWarpEpoch,
                                at);
        continue;
      }
      // A write after another thread's read in this phase (unless a warp's
      // exchange ordered them, all in one warp).
      Value readOrdered = arith::AndIOp::create(
          rewriter, loc, compare(arith::CmpIPredicate::eq, readerWarp, warp),
          compare(
              arith::CmpIPredicate::slt,
              memref::LoadOp::create(rewriter, loc, shadow.readWarpEpoch, at),
              warpEpoch));
      Value readRace = arith::AndIOp::create(
          rewriter, loc,
          arith::AndIOp::create(
              rewriter, loc, readNow,
              arith::OrIOp::create(
                  rewriter, loc,
                  compare(arith::CmpIPredicate::ne, several, constant(0)),
                  compare(arith::CmpIPredicate::ne, reader, thread))),
          arith::XOrIOp::create(
              rewriter, loc, readOrdered,
              arith::ConstantIntOp::create(rewriter, loc, 1, 1)));
      // A reader that is this thread stands for the others.
      Value otherReader = arith::SelectOp::create(
          rewriter, loc, compare(arith::CmpIPredicate::eq, reader, thread),
          constant(-2), reader);
      Value shownReader =
          arith::SelectOp::create(rewriter, loc, readRace, otherReader, thread);
      cf::AssertOp::create(
          rewriter, loc, compare(arith::CmpIPredicate::eq, shownReader, thread),
          "google-test-run-launches-on-host: shared-memory race: thread {1} "
          "overwrites an element thread {0} read since the last barrier (-2: "
          "threads before it)");
      memref::StoreOp::create(rewriter, loc, thread, shadow.writer, at);
      memref::StoreOp::create(rewriter, loc, blockEpoch, shadow.blockEpoch, at);
      memref::StoreOp::create(rewriter, loc, warpEpoch, shadow.warpEpoch, at);
    }
  }

  /// Checks the shared-memory accesses in `op` (a thread's copy).
  void checkAccesses(Operation *op, Value thread) {
    if (races.shadows.empty())
      return;
    SmallVector<MemoryAccess> accesses;
    op->walk([&](Operation *nested) {
      if (std::optional<MemoryAccess> access = getMemoryAccess(nested);
          access && races.shadows.contains(access->memref))
        accesses.push_back(*access);
    });
    for (const MemoryAccess &access : accesses)
      checkAccess(access.op, access.memref, access.indices, access.elements,
                  access.isStore, thread);
  }

  /// Whether `value` has a use outside `phase` (ops of one block).
  static bool isUsedOutside(Value value, ArrayRef<Operation *> phase) {
    Block *block = phase.front()->getBlock();
    for (Operation *user : value.getUsers()) {
      Operation *ancestor = block->findAncestorOpInBlock(*user);
      if (!ancestor || !llvm::is_contained(phase, ancestor))
        return true;
    }
    return false;
  }

  /// Loops over the block's threads; `body` emits one thread's ops, given
  /// the uniform values and thread ids in `mapping` and the thread's linear
  /// index.
  LogicalResult
  forEachThread(function_ref<LogicalResult(IRMapping &, Value)> body) {
    Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
    Value sizes[3] = {launch.getBlockSizeZ(), launch.getBlockSizeY(),
                      launch.getBlockSizeX()};
    gpu::KernelDim3 ids = launch.getThreadIds();
    Value threadArgs[3] = {ids.z, ids.y, ids.x};
    IRMapping mapping = uniform;
    Value linear = zero;
    scf::ForOp outer;
    for (int i = 0; i < 3; ++i) {
      auto loop = scf::ForOp::create(rewriter, loc, zero, sizes[i], one);
      if (!outer)
        outer = loop;
      rewriter.setInsertionPoint(loop.getBody()->getTerminator());
      mapping.map(threadArgs[i], loop.getInductionVar());
      linear = arith::AddIOp::create(
          rewriter, loc,
          arith::MulIOp::create(rewriter, loc, linear, sizes[i]),
          loop.getInductionVar());
    }
    LogicalResult result = body(mapping, linear);
    rewriter.setInsertionPointAfter(outer);
    return result;
  }

  /// Maps `value`, if it is kept per thread and not mapped yet, to this
  /// thread's copy.
  void loadIfPerThread(Value value, IRMapping &mapping, Value linear) {
    auto buffer = perThread.find(value);
    if (buffer != perThread.end() && !mapping.contains(value))
      mapping.map(value, memref::LoadOp::create(rewriter, loc, buffer->second,
                                                linear)
                             .getResult());
  }

  /// One thread's copy of `ops` (consecutive ops of one block): values kept
  /// per thread are loaded, results used outside `ops` are kept.
  LogicalResult cloneForThread(ArrayRef<Operation *> ops, IRMapping &mapping,
                               Value linear) {
    for (Operation *op : ops)
      op->walk([&](Operation *nested) {
        for (Value operand : nested->getOperands())
          loadIfPerThread(operand, mapping, linear);
      });
    for (Operation *op : ops)
      checkAccesses(rewriter.clone(*op, mapping), linear);
    for (Operation *op : ops) {
      for (Value result : op->getResults()) {
        if (!isUsedOutside(result, ops))
          continue;
        Value &buffer = perThread[result];
        if (!buffer) {
          FailureOr<Value> created = createBuffer(result);
          if (failed(created))
            return failure();
          buffer = *created;
        }
        memref::StoreOp::create(rewriter, loc, mapping.lookup(result), buffer,
                                linear);
      }
    }
    return success();
  }

  /// Runs `phase` for every thread, then stores the values of `stores` into
  /// their buffers.
  LogicalResult emitPhase(ArrayRef<Operation *> phase,
                          ArrayRef<std::pair<Value, Value>> stores = {}) {
    if (phase.empty() && stores.empty())
      return success();
    return forEachThread([&](IRMapping &mapping, Value linear) {
      for (auto [value, buffer] : stores)
        loadIfPerThread(value, mapping, linear);
      SmallVector<Value> stored;
      for (auto [value, buffer] : stores)
        stored.push_back(mapping.lookupOrDefault(value));
      if (failed(cloneForThread(phase, mapping, linear)))
        return failure();
      for (auto [value, buffer] :
           llvm::zip(stored, llvm::make_second_range(stores)))
        memref::StoreOp::create(rewriter, loc, value, buffer, linear);
      return success();
    });
  }

  /// A value the whole block agrees on: thread 0's if it is per-thread.
  Value getUniform(Value value) {
    auto buffer = perThread.find(value);
    if (buffer == perThread.end())
      return uniform.lookupOrDefault(value);
    Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
    return memref::LoadOp::create(rewriter, loc, buffer->second, zero);
  }

  /// A branch holding barriers (taken alike by the whole block, as on a
  /// GPU: a merged launch's choice of member) runs once for the block, on
  /// thread 0's condition, its phases inside.
  LogicalResult emitBranch(scf::IfOp branch) {
    if (branch.getNumResults() != 0)
      return branch.emitError("google-test-run-launches-on-host: a branch "
                              "holding barriers cannot yield values");
    auto hostBranch =
        scf::IfOp::create(rewriter, loc, getUniform(branch.getCondition()),
                          /*withElseRegion=*/!branch.getElseRegion().empty());
    for (auto [region, hostRegion] :
         llvm::zip(branch->getRegions(), hostBranch->getRegions())) {
      if (region.empty())
        continue;
      rewriter.setInsertionPoint(hostRegion.front().getTerminator());
      emitUniformOps(region.front());
      if (failed(emit(region.front().getOperations())))
        return failure();
    }
    rewriter.setInsertionPointAfter(hostBranch);
    return success();
  }

  /// A loop holding barriers runs once for the block, its phases inside.
  /// A thread runs the ops after the body's last barrier and those before
  /// its first barrier in the next iteration in one go, as it may on a GPU:
  /// the loop is rotated so that they form one phase.
  LogicalResult emitLoop(scf::ForOp loop) {
    SmallVector<std::pair<Value, Value>> initial;
    for (auto [argument, init] :
         llvm::zip(loop.getRegionIterArgs(), loop.getInitArgs())) {
      FailureOr<Value> buffer = createBuffer(argument);
      if (failed(buffer))
        return failure();
      perThread[argument] = *buffer;
      initial.push_back({init, *buffer});
    }
    if (failed(emitPhase({}, initial)))
      return failure();

    Block *body = loop.getBody();
    SmallVector<Operation *> head, tail;
    Operation *firstBarrier = nullptr, *lastBarrier = nullptr;
    for (Operation &op : body->without_terminator())
      if (containsBarrier(&op)) {
        firstBarrier = firstBarrier ? firstBarrier : &op;
        lastBarrier = &op;
      }
    for (Operation &op : body->without_terminator()) {
      if (op.isBeforeInBlock(firstBarrier))
        head.push_back(&op);
      else if (lastBarrier->isBeforeInBlock(&op))
        tail.push_back(&op);
    }
    Value lower = getUniform(loop.getLowerBound());
    Value upper = getUniform(loop.getUpperBound());
    Value step = getUniform(loop.getStep());
    Value inductionVar = loop.getInductionVar();
    bool rotate = !tail.empty();
    if (rotate) {
      // The first iteration's head.
      Value any = arith::CmpIOp::create(rewriter, loc,
                                        arith::CmpIPredicate::slt, lower,
                                        upper);
      auto first = scf::IfOp::create(rewriter, loc, any);
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPoint(first.thenBlock()->getTerminator());
      uniform.map(inductionVar, lower);
      if (failed(emitPhase(head)))
        return failure();
    }
    auto hostLoop = scf::ForOp::create(rewriter, loc, lower, upper, step);
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPoint(hostLoop.getBody()->getTerminator());
    Value hostIndex = hostLoop.getInductionVar();
    uniform.map(inductionVar, hostIndex);
    auto yielded = llvm::zip(loop.getYieldedValues(), loop.getRegionIterArgs());
    if (!rotate) {
      if (failed(emit(body->getOperations())))
        return failure();
      SmallVector<std::pair<Value, Value>> stores;
      for (auto [value, argument] : yielded)
        stores.push_back({value, perThread[argument]});
      if (failed(emitPhase({}, stores)))
        return failure();
    } else {
      if (failed(emit(llvm::make_range(
              firstBarrier->getIterator(),
              std::next(lastBarrier->getIterator())))))
        return failure();
      // This iteration's tail and the next iteration's head, per thread.
      LogicalResult rotated =
          forEachThread([&](IRMapping &mapping, Value linear) {
            if (failed(cloneForThread(tail, mapping, linear)))
              return failure();
            SmallVector<std::pair<Value, Value>> next;
            for (auto [value, argument] : yielded) {
              loadIfPerThread(value, mapping, linear);
              next.push_back({argument, mapping.lookupOrDefault(value)});
            }
            for (auto [argument, value] : next)
              memref::StoreOp::create(rewriter, loc, value,
                                      perThread[argument], linear);
            Value nextIndex =
                arith::AddIOp::create(rewriter, loc, hostIndex, step);
            Value more = arith::CmpIOp::create(
                rewriter, loc, arith::CmpIPredicate::slt, nextIndex, upper);
            auto branch = scf::IfOp::create(rewriter, loc, more);
            OpBuilder::InsertionGuard branchGuard(rewriter);
            rewriter.setInsertionPoint(branch.thenBlock()->getTerminator());
            for (auto [argument, value] : next)
              mapping.map(argument, value);
            mapping.map(inductionVar, nextIndex);
            return cloneForThread(head, mapping, linear);
          });
      if (failed(rotated))
        return failure();
    }
    for (auto [result, argument] :
         llvm::zip(loop.getResults(), loop.getRegionIterArgs())) {
      // Looked up first: inserting `result` may move the map's entries.
      Value buffer = perThread.lookup(argument);
      perThread[result] = buffer;
    }
    rewriter.setInsertionPointAfter(hostLoop);
    return success();
  }

  RewriterBase &rewriter;
  gpu::LaunchOp launch;
  Location loc;
  OpBuilder::InsertPoint allocPoint;
  IRMapping &uniform;
  const RaceCheck &races;
  DenseMap<Value, Value> perThread;
  /// The block's thread count, computed before the launch when first needed.
  Value threads;
};

/// The threads of `launch`'s block when it is static, 1-D and a multiple
/// of `group` (a warp's or a wave's lanes).
std::optional<int64_t> getBlockOfWhole(gpu::LaunchOp launch, int64_t group) {
  std::optional<int64_t> threads = getConstantIntValue(launch.getBlockSizeX());
  if (!threads || *threads % group != 0 ||
      getConstantIntValue(launch.getBlockSizeY()) != 1 ||
      getConstantIntValue(launch.getBlockSizeZ()) != 1)
    return std::nullopt;
  return threads;
}

/// Stands in for CDNA's amdgpu.mfma 16x16x16 (f16 or bf16 operands, f32
/// accumulators) with the exchange the hardware makes between a wave's 64
/// lanes: every thread writes its A and B operands to shared memory (a slot
/// per thread), and after a barrier computes its 4 elements of D from its
/// wave's slots, as v_mfma_f32_16x16x16f16 places the operands: lane l
/// holds A[l % 16][4 (l / 16) + e], B[4 (l / 16) + e][l % 16] and
/// D[4 (l / 16) + e][l % 16] (e < 4). A kernel that gives a lane the wrong
/// values computes a wrong product here, as it would on the GPU.
LogicalResult emulateMfma(RewriterBase &rewriter, gpu::LaunchOp launch) {
  SmallVector<amdgpu::MFMAOp> mfmas;
  launch.walk([&](amdgpu::MFMAOp op) { mfmas.push_back(op); });
  if (mfmas.empty())
    return success();
  MLIRContext *context = rewriter.getContext();
  // f16 (v_mfma_f32_16x16x16f16) or bf16 (v_mfma_f32_16x16x16bf16_1k: the
  // same lanes hold the same elements).
  Type element = getElementTypeOrSelf(mfmas.front().getSourceA().getType());
  Type f32 = Float32Type::get(context);
  auto operandType = VectorType::get({4}, element);
  auto accumulatorType = VectorType::get({4}, f32);
  std::optional<int64_t> threads = getBlockOfWhole(launch, 64);
  if (!threads)
    return launch.emitError("google-test-run-launches-on-host: amdgpu.mfma "
                            "needs a static 1-D block of whole waves");
  for (amdgpu::MFMAOp op : mfmas)
    if (op.getM() != 16 || op.getN() != 16 || op.getK() != 16 ||
        op.getBlocks() != 1 || op.getCbsz() != 0 || op.getAbid() != 0 ||
        op.getBlgp() != amdgpu::MFMAPermB::none ||
        op.getSourceA().getType() != operandType ||
        op.getSourceB().getType() != operandType ||
        op.getDestC().getType() != accumulatorType ||
        !isa<Float16Type, BFloat16Type>(element))
      return op.emitError("google-test-run-launches-on-host: only "
                          "amdgpu.mfma 16x16x16 of f16 or bf16 (one of them "
                          "per kernel) into f32 runs on the host");
  auto workgroup =
      gpu::AddressSpaceAttr::get(context, gpu::AddressSpace::Workgroup);
  auto slotsType = MemRefType::get({*threads, 4}, element,
                                   MemRefLayoutAttrInterface(), workgroup);
  Location loc = launch.getLoc();
  Value lhsSlots = launch.addWorkgroupAttribution(slotsType, loc);
  Value rhsSlots = launch.addWorkgroupAttribution(slotsType, loc);
  for (amdgpu::MFMAOp op : mfmas) {
    rewriter.setInsertionPoint(op);
    auto constant = [&](int64_t value) -> Value {
      return arith::ConstantIndexOp::create(rewriter, loc, value);
    };
    auto add = [&](Value a, Value b) -> Value {
      return arith::AddIOp::create(rewriter, loc, a, b);
    };
    Value thread = launch.getThreadIds().x;
    Value zero = constant(0);
    vector::StoreOp::create(rewriter, loc, op.getSourceA(), lhsSlots,
                            ValueRange{thread, zero});
    vector::StoreOp::create(rewriter, loc, op.getSourceB(), rhsSlots,
                            ValueRange{thread, zero});
    createWarpBarrier(rewriter, loc);
    Value lane = arith::RemUIOp::create(rewriter, loc, thread, constant(64));
    Value wave = arith::SubIOp::create(rewriter, loc, thread, lane);
    Value column = arith::RemUIOp::create(rewriter, loc, lane, constant(16));
    Value firstRow = arith::MulIOp::create(
        rewriter, loc,
        arith::DivUIOp::create(rewriter, loc, lane, constant(16)), constant(4));
    auto sum = scf::ForOp::create(
        rewriter, loc, zero, constant(16), constant(1),
        ValueRange{op.getDestC()},
        [&](OpBuilder &, Location, Value k, ValueRange partial) {
          // Element k of a row of A and of a column of B is item k % 4 of
          // the lanes 16 (k / 4) further.
          Value item = arith::RemUIOp::create(rewriter, loc, k, constant(4));
          Value group = arith::MulIOp::create(
              rewriter, loc,
              arith::DivUIOp::create(rewriter, loc, k, constant(4)),
              constant(16));
          Value groupBase = add(wave, group);
          Value b =
              memref::LoadOp::create(rewriter, loc, rhsSlots,
                                     ValueRange{add(groupBase, column), item});
          SmallVector<Value> a;
          for (int64_t e = 0; e < 4; ++e)
            a.push_back(memref::LoadOp::create(
                rewriter, loc, lhsSlots,
                ValueRange{add(groupBase, add(firstRow, constant(e))), item}));
          Value row =
              vector::FromElementsOp::create(rewriter, loc, operandType, a);
          Value lhs =
              arith::ExtFOp::create(rewriter, loc, accumulatorType, row);
          Value rhs = vector::BroadcastOp::create(
              rewriter, loc, accumulatorType,
              arith::ExtFOp::create(rewriter, loc, f32, b));
          Value product = arith::MulFOp::create(rewriter, loc, lhs, rhs);
          scf::YieldOp::create(rewriter, loc,
                               ValueRange{arith::AddFOp::create(
                                   rewriter, loc, partial.front(), product)});
        });
    createWarpBarrier(rewriter, loc);
    rewriter.replaceOp(op, sum.getResult(0));
  }
  return success();
}

/// Stands in for NVIDIA's warp-wide nvgpu.ldmatrix (x4, f16, bf16 or f32) and
/// nvgpu.mma.sync (m16n8k16 of f16 or bf16, m16n8k8 in TF32; f32 accumulators)
/// as emulateMfma does for amdgpu.mfma, with PTX's fragment layouts (g = lane /
/// 4, t = lane % 4): ldmatrix's lane l gives the address of row l % 8 of
/// matrix l / 8 (8 rows of 16 bytes) and receives its 32 bits at (g, t):
/// halves (g, 2 t + e) (transposed: (2 t + e, g)) or a float (g, t).
/// m16n8k16's A registers hold A[g (+ 8)][2 t + e (+ 8)] (rows, then
/// columns, vary fastest), B's B[2 t + e (+ 8)][g]; m16n8k8's A registers
/// A[g (+ 8)][t (+ 4)], B's B[t (+ 4)][g], whose low 13 bits the tensor
/// cores ignore (TF32); C's and D's hold C[g (+ 8)][2 t + e].
LogicalResult emulateMmaSync(RewriterBase &rewriter, gpu::LaunchOp launch) {
  SmallVector<Operation *> ops;
  launch.walk([&](Operation *op) {
    if (isa<nvgpu::LdMatrixOp, nvgpu::MmaSyncOp>(op))
      ops.push_back(op);
  });
  if (ops.empty())
    return success();
  MLIRContext *context = rewriter.getContext();
  Type f16 = Float16Type::get(context), f32 = Float32Type::get(context);
  Type index = rewriter.getIndexType();
  std::optional<int64_t> threads = getBlockOfWhole(launch, 32);
  if (!threads)
    return launch.emitError("google-test-run-launches-on-host: nvgpu ops "
                            "need a static 1-D block of whole warps");
  // The 16-bit type of the launch's fragments: f16, or bf16 throughout.
  Type half = f16;
  for (Operation *op : ops)
    if (auto mma = dyn_cast<nvgpu::MmaSyncOp>(op))
      if (getElementTypeOrSelf(mma.getMatrixA().getType()).isBF16())
        half = BFloat16Type::get(context);
  auto isHalfMma = [&](nvgpu::MmaSyncOp mma) {
    return mma.getMmaShapeAsArray() == std::array<int64_t, 3>{16, 8, 16} &&
           !mma.getTf32Enabled() &&
           mma.getMatrixA().getType() == VectorType::get({4, 2}, half) &&
           mma.getMatrixB().getType() == VectorType::get({2, 2}, half) &&
           mma.getMatrixC().getType() == VectorType::get({2, 2}, f32);
  };
  auto isTf32Mma = [&](nvgpu::MmaSyncOp mma) {
    return mma.getMmaShapeAsArray() == std::array<int64_t, 3>{16, 8, 8} &&
           mma.getTf32Enabled() &&
           mma.getMatrixA().getType() == VectorType::get({4, 1}, f32) &&
           mma.getMatrixB().getType() == VectorType::get({2, 1}, f32) &&
           mma.getMatrixC().getType() == VectorType::get({2, 2}, f32);
  };
  for (Operation *op : ops) {
    auto load = dyn_cast<nvgpu::LdMatrixOp>(op);
    auto mma = dyn_cast<nvgpu::MmaSyncOp>(op);
    bool supported =
        load ? load.getNumTiles() == 4 && load.getIndices().size() >= 2 &&
                   load.getIndices().size() <= 3 &&
                   (load.getRes().getType() == VectorType::get({4, 2}, half) ||
                    (load.getRes().getType() == VectorType::get({4, 1}, f32) &&
                     !load.getTranspose()))
             : isHalfMma(mma) || isTf32Mma(mma);
    if (!supported)
      return op->emitError("google-test-run-launches-on-host: only "
                           "ldmatrix x4 of f16, bf16 or f32, mma.sync "
                           "m16n8k16 of f16 or bf16 (one of them per launch) "
                           "and m16n8k8 of tf32 into f32 run on the host");
  }
  auto workgroup =
      gpu::AddressSpaceAttr::get(context, gpu::AddressSpace::Workgroup);
  auto slots = [&](int64_t count, Type element) {
    return launch.addWorkgroupAttribution(
        MemRefType::get({*threads, count}, element, MemRefLayoutAttrInterface(),
                        workgroup),
        launch.getLoc());
  };
  Value addresses = slots(3, index), lhsSlots = slots(8, half),
        rhsSlots = slots(4, half), lhsTf32Slots = slots(4, f32),
        rhsTf32Slots = slots(2, f32);
  for (Operation *op : ops) {
    Location loc = op->getLoc();
    rewriter.setInsertionPoint(op);
    auto constant = [&](int64_t value) -> Value {
      return arith::ConstantIndexOp::create(rewriter, loc, value);
    };
    auto add = [&](Value a, Value b) -> Value {
      return arith::AddIOp::create(rewriter, loc, a, b);
    };
    auto mul = [&](Value a, int64_t b) -> Value {
      return arith::MulIOp::create(rewriter, loc, a, constant(b));
    };
    auto div = [&](Value a, int64_t b) -> Value {
      return arith::DivUIOp::create(rewriter, loc, a, constant(b));
    };
    auto rem = [&](Value a, int64_t b) -> Value {
      return arith::RemUIOp::create(rewriter, loc, a, constant(b));
    };
    Value thread = launch.getThreadIds().x;
    Value lane = rem(thread, 32);
    Value warp = arith::SubIOp::create(rewriter, loc, thread, lane);
    Value group = div(lane, 4), quad = rem(lane, 4), pair = mul(quad, 2);
    // Every lane's operands to its slots, then each lane's result from them.
    auto store = [&](Value vector, Value buffer) {
      auto type = cast<VectorType>(vector.getType());
      SmallVector<int64_t> strides = computeStrides(type.getShape());
      for (int64_t e = 0; e < type.getNumElements(); ++e)
        memref::StoreOp::create(
            rewriter, loc,
            vector::ExtractOp::create(rewriter, loc, vector,
                                      delinearize(e, strides)),
            buffer, ValueRange{thread, constant(e)});
    };
    if (auto load = dyn_cast<nvgpu::LdMatrixOp>(op)) {
      for (auto [i, address] : llvm::enumerate(load.getIndices()))
        memref::StoreOp::create(rewriter, loc, address, addresses,
                                ValueRange{thread, constant(i)});
      createWarpBarrier(rewriter, loc);
      SmallVector<Value> elements;
      // Elements in 32 bits: 2 halves or 1 float.
      int64_t per32 = load.getRes().getType().getDimSize(1);
      for (int64_t matrix = 0; matrix < 4; ++matrix)
        for (int64_t e = 0; e < per32; ++e) {
          // The lane that addressed the row holding the element, and the
          // element's column in that row.
          Value source = load.getTranspose()
                             ? add(warp, constant(8 * matrix + e))
                             : add(warp, add(constant(8 * matrix), group));
          Value column =
              load.getTranspose() ? group : add(mul(quad, per32), constant(e));
          if (load.getTranspose())
            source = add(source, pair);
          // The source lane's indices, its column moved to the element's.
          int64_t rank = load.getIndices().size();
          SmallVector<Value> at;
          for (int64_t i = 0; i < rank; ++i)
            at.push_back(memref::LoadOp::create(
                rewriter, loc, addresses, ValueRange{source, constant(i)}));
          at.back() = add(at.back(), column);
          elements.push_back(
              memref::LoadOp::create(rewriter, loc, load.getSrcMemref(), at));
        }
      createWarpBarrier(rewriter, loc);
      rewriter.replaceOp(op,
                         vector::FromElementsOp::create(
                             rewriter, loc, load.getRes().getType(), elements));
      continue;
    }
    auto mma = cast<nvgpu::MmaSyncOp>(op);
    bool tf32 = isTf32Mma(mma);
    store(mma.getMatrixA(), tf32 ? lhsTf32Slots : lhsSlots);
    store(mma.getMatrixB(), tf32 ? rhsTf32Slots : rhsSlots);
    createWarpBarrier(rewriter, loc);
    SmallVector<Value> initial;
    for (int64_t e = 0; e < 4; ++e)
      initial.push_back(vector::ExtractOp::create(
          rewriter, loc, mma.getMatrixC(), ArrayRef<int64_t>{e / 2, e % 2}));
    if (tf32) {
      // A[row][k] is in lane 4 (row % 8) + k % 4, register row / 8 + 2 (k /
      // 4); B[k][column] in lane 4 column + k % 4, register k / 4; each
      // truncated to TF32.
      Type i32 = rewriter.getI32Type();
      auto truncate = [&](Value value) -> Value {
        Value bits = arith::BitcastOp::create(rewriter, loc, i32, value);
        Value mask = arith::ConstantOp::create(
            rewriter, loc,
            rewriter.getI32IntegerAttr(static_cast<int32_t>(0xFFFFE000u)));
        return arith::BitcastOp::create(
            rewriter, loc, f32,
            arith::AndIOp::create(rewriter, loc, bits, mask));
      };
      auto sum = scf::ForOp::create(
          rewriter, loc, constant(0), constant(8), constant(1), initial,
          [&](OpBuilder &, Location, Value k, ValueRange partial) {
            Value kLane = rem(k, 4), kHalf = div(k, 4);
            Value lhsLane = add(warp, add(mul(group, 4), kLane));
            SmallVector<Value> next;
            for (int64_t r = 0; r < 2; ++r) {
              Value a = truncate(memref::LoadOp::create(
                  rewriter, loc, lhsTf32Slots,
                  ValueRange{lhsLane, add(mul(kHalf, 2), constant(r))}));
              for (int64_t c = 0; c < 2; ++c) {
                Value column = add(pair, constant(c));
                Value rhsLane = add(warp, add(mul(column, 4), kLane));
                Value b = truncate(memref::LoadOp::create(
                    rewriter, loc, rhsTf32Slots, ValueRange{rhsLane, kHalf}));
                next.push_back(arith::AddFOp::create(
                    rewriter, loc, partial[2 * r + c],
                    arith::MulFOp::create(rewriter, loc, a, b)));
              }
            }
            scf::YieldOp::create(rewriter, loc, next);
          });
      createWarpBarrier(rewriter, loc);
      rewriter.replaceOp(
          op, vector::FromElementsOp::create(
                  rewriter, loc, mma.getRes().getType(), sum.getResults()));
      continue;
    }
    auto sum = scf::ForOp::create(
        rewriter, loc, constant(0), constant(16), constant(1), initial,
        [&](OpBuilder &, Location, Value k, ValueRange partial) {
          // A[row][k] is in lane 4 (row % 8) + (k % 8) / 2, register pair
          // row / 8 + 2 (k / 8); B[k][column] in lane 4 column + (k % 8) /
          // 2, pair k / 8; element k % 2 of the pair.
          Value kLane = div(rem(k, 8), 2), kHalf = div(k, 8),
                kElement = rem(k, 2);
          Value lhsLane = add(warp, add(mul(group, 4), kLane));
          SmallVector<Value> next;
          for (int64_t r = 0; r < 2; ++r) {
            Value lhsSlot = add(mul(kHalf, 4), add(constant(2 * r), kElement));
            Value lhs = memref::LoadOp::create(rewriter, loc, lhsSlots,
                                               ValueRange{lhsLane, lhsSlot});
            Value a = arith::ExtFOp::create(rewriter, loc, f32, lhs);
            for (int64_t c = 0; c < 2; ++c) {
              Value column = add(pair, constant(c));
              Value rhsLane = add(warp, add(mul(column, 4), kLane));
              Value rhsSlot = add(mul(kHalf, 2), kElement);
              Value rhs = memref::LoadOp::create(rewriter, loc, rhsSlots,
                                                 ValueRange{rhsLane, rhsSlot});
              Value b = arith::ExtFOp::create(rewriter, loc, f32, rhs);
              next.push_back(arith::AddFOp::create(
                  rewriter, loc, partial[2 * r + c],
                  arith::MulFOp::create(rewriter, loc, a, b)));
            }
          }
          scf::YieldOp::create(rewriter, loc, next);
        });
    createWarpBarrier(rewriter, loc);
    rewriter.replaceOp(
        op, vector::FromElementsOp::create(
                rewriter, loc, mma.getRes().getType(), sum.getResults()));
  }
  return success();
}

/// Stands in for gpu.shuffle xor across a warp of 32 lanes (NVIDIA's
/// shfl.sync.bfly): every lane writes its value to a slot, and after a
/// warp's barrier reads lane `lane ^ offset`'s (a kernel that shuffles
/// across lanes that hold different things reads them here too).
LogicalResult emulateShuffles(RewriterBase &rewriter, gpu::LaunchOp launch) {
  SmallVector<gpu::ShuffleOp> shuffles;
  launch.walk([&](gpu::ShuffleOp op) { shuffles.push_back(op); });
  if (shuffles.empty())
    return success();
  std::optional<int64_t> threads = getBlockOfWhole(launch, 32);
  if (!threads)
    return launch.emitError("google-test-run-launches-on-host: gpu.shuffle "
                            "needs a static 1-D block of whole warps");
  auto workgroup = gpu::AddressSpaceAttr::get(rewriter.getContext(),
                                              gpu::AddressSpace::Workgroup);
  DenseMap<Type, Value> slots;
  Location loc = launch.getLoc();
  for (gpu::ShuffleOp op : shuffles) {
    if (op.getMode() != gpu::ShuffleMode::XOR ||
        getConstantIntValue(op.getWidth()) != 32 ||
        !getConstantIntValue(op.getOffset()) ||
        *getConstantIntValue(op.getOffset()) >= 32)
      return op.emitError("google-test-run-launches-on-host: only gpu.shuffle "
                          "xor of a constant offset across 32 lanes runs on "
                          "the host");
    Type type = op.getValue().getType();
    Value &slot = slots[type];
    if (!slot)
      slot = launch.addWorkgroupAttribution(
          MemRefType::get({*threads}, type, MemRefLayoutAttrInterface(),
                          workgroup),
          loc);
    rewriter.setInsertionPoint(op);
    Value thread = launch.getThreadIds().x;
    memref::StoreOp::create(rewriter, loc, op.getValue(), slot, thread);
    createWarpBarrier(rewriter, loc);
    Value partner = arith::XOrIOp::create(
        rewriter, loc, thread,
        arith::ConstantIndexOp::create(rewriter, loc,
                                       *getConstantIntValue(op.getOffset())));
    Value value = memref::LoadOp::create(rewriter, loc, slot, partner);
    createWarpBarrier(rewriter, loc);
    Value valid = arith::ConstantIntOp::create(rewriter, loc, 1, 1);
    rewriter.replaceOp(op, ValueRange{value, valid});
  }
  return success();
}

/// Stands in for NVIDIA's cp.async (nvgpu.device_async_copy of whole
/// vectors): the copy happens when it is issued, its group and the wait
/// for it go. A kernel that reads a stage before a barrier after the wait
/// (another thread's copy may be missing), or copies into the stage being
/// read, computes a wrong result here too: threads run a phase in order.
LogicalResult emulateAsyncCopies(RewriterBase &rewriter, gpu::LaunchOp launch) {
  SmallVector<nvgpu::DeviceAsyncCopyOp> copies;
  SmallVector<nvgpu::DeviceAsyncCreateGroupOp> groups;
  SmallVector<nvgpu::DeviceAsyncWaitOp> waits;
  launch.walk([&](Operation *op) {
    if (auto copy = dyn_cast<nvgpu::DeviceAsyncCopyOp>(op))
      copies.push_back(copy);
    else if (auto group = dyn_cast<nvgpu::DeviceAsyncCreateGroupOp>(op))
      groups.push_back(group);
    else if (auto wait = dyn_cast<nvgpu::DeviceAsyncWaitOp>(op))
      waits.push_back(wait);
  });
  for (nvgpu::DeviceAsyncCopyOp copy : copies) {
    if (copy.getSrcElements())
      return copy.emitError("google-test-run-launches-on-host: only "
                            "nvgpu.device_async_copy of whole vectors runs on "
                            "the host");
    rewriter.setInsertionPoint(copy);
    auto type = VectorType::get(
        {static_cast<int64_t>(copy.getDstElements().getZExtValue())},
        cast<MemRefType>(copy.getDst().getType()).getElementType());
    Value value = vector::LoadOp::create(rewriter, copy.getLoc(), type,
                                         copy.getSrc(), copy.getSrcIndices());
    vector::StoreOp::create(rewriter, copy.getLoc(), value, copy.getDst(),
                            copy.getDstIndices());
  }
  for (nvgpu::DeviceAsyncWaitOp wait : waits)
    rewriter.eraseOp(wait);
  for (nvgpu::DeviceAsyncCreateGroupOp group : groups)
    rewriter.eraseOp(group);
  for (nvgpu::DeviceAsyncCopyOp copy : copies)
    rewriter.eraseOp(copy);
  return success();
}

/// The position of element (`row`, `column`) of a box of 128-byte rows
/// (`rowElements` 16- or 32-bit elements) that TMA writes with the 128-byte
/// swizzle, in the box's row-major elements: the 16-byte chunk c of row r
/// goes to chunk c ^ (r % 8) (the box starts at a multiple of 1024 bytes,
/// which the emulation checks).
Value getSwizzledOffset(const IndexBuilder &b, Value row, Value column,
                        int64_t rowElements = 64) {
  int64_t chunkElements = rowElements / 8;
  Value chunk = arith::XOrIOp::create(
      b.rewriter, b.loc, b.div(column, chunkElements), b.rem(row, 8));
  return b.add(b.add(b.mul(row, rowElements), b.mul(chunk, chunkElements)),
               b.rem(column, chunkElements));
}

/// Loads element `offset` (row-major) of the 2-D buffer `buffer`.
Value loadLinear(const IndexBuilder &b, Value buffer, Value offset) {
  int64_t columns = cast<MemRefType>(buffer.getType()).getDimSize(1);
  return memref::LoadOp::create(
      b.rewriter, b.loc, buffer,
      ValueRange{b.div(offset, columns), b.rem(offset, columns)});
}

/// The fields of an emulated mbarrier (see emulateWgmma).
enum BarrierField : int64_t {
  kPhases,
  kExpectedBytes,
  kExpectedArrivals,
  kArrivalCount,
  kBarrierFields
};

/// Stands in for sm_90's TMA loads, mbarriers and warpgroup MMA (the wgmma
/// kernels' nvgpu ops): a TMA load is a copy made when the thread issues it
/// (box elements outside the array read as zero), written with the
/// 128-byte swizzle as the hardware writes it. An mbarrier is its count of
/// completed phases and its phase's expected bytes and arrivals, in shared
/// memory: the copies' bytes and the threads' arrivals complete phases,
/// and a wait checks at run time that its phase completed (where a GPU
/// would hang); loops that wait run in lockstep, and a wgmma checks that
/// its thread waited for the phases of the loads it reads. Each thread
/// holds its part of a warpgroup accumulator as a vector laid out as PTX's
/// wgmma D fragments: with w the warp in the warpgroup, g = lane / 4 and
/// t = lane % 4, element
/// 4 (i N / 8 + j) + r (N columns, 64-row chunk i, r < 4) is row 64 i +
/// 16 w + g + 8 (r / 2), column 8 j + 2 t + r % 2. nvgpu.warpgroup.mma
/// adds to each the products of its row of A and its column of B, read
/// through their descriptors' layouts: A's rows of 64 halves swizzled
/// (K-major), B's 64-column halves of K rows swizzled (MN-major,
/// `transposeB`), one half after the other, or without `transposeB` B^T's
/// rows of 64 halves swizzled as A's (K-major). The TF32 kernel's
/// (google.tf32) read rows of 32 f32 of A and of B^T (both K-major),
/// keeping the 19 TF32 bits of each, as the tensor cores read them.
LogicalResult emulateWgmma(RewriterBase &rewriter, gpu::LaunchOp launch) {
  // Ops emulated, and ops that go once those are: descriptors, barriers,
  // fences, waits, prefetches (wgmma completes when it runs).
  SmallVector<Operation *> ops, leftovers;
  launch.walk([&](Operation *op) {
    if (isa<nvgpu::TmaAsyncLoadOp, nvgpu::WarpgroupMmaOp,
            nvgpu::WarpgroupMmaInitAccumulatorOp, nvgpu::WarpgroupMmaStoreOp,
            nvgpu::MBarrierInitOp, nvgpu::MBarrierArriveExpectTxOp,
            nvgpu::MBarrierArriveOp, nvgpu::MBarrierTryWaitParityOp>(op))
      ops.push_back(op);
    else if (isa<nvgpu::TmaPrefetchOp, nvgpu::MBarrierCreateOp,
                 nvgpu::WarpgroupGenerateDescriptorOp,
                 NVVM::FenceMbarrierInitOp, NVVM::FenceProxyOp,
                 NVVM::WgmmaWaitGroupSyncOp>(op))
      leftovers.push_back(op);
  });
  if (ops.empty() && leftovers.empty())
    return success();
  std::optional<int64_t> threads = getBlockOfWhole(launch, 128);
  if (!threads)
    return launch.emitError("google-test-run-launches-on-host: warpgroup "
                            "ops need a static 1-D block of whole "
                            "warpgroups");
  Location loc = launch.getLoc();
  IndexBuilder b{rewriter, loc};
  Type f32 = rewriter.getF32Type();
  // The array a tensor map describes: the memref cast to the unranked
  // one it was made from.
  auto getArray = [&](Value map) -> FailureOr<Value> {
    auto create = map.getDefiningOp<nvgpu::TmaCreateDescriptorOp>();
    auto cast = create ? create.getTensor().getDefiningOp<memref::CastOp>()
                       : memref::CastOp();
    if (!cast || !isa<MemRefType>(cast.getSource().getType()))
      return failure();
    return cast.getSource();
  };
  auto fragmentType = [&](Type accumulator) {
    VectorType whole =
        cast<nvgpu::WarpgroupAccumulatorType>(accumulator).getFragmented();
    return VectorType::get({whole.getNumElements() / 128}, f32);
  };
  // Fragment element `e`'s row and column of an accumulator of N columns.
  auto getPosition = [&](Value thread, Value e, int64_t columns) {
    Value lane = b.rem(thread, 32), warp = b.rem(b.div(thread, 32), 4);
    int64_t perChunk = columns / 2;
    Value chunk = b.div(e, perChunk), within = b.rem(e, perChunk);
    Value j = b.div(within, 4), r = b.rem(within, 4);
    Value row = b.add(b.add(b.mul(chunk, 64), b.mul(warp, 16)),
                      b.add(b.div(lane, 4), b.mul(b.div(r, 2), 8)));
    Value column =
        b.add(b.add(b.mul(j, 8), b.mul(b.rem(lane, 4), 2)), b.rem(r, 2));
    return std::make_pair(row, column);
  };
  // Accumulators carried by loops or yielded by branches become the
  // threads' fragments.
  launch.walk([&](scf::ForOp loop) {
    for (auto [argument, result] :
         llvm::zip(loop.getRegionIterArgs(), loop.getResults()))
      if (isa<nvgpu::WarpgroupAccumulatorType>(argument.getType())) {
        Type type = fragmentType(argument.getType());
        argument.setType(type);
        result.setType(type);
      }
  });
  launch.walk([&](scf::IfOp branch) {
    for (Value result : branch.getResults())
      if (isa<nvgpu::WarpgroupAccumulatorType>(result.getType()))
        result.setType(fragmentType(result.getType()));
  });
  // A loop whose threads wait for mbarriers that other threads complete
  // (a producer's loads, the consumers' releases) runs its iterations in
  // lockstep: each iteration is a phase, the threads in order. Between
  // block barriers, threads would otherwise each run the whole loop, and
  // the first would wait for what later ones complete.
  launch.walk([&](scf::ForOp loop) {
    bool waits = loop->walk([](nvgpu::MBarrierTryWaitParityOp) {
                       return WalkResult::interrupt();
                     })
                     .wasInterrupted();
    if (!waits || containsBarrier(loop))
      return;
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPoint(loop.getBody()->getTerminator());
    gpu::BarrierOp::create(rewriter, loop.getLoc())
        ->setAttr(kLockstepBarrier, rewriter.getUnitAttr());
  });
  Value thread = launch.getThreadIds().x;
  // Each mbarrier's state in shared memory: its completed phases, the
  // bytes and the arrivals its current phase still expects, and its
  // arrival count. The copies are done when issued, so a phase completes
  // when its last expected byte is copied or its last thread arrives, and a
  // wait must find its phase completed (on a GPU it would wait, here it
  // cannot: a wrong parity, a stage never loaded or released, or a byte
  // count that does not match its loads would hang the kernel).
  DenseMap<Value, Value> barrierStates;
  // The state of `user`'s mbarriers (operand `barriers`).
  auto getBarrierState = [&](Operation *user,
                             Value barriers) -> FailureOr<Value> {
    if (Value state = barrierStates.lookup(barriers))
      return state;
    auto group = cast<nvgpu::MBarrierGroupType>(barriers.getType());
    if (!barriers.getDefiningOp<nvgpu::MBarrierCreateOp>())
      return user->emitError("google-test-run-launches-on-host: expected "
                             "mbarriers from nvgpu.mbarrier.create");
    auto type = MemRefType::get(
        {group.getNumBarriers(), kBarrierFields}, rewriter.getIndexType(),
        MemRefLayoutAttrInterface(),
        gpu::AddressSpaceAttr::get(rewriter.getContext(),
                                   gpu::AddressSpace::Workgroup));
    Value state = launch.addWorkgroupAttribution(type, loc);
    barrierStates[barriers] = state;
    return state;
  };
  // Which mbarrier phase the TMA load that last wrote each 1 KiB granule
  // of dynamic shared memory completes (every box starts at a multiple of
  // 1024 bytes from the aligned start): the group's index, the mbarrier
  // and its phase, -1 before a load. And the phases each thread saw
  // completed in its waits. A wgmma must read boxes whose phase its
  // thread waited for: lockstep iterations run a producer's loads before
  // the threads that read them, so a missing or wrong wait would pass
  // unnoticed otherwise.
  std::optional<int64_t> sharedBytes =
      launch.getDynamicSharedMemorySize()
          ? getConstantIntValue(launch.getDynamicSharedMemorySize())
          : std::nullopt;
  DenseMap<Value, int64_t> groupIndices;
  int64_t maxBarriers = 1;
  launch.walk([&](nvgpu::MBarrierCreateOp create) {
    groupIndices.try_emplace(create.getResult(), groupIndices.size());
    maxBarriers = std::max<int64_t>(
        maxBarriers, create.getBarriers().getType().getNumBarriers());
  });
  auto attribution = [&](ArrayRef<int64_t> shape) {
    return launch.addWorkgroupAttribution(
        MemRefType::get(
            shape, rewriter.getIndexType(), MemRefLayoutAttrInterface(),
            gpu::AddressSpaceAttr::get(rewriter.getContext(),
                                       gpu::AddressSpace::Workgroup)),
        loc);
  };
  Value loads, observed;
  int64_t granules = sharedBytes ? llvm::divideCeil(*sharedBytes, 1024) : 0;
  if (granules && !groupIndices.empty()) {
    loads = attribution({granules, 3});
    observed = attribution(
        {*threads, static_cast<int64_t>(groupIndices.size()), maxBarriers});
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(&launch.getBody().front());
    auto first = scf::IfOp::create(
        rewriter, loc,
        arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq,
                              launch.getThreadIds().x, b.constant(0)));
    rewriter.setInsertionPointToStart(first.thenBlock());
    scf::ForOp::create(
        rewriter, loc, b.constant(0), b.constant(granules), b.constant(1),
        ValueRange{}, [&](OpBuilder &, Location, Value granule, ValueRange) {
          for (int64_t field = 0; field < 3; ++field)
            memref::StoreOp::create(rewriter, loc, b.constant(-1), loads,
                                    ValueRange{granule, b.constant(field)});
          scf::YieldOp::create(rewriter, loc);
        });
  }
  // The granule a view of dynamic shared memory starts at.
  auto getGranule = [&](Value view) -> Value {
    auto viewOp = view.getDefiningOp<memref::ViewOp>();
    if (!viewOp || !loads)
      return {};
    return b.div(viewOp.getByteShift(), 1024);
  };
  // Runs `body` where `predicate` (when there is one) holds.
  auto guarded = [&](Value predicate, function_ref<void()> body) {
    OpBuilder::InsertionGuard guard(rewriter);
    if (predicate) {
      auto ifOp = scf::IfOp::create(rewriter, loc, predicate);
      rewriter.setInsertionPointToStart(ifOp.thenBlock());
    }
    body();
  };
  auto check = [&](Value condition, StringRef message) {
    cf::AssertOp::create(
        rewriter, loc, condition,
        (Twine("google-test-run-launches-on-host: ") + message).str());
  };
  auto compare = [&](arith::CmpIPredicate predicate, Value lhs, Value rhs) {
    return arith::CmpIOp::create(rewriter, loc, predicate, lhs, rhs);
  };
  auto field = [&](Value state, Value id, int64_t which) -> Value {
    return memref::LoadOp::create(rewriter, loc, state,
                                  ValueRange{id, b.constant(which)});
  };
  auto setField = [&](Value state, Value id, int64_t which, Value value) {
    memref::StoreOp::create(rewriter, loc, value, state,
                            ValueRange{id, b.constant(which)});
  };
  // Mbarrier `id`'s phase completes once neither bytes nor arrivals are
  // expected; the next one expects its count's arrivals.
  auto completeIfDone = [&](Value state, Value id) {
    Value done = arith::AndIOp::create(
        rewriter, loc,
        compare(arith::CmpIPredicate::eq, field(state, id, kExpectedBytes),
                b.constant(0)),
        compare(arith::CmpIPredicate::eq, field(state, id, kExpectedArrivals),
                b.constant(0)));
    auto complete = scf::IfOp::create(rewriter, loc, done);
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(complete.thenBlock());
    setField(state, id, kPhases,
             b.add(field(state, id, kPhases), b.constant(1)));
    setField(state, id, kExpectedArrivals, field(state, id, kArrivalCount));
  };
  // `bytes` of mbarrier `id`'s current phase arrived.
  auto completeBytes = [&](Value state, Value id, Value bytes) {
    Value left = b.sub(field(state, id, kExpectedBytes), bytes);
    check(compare(arith::CmpIPredicate::sge, left, b.constant(0)),
          "TMA loads of more bytes than their mbarrier's phase expects");
    setField(state, id, kExpectedBytes, left);
    completeIfDone(state, id);
  };
  // A thread arrived at mbarrier `id`.
  auto arriveAt = [&](Value state, Value id) {
    setField(state, id, kExpectedArrivals,
             b.sub(field(state, id, kExpectedArrivals), b.constant(1)));
    completeIfDone(state, id);
  };
  for (Operation *op : ops) {
    rewriter.setInsertionPoint(op);
    if (auto init = dyn_cast<nvgpu::MBarrierInitOp>(op)) {
      FailureOr<Value> state = getBarrierState(init, init.getBarriers());
      if (failed(state))
        return failure();
      guarded(init.getPredicate(), [&] {
        Value id = init.getMbarId(), count = init.getCount();
        check(compare(arith::CmpIPredicate::sgt, count, b.constant(0)),
              "an mbarrier initialized for no arrivals");
        setField(*state, id, kPhases, b.constant(0));
        setField(*state, id, kExpectedBytes, b.constant(0));
        setField(*state, id, kExpectedArrivals, count);
        setField(*state, id, kArrivalCount, count);
        if (observed) {
          Value group = b.constant(groupIndices.lookup(init.getBarriers()));
          scf::ForOp::create(
              rewriter, loc, b.constant(0), b.constant(*threads), b.constant(1),
              ValueRange{},
              [&](OpBuilder &, Location, Value other, ValueRange) {
                memref::StoreOp::create(rewriter, loc, b.constant(0), observed,
                                        ValueRange{other, group, id});
                scf::YieldOp::create(rewriter, loc);
              });
        }
      });
      rewriter.eraseOp(init);
      continue;
    }
    if (auto arrive = dyn_cast<nvgpu::MBarrierArriveExpectTxOp>(op)) {
      FailureOr<Value> state = getBarrierState(arrive, arrive.getBarriers());
      if (failed(state))
        return failure();
      guarded(arrive.getPredicate(), [&] {
        Value id = arrive.getMbarId();
        check(compare(arith::CmpIPredicate::eq,
                      field(*state, id, kExpectedBytes), b.constant(0)),
              "an mbarrier's phase expecting bytes again before the "
              "previous ones arrived");
        setField(*state, id, kExpectedBytes, arrive.getTxcount());
        arriveAt(*state, id);
      });
      rewriter.eraseOp(arrive);
      continue;
    }
    if (auto arrive = dyn_cast<nvgpu::MBarrierArriveOp>(op)) {
      if (!arrive->use_empty())
        return arrive.emitError("google-test-run-launches-on-host: only "
                                "mbarrier arrivals whose token is unused run "
                                "on the host");
      FailureOr<Value> state = getBarrierState(arrive, arrive.getBarriers());
      if (failed(state))
        return failure();
      arriveAt(*state, arrive.getMbarId());
      rewriter.eraseOp(arrive);
      continue;
    }
    if (auto wait = dyn_cast<nvgpu::MBarrierTryWaitParityOp>(op)) {
      FailureOr<Value> state = getBarrierState(wait, wait.getBarriers());
      if (failed(state))
        return failure();
      // The wait returns once the phase of its parity completed: the
      // completed phases' count has the other parity.
      Value phases = field(*state, wait.getMbarId(), kPhases);
      Value parity = arith::IndexCastUIOp::create(
          rewriter, loc, rewriter.getIndexType(), wait.getPhaseParity());
      check(compare(arith::CmpIPredicate::ne, b.rem(phases, 2), parity),
            "a wait for an mbarrier phase that has not completed (on a GPU, "
            "a hang)");
      if (observed)
        memref::StoreOp::create(
            rewriter, loc, phases, observed,
            ValueRange{thread,
                       b.constant(groupIndices.lookup(wait.getBarriers())),
                       wait.getMbarId()});
      rewriter.eraseOp(wait);
      continue;
    }
    if (auto load = dyn_cast<nvgpu::TmaAsyncLoadOp>(op)) {
      auto mapType = load.getTensorMapDescriptor().getType();
      FailureOr<Value> array = getArray(load.getTensorMapDescriptor());
      MemRefType box = mapType.getTensor();
      if (failed(array) || box.getRank() != 2 ||
          !load.getDst().getDefiningOp<memref::ViewOp>() ||
          mapType.getSwizzle() != nvgpu::TensorMapSwizzleKind::SWIZZLE_128B ||
          (box.getElementTypeBitWidth() != 16 &&
           box.getElementTypeBitWidth() != 32) ||
          box.getDimSize(1) * box.getElementTypeBitWidth() != 128 * 8 ||
          mapType.getOob() != nvgpu::TensorMapOOBKind::OOB_ZERO)
        return load.emitError("google-test-run-launches-on-host: only TMA "
                              "loads of 2-D boxes of 128-byte rows of 16- or "
                              "32-bit elements with the 128-byte swizzle from "
                              "a tensor map of a ranked memref into a view of "
                              "shared memory, zero-filled, run on the host");
      const int64_t rowElements = box.getDimSize(1);
      auto guard = scf::IfOp::create(rewriter, loc, load.getPredicate());
      rewriter.setInsertionPointToStart(guard.thenBlock());
      Value destination = load.getDst();
      // (A view of shared memory: its aligned pointer is where it starts.)
      Value address = memref::ExtractAlignedPointerAsIndexOp::create(
          rewriter, loc, destination);
      cf::AssertOp::create(
          rewriter, loc,
          arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq,
                                b.rem(address, 1024), b.constant(0)),
          "google-test-run-launches-on-host: a TMA load with the 128-byte "
          "swizzle into shared memory not aligned to 1024 bytes");
      Value x = load.getCoordinates()[0], y = load.getCoordinates()[1];
      Value rows = memref::DimOp::create(rewriter, loc, *array, 0);
      Value columns = memref::DimOp::create(rewriter, loc, *array, 1);
      // Copied as bits: the host has no bf16 arithmetic for a zero.
      Type element = box.getElementType();
      Type bits = rewriter.getIntegerType(box.getElementTypeBitWidth());
      Value zeroValue = arith::ConstantIntOp::create(rewriter, loc, bits, 0);
      scf::ForOp::create(
          rewriter, loc, b.constant(0), b.constant(box.getDimSize(0)),
          b.constant(1), ValueRange{},
          [&](OpBuilder &, Location, Value row, ValueRange) {
            scf::ForOp::create(
                rewriter, loc, b.constant(0), b.constant(rowElements),
                b.constant(1), ValueRange{},
                [&](OpBuilder &, Location, Value column, ValueRange) {
                  Value sourceRow = b.add(y, row);
                  Value sourceColumn = b.add(x, column);
                  Value inside = arith::AndIOp::create(
                      rewriter, loc,
                      arith::CmpIOp::create(rewriter, loc,
                                            arith::CmpIPredicate::ult,
                                            sourceRow, rows),
                      arith::CmpIOp::create(rewriter, loc,
                                            arith::CmpIPredicate::ult,
                                            sourceColumn, columns));
                  auto read =
                      scf::IfOp::create(rewriter, loc, TypeRange{bits}, inside,
                                        /*withElseRegion=*/true);
                  {
                    OpBuilder::InsertionGuard inner(rewriter);
                    rewriter.setInsertionPointToStart(read.thenBlock());
                    scf::YieldOp::create(
                        rewriter, loc,
                        arith::BitcastOp::create(
                            rewriter, loc, bits,
                            memref::LoadOp::create(
                                rewriter, loc, *array,
                                ValueRange{sourceRow, sourceColumn}))
                            .getResult());
                    rewriter.setInsertionPointToStart(read.elseBlock());
                    scf::YieldOp::create(rewriter, loc, zeroValue);
                  }
                  Value offset = getSwizzledOffset(b, row, column, rowElements);
                  memref::StoreOp::create(
                      rewriter, loc,
                      arith::BitcastOp::create(rewriter, loc, element,
                                               read.getResult(0)),
                      destination,
                      ValueRange{b.div(offset, rowElements),
                                 b.rem(offset, rowElements)});
                  scf::YieldOp::create(rewriter, loc);
                });
            scf::YieldOp::create(rewriter, loc);
          });
      FailureOr<Value> state = getBarrierState(load, load.getBarriers());
      if (failed(state))
        return failure();
      if (Value granule = getGranule(destination)) {
        Value record[] = {b.constant(groupIndices.lookup(load.getBarriers())),
                          load.getMbarId(),
                          field(*state, load.getMbarId(), kPhases)};
        int64_t boxBytes =
            box.getNumElements() * box.getElementTypeBitWidth() / 8;
        scf::ForOp::create(
            rewriter, loc, granule,
            b.add(granule, b.constant(llvm::divideCeil(boxBytes, 1024))),
            b.constant(1), ValueRange{},
            [&](OpBuilder &, Location, Value covered, ValueRange) {
              for (auto [position, value] : llvm::enumerate(record))
                memref::StoreOp::create(
                    rewriter, loc, value, loads,
                    ValueRange{covered, b.constant(position)});
              scf::YieldOp::create(rewriter, loc);
            });
      }
      completeBytes(
          *state, load.getMbarId(),
          b.constant(box.getNumElements() * box.getElementTypeBitWidth() / 8));
      rewriter.eraseOp(load);
      continue;
    }
    if (auto init = dyn_cast<nvgpu::WarpgroupMmaInitAccumulatorOp>(op)) {
      VectorType type = fragmentType(init.getType());
      rewriter.replaceOpWithNewOp<arith::ConstantOp>(
          init, type,
          DenseElementsAttr::get(type, rewriter.getF32FloatAttr(0)));
      continue;
    }
    if (auto mma = dyn_cast<nvgpu::WarpgroupMmaOp>(op)) {
      auto lhs = mma.getDescriptorA()
                     .getDefiningOp<nvgpu::WarpgroupGenerateDescriptorOp>();
      auto rhs = mma.getDescriptorB()
                     .getDefiningOp<nvgpu::WarpgroupGenerateDescriptorOp>();
      MemRefType lhsType = mma.getDescriptorA().getType().getTensor();
      MemRefType rhsType = mma.getDescriptorB().getType().getTensor();
      int64_t depth = lhsType.getDimSize(1), columns = rhsType.getDimSize(1);
      // The TF32 kernel's (google.tf32): f32 pairs in the 16-bit tiles,
      // B K-major too.
      bool tf32 = mma->hasAttr(kTf32WgmmaAttr);
      bool rhsKMajor = !mma.getTransposeB();
      auto lhsView = lhs ? lhs.getTensor().getDefiningOp<memref::ViewOp>()
                         : memref::ViewOp();
      auto rhsView = rhs ? rhs.getTensor().getDefiningOp<memref::ViewOp>()
                         : memref::ViewOp();
      if (!lhs || !rhs || mma.getTransposeA() || (tf32 && !rhsKMajor) ||
          depth != 64 || columns % 64 != 0 ||
          lhsType.getElementTypeBitWidth() != 16 ||
          (tf32 && (!lhsView || !rhsView)))
        return mma.emitError("google-test-run-launches-on-host: only "
                             "nvgpu.warpgroup.mma of 16-bit A (K-major) and "
                             "B (MN-major, transposeB, or K-major) with K = "
                             "64, or of TF32 (google.tf32: f32 pairs, B "
                             "K-major) with K = 32, from generated "
                             "descriptors of views runs on the host");
      Value a = lhs.getTensor(), bMatrix = rhs.getTensor();
      // TF32's tiles as f32: A's rows and B's columns of 32.
      if (tf32) {
        auto asF32 = [&](memref::ViewOp view, int64_t rows) -> Value {
          return memref::ViewOp::create(
              rewriter, loc,
              MemRefType::get({rows, 32}, f32, MemRefLayoutAttrInterface(),
                              view.getType().getMemorySpace()),
              view.getSource(), view.getByteShift(), ValueRange{});
        };
        a = asF32(lhsView, lhsType.getDimSize(0));
        bMatrix = asF32(rhsView, columns);
        depth = 32;
      }
      // The tensor cores read TF32's 19 high bits of each f32.
      auto truncate = [&](Value value) -> Value {
        if (!tf32)
          return arith::ExtFOp::create(rewriter, loc, f32, value);
        Type i32 = rewriter.getI32Type();
        return arith::BitcastOp::create(
            rewriter, loc, f32,
            arith::AndIOp::create(
                rewriter, loc,
                arith::BitcastOp::create(rewriter, loc, i32, value),
                arith::ConstantIntOp::create(
                    rewriter, loc, i32, static_cast<int32_t>(0xFFFFE000u))));
      };
      // Each box the wgmma reads (the descriptors' first and last KiB) was
      // loaded, and its phase waited for by this thread.
      for (auto [matrix, bytes] :
           {std::make_pair(a, lhsType.getNumElements() * 2),
            std::make_pair(bMatrix, rhsType.getNumElements() * 2)}) {
        Value granule = getGranule(matrix);
        if (!granule)
          continue;
        for (Value at :
             {granule, b.add(granule, b.constant(bytes / 1024 - 1))}) {
          auto record = [&](int64_t position) -> Value {
            return memref::LoadOp::create(rewriter, loc, loads,
                                          ValueRange{at, b.constant(position)});
          };
          Value group = record(0);
          Value loaded =
              compare(arith::CmpIPredicate::sge, group, b.constant(0));
          check(loaded, "a wgmma reads shared memory no TMA load wrote");
          // (Clamped for the index: the check above failed otherwise.)
          Value seen = memref::LoadOp::create(
              rewriter, loc, observed,
              ValueRange{
                  thread,
                  arith::MaxSIOp::create(rewriter, loc, group, b.constant(0)),
                  arith::MaxSIOp::create(rewriter, loc, record(1),
                                         b.constant(0))});
          check(compare(arith::CmpIPredicate::sgt, seen, record(2)),
                "a wgmma reads shared memory whose TMA load's mbarrier "
                "phase its thread did not wait for");
        }
      }
      auto type = cast<VectorType>(mma.getMatrixC().getType());
      Value within = b.rem(thread, 128);
      auto loop = scf::ForOp::create(
          rewriter, loc, b.constant(0), b.constant(type.getNumElements()),
          b.constant(1), ValueRange{mma.getMatrixC()},
          [&](OpBuilder &, Location, Value e, ValueRange carried) {
            // (Named values: a nested lambda cannot capture bindings.)
            std::pair<Value, Value> position = getPosition(within, e, columns);
            Value row = position.first, column = position.second;
            Value start =
                vector::ExtractOp::create(rewriter, loc, carried.front(), e);
            auto sum = scf::ForOp::create(
                rewriter, loc, b.constant(0), b.constant(depth), b.constant(1),
                ValueRange{start},
                [&](OpBuilder &, Location, Value k, ValueRange partial) {
                  Value lhsValue =
                      loadLinear(b, a, getSwizzledOffset(b, row, k, depth));
                  Value rhsValue;
                  if (rhsKMajor) {
                    rhsValue = loadLinear(
                        b, bMatrix, getSwizzledOffset(b, column, k, depth));
                  } else {
                    Value half = b.div(column, 64);
                    rhsValue = loadLinear(
                        b, bMatrix,
                        b.add(b.mul(half, 64 * depth),
                              getSwizzledOffset(b, k, b.rem(column, 64))));
                  }
                  Value product = arith::MulFOp::create(
                      rewriter, loc, truncate(lhsValue), truncate(rhsValue));
                  scf::YieldOp::create(rewriter, loc,
                                       arith::AddFOp::create(rewriter, loc,
                                                             partial.front(),
                                                             product)
                                           .getResult());
                });
            scf::YieldOp::create(rewriter, loc,
                                 vector::InsertOp::create(rewriter, loc,
                                                          sum.getResult(0),
                                                          carried.front(), e)
                                     .getResult());
          });
      rewriter.replaceOp(mma, loop.getResults());
      continue;
    }
    if (auto store = dyn_cast<nvgpu::WarpgroupMmaStoreOp>(op)) {
      auto type = cast<VectorType>(store.getMatrixD().getType());
      int64_t columns =
          cast<MemRefType>(store.getDstMemref().getType()).getDimSize(1);
      Value within = b.rem(thread, 128);
      scf::ForOp::create(
          rewriter, loc, b.constant(0), b.constant(type.getNumElements()),
          b.constant(1), ValueRange{},
          [&](OpBuilder &, Location, Value e, ValueRange) {
            auto [row, column] = getPosition(within, e, columns);
            memref::StoreOp::create(
                rewriter, loc,
                vector::ExtractOp::create(rewriter, loc, store.getMatrixD(), e),
                store.getDstMemref(), ValueRange{row, column});
            scf::YieldOp::create(rewriter, loc);
          });
      rewriter.eraseOp(store);
      continue;
    }
  }
  for (Operation *op : llvm::reverse(leftovers))
    rewriter.eraseOp(op);
  return success();
}

/// Slots of the table checkGlobalRaces keeps per launch.
constexpr int64_t kGlobalRaceSlots = int64_t(1) << 16;

/// What `memref` views, through view-like ops.
Value getViewedBuffer(Value memref) {
  return memref::skipViewLikeOps(cast<MemrefValue>(memref));
}

/// Whether `memref`, accessed in `launch`, is global memory: no memory
/// space (or the global one) and a buffer from outside the launch.
bool isGlobalBuffer(gpu::LaunchOp launch, Value memref) {
  auto type = dyn_cast<MemRefType>(memref.getType());
  if (!type || !type.getElementType().isIntOrIndexOrFloat())
    return false;
  if (auto space =
          dyn_cast_or_null<gpu::AddressSpaceAttr>(type.getMemorySpace());
      space && space.getValue() != gpu::AddressSpace::Global)
    return false;
  else if (!space && type.getMemorySpace())
    return false;
  Value buffer = getViewedBuffer(memref);
  return !launch->isAncestor(buffer.getParentRegion()->getParentOp());
}

/// Race detection on global memory: between a launch's blocks (unordered;
/// they run one after another here, so a race need not show in the
/// values), and between the threads of a block in one phase (between two
/// barriers: threads run a phase one after another here, so a thread that
/// reads what a thread before it wrote sees the new value, which a GPU
/// need not give it). Threads are numbered across blocks (block * threads
/// per block + thread); each barrier starts a new phase (thread 0, which
/// runs first, counts it). Each element address accessed in the launch
/// hashes to a slot of a table: its address, the thread that wrote it
/// last and its phase then, the block that read it (-2: several), and the
/// thread that read it last, its phase, and whether other threads of its
/// block read it in that phase too. A thread that reads or writes an
/// element another thread wrote, or writes one another thread read, fails
/// the launch, unless both are of one block and a barrier lies between.
/// Colliding addresses evict each other's slot: a race may go unseen, none
/// is made up. Atomics, and loads of buffers the launch does not write,
/// are not checked.
void checkGlobalRaces(RewriterBase &rewriter, gpu::LaunchOp launch) {
  SmallVector<MemoryAccess> accesses;
  SmallVector<gpu::BarrierOp> barriers;
  launch.getBody().walk([&](Operation *op) {
    if (auto barrier = dyn_cast<gpu::BarrierOp>(op))
      barriers.push_back(barrier);
    else if (std::optional<MemoryAccess> access = getMemoryAccess(op);
             access && isGlobalBuffer(launch, access->memref))
      accesses.push_back(*access);
  });
  // Loads of buffers the launch does not write cannot race: left alone
  // (most of a contraction's). A buffer is what views view: an allocation
  // or a function's argument, distinct ones distinct; a loop's argument
  // may be any of several (checked whenever one is written or read).
  auto isKnown = [](Value buffer) {
    auto argument = dyn_cast<BlockArgument>(buffer);
    return !argument ||
           isa<FunctionOpInterface>(argument.getOwner()->getParentOp());
  };
  llvm::SmallDenseSet<Value> written;
  bool unknownWritten = false;
  for (const MemoryAccess &access : accesses) {
    if (!access.isStore)
      continue;
    written.insert(getViewedBuffer(access.memref));
    unknownWritten |= !isKnown(getViewedBuffer(access.memref));
  }
  llvm::erase_if(accesses, [&](const MemoryAccess &access) {
    Value buffer = getViewedBuffer(access.memref);
    return !access.isStore && !unknownWritten && isKnown(buffer) &&
           !written.contains(buffer);
  });
  if (accesses.empty())
    return;

  Location loc = launch.getLoc();
  Type index = rewriter.getIndexType();
  rewriter.setInsertionPoint(launch);
  auto constant = [&](int64_t value) -> Value {
    return arith::ConstantIndexOp::create(rewriter, loc, value);
  };
  // Per slot: the address, the last writer and its phase, the block that
  // read it, the last reader, its phase, and other readers in that phase.
  enum { Tag, Writer, WritePhase, ReadBlock, Reader, ReadPhase, Several };
  SmallVector<Value> tables;
  for (int i = 0; i <= Several; ++i)
    tables.push_back(memref::AllocOp::create(
        rewriter, loc, MemRefType::get({kGlobalRaceSlots}, index)));
  Value phase =
      memref::AllocOp::create(rewriter, loc, MemRefType::get({}, index));
  memref::StoreOp::create(rewriter, loc, constant(0), phase);
  {
    Value none = constant(-1);
    auto clear = scf::ForOp::create(rewriter, loc, constant(0),
                                    constant(kGlobalRaceSlots), constant(1));
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPoint(clear.getBody()->getTerminator());
    for (Value table : tables)
      memref::StoreOp::create(rewriter, loc, none, table,
                              clear.getInductionVar());
  }
  rewriter.setInsertionPointAfter(launch);
  for (Value table : tables)
    memref::DeallocOp::create(rewriter, loc, table);
  memref::DeallocOp::create(rewriter, loc, phase);

  gpu::KernelDim3 blockIds = launch.getBlockIds();
  gpu::KernelDim3 grid = launch.getGridSize();
  gpu::KernelDim3 threadIds = launch.getThreadIds();
  gpu::KernelDim3 blockSize = launch.getBlockSize();
  auto add = [&](Value a, Value b) -> Value {
    return arith::AddIOp::create(rewriter, loc, a, b);
  };
  auto mul = [&](Value a, Value b) -> Value {
    return arith::MulIOp::create(rewriter, loc, a, b);
  };
  auto compare = [&](arith::CmpIPredicate predicate, Value a, Value b) {
    return arith::CmpIOp::create(rewriter, loc, predicate, a, b);
  };
  auto select = [&](Value condition, Value a, Value b) -> Value {
    return arith::SelectOp::create(rewriter, loc, condition, a, b);
  };
  auto both = [&](Value a, Value b) -> Value {
    return arith::AndIOp::create(rewriter, loc, a, b);
  };
  auto either = [&](Value a, Value b) -> Value {
    return arith::OrIOp::create(rewriter, loc, a, b);
  };
  auto threadInBlock = [&] {
    return add(
        threadIds.x,
        mul(blockSize.x, add(threadIds.y, mul(blockSize.y, threadIds.z))));
  };
  for (gpu::BarrierOp barrier : barriers) {
    rewriter.setInsertionPointAfter(barrier);
    auto first = scf::IfOp::create(
        rewriter, loc,
        compare(arith::CmpIPredicate::eq, threadInBlock(), constant(0)));
    rewriter.setInsertionPointToStart(first.thenBlock());
    memref::StoreOp::create(
        rewriter, loc,
        add(memref::LoadOp::create(rewriter, loc, phase), constant(1)), phase);
  }

  for (auto [access, memref, indices, elements, isStore] : accesses) {
    rewriter.setInsertionPoint(access);
    Value threads = mul(mul(blockSize.x, blockSize.y), blockSize.z);
    Value block =
        add(blockIds.x, mul(grid.x, add(blockIds.y, mul(grid.y, blockIds.z))));
    Value thread = add(mul(block, threads), threadInBlock());
    Value now = memref::LoadOp::create(rewriter, loc, phase);
    auto type = cast<MemRefType>(memref.getType());
    Type element = type.getElementType();
    int64_t bytes =
        element.isIndex() ? 8 : (element.getIntOrFloatBitWidth() + 7) / 8;
    auto metadata =
        memref::ExtractStridedMetadataOp::create(rewriter, loc, memref);
    Value linear = metadata.getOffset();
    for (auto [at, stride] : llvm::zip(indices, metadata.getStrides()))
      linear = add(linear, mul(at, stride));
    Value address = add(
        memref::ExtractAlignedPointerAsIndexOp::create(rewriter, loc, memref),
        mul(linear, constant(bytes)));
    // Whether `other`'s access in `otherPhase` is unordered with this one.
    auto unordered = [&](Value other, Value otherPhase) {
      Value sameBlock =
          compare(arith::CmpIPredicate::eq,
                  arith::DivUIOp::create(rewriter, loc, other, threads), block);
      return either(arith::XOrIOp::create(
                        rewriter, loc, sameBlock,
                        arith::ConstantIntOp::create(rewriter, loc, 1, 1)),
                    compare(arith::CmpIPredicate::eq, otherPhase, now));
    };
    for (int64_t e = 0; e < elements; ++e) {
      Value at = add(address, constant(e * bytes));
      Value slot = arith::RemUIOp::create(
          rewriter, loc,
          arith::DivUIOp::create(rewriter, loc, at, constant(bytes)),
          constant(kGlobalRaceSlots));
      Value same =
          compare(arith::CmpIPredicate::eq,
                  memref::LoadOp::create(rewriter, loc, tables[Tag], slot), at);
      SmallVector<Value> entry(tables.size());
      for (int i = Writer; i <= Several; ++i)
        entry[i] =
            select(same, memref::LoadOp::create(rewriter, loc, tables[i], slot),
                   constant(-1));
      Value written =
          compare(arith::CmpIPredicate::sge, entry[Writer], constant(0));
      Value writeRace = both(both(written, compare(arith::CmpIPredicate::ne,
                                                   entry[Writer], thread)),
                             unordered(entry[Writer], entry[WritePhase]));
      // {0}: the other thread, {1}: this one (see LowerChecksToRuntime).
      cf::AssertOp::create(
          rewriter, loc,
          compare(arith::CmpIPredicate::eq,
                  select(writeRace, entry[Writer], thread), thread),
          isStore ? "google-test-run-launches-on-host: global-memory race: "
                    "thread {1} overwrites an element thread {0} wrote in "
                    "another block or since the last barrier"
                  : "google-test-run-launches-on-host: global-memory race: "
                    "thread {1} reads an element thread {0} wrote in another "
                    "block or since the last barrier");
      Value otherBlockRead = both(
          compare(arith::CmpIPredicate::ne, entry[ReadBlock], constant(-1)),
          compare(arith::CmpIPredicate::ne, entry[ReadBlock], block));
      // Read in this block in this phase by another thread (or several).
      Value readNow = both(
          both(compare(arith::CmpIPredicate::sge, entry[Reader], constant(0)),
               compare(arith::CmpIPredicate::eq, entry[ReadPhase], now)),
          compare(arith::CmpIPredicate::eq,
                  arith::DivUIOp::create(rewriter, loc, entry[Reader], threads),
                  block));
      Value otherReadNow =
          both(readNow,
               either(compare(arith::CmpIPredicate::ne, entry[Reader], thread),
                      compare(arith::CmpIPredicate::eq, entry[Several],
                              constant(1))));
      if (isStore) {
        Value readRace = either(otherBlockRead, otherReadNow);
        // A reader that is this thread stands for the others.
        Value other =
            select(compare(arith::CmpIPredicate::eq, entry[Reader], thread),
                   constant(-2), entry[Reader]);
        cf::AssertOp::create(
            rewriter, loc,
            compare(arith::CmpIPredicate::eq, select(readRace, other, thread),
                    thread),
            "google-test-run-launches-on-host: global-memory race: thread {1} "
            "overwrites an element thread {0} read in another block or since "
            "the last barrier (-2: several threads)");
        entry[Writer] = thread;
        entry[WritePhase] = now;
      } else {
        entry[ReadBlock] = select(otherBlockRead, constant(-2), block);
        entry[Several] = select(otherReadNow, constant(1), constant(0));
        entry[Reader] = thread;
        entry[ReadPhase] = now;
      }
      entry[Tag] = at;
      for (auto [value, table] : llvm::zip(entry, tables))
        memref::StoreOp::create(rewriter, loc, value, table, slot);
    }
  }
}

/// Stores all-ones bits (a NaN in every float type, -1 in every integer)
/// into every element of `buffer`, a static host buffer of scalars: the
/// values a kernel reads where it wrote nothing (as the runtime's
/// GOOGLE_MLIR_POISON_BUFFERS=1 gives its global buffers).
void poisonBuffer(RewriterBase &rewriter, Location loc, Value buffer) {
  auto type = cast<MemRefType>(buffer.getType());
  Type element = type.getElementType();
  TypedAttr poison;
  if (auto floatType = dyn_cast<FloatType>(element))
    poison = rewriter.getFloatAttr(
        floatType, APFloat(floatType.getFloatSemantics(),
                           APInt::getAllOnes(floatType.getWidth())));
  else if (isa<IntegerType, IndexType>(element))
    poison = rewriter.getIntegerAttr(element, -1);
  else
    return;
  Value value = arith::ConstantOp::create(rewriter, loc, poison);
  if (type.getRank() == 0) {
    memref::StoreOp::create(rewriter, loc, value, buffer);
    return;
  }
  Value flat = buffer;
  if (type.getRank() != 1) {
    ReassociationIndices all =
        llvm::to_vector(llvm::seq<int64_t>(0, type.getRank()));
    flat = memref::CollapseShapeOp::create(rewriter, loc, buffer,
                                           ArrayRef<ReassociationIndices>{all});
  }
  Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
  Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
  Value size = memref::DimOp::create(rewriter, loc, flat, 0);
  auto loop = scf::ForOp::create(rewriter, loc, zero, size, one);
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(loop.getBody()->getTerminator());
  memref::StoreOp::create(rewriter, loc, value, flat, loop.getInductionVar());
}

/// Runs `launch`'s body for every block, and in each block for every
/// thread, in order (see BlockOnHost for barriers). Shared memory
/// (workgroup attributions) is one host buffer that the blocks reuse,
/// poisoned (see poisonBuffer) as each block starts: a block reading
/// shared memory it did not write sees NaNs, not an earlier block's data.
LogicalResult runOnHost(RewriterBase &rewriter, gpu::LaunchOp launch,
                        std::optional<int64_t> checkedWarpSize,
                        unsigned checkedBuffers) {
  if (launch.getAsyncToken() || !launch.getAsyncDependencies().empty() ||
      !launch.getPrivateAttributions().empty() || launch.hasClusterSize())
    return launch.emitError("google-test-run-launches-on-host: only "
                            "synchronous launches without private memory or "
                            "clusters run on the host");
  if (!llvm::hasSingleElement(launch.getBody()))
    return launch.emitError("google-test-run-launches-on-host: expected a "
                            "single-block body");

  Location loc = launch.getLoc();
  rewriter.setInsertionPoint(launch);
  Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
  Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
  gpu::KernelDim3 gridArgs = launch.getGridSize();
  gpu::KernelDim3 blockArgs = launch.getBlockSize();
  Value grid[3] = {launch.getGridSizeX(), launch.getGridSizeY(),
                   launch.getGridSizeZ()};
  Value block[3] = {launch.getBlockSizeX(), launch.getBlockSizeY(),
                    launch.getBlockSizeZ()};
  IRMapping mapping;
  mapping.map(gridArgs.x, grid[0]);
  mapping.map(gridArgs.y, grid[1]);
  mapping.map(gridArgs.z, grid[2]);
  mapping.map(blockArgs.x, block[0]);
  mapping.map(blockArgs.y, block[1]);
  mapping.map(blockArgs.z, block[2]);
  SmallVector<Value> buffers, sharedBuffers;
  RaceCheck races;
  Type index = rewriter.getIndexType();
  if (checkedWarpSize) {
    races.group = *checkedWarpSize;
    races.epochs =
        memref::AllocOp::create(rewriter, loc, MemRefType::get({2}, index));
    buffers.push_back(races.epochs);
  }
  for (auto [position, attribution] :
       llvm::enumerate(launch.getWorkgroupAttributions())) {
    auto type = cast<MemRefType>(attribution.getType());
    if (!type.hasStaticShape())
      return launch.emitError("google-test-run-launches-on-host: expected "
                              "statically shaped shared memory");
    for (Operation *user : attribution.getUsers())
      if (!isa<memref::LoadOp, memref::StoreOp, vector::LoadOp,
               vector::StoreOp>(user))
        return user->emitError("google-test-run-launches-on-host: shared "
                               "memory is only read and written with "
                               "memref.load, memref.store, vector.load and "
                               "vector.store here");
    Value buffer = memref::AllocOp::create(
        rewriter, loc,
        MemRefType::get(type.getShape(), type.getElementType()));
    mapping.map(attribution, buffer);
    buffers.push_back(buffer);
    sharedBuffers.push_back(buffer);
    if (!checkedWarpSize || position >= checkedBuffers)
      continue;
    RaceCheck::Shadow shadow;
    shadow.strides = computeStrides(type.getShape());
    for (Value *field :
         {&shadow.writer, &shadow.blockEpoch, &shadow.warpEpoch, &shadow.reader,
          &shadow.severalReaders, &shadow.readerWarp, &shadow.readBlockEpoch,
          &shadow.readWarpEpoch}) {
      *field = memref::AllocOp::create(
          rewriter, loc, MemRefType::get({type.getNumElements()}, index));
      buffers.push_back(*field);
    }
    races.shadows[buffer] = shadow;
  }

  // Dynamic shared memory is one host buffer too: its views lose their
  // memory space.
  if (Value bytes = launch.getDynamicSharedMemorySize()) {
    Value buffer = memref::AllocOp::create(
        rewriter, loc,
        MemRefType::get({ShapedType::kDynamic}, rewriter.getI8Type()),
        ValueRange{arith::IndexCastOp::create(rewriter, loc, index, bytes)});
    buffers.push_back(buffer);
    sharedBuffers.push_back(buffer);
    SmallVector<gpu::DynamicSharedMemoryOp> dynamic;
    launch.walk([&](gpu::DynamicSharedMemoryOp op) { dynamic.push_back(op); });
    for (gpu::DynamicSharedMemoryOp op : dynamic) {
      for (Operation *user : op->getUsers()) {
        if (auto view = dyn_cast<memref::ViewOp>(user)) {
          MemRefType type = view.getType();
          view.getResult().setType(MemRefType::get(
              type.getShape(), type.getElementType(), type.getLayout()));
        } else if (!isa<memref::ExtractAlignedPointerAsIndexOp>(user)) {
          return user->emitError("google-test-run-launches-on-host: dynamic "
                                 "shared memory is only viewed (memref.view) "
                                 "here");
        }
      }
      rewriter.replaceOp(op, buffer);
    }
  }

  gpu::KernelDim3 blockIds = launch.getBlockIds();
  Value bounds[3] = {grid[2], grid[1], grid[0]};
  Value ids[3] = {blockIds.z, blockIds.y, blockIds.x};
  scf::ForOp outer;
  for (int i = 0; i < 3; ++i) {
    auto loop = scf::ForOp::create(rewriter, loc, zero, bounds[i], one);
    if (!outer)
      outer = loop;
    mapping.map(ids[i], loop.getInductionVar());
    rewriter.setInsertionPoint(loop.getBody()->getTerminator());
  }
  // Per-thread buffers are allocated before the loops.
  OpBuilder::InsertPoint allocPoint(outer->getBlock(), outer->getIterator());
  // Each block starts with no writers and no barriers.
  if (checkedWarpSize)
    for (int64_t which : {0, 1})
      memref::StoreOp::create(
          rewriter, loc, zero, races.epochs,
          ValueRange{arith::ConstantIndexOp::create(rewriter, loc, which)});
  for (Value buffer : sharedBuffers)
    poisonBuffer(rewriter, loc, buffer);
  Value none = arith::ConstantIndexOp::create(rewriter, loc, -1);
  for (auto &[buffer, shadow] : races.shadows) {
    Value size = memref::DimOp::create(rewriter, loc, shadow.writer, 0);
    auto clear = scf::ForOp::create(rewriter, loc, zero, size, one);
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPoint(clear.getBody()->getTerminator());
    memref::StoreOp::create(rewriter, loc, none, shadow.writer,
                            clear.getInductionVar());
    memref::StoreOp::create(rewriter, loc, none, shadow.readBlockEpoch,
                            clear.getInductionVar());
  }
  BlockOnHost threads(rewriter, launch, allocPoint, mapping, races);
  Block &body = launch.getBody().front();
  threads.emitUniformOps(body);
  if (failed(threads.emit(body.getOperations())))
    return failure();
  rewriter.setInsertionPointAfter(outer);
  for (Value buffer : llvm::concat<Value>(buffers, threads.buffers))
    memref::DeallocOp::create(rewriter, loc, buffer);
  rewriter.eraseOp(launch);
  return success();
}

struct TestRunLaunchesOnHostPass
    : public PassWrapper<TestRunLaunchesOnHostPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestRunLaunchesOnHostPass)

  TestRunLaunchesOnHostPass() = default;
  TestRunLaunchesOnHostPass(const TestRunLaunchesOnHostPass &pass)
      : PassWrapper(pass) {}
  explicit TestRunLaunchesOnHostPass(bool checkGlobalRaces) {
    globalRaces = checkGlobalRaces;
  }

  Option<bool> globalRaces{
      *this, "global-races",
      llvm::cl::desc("Check global memory for races between blocks (see "
                     "checkGlobalRaces)"),
      llvm::cl::init(false)};

  StringRef getArgument() const final {
    return "google-test-run-launches-on-host";
  }
  StringRef getDescription() const final {
    return "Test only: run GPU launches' bodies as loops on the host, and "
           "GPU buffers as host buffers";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<arith::ArithDialect, cf::ControlFlowDialect,
                    memref::MemRefDialect, scf::SCFDialect,
                    vector::VectorDialect>();
  }

  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    SmallVector<gpu::LaunchOp> launches;
    getOperation().walk([&](gpu::LaunchOp op) { launches.push_back(op); });
    for (gpu::LaunchOp launch : launches) {
      // Launches with warp-wide ops get the race check (a wave of AMD's
      // matrix cores has 64 lanes, a warp 32).
      std::optional<int64_t> checkedWarpSize;
      launch.walk([&](Operation *op) {
        if (isa<amdgpu::MFMAOp>(op))
          checkedWarpSize = 64;
        else if (!checkedWarpSize &&
                 (isa<nvgpu::NVGPUDialect>(op->getDialect()) ||
                  isa<gpu::ShuffleOp>(op)))
          checkedWarpSize = 32;
      });
      // The kernel's own buffers, not the emulations' exchange slots.
      unsigned kernelBuffers = launch.getNumWorkgroupAttributions();
      if (failed(emulateAsyncCopies(rewriter, launch)))
        return signalPassFailure();
      // A guard missing at a partial tile reads or writes past its
      // buffer, which the values alone need not show: every access is
      // checked (the call fails, naming it).
      insertKernelBoundsChecks(rewriter, launch);
      if (globalRaces)
        checkGlobalRaces(rewriter, launch);
      if (failed(emulateMfma(rewriter, launch)) ||
          failed(emulateMmaSync(rewriter, launch)) ||
          failed(emulateWgmma(rewriter, launch)) ||
          failed(emulateShuffles(rewriter, launch)) ||
          failed(runOnHost(rewriter, launch, checkedWarpSize, kernelBuffers)))
        return signalPassFailure();
    }

    // The tensor maps' arrays were read directly.
    SmallVector<nvgpu::TmaCreateDescriptorOp> maps;
    getOperation().walk(
        [&](nvgpu::TmaCreateDescriptorOp op) { maps.push_back(op); });
    for (nvgpu::TmaCreateDescriptorOp map : maps) {
      if (!map->use_empty()) {
        map.emitError("google-test-run-launches-on-host: a tensor map used "
                      "outside a launch");
        return signalPassFailure();
      }
      Operation *cast = map.getTensor().getDefiningOp();
      rewriter.eraseOp(map);
      if (cast && cast->use_empty())
        rewriter.eraseOp(cast);
    }

    SmallVector<Operation *> memoryOps;
    getOperation().walk([&](Operation *op) {
      if (isa<gpu::AllocOp, gpu::MemcpyOp, gpu::DeallocOp, gpu::MemsetOp,
              gpu::WaitOp>(op))
        memoryOps.push_back(op);
    });
    for (Operation *op : memoryOps) {
      rewriter.setInsertionPoint(op);
      if (op->getNumResults() > (isa<gpu::AllocOp>(op) ? 1u : 0u) ||
          isa<gpu::MemsetOp, gpu::WaitOp>(op)) {
        op->emitError("google-test-run-launches-on-host: unexpected "
                      "asynchronous or unsupported GPU op");
        return signalPassFailure();
      }
      if (auto alloc = dyn_cast<gpu::AllocOp>(op))
        rewriter.replaceOpWithNewOp<memref::AllocOp>(
            alloc, alloc.getType(), alloc.getDynamicSizes(),
            alloc.getSymbolOperands());
      else if (auto copy = dyn_cast<gpu::MemcpyOp>(op))
        rewriter.replaceOpWithNewOp<memref::CopyOp>(copy, copy.getSrc(),
                                                    copy.getDst());
      else if (auto dealloc = dyn_cast<gpu::DeallocOp>(op))
        rewriter.replaceOpWithNewOp<memref::DeallocOp>(dealloc,
                                                       dealloc.getMemref());
    }
  }
};

} // namespace

namespace mlir::google {
void registerGoogleTestPasses() {
  PassRegistration<TestRunLaunchesOnHostPass>();
  PassPipelineRegistration<ExtremePipelineOptions>(
      "google-test-gpu-mapping-on-host",
      "Test only: the GPU pipeline's buffers and kernel mapping, with the "
      "launches run on the host and the rest lowered for the CPU",
      [](OpPassManager &pm, const ExtremePipelineOptions &options) {
        // The GPU stages see a GPU target; the host lowering the CPU.
        ExtremePipelineOptions gpu, cpu;
        gpu.copyOptionValuesFrom(options);
        cpu.copyOptionValuesFrom(options);
        gpu.target = options.mfma ? Target::ROCDL : Target::NVVM;
        cpu.target = Target::CPU;
        cpu.mfma = false;
        cpu.tf32 = false;
        cpu.asyncCopy = false;
        cpu.wgmma = false;
        addGoogleOptimizationPasses(pm, gpu);
        addExportPasses(pm);
        addLinalgLoweringPasses(pm, gpu);
        addTensorCodegenPasses(pm, gpu);
        addBufferizationPasses(pm, gpu);
        // The kernels the GPU pipeline picks (matrix cores included).
        addGpuMappingPasses(pm, gpu);
        pm.addPass(createConvertBufferizationToMemRefPass());
        pm.addPass(std::make_unique<TestRunLaunchesOnHostPass>(
            /*checkGlobalRaces=*/true));
        addHostLoweringPasses(pm, cpu);
        addRuntimeInterfacePasses(pm, Target::CPU);
      });
}
} // namespace mlir::google
