// expect: static assertion failed.*compound assignment would raise the block's rank
// A scalar += a block would need the scalar to become a block: use a new variable.
#include <tk/tk.hpp>

void check() {
  auto k = tk::jit("k", []() {
    auto s = tk::program_id(0);
    auto cols = tk::arange(0, 16);
    s += cols;
  });
  (void)k;
}
