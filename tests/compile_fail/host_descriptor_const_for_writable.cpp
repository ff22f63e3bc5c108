// expect: static assertion failed.*a tk::host_tensor_descriptor of const elements was passed for a writable tk::tensor_descriptor<T, R> parameter
// A descriptor over const memory passed for a parameter the kernel may write through.
#include <tk/tk.hpp>

void check(const float *x) {
  auto k = tk::jit("k", [](tk::tensor_descriptor<float, 1> d) { d.store({0}, 1.0f); });
  k.interpret(tk::grid(1), tk::host_tensor_descriptor(x, {64}, {1}, {16}));
}
