// Vector addition, the first Triton tutorial: each program instance adds one block of elements;
// the last block is masked because the length is not a multiple of the block size.
#include "example_support.hpp"

#include <cmath>
#include <random>
#include <vector>

auto vector_add =
    tk::jit("vector_add", [](tk::ptr<float> out, tk::ptr<const float> x, tk::ptr<const float> y,
                             tk::i32 n, tk::constant<int> BLOCK) {
      auto pid = tk::program_id(0);
      auto offsets = pid * BLOCK + tk::arange(0, BLOCK);
      auto mask = offsets < n;
      tk::store(out + offsets, tk::load(x + offsets, mask) + tk::load(y + offsets, mask), mask);
    });

int main() {
  const example::target where = example::choose_target();
  const int n = 98432, block = 1024;

  std::mt19937 gen(42);
  std::uniform_real_distribution<float> dist(-1.f, 1.f);
  std::vector<float> x(n), y(n), out(n);
  for (int k = 0; k < n; ++k)
    x[std::size_t(k)] = dist(gen), y[std::size_t(k)] = dist(gen);

  const double ms = example::time_ms([&] {
    vector_add.launch(tk::grid(tk::cdiv(n, block)), {.backend = where.backend}, out.data(),
                      x.data(), y.data(), n, block);
  });

  double max_error = 0;
  for (std::size_t k = 0; k < out.size(); ++k) {
    const double err = std::fabs(double(out[k]) - (double(x[k]) + double(y[k])));
    if (std::isnan(err) || err > max_error)
      max_error = err;
  }
  // One f32 rounding of a sum of magnitude < 2.
  return example::report("vector_add", std::to_string(n) + " f32", where, max_error, 1.2e-7, ms);
}
