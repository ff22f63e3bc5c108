// expect: static assertion failed.*a tk::ptr<T> parameter needs a pointer argument
// A number passed for a tk::ptr<float> parameter.
#include <tk/tk.hpp>

void check() {
  auto k = tk::jit("k", [](tk::ptr<float> out) { (void)out; });
  (void)k.ir(0);
}
