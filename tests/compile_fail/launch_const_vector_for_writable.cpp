// expect: static assertion failed.*a pointer to const was passed for a writable tk::ptr<T>
// A const std::vector<float> passed for a tk::ptr<float>: the kernel may write through it.
#include <tk/tk.hpp>

#include <vector>

void check(const std::vector<float> &x) {
  auto k = tk::jit("k", [](tk::ptr<float> out) { tk::store(out, 1.0f); });
  k.interpret(tk::grid(1), x);
}
