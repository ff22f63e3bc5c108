/// @file config.hpp
/// How TileKit's non-template functions are compiled. By default the library is header-only:
/// each header includes the bodies of its functions (its sibling `.ipp` file), declared
/// `inline`. With `TK_SEPARATE_COMPILATION` defined in every file of a program, the headers hold
/// declarations only and one file compiles the bodies once, by including
/// <tk/implementation.hpp> (CMake's `tk::separate` target does it); the files that define
/// kernels then compile faster (docs/build-cost.md).
#pragma once

#if defined(TK_SEPARATE_COMPILATION)
#define TK_DECL

// Defined by <tk/implementation.hpp> alone, and referred to by every file compiled in this mode,
// so that a program without that file, or with two, fails to link with this name in the first
// error rather than with a list of TileKit's functions (docs/errors.md, "Linking").
extern "C" const char
    tk_separate_compilation_needs_exactly_one_source_file_including_tk_implementation_hpp;

#if defined(__GNUC__)
namespace tk::detail {
namespace {
// `used`: kept, so the reference stays, though nothing calls it. A function with no calls of its
// own, which compilers emit ahead of the file's other functions: its reference comes first.
[[gnu::used]] const char *implementation_file_marker() {
  return &tk_separate_compilation_needs_exactly_one_source_file_including_tk_implementation_hpp;
}
} // namespace
} // namespace tk::detail
#endif

#else
#define TK_DECL inline
#endif
