// expect: static assertion failed.*a pointer offset must be an integer block or integer literal
// A pointer is offset by a float: offsets must be integers (tk::cast<int>(x)).
#include <tk/tk.hpp>

void check() {
  auto k = tk::jit("k", [](tk::ptr<float> out) {
    auto cols = tk::arange(0, 16);
    auto x = tk::cast<float>(cols);
    tk::store(out + x, 1.0f);
  });
  (void)k;
}
