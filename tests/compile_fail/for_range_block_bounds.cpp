// expect: static assertion failed.*tk::for_range: bounds and step must be scalars, not blocks
// tk::for_range with a block as a bound.
#include <tk/tk.hpp>

void check() {
  auto k = tk::jit("k", []() {
    auto cols = tk::arange(0, 16);
    tk::for_range(0, cols, [](tk::i32) {});
  });
  (void)k;
}
