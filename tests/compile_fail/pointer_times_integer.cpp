// expect: static assertion failed.*pointer blocks support only \+ and - with an integer offset
// Pointers support only + and - with an integer offset; `*` is rejected.
#include <tk/tk.hpp>

void check() {
  auto k = tk::jit("k", [](tk::ptr<float> out) {
    auto p = out * 2;
    (void)p;
  });
  (void)k;
}
