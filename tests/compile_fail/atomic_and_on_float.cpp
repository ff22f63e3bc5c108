// expect: static assertion failed.*tk::atomic_and: the pointee type must be i32, u32, i64 or u64
// tk::atomic_and through f32 pointers: the bitwise atomics take integers only.
#include <tk/tk.hpp>

void check() {
  auto k = tk::jit("k", [](tk::ptr<float> p) {
    auto offs = tk::arange(0, 16);
    auto old = tk::atomic_and(p + offs, 1.0f, offs < 8);
    (void)old;
  });
  (void)k;
}
