// expect: static assertion failed.*tk::gather: the indices must be an integer block
// tk::gather with float indices.
#include <tk/tk.hpp>

void check() {
  auto k = tk::jit("k", []() {
    auto src = tk::zeros<float>({16});
    auto g = tk::gather(src, tk::zeros<float>({16}), 0);
    (void)g;
  });
  (void)k;
}
