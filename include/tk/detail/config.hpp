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
#else
#define TK_DECL inline
#endif
