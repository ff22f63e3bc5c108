// expect: static assertion failed.*tensor_descriptor::atomic_add: the descriptor's pointer points to const
// A descriptor atomic on a tensor behind tk::ptr<const T>: declare the parameter tk::ptr<T>.
#include <tk/tk.hpp>

void check() {
  auto k = tk::jit("k", [](tk::ptr<const float> p) {
    auto d = tk::make_tensor_descriptor(p, {64, 64}, {64, 1}, {16, 16});
    d.atomic_add({0, 0}, 1.0f);
  });
  (void)k;
}
