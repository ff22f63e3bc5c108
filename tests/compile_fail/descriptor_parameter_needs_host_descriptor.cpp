// expect: static assertion failed.*a tk::tensor_descriptor<T, R> parameter needs a tk::host_tensor_descriptor argument
// A pointer passed for a descriptor parameter.
#include <tk/tk.hpp>

void check(float *x) {
  auto k = tk::jit("k", [](tk::tensor_descriptor<float, 1> d) { d.store({0}, 1.0f); });
  k.interpret(tk::grid(1), x);
}
