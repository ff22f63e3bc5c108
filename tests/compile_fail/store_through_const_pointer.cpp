// expect: static assertion failed.*tk::store: the pointer points to const
// Storing through tk::ptr<const T>: declare the parameter tk::ptr<T>.
#include <tk/tk.hpp>

void check() {
  auto k = tk::jit("k", [](tk::ptr<const float> in) {
    auto cols = tk::arange(0, 16);
    tk::store(in + cols, 1.0f);
  });
  (void)k;
}
