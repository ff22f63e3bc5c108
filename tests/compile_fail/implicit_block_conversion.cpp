// expect: static assertion failed.*cannot be converted implicitly; use tk::cast<T>\(x\)
// An i32 block assigned to an f32 block variable: use tk::cast<float>(x).
#include <tk/tk.hpp>

void check() {
  auto k = tk::jit("k", []() {
    auto cols = tk::arange(0, 16);
    tk::block<float, 1> x = cols;
    (void)x;
  });
  (void)k;
}
