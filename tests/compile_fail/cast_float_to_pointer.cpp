// expect: static assertion failed.*tk::cast: a float block cannot become pointers
// tk::cast of a float block to pointers.
#include <tk/tk.hpp>

void check() {
  auto k = tk::jit("k", []() {
    auto x = tk::zeros<float>({16});
    auto p = tk::cast<float *>(x);
    (void)p;
  });
  (void)k;
}
