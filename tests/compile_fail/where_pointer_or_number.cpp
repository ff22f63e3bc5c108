// expect: static assertion failed.*tk::where: cannot choose between a pointer and a number
// tk::where choosing between a pointer block and a number.
#include <tk/tk.hpp>

void check() {
  auto k = tk::jit("k", [](tk::ptr<float> out) {
    auto cols = tk::arange(0, 16);
    auto y = tk::where(cols < 8, out + cols, 0);
    (void)y;
  });
  (void)k;
}
