// expect: static assertion failed.*a tk::host_tensor_descriptor argument needs a tk::tensor_descriptor<T, R> parameter
// A host-made descriptor passed where the kernel takes a pointer.
#include <tk/tk.hpp>

void check(float *x) {
  auto k = tk::jit("k", [](tk::ptr<float> p) { tk::store(p, 1.0f); });
  k.interpret(tk::grid(1), tk::host_tensor_descriptor(x, {64, 64}, {64, 1}, {16, 16}));
}
