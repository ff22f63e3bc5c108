// expect: static assertion failed.*tk::dot multiplies 2-D blocks
// tk::dot of 1-D blocks: make them [M, K] and [K, N] with x(tk::_, tk::newaxis).
#include <tk/tk.hpp>

void check() {
  auto k = tk::jit("k", []() {
    auto a = tk::zeros<float>({16});
    auto b = tk::zeros<float>({16});
    auto c = tk::dot(a, b);
    (void)c;
  });
  (void)k;
}
