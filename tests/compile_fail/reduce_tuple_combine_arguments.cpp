// expect: static assertion failed.*tk::reduce: the combine function of a tuple of N blocks takes
// A tuple reduction whose combine function takes one block's values only.
#include <tk/tk.hpp>

#include <tuple>

void check() {
  auto k = tk::jit("k", []() {
    auto x = tk::arange(0, 16);
    auto [a, b] =
        tk::reduce(std::tuple{x, x}, 0, [](tk::i32 l, tk::i32 r) { return std::tuple{l, r}; });
    (void)a;
    (void)b;
  });
  (void)k;
}
