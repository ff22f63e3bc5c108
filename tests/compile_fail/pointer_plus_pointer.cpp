// expect: static assertion failed.*two pointers cannot be added or subtracted
// Two pointer blocks are added: offset one pointer by an integer block instead.
#include <tk/tk.hpp>

void check() {
  auto k = tk::jit("k", [](tk::ptr<float> out, tk::ptr<const float> in) {
    auto cols = tk::arange(0, 16);
    auto p = out + cols;
    auto q = in + cols;
    auto r = p + q;
    (void)r;
  });
  (void)k;
}
