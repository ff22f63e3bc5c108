// expect: static assertion failed.*a mask must be a boolean block
// A mask that is an integer block: compare it, e.g. `cols < n`.
#include <tk/tk.hpp>

void check() {
  auto k = tk::jit("k", [](tk::ptr<const float> in) {
    auto cols = tk::arange(0, 16);
    auto x = tk::load(in + cols, cols);
    (void)x;
  });
  (void)k;
}
