// expect: static assertion failed.*a combine function takes two tk::scalar<T> and returns one
// tk::reduce with a combine function that does not return a scalar.
#include <tk/tk.hpp>

void check() {
  auto k = tk::jit("k", []() {
    auto cols = tk::arange(0, 16);
    auto s = tk::reduce(cols, 0, [](tk::i32 a, tk::i32) { return tk::arange(0, 16) + a; });
    (void)s;
  });
  (void)k;
}
