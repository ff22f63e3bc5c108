// expect: static assertion failed.*give one tk::_ per dimension of the block
// x(tk::_, tk::_) on a 1-D block: one tk::_ per dimension, plus any tk::newaxis.
#include <tk/tk.hpp>

void check() {
  auto k = tk::jit("k", []() {
    auto cols = tk::arange(0, 16);
    auto y = cols(tk::_, tk::_);
    (void)y;
  });
  (void)k;
}
