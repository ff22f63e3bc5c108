// expect: static assertion failed.*the pointer argument's element type differs from the tk::ptr<T>
// A std::vector<double> passed for a tk::ptr<float>.
#include <tk/tk.hpp>

#include <vector>

void check(std::vector<double> &x) {
  auto k = tk::jit("k", [](tk::ptr<float> out) { tk::store(out, 1.0f); });
  k.interpret(tk::grid(1), x);
}
