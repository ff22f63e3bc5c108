// expect: static assertion failed.*tk::heuristics: a heuristic returns a bool, an integer, an enum or a floating-point number
// A heuristic returning a pointer, which no tk::constant can hold.
#include <tk/tk.hpp>

void check() {
  auto k = tk::jit("k", [](tk::ptr<float> p, tk::constant<int> BLOCK) {
    tk::store(p + tk::arange(0, BLOCK), 1.0f);
  });
  (void)tk::heuristics(k, {{"BLOCK", [](const tk::launch_view &a) { return a.arg<float *>(0); }}});
}
