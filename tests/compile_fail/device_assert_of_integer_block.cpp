// expect: static assertion failed.*tk::device_assert: the condition must be a boolean block or tk::i1
// tk::device_assert on an i32 block: compare it, e.g. `x >= 0`, to make the condition.
#include <tk/tk.hpp>

void check() {
  auto k = tk::jit("k", [](tk::ptr<const std::int32_t> in) {
    auto x = tk::load(in + tk::arange(0, 16));
    tk::device_assert(x, "x must be nonzero");
  });
  (void)k;
}
