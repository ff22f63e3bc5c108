// expect: static assertion failed.*tk::if_: both branches must return the same type
// tk::if_ whose branches return blocks of different element types.
#include <tk/tk.hpp>

void check() {
  auto k = tk::jit("k", []() {
    auto pid = tk::program_id(0);
    auto x = tk::if_(
        pid == 0, [] { return tk::zeros<float>({16}); }, [] { return tk::zeros<int>({16}); });
    (void)x;
  });
  (void)k;
}
