/// @file implementation.cpp
/// The bodies of TileKit's non-template functions, compiled once for programs that link
/// tk::separate (TK_SEPARATE_COMPILATION; docs/build-cost.md).
#include <tk/implementation.hpp>
