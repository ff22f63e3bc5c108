// expect: static assertion failed.*tk::atomic_max: the pointee type must be i32, u32, i64, u64, f32 or f64
// tk::atomic_max through f16 pointers: float max and min take f32 and f64 only.
#include <tk/tk.hpp>

void check() {
  auto k = tk::jit("k", [](tk::ptr<tk::half> p) {
    auto offs = tk::arange(0, 16);
    auto old = tk::atomic_max(p + offs, 1.0f);
    (void)old;
  });
  (void)k;
}
