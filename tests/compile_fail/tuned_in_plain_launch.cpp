// expect: static assertion failed.*tk::tuned placeholder takes its value from an autotuning config
// A tk::tuned placeholder passed to a launch that does not autotune.
#include <tk/tk.hpp>

void check(float *out) {
  auto k = tk::jit("k", [](tk::ptr<float> p, tk::constant<int> BLOCK) {
    tk::store(p + tk::arange(0, BLOCK), 1.0f);
  });
  k.launch(tk::grid(1), out, tk::tuned<int>("BLOCK"));
}
