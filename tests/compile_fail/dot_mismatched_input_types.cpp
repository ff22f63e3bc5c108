// expect: static assertion failed.*tk::dot: both inputs must have the same element type
// tk::dot of an f16 block and an f32 block: tk::cast one of them.
#include <tk/tk.hpp>

void check() {
  auto k = tk::jit("k", []() {
    auto a = tk::zeros<tk::half>({16, 16});
    auto b = tk::zeros<float>({16, 16});
    auto c = tk::dot(a, b);
    (void)c;
  });
  (void)k;
}
