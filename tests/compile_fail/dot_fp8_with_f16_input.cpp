// expect: static assertion failed.*tk::dot: both inputs must have the same element type \(or be two fp8 types\)
// tk::dot of an fp8 block and an f16 block: two fp8 types may mix, fp8 and f16 may not.
#include <tk/tk.hpp>

void check() {
  auto k = tk::jit("k", []() {
    auto a = tk::zeros<tk::f8e5m2>({32, 32});
    auto b = tk::zeros<tk::half>({32, 32});
    auto c = tk::dot(a, b);
    (void)c;
  });
  (void)k;
}
