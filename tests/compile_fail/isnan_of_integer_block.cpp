// expect: static assertion failed.*this math function needs a floating-point block
// tk::isnan of an integer block: integers have no NaN.
#include <tk/tk.hpp>

void check() {
  auto k = tk::jit("k", []() {
    auto cols = tk::arange(0, 16);
    auto n = tk::isnan(cols);
    (void)n;
  });
  (void)k;
}
