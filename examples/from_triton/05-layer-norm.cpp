/// @file 05-layer-norm.cpp
/// Layer normalization, Triton's tutorial 05, forward and backward (kernels/layernorm.hpp,
/// kernels/layernorm_backward.hpp), f16 activations and gradients with f32 math.
/// - Forward: one program per row walks it in BLOCK-wide chunks three times (mean, variance,
///   normalize) and stores the row's mean and 1/std for the backward pass; BLOCK is autotuned.
/// - Backward: one program per row computes dX and adds its share of dW and dB into partial rows,
///   one per group of rows, each under its own spin lock (atomic_cas, atomic_xchg); a second
///   kernel sums the partial rows.
/// Checks Y, mean, 1/std, dX, dW and dB against a double reference.
#include "example_support.hpp"
#include "kernels/layernorm.hpp"
#include "kernels/layernorm_backward.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace {

/// The largest error seen, relative to a scale of at least 1; NaN counts as infinitely wrong.
struct max_error {
  double value = 0;
  void track(double got, double want, double scale) {
    const double err = std::fabs(got - want) / std::max(1.0, scale);
    if (std::isnan(err) || err > value)
      value = err;
  }
};

} // namespace

int main() {
  const example::target where = example::choose_target();
  const int rows = 1151, cols = 1000;
  const int block = int(tk::next_pow2(cols));
  // The tutorial's choice: more groups (less waiting on each lock) for shorter rows.
  const int group = cols <= 1024 ? 256 : cols <= 4096 ? 128 : cols <= 8192 ? 96 : 64;
  const float eps = 1e-5f;

  std::mt19937 gen(7);
  std::normal_distribution<float> data(2.f, 3.f), grad(0.f, 1.f), affine(1.f, 0.3f);
  std::vector<tk::half> x(std::size_t(rows) * cols), dy(x.size()), y(x.size()), dx(x.size());
  std::vector<float> w(cols), b(cols), mean(rows), rstd(rows);
  for (auto &v : x)
    v = tk::half(data(gen));
  for (auto &v : dy)
    v = tk::half(grad(gen));
  for (int c = 0; c < cols; ++c)
    w[std::size_t(c)] = affine(gen), b[std::size_t(c)] = affine(gen) - 1.f;
  // The locks and counters, then the partial sums: all zero to start with.
  std::vector<std::int32_t> locks(2 * std::size_t(group), 0);
  std::vector<float> partial_dw(std::size_t(group) * cols, 0.f), partial_db(partial_dw.size(), 0.f);
  std::vector<float> dw(cols), db(cols);

  example::array<tk::half> x_arg(where, x), dy_arg(where, dy);
  example::array<tk::half> y_arg(where, y, example::output), dx_arg(where, dx, example::output);
  example::array<float> w_arg(where, w), b_arg(where, b);
  example::array<float> mean_arg(where, mean, example::output);
  example::array<float> rstd_arg(where, rstd, example::output);
  example::array<std::int32_t> locks_arg(where, locks);
  example::array<float> pdw_arg(where, partial_dw), pdb_arg(where, partial_db);
  example::array<float> dw_arg(where, dw, example::output), db_arg(where, db, example::output);
  const tk::launch_options options{.backend = where.backend};
  const double ms = example::time_ms([&] {
    examples::layernorm_tuned.launch(tk::grid(rows), options, y_arg.arg(), x_arg.input(),
                                     w_arg.input(), b_arg.input(), mean_arg.arg(), rstd_arg.arg(),
                                     cols, cols, eps, tk::tuned<int>("BLOCK"));
    examples::layernorm_backward_dx.launch(
        tk::grid(rows), options, dx_arg.arg(), dy_arg.input(), pdw_arg.arg(), pdb_arg.arg(),
        x_arg.input(), w_arg.input(), mean_arg.input(), rstd_arg.input(), locks_arg.arg(), cols,
        cols, tk::constant(group), tk::constant(block));
    examples::layernorm_backward_dwdb.launch(
        tk::grid(tk::cdiv(cols, 128)), options, pdw_arg.input(), pdb_arg.input(), dw_arg.arg(),
        db_arg.arg(), group, cols, tk::constant(32), tk::constant(128));
    for (auto *out : {&y_arg, &dx_arg})
      out->fetch();
    for (auto *out : {&mean_arg, &rstd_arg, &dw_arg, &db_arg})
      out->fetch();
    locks_arg.fetch();
  });

  // The reference works in double from the same f16 inputs. Y's and dX's errors are relative to
  // at least 1 (their own f16 rounding, 2^-11, dominates them); mean and 1/std are f32; dW's and
  // dB's are relative to the sum of the magnitudes of their terms (f32 sums, in an order that
  // depends on the locks).
  max_error forward, backward;
  std::vector<double> ref_dw(cols, 0.0), ref_db(cols, 0.0), abs_dw(cols, 0.0), abs_db(cols, 0.0);
  for (int r = 0; r < rows; ++r) {
    const std::size_t row = std::size_t(r) * cols;
    double m = 0, v = 0;
    for (int c = 0; c < cols; ++c)
      m += float(x[row + std::size_t(c)]);
    m /= cols;
    for (int c = 0; c < cols; ++c)
      v += (float(x[row + std::size_t(c)]) - m) * (float(x[row + std::size_t(c)]) - m);
    const double rs = 1 / std::sqrt(v / cols + eps);
    forward.track(mean[std::size_t(r)], m, std::fabs(m));
    forward.track(rstd[std::size_t(r)], rs, rs);
    double c1 = 0, c2 = 0;
    for (int c = 0; c < cols; ++c) {
      const std::size_t k = row + std::size_t(c);
      const double xhat = (float(x[k]) - m) * rs, g = float(dy[k]);
      const double want_y = xhat * w[std::size_t(c)] + b[std::size_t(c)];
      forward.track(float(y[k]), want_y, std::fabs(want_y));
      const double wdy = w[std::size_t(c)] * g;
      c1 += xhat * wdy, c2 += wdy;
      ref_dw[std::size_t(c)] += g * xhat, ref_db[std::size_t(c)] += g;
      abs_dw[std::size_t(c)] += std::fabs(g * xhat), abs_db[std::size_t(c)] += std::fabs(g);
    }
    c1 /= cols, c2 /= cols;
    for (int c = 0; c < cols; ++c) {
      const std::size_t k = row + std::size_t(c);
      const double xhat = (float(x[k]) - m) * rs, wdy = w[std::size_t(c)] * double(float(dy[k]));
      const double want = (wdy - (xhat * c1 + c2)) * rs;
      backward.track(float(dx[k]), want, std::fabs(want));
    }
  }
  for (int c = 0; c < cols; ++c) {
    backward.track(dw[std::size_t(c)], ref_dw[std::size_t(c)], abs_dw[std::size_t(c)]);
    backward.track(db[std::size_t(c)], ref_db[std::size_t(c)], abs_db[std::size_t(c)]);
  }
  // Every lock released, every group's counter set.
  for (int g = 0; g < group; ++g)
    if (locks[std::size_t(g)] != 0 || locks[std::size_t(group + g)] != 1)
      backward.value = 1e30;
  const std::string size = std::to_string(rows) + "x" + std::to_string(cols) + " f16";
  const int status = example::report("layer_norm forward", size + " (f32 math)", where,
                                     forward.value, std::ldexp(1.0, -10), ms);
  return status | example::report("layer_norm backward",
                                  size + ", " + std::to_string(group) + " locked groups", where,
                                  backward.value, std::ldexp(1.0, -10), ms);
}
