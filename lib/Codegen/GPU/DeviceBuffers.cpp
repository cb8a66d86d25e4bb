//===- DeviceBuffers.cpp - --google-gpu-device-buffers --------------------===//

#include "Codegen/GPU/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::google {
#define GEN_PASS_DEF_GPUDEVICEBUFFERSPASS
#include "Codegen/GPU/Passes.h.inc"
} // namespace mlir::google

using namespace mlir;
using namespace mlir::google;

namespace {

gpu::AllocOp createDeviceAlloc(OpBuilder &builder, Location loc,
                               MemRefType type, ValueRange dynamicSizes) {
  return gpu::AllocOp::create(builder, loc, type, /*asyncToken=*/Type(),
                              /*asyncDependencies=*/ValueRange(), dynamicSizes,
                              /*symbolOperands=*/ValueRange(),
                              /*hostShared=*/UnitAttr());
}

struct GpuDeviceBuffersPass
    : public google::impl::GpuDeviceBuffersPassBase<GpuDeviceBuffersPass> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func->getParentOfType<gpu::GPUModuleOp>())
      return;
    IRRewriter rewriter(&getContext());

    // Constants: a device copy of the host global, made where it is used.
    SmallVector<memref::GetGlobalOp> globals;
    func.walk([&](memref::GetGlobalOp op) { globals.push_back(op); });
    for (memref::GetGlobalOp global : globals) {
      rewriter.setInsertionPointAfter(global);
      auto type = cast<MemRefType>(global.getType());
      gpu::AllocOp device =
          createDeviceAlloc(rewriter, global.getLoc(), type, ValueRange());
      rewriter.replaceAllUsesWith(global.getResult(), device.getMemref());
      gpu::MemcpyOp::create(rewriter, global.getLoc(), /*asyncToken=*/Type(),
                            ValueRange(), device.getMemref(),
                            global.getResult());
      ++numConstants;
    }

    SmallVector<memref::AllocOp> allocs;
    func.walk([&](memref::AllocOp op) { allocs.push_back(op); });
    for (memref::AllocOp alloc : allocs) {
      rewriter.setInsertionPoint(alloc);
      rewriter.replaceOp(alloc, createDeviceAlloc(rewriter, alloc.getLoc(),
                                                  alloc.getType(),
                                                  alloc.getDynamicSizes()));
      ++numAllocs;
    }

    // A scalar the host reads (a tensor.extract of a rank-0 tensor: a
    // padding value, a check's count, a gathered index) is copied back
    // first. One in a view (an offset into another buffer) is first copied
    // by a kernel into a device scalar of its own: the runtime's memcpy
    // takes whole buffers.
    SmallVector<memref::LoadOp> hostLoads;
    func.walk([&](memref::LoadOp load) {
      if (load.getMemRefType().getRank() == 0 &&
          !load->getParentOfType<linalg::LinalgOp>() &&
          !load->getParentOfType<gpu::LaunchOp>())
        hostLoads.push_back(load);
    });
    for (memref::LoadOp load : hostLoads) {
      Location loc = load.getLoc();
      auto type = MemRefType::get({}, load.getMemRefType().getElementType());
      // In the entry block: a load inside a loop (a google.while's
      // condition) must not grow the stack each iteration.
      rewriter.setInsertionPointToStart(&func.getBody().front());
      Value host = memref::AllocaOp::create(rewriter, loc, type);
      Value source = load.getMemRef();
      if (!load.getMemRefType().getLayout().isIdentity()) {
        Value scalar =
            createDeviceAlloc(rewriter, loc, type, ValueRange()).getMemref();
        rewriter.setInsertionPoint(load);
        linalg::CopyOp::create(rewriter, loc, source, scalar);
        source = scalar;
      }
      rewriter.setInsertionPoint(load);
      gpu::MemcpyOp::create(rewriter, loc, /*asyncToken=*/Type(), ValueRange(),
                            host, source);
      rewriter.modifyOpInPlace(load,
                               [&] { load->setOperand(0, host); });
      ++numHostReads;
    }

    // A scalar the host writes (a tensor.from_elements: a counted loop's
    // counter) is a fill on the device, which takes it as a kernel
    // argument: no copy, no wait.
    SmallVector<memref::StoreOp> hostStores;
    func.walk([&](memref::StoreOp store) {
      if (!store->getParentOfType<linalg::LinalgOp>() &&
          !store->getParentOfType<gpu::LaunchOp>() &&
          !store.getMemRef().getDefiningOp<memref::AllocaOp>())
        hostStores.push_back(store);
    });
    for (memref::StoreOp store : hostStores) {
      rewriter.setInsertionPoint(store);
      Value target = store.getMemRef();
      int64_t rank = store.getMemRefType().getRank();
      if (rank != 0) {
        SmallVector<OpFoldResult> offsets(store.getIndices());
        SmallVector<OpFoldResult> ones(rank, rewriter.getIndexAttr(1));
        target = memref::SubViewOp::create(rewriter, store.getLoc(), target,
                                           offsets, ones, ones);
      }
      rewriter.replaceOpWithNewOp<linalg::FillOp>(store, store.getValue(),
                                                  target);
      ++numHostWrites;
    }

    // Contiguous copies are one memcpy on the device; strided ones a kernel.
    SmallVector<memref::CopyOp> copies;
    func.walk([&](memref::CopyOp op) { copies.push_back(op); });
    for (memref::CopyOp copy : copies) {
      rewriter.setInsertionPoint(copy);
      auto sourceType = cast<MemRefType>(copy.getSource().getType());
      auto targetType = cast<MemRefType>(copy.getTarget().getType());
      if (sourceType.getLayout().isIdentity() &&
          targetType.getLayout().isIdentity())
        gpu::MemcpyOp::create(rewriter, copy.getLoc(), /*asyncToken=*/Type(),
                              ValueRange(), copy.getTarget(), copy.getSource());
      else
        linalg::CopyOp::create(rewriter, copy.getLoc(), copy.getSource(),
                               copy.getTarget());
      rewriter.eraseOp(copy);
    }
  }
};

} // namespace
