/// @file interpreter_reduce_tuple.cpp
/// Reductions and scans over several blocks at once (Triton's tuple combine functions), user
/// combine functions of one block, `max`/`min` with indices, `keep_dims` on `argmax` and
/// `reduce`, an accumulator type for `sum` and `cumsum`, `xor_sum` and `reduce_or`: each in a
/// kernel someone would write (a Welford layernorm, an online softmax, a segmented scan), against
/// a host reference. Built into tk_gpu_numerics too, so the same kernels run on the GPU.
#include "interpreter_support.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <tuple>
#include <vector>

namespace {

// ---------------------------------------------------------------------------------------------
// Welford: mean and M2 in one reduction, as Triton's layernorm with `tl.reduce` over a tuple.

/// Merges two (mean, M2, count) partial results (Chan et al.'s pairwise update).
auto welford_combine(tk::f32 mean_a, tk::f32 m2_a, tk::f32 n_a, tk::f32 mean_b, tk::f32 m2_b,
                     tk::f32 n_b) {
  auto n = n_a + n_b;
  auto b_share = tk::where(n == 0.f, 0.f, n_b / n);
  auto delta = mean_b - mean_a;
  return std::tuple{mean_a + delta * b_share, m2_a + m2_b + delta * delta * n_a * b_share, n};
}

auto welford_layernorm =
    tk::jit("welford_layernorm", [](tk::ptr<float> y, tk::ptr<float> mean_out,
                                    tk::ptr<float> rstd_out, tk::ptr<const float> x, tk::i32 n,
                                    tk::f32 eps, tk::constant<int> BLOCK) {
      auto row = tk::program_id(0);
      auto cols = tk::arange(0, BLOCK);
      auto mask = cols < n;
      auto v = tk::load(x + row * n + cols, mask, 0.f);
      auto zero = tk::zeros<float>({BLOCK});
      auto count = tk::where(mask, 1.f, 0.f);
      auto [mean, m2, total] = tk::reduce(std::tuple{v, zero, count}, 0,
                                          [](auto... args) { return welford_combine(args...); });
      auto rstd = tk::rsqrt(m2 / total + eps);
      tk::store(mean_out + row, mean);
      tk::store(rstd_out + row, rstd);
      tk::store(y + row * n + cols, (v - mean) * rstd, mask);
    });

TEST_CASE("interpreter: a Welford layernorm reduces (mean, M2, count) in one tk::reduce",
          "[interpreter][numerics][reduce]") {
  TK_TEST_RANDOM(gen);
  const int rows = 7, n = GENERATE(1, 37, 256, 1000);
  CAPTURE(n);
  const float eps = 1e-5f;
  auto x = tk_test::uniform(gen, std::size_t(rows * n), -4, 6);
  std::vector<float> y(x.size()), mean(static_cast<std::size_t>(rows)),
      rstd(static_cast<std::size_t>(rows));
  tk_test::run(welford_layernorm, tk::grid(rows), y, mean, rstd, std::as_const(x), n, eps,
               tk::constant<int>(int(tk::next_pow2(n))));
  std::vector<double> want_y(x.size()), want_mean(static_cast<std::size_t>(rows)),
      want_rstd(static_cast<std::size_t>(rows));
  for (int r = 0; r < rows; ++r) {
    double s = 0, ss = 0;
    for (int c = 0; c < n; ++c)
      s += x[std::size_t(r * n + c)];
    const double mu = s / n;
    for (int c = 0; c < n; ++c)
      ss += (x[std::size_t(r * n + c)] - mu) * (x[std::size_t(r * n + c)] - mu);
    const double inv = 1 / std::sqrt(ss / n + eps);
    want_mean[std::size_t(r)] = mu;
    want_rstd[std::size_t(r)] = inv;
    for (int c = 0; c < n; ++c)
      want_y[std::size_t(r * n + c)] = (x[std::size_t(r * n + c)] - mu) * inv;
  }
  TK_CHECK_CLOSE(mean, want_mean, 1e-5, 1e-5);
  TK_CHECK_CLOSE(rstd, want_rstd, 1e-5, 1e-4);
  TK_CHECK_CLOSE(y, want_y, 1e-4, 1e-4);
}

// ---------------------------------------------------------------------------------------------
// Online softmax: (running max, sum of exp relative to it) pairs combined in one reduction.

auto logsumexp_rows =
    tk::jit("logsumexp_rows", [](tk::ptr<float> out, tk::ptr<const float> x, tk::i32 n_rows,
                                 tk::i32 n, tk::constant<int> ROWS, tk::constant<int> BLOCK) {
      auto r = tk::program_id(0) * ROWS + tk::arange(0, ROWS);
      auto c = tk::arange(0, BLOCK);
      auto mask = (r(tk::_, tk::newaxis) < n_rows) & (c(tk::newaxis, tk::_) < n);
      auto v =
          tk::load(x + r(tk::_, tk::newaxis) * n + c(tk::newaxis, tk::_), mask, -tk::inf<float>());
      auto ones = tk::where(mask, 1.f, 0.f);
      // Pairs as two tuples this time: combine(std::tuple{m1, s1}, std::tuple{m2, s2}).
      auto [m, s] = tk::reduce(std::tuple{v, ones}, 1, [](auto lhs, auto rhs) {
        auto [m1, s1] = lhs;
        auto [m2, s2] = rhs;
        auto top = tk::maximum(m1, m2);
        auto scale = [&](tk::f32 mk) { return tk::where(mk == top, 1.f, tk::exp(mk - top)); };
        return std::pair{top, s1 * scale(m1) + s2 * scale(m2)};
      });
      tk::store(out + r, m + tk::log(s), r < n_rows);
    });

TEST_CASE("interpreter: an online softmax reduces (max, sum) pairs in one tk::reduce",
          "[interpreter][numerics][reduce]") {
  TK_TEST_RANDOM(gen);
  const int rows = 19, n = GENERATE(3, 64, 300);
  CAPTURE(n);
  auto x = tk_test::uniform(gen, std::size_t(rows * n), -30, 30);
  std::vector<float> out(static_cast<std::size_t>(rows));
  tk_test::run(logsumexp_rows, tk::grid(tk::cdiv(rows, 4)), out, std::as_const(x), rows, n,
               tk::constant<int>(4), tk::constant<int>(int(tk::next_pow2(n))));
  std::vector<double> want(static_cast<std::size_t>(rows));
  for (int r = 0; r < rows; ++r) {
    const float *row = x.data() + r * n;
    const double top = *std::max_element(row, row + n);
    double s = 0;
    for (int c = 0; c < n; ++c)
      s += std::exp(double(row[c]) - top);
    want[std::size_t(r)] = top + std::log(s);
  }
  TK_CHECK_CLOSE(out, want, 1e-5, 1e-5);
}

// ---------------------------------------------------------------------------------------------
// Segmented scan: (value, segment start) pairs; a flag restarts the running sum.

auto segmented_sum =
    tk::jit("segmented_sum", [](tk::ptr<std::int32_t> out, tk::ptr<std::int32_t> out_rows,
                                tk::ptr<const std::int32_t> v, tk::ptr<const std::int32_t> starts,
                                tk::constant<int> N) {
      auto offs = tk::arange(0, N);
      auto x = tk::load(v + offs);
      auto f = tk::load(starts + offs);
      auto combine = [](tk::i32 v1, tk::i32 f1, tk::i32 v2, tk::i32 f2) {
        return std::tuple{tk::where(f2 != 0, v2, v1 + v2), f1 | f2};
      };
      auto [sums, flags] = tk::associative_scan(std::tuple{x, f}, 0, combine);
      tk::store(out + offs, sums);
      (void)flags;
      // The same along the rows of a [4, N / 4] view.
      auto rows = tk::reshape(x, {4, N / 4});
      auto row_flags = tk::reshape(f, {4, N / 4});
      auto [row_sums, _] = tk::associative_scan(std::tuple{rows, row_flags}, 1, combine);
      tk::store(out_rows + tk::reshape(offs, {4, N / 4}), row_sums);
    });

TEST_CASE("interpreter: a segmented sum scans (value, flag) pairs with tk::associative_scan",
          "[interpreter][numerics][scan]") {
  TK_TEST_RANDOM(gen);
  const int n = 256;
  auto v = tk_test::integers<std::int32_t>(gen, n, -1000, 1000);
  auto starts = tk_test::integers<std::int32_t>(gen, n, 0, 5);
  for (auto &s : starts)
    s = s == 0 ? 1 : 0; // about one start in six
  std::vector<std::int32_t> out(n), out_rows(n);
  tk_test::run(segmented_sum, tk::grid(1), out, out_rows, std::as_const(v), std::as_const(starts),
               tk::constant<int>(n));
  std::vector<std::int32_t> want(n), want_rows(n);
  for (int k = 0; k < n; ++k) {
    const auto restart = [&](bool row_start) { return starts[std::size_t(k)] != 0 || row_start; };
    want[std::size_t(k)] =
        restart(k == 0) ? v[std::size_t(k)] : want[std::size_t(k - 1)] + v[std::size_t(k)];
    want_rows[std::size_t(k)] = restart(k % (n / 4) == 0)
                                    ? v[std::size_t(k)]
                                    : want_rows[std::size_t(k - 1)] + v[std::size_t(k)];
  }
  TK_CHECK_EQUAL(out, want);
  TK_CHECK_EQUAL(out_rows, want_rows);
}

// ---------------------------------------------------------------------------------------------
// One-block user combine functions, keep_dims, and a reverse tuple scan.

auto custom_combines = tk::jit(
    "custom_combines", [](tk::ptr<float> absmax, tk::ptr<float> scaled, tk::ptr<float> running,
                          tk::ptr<float> suffix_sum, tk::ptr<float> suffix_max,
                          tk::ptr<const float> x, tk::constant<int> R, tk::constant<int> C) {
      auto offs = tk::arange(0, R)(tk::_, tk::newaxis) * C + tk::arange(0, C)(tk::newaxis, tk::_);
      auto v = tk::load(x + offs);
      auto largest = [](tk::f32 a, tk::f32 b) { return tk::maximum(tk::abs(a), tk::abs(b)); };
      tk::store(absmax + tk::arange(0, R), tk::reduce(v, 1, largest));
      auto per_row = tk::reduce(v, 1, largest, tk::keep_dims); // [R, 1]
      static_assert(std::is_same_v<decltype(per_row), tk::block<float, 2>>);
      tk::store(scaled + offs, v / per_row);
      tk::store(running + offs,
                tk::associative_scan(v, 1, [](tk::f32 a, tk::f32 b) { return tk::maximum(a, b); }));
      auto [s, m] = tk::associative_scan(
          std::tuple{v, v}, 1,
          [](tk::f32 s1, tk::f32 m1, tk::f32 s2, tk::f32 m2) {
            return std::tuple{s1 + s2, tk::maximum(m1, m2)};
          },
          true);
      tk::store(suffix_sum + offs, s);
      tk::store(suffix_max + offs, m);
    });

TEST_CASE("interpreter: user combine functions of one block, keep_dims, and a reverse tuple scan",
          "[interpreter][numerics][reduce][scan]") {
  TK_TEST_RANDOM(gen);
  const int R = 8, C = 32;
  auto x = tk_test::uniform(gen, R * C, -10, 10);
  std::vector<float> absmax(R), scaled(R * C), running(R * C), suffix_sum(R * C), suffix_max(R * C);
  tk_test::run(custom_combines, tk::grid(1), absmax, scaled, running, suffix_sum, suffix_max,
               std::as_const(x), tk::constant<int>(R), tk::constant<int>(C));
  std::vector<float> want_absmax(R), want_scaled(R * C), want_running(R * C);
  std::vector<double> want_sum(R * C);
  std::vector<float> want_max(R * C);
  for (int r = 0; r < R; ++r) {
    float m = 0;
    for (int c = 0; c < C; ++c)
      m = std::max(m, std::fabs(x[std::size_t(r * C + c)]));
    want_absmax[std::size_t(r)] = m;
    for (int c = 0; c < C; ++c) {
      const auto k = std::size_t(r * C + c);
      want_scaled[k] = x[k] / m;
      want_running[k] = c == 0 ? x[k] : std::max(want_running[k - 1], x[k]);
    }
    for (int c = C - 1; c >= 0; --c) {
      const auto k = std::size_t(r * C + c);
      want_sum[k] = c == C - 1 ? x[k] : want_sum[k + 1] + x[k];
      want_max[k] = c == C - 1 ? x[k] : std::max(want_max[k + 1], x[k]);
    }
  }
  TK_CHECK_EQUAL(absmax, want_absmax);
  TK_CHECK_EQUAL(scaled, want_scaled);
  TK_CHECK_EQUAL(running, want_running);
  TK_CHECK_CLOSE(suffix_sum, want_sum, 1e-4, 1e-5);
  TK_CHECK_EQUAL(suffix_max, want_max);
}

// ---------------------------------------------------------------------------------------------
// max/min with indices, argmax with keep_dims and tie_break::any.

auto extremes =
    tk::jit("extremes", [](tk::ptr<float> max_v, tk::ptr<std::int32_t> max_i, tk::ptr<float> min_v,
                           tk::ptr<std::int32_t> min_i, tk::ptr<std::int32_t> arg_kept,
                           tk::ptr<std::int32_t> arg_any, tk::ptr<const float> x,
                           tk::constant<int> R, tk::constant<int> C) {
      auto rows = tk::arange(0, R);
      auto offs = rows(tk::_, tk::newaxis) * C + tk::arange(0, C)(tk::newaxis, tk::_);
      auto v = tk::load(x + offs);
      auto [hi, hi_at] = tk::max(v, 1, tk::return_indices);
      tk::store(max_v + rows, hi);
      tk::store(max_i + rows, hi_at);
      auto [lo, lo_at] = tk::min(v, 1, tk::return_indices_t{tk::tie_break::any}, tk::keep_dims);
      static_assert(std::is_same_v<decltype(lo_at), tk::block<std::int32_t, 2>>);
      tk::store(min_v + rows(tk::_, tk::newaxis), lo);
      tk::store(min_i + rows(tk::_, tk::newaxis), lo_at);
      auto kept = tk::argmax(v, 0, tk::keep_dims); // [1, C]
      tk::store(arg_kept + tk::arange(0, C)(tk::newaxis, tk::_), kept);
      tk::store(arg_any + rows, tk::argmin(v, 1, tk::tie_break::any));
    });

TEST_CASE("interpreter: max and min with indices, argmax with keep_dims, argmin with any tie",
          "[interpreter][numerics][reduce]") {
  TK_TEST_RANDOM(gen);
  const int R = 16, C = 64;
  auto x = tk_test::uniform(gen, R * C, -100, 100); // continuous: no ties
  std::vector<float> max_v(R), min_v(R);
  std::vector<std::int32_t> max_i(R), min_i(R), arg_kept(C), arg_any(R);
  tk_test::run(extremes, tk::grid(1), max_v, max_i, min_v, min_i, arg_kept, arg_any,
               std::as_const(x), tk::constant<int>(R), tk::constant<int>(C));
  std::vector<float> want_max_v(R), want_min_v(R);
  std::vector<std::int32_t> want_max_i(R), want_min_i(R), want_kept(C);
  for (int r = 0; r < R; ++r) {
    const float *row = x.data() + r * C;
    want_max_i[std::size_t(r)] = std::int32_t(std::max_element(row, row + C) - row);
    want_min_i[std::size_t(r)] = std::int32_t(std::min_element(row, row + C) - row);
    want_max_v[std::size_t(r)] = row[want_max_i[std::size_t(r)]];
    want_min_v[std::size_t(r)] = row[want_min_i[std::size_t(r)]];
  }
  for (int c = 0; c < C; ++c) {
    int best = 0;
    for (int r = 1; r < R; ++r)
      if (x[std::size_t(r * C + c)] > x[std::size_t(best * C + c)])
        best = r;
    want_kept[std::size_t(c)] = best;
  }
  TK_CHECK_EQUAL(max_v, want_max_v);
  TK_CHECK_EQUAL(max_i, want_max_i);
  TK_CHECK_EQUAL(min_v, want_min_v);
  TK_CHECK_EQUAL(min_i, want_min_i);
  TK_CHECK_EQUAL(arg_kept, want_kept);
  TK_CHECK_EQUAL(arg_any, want_min_i);
}

// ---------------------------------------------------------------------------------------------
// Accumulator types (Triton's dtype=), xor_sum and reduce_or.

auto accumulators =
    tk::jit("accumulators", [](tk::ptr<float> half_sum, tk::ptr<std::int64_t> wide_sum,
                               tk::ptr<std::int64_t> wide_scan, tk::ptr<std::int32_t> xors,
                               tk::ptr<std::int32_t> ors, tk::ptr<const tk::half> h,
                               tk::ptr<const std::int32_t> big, tk::constant<int> N) {
      auto offs = tk::arange(0, N);
      auto s = tk::sum<float>(tk::load(h + offs), 0);
      static_assert(std::is_same_v<decltype(s), tk::f32>);
      tk::store(half_sum, s);
      auto b = tk::load(big + offs);
      tk::store(wide_sum, tk::sum<std::int64_t>(b));
      tk::store(wide_scan + offs, tk::cumsum<std::int64_t>(b));
      auto grid = tk::reshape(b, {4, N / 4});
      tk::store(xors + tk::arange(0, 4)(tk::_, tk::newaxis), tk::xor_sum(grid, 1, tk::keep_dims));
      tk::store(xors + 4, tk::xor_sum(b));
      tk::store(ors + tk::arange(0, N / 4), tk::reduce_or(grid, 0));
    });

TEST_CASE("interpreter: sum and cumsum in a chosen accumulator, xor_sum and reduce_or",
          "[interpreter][numerics][reduce]") {
  TK_TEST_RANDOM(gen);
  const int n = 256;
  // 256 halves near 300 sum past f16's largest value (65504); f32 holds the sum.
  auto h = tk_test::uniform<tk::half>(gen, n, 250, 350);
  // i32 values near 2^30: their sum overflows i32 but not i64.
  auto big = tk_test::integers<std::int32_t>(gen, n, 1 << 29, (1 << 30) + (1 << 29));
  std::vector<float> half_sum(1);
  std::vector<std::int64_t> wide_sum(1), wide_scan(n);
  std::vector<std::int32_t> xors(5), ors(n / 4);
  tk_test::run(accumulators, tk::grid(1), half_sum, wide_sum, wide_scan, xors, ors,
               std::as_const(h), std::as_const(big), tk::constant<int>(n));
  double want_half = 0;
  for (auto v : h)
    want_half += double(float(v));
  std::int64_t total = 0;
  std::vector<std::int64_t> want_scan(n);
  std::vector<std::int32_t> want_xors(5, 0), want_ors(n / 4, 0);
  for (int k = 0; k < n; ++k) {
    total += big[std::size_t(k)];
    want_scan[std::size_t(k)] = total;
    want_xors[std::size_t(k / (n / 4))] ^= big[std::size_t(k)];
    want_xors[4] ^= big[std::size_t(k)];
    want_ors[std::size_t(k % (n / 4))] |= big[std::size_t(k)];
  }
  REQUIRE(total > std::numeric_limits<std::int32_t>::max());
  TK_CHECK_CLOSE(half_sum, std::vector<double>{want_half}, 0, 1e-6);
  TK_CHECK_EQUAL(wide_sum, std::vector<std::int64_t>{total});
  TK_CHECK_EQUAL(wide_scan, want_scan);
  TK_CHECK_EQUAL(xors, want_xors);
  TK_CHECK_EQUAL(ors, want_ors);
}

} // namespace
