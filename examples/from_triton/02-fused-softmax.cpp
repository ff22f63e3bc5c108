/// @file 02-fused-softmax.cpp
/// Fused softmax, Triton's tutorial 02: runs kernels/softmax.hpp, one program instance per
/// row loading the whole row (padded to a power of two, the padding masked to -inf) and normalizing
/// it in registers, and checks it against a double reference.
#include "example_support.hpp"
#include "kernels/softmax.hpp"

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

int main() {
  const example::target where = example::choose_target();
  const int rows = 256, cols = 1000;

  std::mt19937 gen(42);
  std::normal_distribution<float> dist(0.f, 2.f);
  std::vector<float> in(std::size_t(rows) * cols), out(in.size());
  for (float &v : in)
    v = dist(gen);

  example::array<float> in_arg(where, in), out_arg(where, out, example::output);
  const double ms = example::time_ms([&] {
    examples::softmax_tuned.launch(tk::grid(rows), {.backend = where.backend}, out_arg.arg(),
                                   in_arg.input(), cols, cols, int(tk::next_pow2(cols)));
    out_arg.fetch();
  });

  double max_error = 0;
  for (int r = 0; r < rows; ++r) {
    const float *x = in.data() + std::size_t(r) * cols;
    const double m = *std::max_element(x, x + cols);
    double sum = 0;
    for (int c = 0; c < cols; ++c)
      sum += std::exp(double(x[c]) - m);
    for (int c = 0; c < cols; ++c) {
      const double want = std::exp(double(x[c]) - m) / sum;
      const double err = std::fabs(double(out[std::size_t(r) * cols + std::size_t(c)]) - want);
      if (std::isnan(err) || err > max_error)
        max_error = err;
    }
  }
  // Probabilities <= 1 computed in f32 (exp, a sum of 1024 lanes, a division): a few ulps of 1.
  return example::report("softmax", std::to_string(rows) + "x" + std::to_string(cols) + " f32",
                         where, max_error, 1e-6, ms);
}
