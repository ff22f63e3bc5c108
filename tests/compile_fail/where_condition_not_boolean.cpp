// expect: static assertion failed.*tk::where: the condition must be a boolean block
// tk::where with an integer condition: compare it, e.g. `x > 0`.
#include <tk/tk.hpp>

void check() {
  auto k = tk::jit("k", []() {
    auto cols = tk::arange(0, 16);
    auto y = tk::where(cols, cols, 0);
    (void)y;
  });
  (void)k;
}
