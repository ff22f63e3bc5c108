// expect: static assertion failed.*tk::dot: the accumulator must be f32 for float inputs
// tk::dot of bf16 inputs into an f16 accumulator: bf16 accumulates in f32.
#include <tk/tk.hpp>

void check() {
  auto k = tk::jit("k", []() {
    auto a = tk::zeros<tk::bfloat16>({32, 32});
    auto b = tk::zeros<tk::bfloat16>({32, 32});
    auto acc = tk::zeros<tk::half>({32, 32});
    acc = tk::dot(a, b, acc);
  });
  (void)k;
}
