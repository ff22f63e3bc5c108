// expect: static assertion failed.*tk::clamp: the bounds must not have a higher rank than x
// tk::clamp of a scalar between block bounds.
#include <tk/tk.hpp>

void check() {
  auto k = tk::jit("k", []() {
    auto pid = tk::program_id(0);
    auto y = tk::clamp(pid, tk::arange(0, 16), 20);
    (void)y;
  });
  (void)k;
}
