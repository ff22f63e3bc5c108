/// @file implementation.cpp
/// The one file of the program that compiles TileKit's bodies (test link.separate_mistakes links
/// it once, and twice as the mistake of two such files).
#include <tk/implementation.hpp>
