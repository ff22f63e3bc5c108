// expect: tk: the combine function must return as many values as the tuple has blocks
// A tuple reduction whose combine function returns one value for two blocks.
#include <tk/tk.hpp>

#include <tuple>

void check() {
  auto k = tk::jit("k", []() {
    auto x = tk::arange(0, 16);
    auto [a, b] = tk::reduce(std::tuple{x, x}, 0, [](tk::i32 l0, tk::i32, tk::i32 r0, tk::i32) {
      return std::tuple{l0 + r0};
    });
    (void)a;
    (void)b;
  });
  (void)k;
}
