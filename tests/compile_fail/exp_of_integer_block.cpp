// expect: static assertion failed.*this math function needs a floating-point block
// tk::exp of an integer block: convert it with tk::cast<float>(x) first.
#include <tk/tk.hpp>

void check() {
  auto k = tk::jit("k", []() {
    auto cols = tk::arange(0, 16);
    auto e = tk::exp(cols);
    (void)e;
  });
  (void)k;
}
