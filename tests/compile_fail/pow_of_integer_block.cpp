// expect: static assertion failed.*this math function needs a floating-point block
// tk::pow of an integer block, even with a float exponent: convert it with tk::cast<float>(x).
#include <tk/tk.hpp>

void check() {
  auto k = tk::jit("k", []() {
    auto cols = tk::arange(0, 16);
    auto p = tk::pow(cols, 2.0f);
    (void)p;
  });
  (void)k;
}
