/// @file Nesting.h
/// How deeply IR text nests, before it is parsed.
///
/// MLIR's parser, verifier and passes recurse once per level of nested regions, types and
/// attributes, so text nested deeply enough overflows any stack. tk_compile measures the
/// nesting first, in one pass over the bytes without recursion, and rejects text nested deeper
/// than kMaxNesting.
#ifndef TK_CAPI_NESTING_H
#define TK_CAPI_NESTING_H

#include "llvm/ADT/StringRef.h"

#include <optional>

namespace mlir::tk {

/// The deepest nesting of brackets tk_compile accepts. The front end's IR nests about 10 deep
/// (module, function, loops and branches, a reduction's region, `tensor<...x!tk.ptr<f32>>`,
/// `loc(...)`), hand-written kernels rarely more than 30; at 256 levels the parser, verifier
/// and passes use about 1 MB of the compile thread's 64 MB (docs/backend.md, "Limits of the
/// input").
inline constexpr unsigned kMaxNesting = 256;

/// Where text first nests deeper than a limit: the opening bracket, 1-based.
struct NestingPosition {
  unsigned line;
  unsigned column;
};

/// The position of the first `(`, `[`, `{` or `<` that opens level `limit + 1`, counting all
/// four kinds together, outside string literals and `//` comments, `->` not counting as `>`;
/// nullopt when the text never nests that deep. Mismatched brackets are left to the parser.
std::optional<NestingPosition> findExcessNesting(llvm::StringRef text, unsigned limit);

} // namespace mlir::tk

#endif // TK_CAPI_NESTING_H
