// expect: static assertion failed.*scans need a block of rank >= 1
// tk::cumsum of a scalar.
#include <tk/tk.hpp>

void check() {
  auto k = tk::jit("k", []() {
    auto pid = tk::program_id(0);
    auto s = tk::cumsum(pid, 0);
    (void)s;
  });
  (void)k;
}
