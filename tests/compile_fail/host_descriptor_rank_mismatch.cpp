// expect: static assertion failed.*the tk::host_tensor_descriptor argument's rank differs from the tk::tensor_descriptor<T, R> parameter's
// A 2-D descriptor passed for a 1-D descriptor parameter.
#include <tk/tk.hpp>

void check(float *x) {
  auto k = tk::jit("k", [](tk::tensor_descriptor<float, 1> d) { d.store({0}, 1.0f); });
  k.interpret(tk::grid(1), tk::host_tensor_descriptor(x, {64, 64}, {64, 1}, {16, 16}));
}
