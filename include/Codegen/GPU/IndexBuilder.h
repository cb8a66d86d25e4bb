//===- IndexBuilder.h - index arithmetic for GPU kernel builders -*- C++ -*-===//

#ifndef GOOGLE_CODEGEN_GPU_INDEXBUILDER_H
#define GOOGLE_CODEGEN_GPU_INDEXBUILDER_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::google {

/// Index arithmetic for kernel builders: every call creates its ops.
struct IndexBuilder {
  RewriterBase &rewriter;
  Location loc;

  Value constant(int64_t value) const {
    return arith::ConstantIndexOp::create(rewriter, loc, value);
  }
  Value add(Value a, Value b) const {
    return arith::AddIOp::create(rewriter, loc, a, b);
  }
  Value sub(Value a, Value b) const {
    return arith::SubIOp::create(rewriter, loc, a, b);
  }
  Value addConstant(Value a, int64_t b) const {
    return b == 0 ? a : add(a, constant(b));
  }
  Value mul(Value a, int64_t b) const {
    return arith::MulIOp::create(rewriter, loc, a, constant(b));
  }
  Value div(Value a, int64_t b) const {
    return arith::DivUIOp::create(rewriter, loc, a, constant(b));
  }
  Value rem(Value a, int64_t b) const {
    return arith::RemUIOp::create(rewriter, loc, a, constant(b));
  }
  Value xorConstant(Value a, int64_t b) const {
    return b == 0 ? a : arith::XOrIOp::create(rewriter, loc, a, constant(b));
  }
};

} // namespace mlir::google

#endif // GOOGLE_CODEGEN_GPU_INDEXBUILDER_H
