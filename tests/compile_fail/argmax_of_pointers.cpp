// expect: static assertion failed.*argmax/argmin need a numeric block
// tk::argmax of a block of pointers.
#include <tk/tk.hpp>

void check() {
  auto k = tk::jit("k", [](tk::ptr<float> out) {
    auto p = out + tk::arange(0, 16);
    auto i = tk::argmax(p, 0);
    (void)i;
  });
  (void)k;
}
