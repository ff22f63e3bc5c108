// expect: static assertion failed.*tk::inf<T>: T must be float or double
// tk::inf<int>().
#include <tk/tk.hpp>

void check() {
  auto k = tk::jit("k", []() {
    auto x = tk::full<int>({16}, tk::inf<int>());
    (void)x;
  });
  (void)k;
}
