/// @file gpu_catch_main.cpp
/// Catch2 2.x main() for test programs that need a GPU: without one it prints
/// `SKIPPED: <reason>` and exits with 77, which CTest reports as a skipped test.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>
#include <tk/tk.hpp>

#include "catch_strict.hpp"

#include <cstdio>

int main(int argc, char **argv) {
  if (const std::string why = tk::gpu_unavailable_reason(); !why.empty()) {
    std::printf("SKIPPED: %s\n", why.c_str());
    return 77;
  }
  std::printf("running on %s\n", tk::gpu_name().c_str());
  return tk_test::run_strict(argc, argv);
}
