// expect: static assertion failed.*a bool does not make a numeric scalar
// A numeric scalar initialized from a bool: write the number, or tk::cast a tk::i1.
#include <tk/tk.hpp>

void check() {
  auto k = tk::jit("k", [](tk::ptr<float> out) {
    tk::f32 total = true;
    tk::store(out, total);
  });
  (void)k;
}
