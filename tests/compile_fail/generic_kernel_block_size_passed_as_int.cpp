// expect: static assertion failed.*tk::arange: its bounds must be known when the kernel is traced.*declare the parameter tk::constant<int> and pass tk::constant\(BLOCK\) at the launch
// A generic kernel's block size passed as a plain int: the auto parameter becomes a tk::i32, a
// run-time value, which tk::arange cannot take. Fix: pass tk::constant(128).
#include <tk/tk.hpp>

int main() {
  auto k = tk::jit("k", [](auto out, auto BLOCK) { tk::store(out + tk::arange(0, BLOCK), 1.0f); });
  float buffer[128];
  k.interpret(tk::grid(1), &buffer[0], 128);
}
