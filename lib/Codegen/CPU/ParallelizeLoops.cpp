//===- ParallelizeLoops.cpp - --google-parallelize-loops ------------------===//
//
// The loops --google-tile-and-vectorize marked become OpenMP worksharing
// loops. Their buffers become per-thread slices of one buffer allocated in
// front of the loop, so that no thread allocates, and a loop whose body
// could still fail (a call, a check, an allocation) stays on the calling
// thread, which is the only one that can end a call with an error.
//
//===----------------------------------------------------------------------===//

#include "Codegen/Matchers.h"
#include "Codegen/Passes.h"
#include "google_runtime_abi.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/Interfaces/ValueBoundsOpInterface.h"
#include "mlir/Transforms/LoopInvariantCodeMotionUtils.h"

namespace mlir::google {
#define GEN_PASS_DEF_PARALLELIZELOOPSPASS
#include "Codegen/Passes.h.inc"
} // namespace mlir::google

using namespace mlir;

namespace {

/// Returns the number of threads (GOOGLE_MLIR_NUM_THREADS, or all cores).
constexpr StringLiteral kNumThreadsHook = GOOGLE_RT_NUM_THREADS_HOOK;

/// Marks the calls of a parallel loop's body, outlined.
constexpr StringLiteral kParallelBodyAttr = "google.parallel_body";

/// OpenMP's number of the calling thread in its team (libomp).
constexpr StringLiteral kThreadNumFunction = "omp_get_thread_num";

constexpr int64_t kSlotAlignment = 64;

Value constant(OpBuilder &b, Location loc, int64_t value) {
  return arith::ConstantIndexOp::create(b, loc, value);
}

/// max(0, ceil((ub - lb) / step)), computed in front of `loop`.
Value tripCount(OpBuilder &b, scf::ForOp loop) {
  Location loc = loop.getLoc();
  Value zero = constant(b, loc, 0);
  Value span = arith::SubIOp::create(b, loc, loop.getUpperBound(),
                                     loop.getLowerBound());
  Value trips = arith::CeilDivSIOp::create(b, loc, span, loop.getStep());
  return arith::MaxSIOp::create(b, loc, trips, zero);
}

/// Innermost iterations one run of `block` makes, computed in front of
/// `outer`; a loop whose bounds are only known inside `outer` counts once,
/// and so does an `scf.if` whose condition is (both branches). A linalg op
/// counts a step per kLanesPerStep elements of its static extents.
Value estimateSteps(OpBuilder &b, Block &block, scf::ForOp outer) {
  Location loc = outer.getLoc();
  Value steps = constant(b, loc, 1);
  block.walk<WalkOrder::PreOrder>([&](Operation *op) {
    Value inner;
    if (auto nested = dyn_cast<scf::ForOp>(op)) {
      inner = estimateSteps(b, *nested.getBody(), outer);
      if (llvm::all_of(
              ValueRange{nested.getLowerBound(), nested.getUpperBound(),
                         nested.getStep()},
              [&](Value v) { return outer.isDefinedOutsideOfLoop(v); }))
        inner = arith::MulIOp::create(b, loc, tripCount(b, nested), inner);
    } else if (auto branch = dyn_cast<scf::IfOp>(op);
               branch && outer.isDefinedOutsideOfLoop(branch.getCondition())) {
      // The branch the condition takes at run time.
      Value taken = estimateSteps(b, *branch.thenBlock(), outer);
      Value other = branch.elseBlock()
                        ? estimateSteps(b, *branch.elseBlock(), outer)
                        : constant(b, loc, 1);
      inner = arith::SelectOp::create(b, loc, branch.getCondition(), taken,
                                      other);
    } else if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op)) {
      // A loop nest still: one step per vector of its extents, static or
      // bounded (a chunk's rows: min(c, n - i) <= c).
      int64_t elements = 1;
      for (auto [dim, range] :
           llvm::enumerate(linalgOp.getStaticLoopRanges())) {
        if (ShapedType::isDynamic(range))
          range = google::getLoopRangeBound(linalgOp, dim).value_or(1);
        elements *= range;
      }
      inner = constant(b, loc,
                       llvm::divideCeil(elements, google::kLanesPerStep));
    } else {
      return WalkResult::advance();
    }
    steps = arith::AddIOp::create(b, loc, steps, inner);
    return WalkResult::skip();
  });
  return steps;
}

/// Operations a thread other than the calling one cannot run: they may end
/// the call with an error, or allocate.
bool mayFail(Operation *op) {
  if (op->hasAttr(kParallelBodyAttr))
    return false;
  return isa<memref::AllocOp, memref::AllocaOp, memref::ReallocOp,
             memref::DeallocOp, func::CallOp, LLVM::CallOp, cf::AssertOp>(
      op);
}

struct ParallelizeLoopsPass
    : public google::impl::ParallelizeLoopsPassBase<ParallelizeLoopsPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<scf::ForOp> loops;
    getOperation()->walk([&](scf::ForOp loop) {
      if (loop->hasAttr(google::kParallelLoopAttrName))
        loops.push_back(loop);
    });
    for (scf::ForOp loop : loops) {
      loop->removeAttr(google::kParallelLoopAttrName);
      if (loop.getNumResults() != 0)
        continue;
      moveLoopInvariantCode(cast<LoopLikeOpInterface>(loop.getOperation()));
      // The body's buffers are hoisted (all of them, or the loop is left
      // alone); anything else that may fail keeps the loop serial.
      Block *body = loop.getBody();
      bool serial = body->walk([&](Operation *op) {
                          if (!mayFail(op) || isa<memref::AllocOp>(op))
                            return WalkResult::advance();
                          auto dealloc = dyn_cast<memref::DeallocOp>(op);
                          auto alloc =
                              dealloc ? dealloc.getMemref()
                                            .getDefiningOp<memref::AllocOp>()
                                      : memref::AllocOp();
                          return alloc && loop->isAncestor(alloc)
                                     ? WalkResult::advance()
                                     : WalkResult::interrupt();
                        }).wasInterrupted();
      OpBuilder b(loop);
      Value threads;
      if (!serial)
        threads = LLVM::CallOp::create(b, loop.getLoc(),
                                       getOrCreateFunction(kNumThreadsHook),
                                       ValueRange{})
                      .getResult();
      if (failed(hoistAllocations(loop, threads))) {
        if (threads)
          threads.getDefiningOp()->erase();
        continue;
      }
      if (serial)
        continue;
      convertToOpenMP(loop, threads);
      ++numParallelized;
    }
    // Declared for loops that stayed serial after all.
    for (StringRef name : {kNumThreadsHook, kThreadNumFunction})
      if (Operation *function = getOperation().lookupSymbol(name);
          function &&
          SymbolTable::symbolKnownUseEmpty(function, getOperation()))
        function->erase();
  }

  /// The module's declaration of `name`, an external `() -> i32` function.
  LLVM::LLVMFuncOp getOrCreateFunction(StringRef name) {
    ModuleOp module = getOperation();
    if (auto function = module.lookupSymbol<LLVM::LLVMFuncOp>(name))
      return function;
    OpBuilder b = OpBuilder::atBlockBegin(module.getBody());
    return LLVM::LLVMFuncOp::create(
        b, module.getLoc(), name,
        LLVM::LLVMFunctionType::get(b.getI32Type(), {}));
  }

  /// Each allocation of the body (freed in the block that allocates it)
  /// becomes a slice of one buffer allocated in front of the loop, one slot
  /// per thread of `threads` (the OpenMP thread number picks it), or one
  /// slot when `threads` is null (a serial loop); a slot holds the largest
  /// size the allocation can have.
  LogicalResult hoistAllocations(scf::ForOp loop, Value threads) {
    struct Slot {
      memref::AllocOp alloc;
      memref::DeallocOp dealloc;
      Value offset;
    };
    SmallVector<Slot> slots;
    OpBuilder b(loop);
    Location loc = loop.getLoc();
    Value zero = constant(b, loc, 0);
    Value fits = arith::ConstantIntOp::create(b, loc, 1, 1);
    auto multiply = [&](Value bytes, Value extent) {
      return google::multiplyBufferBytes(b, loc, bytes, extent, fits);
    };
    Value iterationBytes = zero;
    WalkResult walk = loop.getBody()->walk([&](memref::AllocOp alloc) {
      MemRefType type = alloc.getType();
      if (!type.getLayout().isIdentity() || type.getMemorySpace() ||
          !type.getElementType().isIntOrFloat())
        return WalkResult::interrupt();
      memref::DeallocOp dealloc;
      for (Operation *user : alloc->getUsers())
        if (auto found = dyn_cast<memref::DeallocOp>(user)) {
          if (dealloc || found->getBlock() != alloc->getBlock())
            return WalkResult::interrupt();
          dealloc = found;
        }
      if (!dealloc)
        return WalkResult::interrupt();
      int64_t elementBytes =
          llvm::divideCeil(type.getElementTypeBitWidth(), 8);
      Value bytes = constant(b, loc, elementBytes);
      for (OpFoldResult size : alloc.getMixedSizes()) {
        Value extent;
        if (auto attr = dyn_cast<Attribute>(size)) {
          extent = constant(b, loc, cast<IntegerAttr>(attr).getInt());
        } else if (loop.isDefinedOutsideOfLoop(cast<Value>(size))) {
          extent = cast<Value>(size);
        } else {
          FailureOr<int64_t> bound =
              ValueBoundsConstraintSet::computeConstantBound(
                  presburger::BoundType::UB, cast<Value>(size),
                  /*stopCondition=*/nullptr, /*closedUB=*/true);
          if (failed(bound) || *bound < 0)
            return WalkResult::interrupt();
          extent = constant(b, loc, *bound);
        }
        bytes = multiply(bytes, extent);
      }
      // Rounded up so that every slot keeps the alignment.
      Value rounded = arith::MulIOp::create(
          b, loc,
          arith::CeilDivUIOp::create(b, loc, bytes,
                                     constant(b, loc, kSlotAlignment)),
          constant(b, loc, kSlotAlignment));
      slots.push_back({alloc, dealloc, iterationBytes});
      iterationBytes = arith::AddIOp::create(b, loc, iterationBytes, rounded);
      return WalkResult::advance();
    });
    if (walk.wasInterrupted() || slots.empty()) {
      // Nothing hoisted: the values computed in front of the loop are dead.
      return walk.wasInterrupted() ? failure() : success();
    }
    Value slotCount = constant(b, loc, 1);
    if (threads)
      slotCount = arith::MaxSIOp::create(
          b, loc, slotCount,
          arith::IndexCastOp::create(b, loc, b.getIndexType(), threads));
    Value total = multiply(iterationBytes, slotCount);
    cf::AssertOp::create(b, loc, fits,
                         "the per-thread buffers of a parallel loop are too "
                         "large to allocate (2^62 bytes or more)");
    auto bufferType =
        MemRefType::get({ShapedType::kDynamic}, b.getIntegerType(8));
    Value buffer = memref::AllocOp::create(
        b, loc, bufferType, ValueRange{total},
        b.getI64IntegerAttr(kSlotAlignment));
    b.setInsertionPointAfter(loop);
    memref::DeallocOp::create(b, loc, buffer);

    b.setInsertionPointToStart(loop.getBody());
    Value slot;
    if (!threads) {
      slot = constant(b, loc, 0);
    } else {
      // Numbered within the team the loop's parallel region starts, which
      // allocates this buffer: 0 when it runs on the calling thread alone.
      Value number = LLVM::CallOp::create(
                         b, loc, getOrCreateFunction(kThreadNumFunction),
                         ValueRange{})
                         .getResult();
      slot = arith::IndexCastOp::create(b, loc, b.getIndexType(), number);
    }
    Value base = arith::MulIOp::create(b, loc, slot, iterationBytes);
    for (Slot &slot : slots) {
      b.setInsertionPoint(slot.alloc);
      Value offset = arith::AddIOp::create(b, loc, base, slot.offset);
      Value view = memref::ViewOp::create(b, slot.alloc.getLoc(),
                                          slot.alloc.getType(), buffer,
                                          offset, slot.alloc.getDynamicSizes());
      slot.alloc.replaceAllUsesWith(view);
      slot.dealloc.erase();
      slot.alloc.erase();
    }
    return success();
  }

  /// omp.parallel { omp.wsloop { omp.loop_nest { body } } }, with the
  /// runtime's thread count, when there is enough work and more than one
  /// thread; else the loop as it was, on the calling thread.
  void convertToOpenMP(scf::ForOp loop, Value threads) {
    OpBuilder b(loop);
    Location loc = loop.getLoc();
    Value trips = tripCount(b, loop);
    Value steps = arith::MulIOp::create(
        b, loc, trips, estimateSteps(b, *loop.getBody(), loop));
    Value enough = arith::AndIOp::create(
        b, loc,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, trips,
                              constant(b, loc, 2)),
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, steps,
                              constant(b, loc, google::kMinParallelSteps)));
    enough = arith::AndIOp::create(
        b, loc, enough,
        arith::CmpIOp::create(
            b, loc, arith::CmpIPredicate::sgt, threads,
            arith::ConstantIntOp::create(b, loc, threads.getType(), 1)));

    // Not OpenMP's `if` clause: a parallel region it serializes still
    // costs about a microsecond, as much as a small call's whole work. The
    // body goes in a function of its own, which the parallel loop and the
    // serial one call, so that it is compiled once.
    IRRewriter rewriter(b);
    // Constants are copied in, not passed (a zero accumulator stays a
    // constant the body's code can see).
    rewriter.setInsertionPointToStart(loop.getBody());
    IRMapping copies;
    loop.getBody()->walk([&](Operation *op) {
      for (OpOperand &operand : op->getOpOperands()) {
        Operation *constant = operand.get().getDefiningOp();
        if (!constant || !constant->hasTrait<OpTrait::ConstantLike>() ||
            loop->isAncestor(constant))
          continue;
        if (!copies.contains(operand.get()))
          rewriter.clone(*constant, copies);
        operand.set(copies.lookup(operand.get()));
      }
    });
    rewriter.setInsertionPoint(loop);
    func::CallOp call;
    auto function = loop->getParentOfType<func::FuncOp>();
    std::string name = (function.getSymName() + "_parallel_body").str();
    for (unsigned i = 0; getOperation().lookupSymbol(name); ++i)
      name = (function.getSymName() + "_parallel_body_" + Twine(i)).str();
    FailureOr<func::FuncOp> body =
        outlineSingleBlockRegion(rewriter, loc, loop.getRegion(), name, &call);
    if (succeeded(body)) {
      // Internal and never inlined: one copy of the body.
      body->setPrivate();
      (*body)->setAttr("llvm.linkage",
                       LLVM::LinkageAttr::get(b.getContext(),
                                              LLVM::Linkage::Internal));
      (*body)->setAttr("passthrough",
                       b.getArrayAttr({b.getStringAttr("noinline")}));
      call->setAttr(kParallelBodyAttr, b.getUnitAttr());
    }
    auto branch = scf::IfOp::create(b, loc, enough, /*withElseRegion=*/true);
    b.setInsertionPointToStart(branch.elseBlock());
    b.clone(*loop.getOperation());
    b.setInsertionPointToStart(branch.thenBlock());
    omp::ParallelOperands parallelClauses;
    parallelClauses.numThreads = threads;
    auto parallel = omp::ParallelOp::create(b, loc, parallelClauses);
    b.createBlock(&parallel.getRegion());
    auto wsloop = omp::WsloopOp::create(b, loc, omp::WsloopOperands());
    omp::TerminatorOp::create(b, loc);
    b.createBlock(&wsloop.getRegion());
    omp::LoopNestOperands nestClauses;
    nestClauses.loopLowerBounds = {loop.getLowerBound()};
    nestClauses.loopUpperBounds = {loop.getUpperBound()};
    nestClauses.loopSteps = {loop.getStep()};
    auto nest = omp::LoopNestOp::create(b, loc, nestClauses);
    nest.getRegion().takeBody(loop.getRegion());
    Operation *yield = nest.getRegion().front().getTerminator();
    b.setInsertionPoint(yield);
    omp::YieldOp::create(b, loc);
    yield->erase();
    loop.erase();
  }
};

} // namespace
