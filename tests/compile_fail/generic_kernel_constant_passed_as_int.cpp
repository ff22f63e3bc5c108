// expect: generic kernel cannot be called with the parameter types
#include <tk/tk.hpp>

int main() {
  // A partly generic kernel: the plain int 16 selects tk::i32, but BLOCK is a tk::constant<int>.
  auto k = tk::jit(
      "k", [](auto out, tk::constant<int> BLOCK) { tk::store(out + tk::arange(0, BLOCK), 1.0f); });
  float buffer[16];
  k.interpret(tk::grid(1), &buffer[0], 16);
}
