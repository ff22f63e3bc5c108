// expect: static assertion failed.*a floating-point value does not make an integer scalar
// An integer scalar initialized from a float: write an integer, or tk::cast in the kernel.
#include <tk/tk.hpp>

void check() {
  auto k = tk::jit("k", [](tk::ptr<std::int32_t> out) {
    tk::i32 count = 0.5;
    tk::store(out, count);
  });
  (void)k;
}
