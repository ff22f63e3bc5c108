// expect: static assertion failed.*a scalar parameter needs a number
// Something that is not a number passed for a tk::f32 parameter.
#include <tk/tk.hpp>

void check() {
  struct not_a_number {};
  auto k = tk::jit("k", [](tk::f32 x) { (void)x; });
  (void)k.ir(not_a_number{});
}
