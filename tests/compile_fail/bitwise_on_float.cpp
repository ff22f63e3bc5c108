// expect: static assertion failed.*bitwise operators and shifts need integer or boolean blocks
// A bitwise operator on float blocks: tk::bitcast them to an integer type first.
#include <tk/tk.hpp>

void check() {
  auto k = tk::jit("k", []() {
    auto x = tk::zeros<float>({16});
    auto y = tk::zeros<float>({16});
    auto z = x & y;
    (void)z;
  });
  (void)k;
}
