// expect: static assertion failed.*tk::cdiv needs integer operands
// tk::cdiv of float blocks.
#include <tk/tk.hpp>

void check() {
  auto k = tk::jit("k", []() {
    auto x = tk::zeros<float>({16});
    auto y = tk::cdiv(x, 2.0f);
    (void)y;
  });
  (void)k;
}
