// expect: static assertion failed.*tk::launch_view: read a value as a bool, an integer, an enum, a floating-point type or a pointer
// A launch_view read as a type that no launch argument is.
#include <tk/tk.hpp>

#include <string>

void check() {
  auto k = tk::jit("k", [](tk::ptr<float> p, tk::constant<int> BLOCK) {
    tk::store(p + tk::arange(0, BLOCK), 1.0f);
  });
  (void)tk::heuristics(
      k, {{"BLOCK", [](const tk::launch_view &a) { return a.arg<std::string>(0).size(); }}});
}
