//===- GoogleDialect.cpp - google dialect registration --------------------===//

#include "Dialect/Google/IR/GoogleDialect.h"
#include "Dialect/Google/IR/GoogleOps.h"

using namespace mlir;
using namespace mlir::google;

#include "Dialect/Google/IR/GoogleDialect.cpp.inc"

void GoogleDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "Dialect/Google/IR/GoogleOps.cpp.inc"
      >();
}

Operation *GoogleDialect::materializeConstant(OpBuilder &builder,
                                              Attribute value, Type type,
                                              Location loc) {
  auto elements = dyn_cast<ElementsAttr>(value);
  if (!elements || elements.getType() != type ||
      !isa<RankedTensorType>(type))
    return nullptr;
  return ConstantOp::create(builder, loc, elements);
}
