// expect: static assertion failed.*tk::heuristics: a heuristic is a function of a const tk::launch_view &
// A heuristic that takes the launch's arguments as an int instead of a tk::launch_view.
#include <tk/tk.hpp>

void check() {
  auto k = tk::jit("k", [](tk::ptr<float> p, tk::constant<int> BLOCK) {
    tk::store(p + tk::arange(0, BLOCK), 1.0f);
  });
  (void)tk::heuristics(k, {{"BLOCK", [](int n) { return n; }}});
}
