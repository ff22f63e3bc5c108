// expect: static assertion failed.*a grid callable is called with the value of each tk::constant
// A grid callable must take the kernel's constants (here one int), and return a tk::grid.
#include <tk/tk.hpp>

void check(float *out) {
  auto k = tk::jit("k", [](tk::ptr<float> p, tk::constant<int> BLOCK) {
    tk::store(p + tk::arange(0, BLOCK), 1.0f);
  });
  k.launch([](int BLOCK, int) { return tk::grid(BLOCK); }, out, tk::constant(16));
}
