// expect: static assertion failed.*a floating-point value was passed for an integer parameter
// A double passed for a tk::i32 parameter.
#include <tk/tk.hpp>

void check() {
  auto k = tk::jit("k", [](tk::i32 n) { (void)n; });
  (void)k.ir(2.5);
}
