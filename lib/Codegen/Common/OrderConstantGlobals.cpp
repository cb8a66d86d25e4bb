//===- OrderConstantGlobals.cpp - --google-order-constant-globals ---------===//

#include "Codegen/Passes.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"

#include "llvm/ADT/MapVector.h"

namespace mlir::google {
#define GEN_PASS_DEF_ORDERCONSTANTGLOBALSPASS
#include "Codegen/Passes.h.inc"
} // namespace mlir::google

using namespace mlir;

namespace {

constexpr StringLiteral kConstantPrefix = "__constant_";

/// The name bufferization gives the first constant global of `name`'s
/// shape and type: `name` without its uniquing `_<n>` suffix.
StringRef getBaseName(StringRef name) {
  auto [base, suffix] = name.rsplit('_');
  if (!suffix.empty() && llvm::all_of(suffix, llvm::isDigit) &&
      base.size() > kConstantPrefix.size() && base.starts_with(kConstantPrefix))
    return base;
  return name;
}

std::string printed(Attribute attribute) {
  std::string text;
  llvm::raw_string_ostream stream(text);
  attribute.print(stream);
  return text;
}

struct OrderConstantGlobalsPass
    : public google::impl::OrderConstantGlobalsPassBase<
          OrderConstantGlobalsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    llvm::StringMap<memref::GlobalOp> constants;
    for (auto global : module.getOps<memref::GlobalOp>())
      if (global.getConstant() && global.isPrivate() &&
          global.getSymName().starts_with(kConstantPrefix))
        constants[global.getSymName()] = global;
    if (constants.empty())
      return;
    // First uses, in the module's order, then the unused ones by value.
    llvm::MapVector<Operation *, unsigned> order;
    module.walk([&](memref::GetGlobalOp get) {
      auto global = constants.find(get.getName());
      if (global != constants.end())
        order.insert({global->second, order.size()});
    });
    SmallVector<memref::GlobalOp> unused;
    for (auto &entry : constants)
      if (!order.count(entry.second))
        unused.push_back(entry.second);
    llvm::sort(unused, [](memref::GlobalOp a, memref::GlobalOp b) {
      return std::make_pair(printed(a.getTypeAttr()),
                            printed(a.getInitialValueAttr())) <
             std::make_pair(printed(b.getTypeAttr()),
                            printed(b.getInitialValueAttr()));
    });
    for (memref::GlobalOp global : unused)
      order.insert({global, order.size()});

    // Temporary names first, so that no new name meets an old one.
    SmallVector<memref::GlobalOp> globals;
    for (auto &entry : order)
      globals.push_back(cast<memref::GlobalOp>(entry.first));
    SmallVector<std::string> bases;
    for (auto [index, global] : llvm::enumerate(globals)) {
      bases.push_back(getBaseName(global.getSymName()).str());
      if (failed(SymbolTable::replaceAllSymbolUses(
              global,
              StringAttr::get(&getContext(),
                              "__google_constant_" + Twine(index)),
              module)))
        return signalPassFailure();
      global.setSymName(("__google_constant_" + Twine(index)).str());
    }
    llvm::StringMap<unsigned> seen;
    for (auto [global, base] : llvm::zip(globals, bases)) {
      unsigned count = seen[base]++;
      std::string name =
          count == 0 ? base : base + "_" + std::to_string(count - 1);
      if (failed(SymbolTable::replaceAllSymbolUses(
              global, StringAttr::get(&getContext(), name), module)))
        return signalPassFailure();
      global.setSymName(name);
    }
    // In that order at the module's start.
    Block *body = module.getBody();
    for (memref::GlobalOp global : llvm::reverse(globals))
      if (global.getOperation() != &body->front())
        global->moveBefore(&body->front());
  }
};

} // namespace
