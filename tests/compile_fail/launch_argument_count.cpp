// expect: static assertion failed.*tk: wrong number of launch arguments
// A kernel with two parameters launched with one argument.
#include <tk/tk.hpp>

void check() {
  auto k = tk::jit("k", [](tk::ptr<float> out, tk::i32 n) {
    (void)out;
    (void)n;
  });
  float *p = nullptr;
  (void)k.ir(p);
}
