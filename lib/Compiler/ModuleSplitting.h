//===- ModuleSplitting.h - modules in parts, codegen on threads -*- C++ -*-===//
//
// A translated module is optimized and compiled to machine code one part
// per thread, and the objects are linked together. Parts are groups of
// functions that call each other directly, so that the inliner sees every
// call it could inline; functions only referenced by address (the OpenMP
// outlined regions handed to __kmpc_fork_call) may go to another part.
//
//===----------------------------------------------------------------------===//

#ifndef GOOGLE_LIB_COMPILER_MODULESPLITTING_H
#define GOOGLE_LIB_COMPILER_MODULESPLITTING_H

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/SmallVector.h"

namespace llvm {
class Module;
} // namespace llvm

namespace mlir::google {

/// Splits `module` into at most `maxParts` parts that link back into the
/// same program, balanced by instruction count, and returns each part's
/// bitcode (to be read in its own LLVMContext). Local symbols referenced
/// across parts become hidden external ones in `module`. Returns nothing
/// when the module should not be split: fewer than two parts of at least
/// `minPartInstructions` instructions each, comdats, aliases, ifuncs or
/// module-level assembly.
llvm::SmallVector<llvm::SmallString<0>>
splitModuleForCodegen(llvm::Module &module, unsigned maxParts,
                      unsigned minPartInstructions);

} // namespace mlir::google

#endif // GOOGLE_LIB_COMPILER_MODULESPLITTING_H
