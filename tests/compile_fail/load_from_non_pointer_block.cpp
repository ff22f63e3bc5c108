// expect: static assertion failed.*tk::load/tk::store need a block of pointers
// tk::load of an integer block instead of a block of pointers.
#include <tk/tk.hpp>

void check() {
  auto k = tk::jit("k", [](tk::ptr<const float> in) {
    auto cols = tk::arange(0, 16);
    auto x = tk::load(cols);
    (void)x;
    (void)in;
  });
  (void)k;
}
