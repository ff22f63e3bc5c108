// expect: static assertion failed.*tk::dot: inputs must be f16, bf16, f32, f8e4m3, f8e5m2 or i8 blocks
// tk::dot of f64 blocks (tensor cores take f16, bf16, f32, fp8 and i8).
#include <tk/tk.hpp>

void check() {
  auto k = tk::jit("k", []() {
    auto a = tk::zeros<double>({16, 16});
    auto b = tk::zeros<double>({16, 16});
    auto c = tk::dot(a, b);
    (void)c;
  });
  (void)k;
}
