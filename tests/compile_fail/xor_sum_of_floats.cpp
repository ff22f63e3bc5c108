// expect: static assertion failed.*tk::xor_sum needs an integer \(or bool\) block
// tk::xor_sum of a float block.
#include <tk/tk.hpp>

void check() {
  auto k = tk::jit("k", []() {
    auto s = tk::xor_sum(tk::zeros<float>({16}), 0);
    (void)s;
  });
  (void)k;
}
