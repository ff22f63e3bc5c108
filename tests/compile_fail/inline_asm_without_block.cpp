// expect: static assertion failed.*tk::inline_asm_elementwise: at least one argument must be a block
// tk::inline_asm_elementwise over numbers only: the results take their shape from a block (or a
// scalar handle such as tk::f32) among the arguments.
#include <tk/tk.hpp>

#include <tuple>

void check() {
  auto k = tk::jit("k", [](tk::ptr<float> out) {
    auto y =
        tk::inline_asm_elementwise<float>("mov.b32 $0, $1;", "=r,r", std::tuple{1.0f}, true, 1);
    tk::store(out, y);
  });
  (void)k;
}
