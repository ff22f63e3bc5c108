// expect: static assertion failed.*a scalar cannot be reduced
// tk::sum of a scalar.
#include <tk/tk.hpp>

void check() {
  auto k = tk::jit("k", []() {
    auto pid = tk::program_id(0);
    auto s = tk::sum(pid);
    (void)s;
  });
  (void)k;
}
