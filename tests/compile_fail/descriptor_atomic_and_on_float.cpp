// expect: static assertion failed.*tensor_descriptor::atomic_and: the element type must be i32, u32, i64 or u64
// A bitwise descriptor atomic on a tensor of f32: the bitwise atomics take integers only.
#include <tk/tk.hpp>

void check() {
  auto k = tk::jit("k", [](tk::ptr<float> p) {
    auto d = tk::make_tensor_descriptor(p, {64, 64}, {64, 1}, {16, 16});
    d.atomic_and({0, 0}, 1.0f);
  });
  (void)k;
}
