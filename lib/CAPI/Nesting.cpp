/// @file Nesting.cpp
/// How deeply IR text nests, before it is parsed.
#include "CAPI/Nesting.h"

namespace mlir::tk {

std::optional<NestingPosition> findExcessNesting(llvm::StringRef text, unsigned limit) {
  unsigned depth = 0, line = 1, column = 0;
  bool inString = false, inComment = false;
  for (size_t i = 0, e = text.size(); i < e; ++i) {
    const char c = text[i];
    ++column;
    if (c == '\n') {
      // A string literal cannot span lines (MLIR's lexer stops it there with an error).
      inString = inComment = false;
      ++line;
      column = 0;
      continue;
    }
    if (inComment)
      continue;
    if (inString) {
      if (c == '\\' && i + 1 < e && text[i + 1] != '\n') {
        ++i;
        ++column;
      } else if (c == '"') {
        inString = false;
      }
      continue;
    }
    switch (c) {
    case '"':
      inString = true;
      break;
    case '/':
      inComment = i + 1 < e && text[i + 1] == '/';
      break;
    case '-':
      if (i + 1 < e && text[i + 1] == '>') { // an arrow, not a closing bracket
        ++i;
        ++column;
      }
      break;
    case '(':
    case '[':
    case '{':
    case '<':
      if (++depth > limit)
        return NestingPosition{line, column};
      break;
    case ')':
    case ']':
    case '}':
    case '>':
      if (depth > 0)
        --depth;
      break;
    default:
      break;
    }
  }
  return std::nullopt;
}

} // namespace mlir::tk
