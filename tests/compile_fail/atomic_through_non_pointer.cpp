// expect: static assertion failed.*tk::atomic_add: the first argument must be a tk::ptr<T> or a block of pointers
// tk::atomic_add of an integer block instead of a block of pointers.
#include <tk/tk.hpp>

void check() {
  auto k = tk::jit("k", [](tk::ptr<std::int32_t> p) {
    auto offs = tk::arange(0, 16);
    auto old = tk::atomic_add(offs, 1);
    (void)old;
    (void)p;
  });
  (void)k;
}
