// expect: static assertion failed.*tk::split needs a block whose last dimension is 2, not a scalar
// tk::split of a scalar.
#include <tk/tk.hpp>

void check() {
  auto k = tk::jit("k", []() {
    tk::i32 x = 3;
    auto halves = tk::split(x);
    (void)halves;
  });
  (void)k;
}
