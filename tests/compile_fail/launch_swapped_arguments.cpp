// expect: static assertion failed.*a tk::ptr<T> parameter needs a pointer argument
// Two launch arguments swapped (the size first, then the buffer): one error, about the first
// argument that does not fit, and nothing instantiated after it.
#include <tk/tk.hpp>

#include <vector>

void check(std::vector<float> &x) {
  auto k = tk::jit("k", [](tk::ptr<float> out, tk::i32 n, tk::constant<int> BLOCK) {
    auto offs = tk::program_id(0) * BLOCK + tk::arange(0, BLOCK);
    tk::store(out + offs, 1.0f, offs < n);
  });
  const int n = int(x.size());
  k.launch(tk::grid(1), n, x.data(), tk::constant<int>(64));
}
