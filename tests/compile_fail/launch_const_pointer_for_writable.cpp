// expect: static assertion failed.*a pointer to const was passed for a writable tk::ptr<T>
// A `const float *` passed for a tk::ptr<float>: declare the parameter tk::ptr<const float>.
#include <tk/tk.hpp>

void check() {
  auto k = tk::jit("k", [](tk::ptr<float> out) { (void)out; });
  const float *p = nullptr;
  (void)k.ir(p);
}
