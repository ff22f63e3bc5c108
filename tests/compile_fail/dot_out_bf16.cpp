// expect: static assertion failed.*tk::dot<Out>: the result type
// tk::dot<bfloat16>: Triton's out_dtype=bfloat16 is not a tensor-core accumulator either.
#include <tk/tk.hpp>

void check() {
  auto k = tk::jit("k", []() {
    auto a = tk::zeros<tk::half>({32, 32});
    auto b = tk::zeros<tk::half>({32, 32});
    auto c = tk::dot<tk::bfloat16>(a, b);
    (void)c;
  });
  (void)k;
}
