// Conan test_package: a vector addition on TileKit's CPU interpreter, checked.
#include <tk/tk.hpp>

#include <cstdio>
#include <vector>

auto vector_add =
    tk::jit("vector_add", [](tk::ptr<float> out, tk::ptr<const float> x, tk::ptr<const float> y,
                             tk::i32 n, tk::constant<int> BLOCK) {
      auto offsets = tk::program_id(0) * BLOCK + tk::arange(0, BLOCK);
      auto mask = offsets < n;
      tk::store(out + offsets, tk::load(x + offsets, mask) + tk::load(y + offsets, mask), mask);
    });

int main() {
  const int n = 1000, block = 128;
  std::vector<float> x(n), y(n), out(n);
  for (int k = 0; k < n; ++k)
    x[std::size_t(k)] = float(k), y[std::size_t(k)] = float(2 * k);
  vector_add.interpret(tk::grid(tk::cdiv(n, block)), out.data(), x.data(), y.data(), n, block);
  for (int k = 0; k < n; ++k)
    if (out[std::size_t(k)] != float(3 * k)) {
      std::printf("FAIL: out[%d] = %g\n", k, double(out[std::size_t(k)]));
      return 1;
    }
  std::printf("tilekit test_package: vector_add of %d floats on the interpreter OK\n", n);
  return 0;
}
