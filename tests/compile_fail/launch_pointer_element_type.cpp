// expect: static assertion failed.*the pointer argument's element type differs
// A `double *` passed for a tk::ptr<float> parameter.
#include <tk/tk.hpp>

void check() {
  auto k = tk::jit("k", [](tk::ptr<float> out) { (void)out; });
  double *p = nullptr;
  (void)k.ir(p);
}
