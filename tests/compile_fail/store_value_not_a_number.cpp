// expect: static assertion failed.*tk::store: the value must be a block or a number
// Storing something that is neither a block nor a number.
#include <tk/tk.hpp>

void check() {
  auto k = tk::jit("k", [](tk::ptr<float> out) { tk::store(out, "one"); });
  (void)k;
}
