// expect: static assertion failed.*this launch argument cannot become the value of the tk::constant<T> parameter
// A pointer passed for a tk::constant<int> parameter.
#include <tk/tk.hpp>

void check(float *out) {
  auto k = tk::jit("k", [](tk::ptr<float> p, tk::constant<int> BLOCK) {
    tk::store(p + tk::arange(0, BLOCK), 1.0f);
  });
  k.interpret(tk::grid(1), out, out);
}
