// expect: static assertion failed.*bitcast: source and destination types must have the same size
// tk::bitcast between types of different sizes: use tk::cast for value conversions.
#include <tk/tk.hpp>

void check() {
  auto k = tk::jit("k", []() {
    auto x = tk::zeros<float>({16});
    auto y = tk::bitcast<std::int64_t>(x);
    (void)y;
  });
  (void)k;
}
