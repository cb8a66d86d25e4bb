//===- ModuleSplitting.cpp - LLVM modules in parts for parallel codegen ---===//

#include "ModuleSplitting.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/EquivalenceClasses.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

using namespace llvm;

namespace {

/// Calls `visit` with each function and global variable that uses `value`,
/// looking through constants (a getelementptr of a global, an initializer).
void forEachUsingGlobal(const Value *value,
                        function_ref<void(const GlobalValue *)> visit) {
  for (const User *user : value->users()) {
    if (const auto *inst = dyn_cast<Instruction>(user))
      visit(inst->getFunction());
    else if (const auto *variable = dyn_cast<GlobalVariable>(user))
      visit(variable);
    else if (isa<Constant>(user))
      forEachUsingGlobal(user, visit);
  }
}

/// Assigns each of `groups` (with their instruction counts) to one of
/// `parts` parts, largest first to the lightest part. Returns the parts'
/// weights.
SmallVector<uint64_t>
assignGroups(ArrayRef<std::pair<const Function *, uint64_t>> groups,
             unsigned parts, DenseMap<const Function *, unsigned> &partOf) {
  SmallVector<uint64_t> weights(parts, 0);
  for (auto [leader, weight] : groups) {
    unsigned lightest =
        std::min_element(weights.begin(), weights.end()) - weights.begin();
    partOf[leader] = lightest;
    weights[lightest] += weight;
  }
  return weights;
}

} // namespace

SmallVector<SmallString<0>>
mlir::google::splitModuleForCodegen(Module &module, unsigned maxParts,
                                    unsigned minPartInstructions) {
  if (maxParts < 2 || !module.getComdatSymbolTable().empty() ||
      !module.alias_empty() || !module.ifunc_empty() ||
      !module.getModuleInlineAsm().empty())
    return {};

  // Functions calling each other directly stay together, unless the
  // callee is never inlined (the outlined bodies of parallel loops, called
  // from the serial path and from their OpenMP region).
  EquivalenceClasses<const Function *> groups;
  for (const Function &function : module)
    if (!function.isDeclaration())
      groups.insert(&function);
  for (const Function &function : module)
    for (const Instruction &inst : instructions(function))
      if (const auto *call = dyn_cast<CallBase>(&inst))
        if (const Function *callee = call->getCalledFunction();
            callee && !callee->isDeclaration() &&
            !callee->hasFnAttribute(llvm::Attribute::NoInline))
          groups.unionSets(&function, callee);
  DenseMap<const Function *, uint64_t> groupWeights;
  for (const Function &function : module)
    if (!function.isDeclaration())
      groupWeights[groups.getLeaderValue(&function)] +=
          function.getInstructionCount();
  SmallVector<std::pair<const Function *, uint64_t>> sorted(
      groupWeights.begin(), groupWeights.end());
  // Largest first; ties in module order, so that parts are deterministic.
  DenseMap<const Function *, unsigned> order;
  for (const Function &function : module)
    order[&function] = order.size();
  llvm::sort(sorted, [&](const auto &a, const auto &b) {
    return a.second != b.second ? a.second > b.second
                                : order[a.first] < order[b.first];
  });

  // As many parts as keep each one worth its own thread.
  DenseMap<const Function *, unsigned> leaderPart;
  unsigned parts = std::min<unsigned>(maxParts, sorted.size());
  for (; parts >= 2; --parts) {
    leaderPart.clear();
    SmallVector<uint64_t> weights = assignGroups(sorted, parts, leaderPart);
    if (*llvm::min_element(weights) >= minPartInstructions)
      break;
  }
  if (parts < 2)
    return {};

  DenseMap<const GlobalValue *, unsigned> partOf;
  for (const Function &function : module)
    if (!function.isDeclaration())
      partOf[&function] = leaderPart[groups.getLeaderValue(&function)];
  // A variable goes with the first function using it; others to part 0.
  for (const GlobalVariable &variable : module.globals()) {
    if (variable.isDeclaration())
      continue;
    unsigned part = 0;
    if (!variable.hasAppendingLinkage()) {
      bool found = false;
      forEachUsingGlobal(&variable, [&](const GlobalValue *user) {
        if (!found && isa<Function>(user)) {
          part = partOf.lookup(user);
          found = true;
        }
      });
    }
    partOf[&variable] = part;
  }

  // Symbols that another part refers to must link: external, but hidden
  // (they stay out of the shared object's exports).
  for (GlobalValue &value : module.global_values()) {
    if (value.isDeclaration() ||
        !(value.hasLocalLinkage() || value.hasLinkOnceLinkage()))
      continue;
    unsigned own = partOf.lookup(&value);
    bool crossed = false;
    forEachUsingGlobal(&value, [&](const GlobalValue *user) {
      crossed |= partOf.lookup(user) != own;
    });
    if (!crossed)
      continue;
    if (!value.hasName())
      value.setName("__google_split_symbol");
    value.setLinkage(GlobalValue::ExternalLinkage);
    value.setVisibility(GlobalValue::HiddenVisibility);
    value.setDSOLocal(true);
  }

  SmallVector<SmallString<0>> bitcode(parts);
  for (unsigned part = 0; part < parts; ++part) {
    ValueToValueMapTy map;
    std::unique_ptr<Module> clone =
        CloneModule(module, map, [&](const GlobalValue *value) {
          return partOf.lookup(value) == part;
        });
    // The other parts' copies of llvm.global_ctors and the like would be
    // declarations of them, which no module may hold.
    for (GlobalVariable &variable :
         llvm::make_early_inc_range(clone->globals()))
      if (variable.isDeclaration() && variable.getName().starts_with("llvm.") &&
          variable.use_empty())
        variable.eraseFromParent();
    raw_svector_ostream os(bitcode[part]);
    WriteBitcodeToFile(*clone, os);
  }
  return bitcode;
}
