// expect: static assertion failed.*tk::atomic_add: the pointee type must be i32, u32, i64, u64, f16, bf16, f32 or f64
// tk::atomic_add through pointers to 8-bit integers, which the GPU has no atomics for.
#include <tk/tk.hpp>

void check() {
  auto k = tk::jit("k", [](tk::ptr<std::int8_t> p) {
    auto offs = tk::arange(0, 16);
    auto old = tk::atomic_add(p + offs, 1);
    (void)old;
  });
  (void)k;
}
