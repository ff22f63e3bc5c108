// expect: static assertion failed.*a pointer was passed for a scalar parameter
// A pointer passed for a tk::i32 parameter.
#include <tk/tk.hpp>

void check() {
  auto k = tk::jit("k", [](tk::i32 n) { (void)n; });
  int *p = nullptr;
  (void)k.ir(p);
}
