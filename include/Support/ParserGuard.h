//===- ParserGuard.h - input LLVM 22's parsers crash on ---------*- C++ -*-===//
//
// A few upstream custom parsers crash on malformed text instead of
// reporting an error: linalg.reduce and linalg.broadcast after
// `dimensions =`, linalg.transpose after `permutation =`, when what follows
// is not a list of 64-bit integers (they store the failed parse's null
// attribute). Every tool scans its input for these first.
//
//===----------------------------------------------------------------------===//

#ifndef GOOGLE_SUPPORT_PARSERGUARD_H
#define GOOGLE_SUPPORT_PARSERGUARD_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstddef>
#include <optional>
#include <string>

namespace llvm {
class SourceMgr;
} // namespace llvm

namespace mlir::google {

/// Where `text` holds input an upstream parser would crash on, and the
/// error to report there.
struct ParserHazard {
  size_t offset;
  std::string message;
};

std::optional<ParserHazard> findParserHazard(llvm::StringRef text);

/// Parses `sourceMgr`'s main buffer as a module once findParserHazard finds
/// nothing; else reports its error, at its location, to `context`.
OwningOpRef<ModuleOp> parseModuleGuarded(llvm::SourceMgr &sourceMgr,
                                         MLIRContext *context);

} // namespace mlir::google

#endif // GOOGLE_SUPPORT_PARSERGUARD_H
