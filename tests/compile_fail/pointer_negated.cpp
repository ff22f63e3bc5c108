// expect: static assertion failed.*a pointer block cannot be negated
// Unary minus on a pointer block.
#include <tk/tk.hpp>

void check() {
  auto k = tk::jit("k", [](tk::ptr<float> out) {
    auto p = -out;
    (void)p;
  });
  (void)k;
}
