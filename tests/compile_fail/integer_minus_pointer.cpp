// expect: static assertion failed.*`integer - pointer` is not defined
// `integer - pointer` is not defined; write `pointer - integer`.
#include <tk/tk.hpp>

void check() {
  auto k = tk::jit("k", [](tk::ptr<float> out) {
    auto cols = tk::arange(0, 16);
    auto p = cols - out;
    (void)p;
  });
  (void)k;
}
