/// @file catch_main.cpp
/// Catch2 2.x main(), compiled once into the tk_catch_main static library so
/// that editing a unit test never recompiles Catch2's runner.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include "catch_strict.hpp"

int main(int argc, char **argv) { return tk_test::run_strict(argc, argv); }
