// expect: static assertion failed.*tk::for_range: bounds and step must be integers
// tk::for_range with a floating-point bound.
#include <tk/tk.hpp>

void check() {
  auto k = tk::jit("k", []() { tk::for_range(0, 4.0, [](tk::i32) {}); });
  (void)k;
}
