// expect: static assertion failed.*tk::dot: the accumulator must be f32 for float inputs
// tk::dot of i8 inputs into an f32 accumulator: i8 inputs accumulate in i32.
#include <tk/tk.hpp>

void check() {
  auto k = tk::jit("k", []() {
    auto a = tk::zeros<std::int8_t>({16, 16});
    auto b = tk::zeros<std::int8_t>({16, 16});
    auto acc = tk::zeros<float>({16, 16});
    acc = tk::dot(a, b, acc);
  });
  (void)k;
}
