//===- TestRunLaunchesOnHost.cpp - GPU kernel mapping, checked on the CPU -===//
//
// A test tool, not a backend: it checks the GPU pipeline's own decisions
// (device buffers, how each op maps onto blocks and threads, the index
// arithmetic and guards of every kernel) by running the kernels' bodies
// sequentially on the host, where the e2e tests and the differential
// tester compare them with NumPy and the reference interpreter. Kernels
// with barriers or shared memory cannot run this way and are rejected. The
// lowering of kernels to NVVM/ROCDL and the drivers are checked elsewhere
// (device binaries, GPU tests where a GPU exists).
//
//   --google-test-run-launches-on-host: gpu.launch -> loops over blocks and
//     threads; gpu.alloc/memcpy/dealloc -> memref ops.
//   --google-test-gpu-mapping-on-host="<extreme pipeline options>": the GPU
//     pipeline up to the kernels, the launches run on the host, then the
//     CPU lowering: a module google-run runs with --target=cpu.
//
//===----------------------------------------------------------------------===//

#include "Conversion/Passes.h"
#include "GPU/Passes.h"
#include "Pipelines/Pipelines.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;
using namespace mlir::google;

namespace {

/// Runs `launch`'s body for every block and thread, in order.
LogicalResult runOnHost(RewriterBase &rewriter, gpu::LaunchOp launch) {
  if (launch.getAsyncToken() || !launch.getAsyncDependencies().empty() ||
      !launch.getWorkgroupAttributions().empty() ||
      !launch.getPrivateAttributions().empty() || launch.hasClusterSize() ||
      launch.getDynamicSharedMemorySize())
    return launch.emitError("google-test-run-launches-on-host: only "
                            "synchronous launches without shared memory or "
                            "clusters run on the host");
  if (!llvm::hasSingleElement(launch.getBody()))
    return launch.emitError("google-test-run-launches-on-host: expected a "
                            "single-block body");
  if (launch.getBody().walk([](gpu::BarrierOp) {
        return WalkResult::interrupt();
      }).wasInterrupted())
    return launch.emitError("google-test-run-launches-on-host: threads that "
                            "wait at a barrier cannot run one after another");

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
  gpu::KernelDim3 blockIds = launch.getBlockIds();
  gpu::KernelDim3 threadIds = launch.getThreadIds();
  // z, y, x blocks, then z, y, x threads.
  Value bounds[6] = {grid[2], grid[1], grid[0], block[2], block[1], block[0]};
  Value ids[6] = {blockIds.z, blockIds.y, blockIds.x,
                  threadIds.z, threadIds.y, threadIds.x};
  for (int i = 0; i < 6; ++i) {
    auto loop = scf::ForOp::create(rewriter, loc, zero, bounds[i], one);
    mapping.map(ids[i], loop.getInductionVar());
    rewriter.setInsertionPoint(loop.getBody()->getTerminator());
  }
  for (Operation &op : launch.getBody().front().without_terminator())
    rewriter.clone(op, mapping);
  rewriter.eraseOp(launch);
  return success();
}

struct TestRunLaunchesOnHostPass
    : public PassWrapper<TestRunLaunchesOnHostPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestRunLaunchesOnHostPass)

  StringRef getArgument() const final {
    return "google-test-run-launches-on-host";
  }
  StringRef getDescription() const final {
    return "Test only: run GPU launches' bodies as loops on the host, and "
           "GPU buffers as host buffers";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<arith::ArithDialect, memref::MemRefDialect,
                    scf::SCFDialect>();
  }

  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    SmallVector<gpu::LaunchOp> launches;
    getOperation().walk([&](gpu::LaunchOp op) { launches.push_back(op); });
    for (gpu::LaunchOp launch : launches)
      if (failed(runOnHost(rewriter, launch)))
        return signalPassFailure();

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
        gpu.target = Target::NVVM;
        cpu.target = Target::CPU;
        addGoogleOptimizationPasses(pm, gpu);
        addExportPasses(pm);
        addLinalgLoweringPasses(pm, gpu);
        addBufferizationPasses(pm, gpu);
        pm.addNestedPass<func::FuncOp>(createMapToGpuPass());
        pm.addPass(createConvertBufferizationToMemRefPass());
        pm.addPass(std::make_unique<TestRunLaunchesOnHostPass>());
        addHostLoweringPasses(pm, cpu);
        addRuntimeInterfacePasses(pm, Target::CPU);
      });
}
} // namespace mlir::google
