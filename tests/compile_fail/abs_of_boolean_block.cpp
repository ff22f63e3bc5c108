// expect: static assertion failed.*tk::abs needs a numeric block
// tk::abs of a boolean block.
#include <tk/tk.hpp>

void check() {
  auto k = tk::jit("k", []() {
    auto m = tk::arange(0, 16) < 8;
    auto a = tk::abs(m);
    (void)a;
  });
  (void)k;
}
