// expect: static assertion failed.*index a block with tk::_ and tk::newaxis only
// Indexing a block with an integer: blocks take only tk::_ and tk::newaxis.
#include <tk/tk.hpp>

void check() {
  auto k = tk::jit("k", []() {
    auto cols = tk::arange(0, 16);
    auto y = cols(0);
    (void)y;
  });
  (void)k;
}
