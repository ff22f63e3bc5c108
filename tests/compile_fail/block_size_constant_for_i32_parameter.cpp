// expect: static assertion failed.*tk::arange: its bounds must be known when the kernel is traced.*declare the parameter tk::constant<int>
// A block size passed as tk::constant(128) to a kernel that takes it as a tk::i32: the parameter
// stays a run-time value, which tk::arange cannot take. Fix: declare it tk::constant<int>.
#include <tk/tk.hpp>

int main() {
  auto k = tk::jit(
      "k", [](tk::ptr<float> out, tk::i32 BLOCK) { tk::store(out + tk::arange(0, BLOCK), 1.0f); });
  float buffer[128];
  k.interpret(tk::grid(1), &buffer[0], tk::constant(128));
}
