// expect: static assertion failed.*the tk::host_tensor_descriptor argument's element type differs from the tk::tensor_descriptor<T, R> parameter's
// A descriptor of ints passed for a descriptor of floats.
#include <tk/tk.hpp>

void check(int *x) {
  auto k = tk::jit("k", [](tk::tensor_descriptor<float, 1> d) { d.store({0}, 1.0f); });
  k.interpret(tk::grid(1), tk::host_tensor_descriptor(x, {64}, {1}, {16}));
}
