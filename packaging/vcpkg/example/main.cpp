// out = alpha * x + y on TileKit's CPU interpreter, checked against plain C++; `kernel.launch`
// runs the same kernel on the GPU when the package has the backend (feature `backend`).
#include <tk/tk.hpp>

#include <cmath>
#include <cstdio>
#include <vector>

auto saxpy = tk::jit("saxpy", [](tk::ptr<float> out, tk::ptr<const float> x, tk::ptr<const float> y,
                                 tk::f32 alpha, tk::i32 n, tk::constant<int> BLOCK) {
  auto offs = tk::program_id(0) * BLOCK + tk::arange(0, BLOCK);
  auto mask = offs < n;
  tk::store(out + offs, alpha * tk::load(x + offs, mask) + tk::load(y + offs, mask), mask);
});

int main() {
  const int n = 1000;
  std::vector<float> x(n), y(n), out(n);
  for (int k = 0; k < n; ++k) {
    x[std::size_t(k)] = float(k % 13) * 0.25f;
    y[std::size_t(k)] = float(k % 7);
  }
  saxpy.interpret(tk::grid(tk::cdiv(n, 256)), out.data(), x.data(), y.data(), 2.0f, n,
                  tk::constant(256));

  double worst = 0;
  for (int k = 0; k < n; ++k)
    worst = std::fmax(worst, std::fabs(double(out[std::size_t(k)]) -
                                       (2.0 * x[std::size_t(k)] + y[std::size_t(k)])));
  std::printf("saxpy of %d elements on the interpreter: max error %.3g\n", n, worst);
  return worst == 0 ? 0 : 1;
}
