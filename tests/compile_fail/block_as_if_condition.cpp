// expect: (could not convert|not contextually convertible|deleted function).*bool
// A block used as a C++ `if` condition: use tk::if_ (or tk::where for blocks).
#include <tk/tk.hpp>

void check() {
  auto k = tk::jit("k", [](tk::ptr<float> out) {
    auto cols = tk::arange(0, 16);
    if (cols < 3)
      tk::store(out + cols, 1.0f);
  });
  (void)k;
}
