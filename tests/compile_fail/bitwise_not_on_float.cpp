// expect: static assertion failed.*operator~ needs an integer block
// operator~ on a float block.
#include <tk/tk.hpp>

void check() {
  auto k = tk::jit("k", []() {
    auto x = tk::zeros<float>({16});
    auto y = ~x;
    (void)y;
  });
  (void)k;
}
