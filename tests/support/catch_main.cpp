// Catch2 2.x main(), compiled once into the tk_catch_main static library so
// that editing a unit test never recompiles Catch2's runner.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
