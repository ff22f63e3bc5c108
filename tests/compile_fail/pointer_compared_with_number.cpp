// expect: static assertion failed.*a pointer block can only be compared with another pointer block
// A pointer block compared with a number.
#include <tk/tk.hpp>

void check() {
  auto k = tk::jit("k", [](tk::ptr<float> out) {
    auto m = out < 3;
    (void)m;
  });
  (void)k;
}
