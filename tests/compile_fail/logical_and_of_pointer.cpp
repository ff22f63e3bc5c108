// expect: static assertion failed.*&& and \|\| need boolean or numeric blocks
// && with a pointer block.
#include <tk/tk.hpp>

void check() {
  auto k = tk::jit("k", [](tk::ptr<float> out) {
    auto cols = tk::arange(0, 16);
    auto m = (out + cols) && (cols < 8);
    (void)m;
  });
  (void)k;
}
