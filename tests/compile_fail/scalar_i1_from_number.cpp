// expect: static assertion failed.*a tk::i1 scalar is made from a bool
// A tk::i1 initialized from a number: write true or false, or compare.
#include <tk/tk.hpp>

void check() {
  auto k = tk::jit("k", [](tk::ptr<bool> out) {
    tk::i1 done = 0;
    tk::store(out, done);
  });
  (void)k;
}
