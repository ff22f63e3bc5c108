// expect: static assertion failed.*cannot be passed to a generic \(auto\) kernel parameter
// A generic kernel launched with an argument that is neither a pointer, a number nor a
// tk::constant.
#include <tk/tk.hpp>

void check() {
  struct not_a_number {};
  auto k = tk::jit("k", [](auto x) { (void)x; });
  (void)k.ir(not_a_number{});
}
