// expect: static assertion failed.*the condition must be a boolean scalar \(tk::i1\)
// tk::if_ with a block of conditions: use tk::where for those.
#include <tk/tk.hpp>

void check() {
  auto k = tk::jit("k", []() {
    auto cols = tk::arange(0, 16);
    tk::if_(cols < 3, [] {});
  });
  (void)k;
}
