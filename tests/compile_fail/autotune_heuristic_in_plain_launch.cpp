// expect: static assertion failed.*tk: this launch argument cannot become the value of the tk::constant<T> parameter
// A tk::heuristic placeholder passed to a plain kernel::launch, which has no heuristics to fill it.
#include <tk/tk.hpp>

void check(float *out) {
  auto k = tk::jit("k", [](tk::ptr<float> p, tk::constant<int> BLOCK) {
    tk::store(p + tk::arange(0, BLOCK), 1.0f);
  });
  k.launch(tk::grid(1), out, tk::heuristic<int>("BLOCK"));
}
