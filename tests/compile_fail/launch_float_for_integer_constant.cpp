// expect: static assertion failed.*a floating-point value was passed for an integer tk::constant
// A double passed for a tk::constant<int> parameter.
#include <tk/tk.hpp>

void check() {
  auto k = tk::jit("k", [](tk::constant<int> BLOCK) { (void)BLOCK; });
  (void)k.ir(64.0);
}
