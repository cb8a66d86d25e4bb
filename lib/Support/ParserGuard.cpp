//===- ParserGuard.cpp - input LLVM 22's parsers crash on -----------------===//

#include "Support/ParserGuard.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/SourceMgr.h"

#include <limits>

using namespace mlir::google;
using llvm::StringRef;

namespace {

bool isIdentifierChar(char c) {
  return llvm::isAlnum(c) || c == '_' || c == '$' || c == '.';
}

/// What the lexer skips between tokens: NUL bytes inside the buffer count
/// as spaces; '\f' and '\v' are errors, not spaces.
bool isLexerSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\0';
}

/// A cursor over MLIR text that skips what the lexer skips.
struct Cursor {
  StringRef text;
  size_t at = 0;
  /// Whether a skipped comment held `-split-input-file`'s marker: the text
  /// after it is parsed as another module.
  bool skippedSplitMarker = false;

  bool done() const { return at >= text.size(); }
  char peek() const { return done() ? '\0' : text[at]; }

  /// A comment ends at '\n' or '\r'.
  void skipSpaceAndComments() {
    while (!done()) {
      if (isLexerSpace(text[at])) {
        ++at;
      } else if (text.substr(at).starts_with("//")) {
        size_t end = text.find_first_of("\n\r", at);
        if (text.slice(at, end).contains("// -----"))
          skippedSplitMarker = true;
        at = end == StringRef::npos ? text.size() : end + 1;
      } else {
        return;
      }
    }
  }

  /// An integer literal in int64_t's range: [-] (decimal | 0x hex).
  bool integer() {
    bool negative = peek() == '-';
    if (negative) {
      ++at;
      skipSpaceAndComments();
    }
    unsigned radix = 10;
    if (text.substr(at).starts_with("0x")) {
      radix = 16;
      at += 2;
    }
    size_t start = at;
    while (!done() && (radix == 16 ? llvm::isHexDigit(text[at])
                                   : llvm::isDigit(text[at])))
      ++at;
    if (at == start)
      return false;
    unsigned long long value;
    if (text.slice(start, at).getAsInteger(radix, value))
      return false;
    unsigned long long limit = std::numeric_limits<int64_t>::max();
    return value <= limit + (negative ? 1 : 0);
  }

  /// `[` integers separated by commas `]`.
  bool integerList() {
    skipSpaceAndComments();
    if (peek() != '[')
      return false;
    ++at;
    skipSpaceAndComments();
    if (peek() == ']')
      return true;
    while (true) {
      if (!integer())
        return false;
      skipSpaceAndComments();
      if (peek() == ']')
        return true;
      if (peek() != ',')
        return false;
      ++at;
      skipSpaceAndComments();
    }
  }
};

} // namespace

std::optional<ParserHazard> mlir::google::findParserHazard(StringRef text) {
  Cursor cursor{text};
  // The keyword whose list the last custom-form op seen parses next.
  StringRef pendingKeyword, pendingOp;
  while (!cursor.done()) {
    char c = cursor.peek();
    if (cursor.text.substr(cursor.at).starts_with("//") ||
        isLexerSpace(c)) {
      cursor.skipSpaceAndComments();
      continue;
    }
    if (c == '"') {
      // A string (a generic-form op name among them): to its closing quote.
      for (++cursor.at; !cursor.done() && cursor.peek() != '"' &&
                        cursor.peek() != '\n';
           ++cursor.at)
        if (cursor.peek() == '\\')
          ++cursor.at;
      ++cursor.at;
      continue;
    }
    if (!llvm::isAlpha(c) && c != '_') {
      // Sigils (%, @, ^, #, !) start names that are no keywords.
      bool sigil = StringRef("%@^#!").contains(c);
      ++cursor.at;
      if (sigil)
        while (!cursor.done() && (isIdentifierChar(cursor.peek()) ||
                                  cursor.peek() == '-'))
          ++cursor.at;
      continue;
    }
    size_t start = cursor.at;
    while (!cursor.done() && isIdentifierChar(cursor.peek()))
      ++cursor.at;
    StringRef word = text.slice(start, cursor.at);
    StringRef keyword =
        llvm::StringSwitch<StringRef>(word)
            .Cases({"linalg.reduce", "linalg.broadcast"}, "dimensions")
            .Case("linalg.transpose", "permutation")
            .Default("");
    if (!keyword.empty()) {
      pendingKeyword = keyword;
      pendingOp = word;
      continue;
    }
    if (pendingKeyword.empty() || word != pendingKeyword)
      continue;
    cursor.skippedSplitMarker = false;
    cursor.skipSpaceAndComments();
    if (cursor.peek() != '=')
      continue;
    ++cursor.at;
    cursor.skipSpaceAndComments();
    size_t listStart = cursor.at;
    if (!cursor.integerList() || cursor.skippedSplitMarker)
      return ParserHazard{listStart,
                          ("expected a list of 64-bit integers, [i, j, ...], "
                           "after '" +
                           pendingKeyword + " =' of " + pendingOp)
                              .str()};
    pendingKeyword = pendingOp = StringRef();
  }
  return std::nullopt;
}

mlir::OwningOpRef<mlir::ModuleOp>
mlir::google::parseModuleGuarded(llvm::SourceMgr &sourceMgr,
                                 MLIRContext *context) {
  const llvm::MemoryBuffer *buffer =
      sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID());
  if (std::optional<ParserHazard> hazard =
          findParserHazard(buffer->getBuffer())) {
    auto [line, column] = sourceMgr.getLineAndColumn(
        llvm::SMLoc::getFromPointer(buffer->getBufferStart() +
                                    hazard->offset));
    emitError(FileLineColLoc::get(context, buffer->getBufferIdentifier(),
                                  line, column),
              hazard->message);
    return nullptr;
  }
  return parseSourceFile<ModuleOp>(sourceMgr, context);
}
