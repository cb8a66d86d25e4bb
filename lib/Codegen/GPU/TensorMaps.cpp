//===- TensorMaps.cpp - --google-pass-tensor-maps-as-pointers -------------===//

#include "Codegen/GPU/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::google {
#define GEN_PASS_DEF_PASSTENSORMAPSASPOINTERSPASS
#include "Codegen/GPU/Passes.h.inc"
} // namespace mlir::google

using namespace mlir;
using namespace mlir::google;

namespace {

struct PassTensorMapsAsPointersPass
    : public google::impl::PassTensorMapsAsPointersPassBase<
          PassTensorMapsAsPointersPass> {
  void runOnOperation() override {
    auto pointer = LLVM::LLVMPointerType::get(&getContext());
    getOperation().walk([&](gpu::GPUFuncOp kernel) {
      if (kernel.isExternal())
        return;
      Block &entry = kernel.getBody().front();
      SmallVector<Type> inputs(kernel.getArgumentTypes());
      OpBuilder builder = OpBuilder::atBlockBegin(&entry);
      for (auto [index, argument] : llvm::enumerate(entry.getArguments())) {
        Type type = argument.getType();
        if (!isa<nvgpu::TensorMapDescriptorType>(type))
          continue;
        argument.setType(pointer);
        auto cast = UnrealizedConversionCastOp::create(
            builder, argument.getLoc(), type, ValueRange{argument});
        argument.replaceAllUsesExcept(cast.getResult(0), cast);
        inputs[index] = pointer;
      }
      kernel.setFunctionType(
          FunctionType::get(&getContext(), inputs, kernel.getResultTypes()));
    });
    getOperation().walk([&](gpu::LaunchFuncOp launch) {
      OpBuilder builder(launch);
      for (OpOperand &operand : launch.getKernelOperandsMutable()) {
        if (!isa<nvgpu::TensorMapDescriptorType>(operand.get().getType()))
          continue;
        operand.set(
            UnrealizedConversionCastOp::create(
                builder, launch.getLoc(), pointer, ValueRange{operand.get()})
                .getResult(0));
      }
    });
  }
};

} // namespace
