// expect: static assertion failed.*tk::multiple_of: hints apply to integer blocks
// tk::multiple_of on an f32 block: hints describe integer offsets, not the values loaded.
#include <tk/tk.hpp>

void check() {
  auto k = tk::jit("k", [](tk::ptr<float> out, tk::ptr<const float> in) {
    auto offs = tk::arange(0, 16);
    auto x = tk::multiple_of(tk::load(in + offs), 16);
    tk::store(out + offs, x);
  });
  (void)k;
}
