// expect: static assertion failed.*tk::atomic_cas: the pointee type must be i32, u32, i64, u64, f32 or f64
// tk::atomic_cas through f16 pointers: compare-and-swap takes 32- and 64-bit elements.
#include <tk/tk.hpp>

void check() {
  auto k = tk::jit("k", [](tk::ptr<tk::half> p) {
    auto old = tk::atomic_cas(p, 0.0f, 1.0f);
    (void)old;
  });
  (void)k;
}
