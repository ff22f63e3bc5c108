// expect: static assertion failed.*kernel parameters must be tk::ptr<T>, a scalar
// A kernel parameter of plain C++ type `float`: use tk::f32 (or tk::constant<float>).
#include <tk/tk.hpp>

void check() {
  auto k = tk::jit("k", [](float x) { (void)x; });
  (void)k.ir(1.0f);
}
