// expect: static assertion failed.*% is not defined for i1
// % on boolean blocks.
#include <tk/tk.hpp>

void check() {
  auto k = tk::jit("k", []() {
    auto cols = tk::arange(0, 16);
    auto m = cols < 8;
    auto r = m % m;
    (void)r;
  });
  (void)k;
}
