// expect: static assertion failed.*tk::autotune: pass a buffer \(std::vector, std::span, tk::device_buffer\) to a tuned launch as its \.data\(\) pointer
// A std::vector passed to a tuned launch, which takes its arguments by value.
#include <tk/tk.hpp>

#include <vector>

void check(std::vector<float> &out) {
  auto k = tk::jit("k", [](tk::ptr<float> p, tk::constant<int> BLOCK) {
    tk::store(p + tk::arange(0, BLOCK), 1.0f);
  });
  auto tuned = tk::autotune(k, {.configs = {{{{"BLOCK", 16}}, 4}, {{{"BLOCK", 32}}, 4}}});
  tuned.launch(tk::grid(1), out, tk::tuned<int>("BLOCK"));
}
