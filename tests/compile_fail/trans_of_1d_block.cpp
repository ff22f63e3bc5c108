// expect: static assertion failed.*tk::trans transposes 2-D blocks
// tk::trans of a 1-D block.
#include <tk/tk.hpp>

void check() {
  auto k = tk::jit("k", []() {
    auto cols = tk::arange(0, 16);
    auto t = tk::trans(cols);
    (void)t;
  });
  (void)k;
}
