/// @file kernels.cpp
/// A kernel file of a program built with TK_SEPARATE_COMPILATION (test link.separate_mistakes):
/// linked without, with one and with two files including <tk/implementation.hpp>.
#include <tk/tk.hpp>

#include <vector>

int main() {
  auto fill = tk::jit("fill", [](tk::ptr<float> out, tk::i32 n, tk::constant<int> BLOCK) {
    auto cols = tk::arange(0, BLOCK);
    tk::store(out + cols, 1.0f, cols < n);
  });
  std::vector<float> out(16);
  fill.interpret(tk::grid(1), out, 16, tk::constant(16));
  return out[15] == 1.0f ? 0 : 1;
}
