/// @file print_all.cpp
/// Prints the IR of every golden kernel (tests/ir/golden_kernels.hpp) to stdout, chunks separated
/// by `// -----`, for the check by tk-opt (mlir-opt without the backend):
///
///   print_all [family...] | tk-opt --split-input-file
///
/// Without arguments it prints every family. Exits 1 on an unknown family or a trace error.
#include "golden_support.hpp"

#include <cstdio>
#include <exception>
#include <string>
#include <vector>

int main(int argc, char **argv) {
  std::vector<std::string> wanted(argv + 1, argv + argc);
  const auto families = tk_golden::families();
  if (wanted.empty())
    wanted = families;
  try {
    bool first = true;
    for (const auto &family : wanted) {
      bool known = false;
      for (const auto &f : families)
        known = known || f == family;
      if (!known) {
        std::fprintf(stderr, "print_all: unknown family '%s'\n", family.c_str());
        return 1;
      }
      if (!first)
        std::fputs("\n// -----\n\n", stdout);
      first = false;
      std::fputs(tk_golden::family_text(family).c_str(), stdout);
    }
  } catch (const std::exception &e) {
    std::fprintf(stderr, "print_all: %s\n", e.what());
    return 1;
  }
  return 0;
}
