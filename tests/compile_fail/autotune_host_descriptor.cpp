// expect: static assertion failed.*tk::autotune: tk::host_tensor_descriptor arguments cannot be tuned over yet
// Tuning over a kernel launched with a host-made descriptor.
#include <tk/tk.hpp>

void check(float *x) {
  auto k = tk::jit(
      "k", [](tk::tensor_descriptor<float, 1> d, tk::constant<int> B) { d.store({0}, float(B)); });
  auto tuned = tk::autotune(k, {.configs = {{.constants = {{"B", 1}}}, {.constants = {{"B", 2}}}}});
  tuned.launch(tk::grid(1), tk::host_tensor_descriptor(x, {64}, {1}, {16}), tk::tuned<int>("B"));
}
