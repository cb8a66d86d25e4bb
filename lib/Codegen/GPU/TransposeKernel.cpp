//===- TransposeKernel.cpp - elementwise ops that transpose, in tiles -----===//

#include "GpuKernels.h"

using namespace mlir;

namespace mlir::google::kernels {

gpu::LaunchOp lowerToTransposeTiles(RewriterBase &rewriter, linalg::LinalgOp op,
                                    unsigned inner) {
  Location loc = op.getLoc();
  MLIRContext *context = rewriter.getContext();
  rewriter.setInsertionPoint(op);
  IndexBuilder b{rewriter, loc};
  const unsigned loopCount = op.getNumLoops(), last = loopCount - 1;
  OpOperand *init = op.getDpsInitOperand(0);
  Value output = init->get();
  SmallVector<Value> extents;
  for (unsigned dim = 0; dim < loopCount; ++dim)
    extents.push_back(linalg::createOrFoldDimOp(rewriter, loc, output, dim));
  auto ceilDiv = [&](Value value) -> Value {
    return arith::CeilDivUIOp::create(rewriter, loc, value,
                                      b.constant(kTransposeTile));
  };
  Value tilesOut = ceilDiv(extents[last]), tilesIn = ceilDiv(extents[inner]);
  Value count = arith::MulIOp::create(rewriter, loc, tilesOut, tilesIn);
  for (unsigned dim = 0; dim < loopCount; ++dim)
    if (dim != last && dim != inner)
      count = arith::MulIOp::create(rewriter, loc, count, extents[dim]);

  // The inputs read with `inner` innermost go through a tile of shared
  // memory each (rows padded by one element: no bank conflicts either way).
  auto workgroup =
      gpu::AddressSpaceAttr::get(context, gpu::AddressSpace::Workgroup);
  SmallVector<OpOperand *> inputs = op.getDpsInputOperands();
  SmallVector<int> tileOf(inputs.size(), -1);
  SmallVector<Type> tileTypes;
  for (auto [index, input] : llvm::enumerate(inputs)) {
    if (getInnermostDim(op, *input) != inner)
      continue;
    tileOf[index] = tileTypes.size();
    tileTypes.push_back(MemRefType::get(
        {kTransposeTile, kTransposeTile + 1},
        cast<MemRefType>(input->get().getType()).getElementType(),
        MemRefLayoutAttrInterface(), workgroup));
  }
  gpu::LaunchOp launch =
      createLaunch(rewriter, loc, count, b.constant(kTransposeTile),
                   b.constant(kTransposeRows), tileTypes);
  ValueRange tiles = launch.getWorkgroupAttributions();
  Value x = launch.getThreadIds().x, y = launch.getThreadIds().y;

  // Block: (other dimensions..., tile along `inner`, tile along `last`).
  SmallVector<Value> loops(loopCount);
  Value rest = launch.getBlockIds().x;
  auto split = [&](Value extent) {
    Value index = arith::RemUIOp::create(rewriter, loc, rest, extent);
    rest = arith::DivUIOp::create(rewriter, loc, rest, extent);
    return index;
  };
  Value firstOut = b.mul(split(tilesOut), kTransposeTile);
  Value firstIn = b.mul(split(tilesIn), kTransposeTile);
  for (int dim = loopCount - 1; dim >= 0; --dim)
    if (unsigned(dim) != last && unsigned(dim) != inner)
      loops[dim] = split(extents[dim]);

  // Element (`inner` = firstIn + `alongInner`, `last` = firstOut +
  // `alongLast`) when it is inside the op.
  auto forElement = [&](Value alongInner, Value alongLast,
                        function_ref<void()> body) {
    loops[inner] = b.add(firstIn, alongInner);
    loops[last] = b.add(firstOut, alongLast);
    Value inside = arith::AndIOp::create(
        rewriter, loc,
        arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ult,
                              loops[inner], extents[inner]),
        arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ult,
                              loops[last], extents[last]));
    auto guard = scf::IfOp::create(rewriter, loc, inside);
    OpBuilder::InsertionGuard insertion(rewriter);
    rewriter.setInsertionPointToStart(guard.thenBlock());
    body();
  };

  // Consecutive threads read consecutive elements along `inner` (the
  // transposed inputs' innermost dimension) into the tiles' rows...
  for (int64_t row = 0; row < kTransposeTile; row += kTransposeRows) {
    Value alongLast = b.addConstant(y, row);
    forElement(x, alongLast, [&] {
      for (auto [index, input] : llvm::enumerate(inputs))
        if (tileOf[index] >= 0)
          memref::StoreOp::create(
              rewriter, loc,
              memref::LoadOp::create(rewriter, loc, input->get(),
                                     getIndices(op, *input, loops)),
              tiles[tileOf[index]], ValueRange{alongLast, x});
    });
  }
  gpu::BarrierOp::create(rewriter, loc);
  // ...and compute and write consecutive elements along `last` (the
  // output's innermost), reading the tiles' columns.
  Block *body = op.getBlock();
  for (int64_t row = 0; row < kTransposeTile; row += kTransposeRows) {
    Value alongInner = b.addConstant(y, row);
    forElement(alongInner, x, [&] {
      IRMapping mapping;
      for (auto [index, input] : llvm::enumerate(inputs)) {
        Value value = input->get();
        if (tileOf[index] >= 0)
          value = memref::LoadOp::create(rewriter, loc, tiles[tileOf[index]],
                                         ValueRange{x, alongInner});
        else if (isa<MemRefType>(value.getType()))
          value = memref::LoadOp::create(rewriter, loc, value,
                                         getIndices(op, *input, loops));
        mapping.map(body->getArgument(index), value);
      }
      Value outputArgument = body->getArgument(inputs.size());
      if (!outputArgument.use_empty())
        mapping.map(outputArgument,
                    memref::LoadOp::create(rewriter, loc, output, loops));
      for (Operation &nested : body->without_terminator())
        rewriter.clone(nested, mapping);
      memref::StoreOp::create(
          rewriter, loc,
          mapping.lookupOrDefault(body->getTerminator()->getOperand(0)), output,
          loops);
    });
  }
  rewriter.eraseOp(op);
  return launch;
}

} // namespace mlir::google::kernels
