// expect: static assertion failed.*a branch that returns a value needs an else branch
// tk::if_ whose only branch returns a value.
#include <tk/tk.hpp>

void check() {
  auto k = tk::jit("k", []() {
    auto pid = tk::program_id(0);
    tk::if_(pid == 0, [] { return tk::zeros<float>({16}); });
  });
  (void)k;
}
