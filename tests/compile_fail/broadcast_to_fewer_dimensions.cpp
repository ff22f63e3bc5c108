// expect: static assertion failed.*the target shape has fewer dimensions than x
// tk::broadcast_to a shape of lower rank than the block.
#include <tk/tk.hpp>

void check() {
  auto k = tk::jit("k", []() {
    auto x = tk::zeros<float>({16, 16});
    auto y = tk::broadcast_to(x, {16});
    (void)y;
  });
  (void)k;
}
