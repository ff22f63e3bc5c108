/// @file layernorm.cpp
/// Layer normalization forward, the Triton tutorial's kernel (kernels/layernorm.hpp): one program
/// instance per row, which it walks in BLOCK-wide chunks three times (mean, variance, normalize)
/// with f32 math on f16 data, also storing the row's mean and 1/std for a backward pass. Checks all
/// three outputs against a double reference.
#include "kernels/layernorm.hpp"
#include "example_support.hpp"

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

int main() {
  const example::target where = example::choose_target();
  const int rows = 128, cols = 1000;
  const float eps = 1e-5f;

  std::mt19937 gen(42);
  std::normal_distribution<float> data(2.f, 3.f), affine(1.f, 0.3f);
  std::vector<tk::half> x(std::size_t(rows) * cols), y(x.size()), w(cols), b(cols);
  for (auto &v : x)
    v = tk::half(data(gen));
  for (int c = 0; c < cols; ++c)
    w[std::size_t(c)] = tk::half(affine(gen)), b[std::size_t(c)] = tk::half(affine(gen) - 1.f);
  std::vector<float> mean(rows), rstd(rows);

  example::array<tk::half> x_arg(where, x), w_arg(where, w), b_arg(where, b);
  example::array<tk::half> y_arg(where, y, example::output);
  example::array<float> mean_arg(where, mean, example::output);
  example::array<float> rstd_arg(where, rstd, example::output);
  const double ms = example::time_ms([&] {
    examples::layernorm_tuned.launch(tk::grid(rows), {.backend = where.backend}, y_arg.arg(),
                                     x_arg.input(), w_arg.input(), b_arg.input(), mean_arg.arg(),
                                     rstd_arg.arg(), cols, cols, eps, tk::tuned<int>("BLOCK"));
    y_arg.fetch();
    mean_arg.fetch();
    rstd_arg.fetch();
  });

  // The reference works in double from the same f16 inputs. Errors are relative (to at least 1);
  // the output's own f16 rounding (2^-11) dominates them, mean and 1/std are f32.
  double max_error = 0;
  auto track = [&](double got, double want) {
    const double err = std::fabs(got - want) / std::max(1.0, std::fabs(want));
    if (std::isnan(err) || err > max_error)
      max_error = err;
  };
  for (int r = 0; r < rows; ++r) {
    const tk::half *xr = x.data() + std::size_t(r) * cols;
    double m = 0, v = 0;
    for (int c = 0; c < cols; ++c)
      m += float(xr[c]);
    m /= cols;
    for (int c = 0; c < cols; ++c)
      v += (float(xr[c]) - m) * (float(xr[c]) - m);
    const double rs = 1 / std::sqrt(v / cols + eps);
    track(mean[std::size_t(r)], m);
    track(rstd[std::size_t(r)], rs);
    for (int c = 0; c < cols; ++c) {
      const double want =
          (float(xr[c]) - m) * rs * float(w[std::size_t(c)]) + float(b[std::size_t(c)]);
      track(float(y[std::size_t(r) * cols + std::size_t(c)]), want);
    }
  }
  return example::report("layernorm",
                         std::to_string(rows) + "x" + std::to_string(cols) + " f16 (f32 math)",
                         where, max_error, std::ldexp(1.0, -10), ms);
}
