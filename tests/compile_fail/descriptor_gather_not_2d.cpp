// expect: static assertion failed.*tensor_descriptor::gather: the descriptor must be 2-D
// desc.gather takes rows of a 2-D descriptor (Triton's too).
#include <tk/tk.hpp>

void check() {
  auto k = tk::jit("k", [](tk::ptr<float> p) {
    auto d = tk::make_tensor_descriptor(p, {64}, {1}, {16});
    tk::store(p + tk::arange(0, 16), tk::sum(d.gather(tk::arange(0, 16), 0), 1));
  });
  (void)k;
}
