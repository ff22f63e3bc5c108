// expect: static assertion failed.*tk::atomic_or: the mask must be a boolean block
// A mask of integers: compare to make booleans (`offsets < n`).
#include <tk/tk.hpp>

void check() {
  auto k = tk::jit("k", [](tk::ptr<std::int32_t> p) {
    auto offs = tk::arange(0, 16);
    auto old = tk::atomic_or(p + offs, 1, offs);
    (void)old;
  });
  (void)k;
}
