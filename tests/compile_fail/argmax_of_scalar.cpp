// expect: static assertion failed.*argmax/argmin need a block of rank >= 1
// tk::argmax of a scalar.
#include <tk/tk.hpp>

void check() {
  auto k = tk::jit("k", []() {
    auto pid = tk::program_id(0);
    auto i = tk::argmax(pid, 0);
    (void)i;
  });
  (void)k;
}
