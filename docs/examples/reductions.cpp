/// @file reductions.cpp
/// docs/writing-kernels.md: reductions and scans.
#include "doc_examples.hpp"

#include <cmath>
#include <cstdint>
#include <tuple>
#include <vector>

namespace {

// [snippet:softmax]
auto softmax = tk::jit("softmax", [](tk::ptr<float> out, tk::ptr<const float> in, tk::i32 stride,
                                     tk::i32 n_cols, tk::constant<int> BLOCK) {
  auto row = tk::program_id(0);
  auto cols = tk::arange(0, BLOCK);
  auto mask = cols < n_cols;
  auto x = tk::load(in + row * stride + cols, mask, -tk::inf<float>());
  auto e = tk::exp(x - tk::max(x, 0)); // tk::max(x, 0): a tk::f32, broadcast back over x
  tk::store(out + row * stride + cols, e / tk::sum(e, 0), mask);
});
// [/snippet]

// [snippet:keep_dims]
// Normalizes each row of an R x C tile so that it sums to one.
auto normalize_rows =
    tk::jit("normalize_rows", [](tk::ptr<float> p, tk::constant<int> R, tk::constant<int> C) {
      auto offs = tk::arange(0, R)(tk::_, tk::newaxis) * C + tk::arange(0, C); // [R, C]
      auto x = tk::load(p + offs);
      auto per_row = tk::sum(x, 1);                   // [R]
      auto per_row_2d = tk::sum(x, 1, tk::keep_dims); // [R, 1]: broadcasts against [R, C]
      tk::store(p + offs, x / per_row_2d);
      (void)per_row;
    });
// [/snippet]

// [snippet:argmax]
auto argmax = tk::jit("argmax", [](tk::ptr<std::int32_t> out, tk::ptr<const float> in) {
  auto x = tk::load(in + tk::arange(0, 8));
  tk::store(out, tk::argmax(x, 0));     // the first index of the largest value
  tk::store(out + 1, tk::argmin(x, 0)); // the first index of the smallest value
});
// [/snippet]

// [snippet:reduce]
auto absmax = tk::jit("absmax", [](tk::ptr<float> out, tk::ptr<const float> in) {
  auto x = tk::load(in + tk::arange(0, 16));
  // combine(a, b) must be associative and commutative: lanes meet in a tree.
  auto m =
      tk::reduce(x, 0, [](tk::f32 a, tk::f32 b) { return tk::maximum(tk::abs(a), tk::abs(b)); });
  tk::store(out, m);
});
// [/snippet]

// [snippet:scans]
auto scans = tk::jit("scans", [](tk::ptr<float> out, tk::ptr<const float> in) {
  auto offs = tk::arange(0, 8);
  auto x = tk::load(in + offs);
  tk::store(out + offs, tk::cumsum(x));              // x0, x0+x1, x0+x1+x2, ...
  tk::store(out + 8 + offs, tk::cumsum(x, 0, true)); // reverse: suffix sums
  tk::store(out + 16 + offs, tk::cumprod(x));
  auto running_max =
      tk::associative_scan(x, 0, [](tk::f32 a, tk::f32 b) { return tk::maximum(a, b); });
  tk::store(out + 24 + offs, running_max);
});
// [/snippet]

// [snippet:sum_types]
auto sum_types = tk::jit("sum_types", [](tk::ptr<std::int8_t> p) {
  auto x = tk::load(p + tk::arange(0, 64)); // i8
  auto s = tk::sum(x, 0);                   // i32: narrow integers accumulate in 32 bits
  auto m = tk::max(x, 0);                   // i8: max and min keep the type
  static_assert(std::is_same_v<decltype(s), tk::i32> && std::is_same_v<decltype(m), tk::i8>);
  tk::store(p, tk::cast<std::int8_t>(s - m));
});
// [/snippet]

// [snippet:welford]
// The mean and variance of each row in one pass: (mean, M2, count) triples merged pairwise.
auto row_stats = tk::jit("row_stats", [](tk::ptr<float> mean_out, tk::ptr<float> var_out,
                                         tk::ptr<const float> x, tk::i32 n,
                                         tk::constant<int> BLOCK) {
  auto cols = tk::arange(0, BLOCK);
  auto mask = cols < n;
  auto v = tk::load(x + tk::program_id(0) * n + cols, mask, 0.f);
  auto count = tk::where(mask, 1.f, 0.f); // masked lanes weigh nothing
  auto welford = [](tk::f32 mean_a, tk::f32 m2_a, tk::f32 n_a, tk::f32 mean_b, tk::f32 m2_b,
                    tk::f32 n_b) {
    auto total = n_a + n_b;
    auto b_share = tk::where(total == 0.f, 0.f, n_b / total);
    auto delta = mean_b - mean_a;
    return std::tuple{mean_a + delta * b_share, m2_a + m2_b + delta * delta * n_a * b_share, total};
  };
  auto [mean, m2, total] = tk::reduce(std::tuple{v, tk::zeros_like(v), count}, 0, welford);
  tk::store(mean_out + tk::program_id(0), mean);
  tk::store(var_out + tk::program_id(0), m2 / total);
});
// [/snippet]

// [snippet:indices]
auto top = tk::jit("top", [](tk::ptr<float> best, tk::ptr<std::int32_t> where,
                             tk::ptr<std::int64_t> total, tk::ptr<const std::int32_t> in) {
  auto x = tk::load(in + tk::arange(0, 64));
  auto [value, index] = tk::max(tk::cast<float>(x), 0, tk::return_indices);
  tk::store(best, value);
  tk::store(where, index);
  tk::store(total, tk::sum<std::int64_t>(x)); // Triton's dtype=: accumulate in i64
});
// [/snippet]

// [snippet:segmented]
// Running sums that restart wherever `starts` is 1: (value, flag) pairs scanned together.
auto segmented = tk::jit("segmented", [](tk::ptr<float> out, tk::ptr<const float> in,
                                         tk::ptr<const std::int32_t> starts) {
  auto offs = tk::arange(0, 16);
  auto pairs = std::tuple{tk::load(in + offs), tk::load(starts + offs)};
  auto [sums, flags] =
      tk::associative_scan(pairs, 0, [](tk::f32 s1, tk::i32 f1, tk::f32 s2, tk::i32 f2) {
        return std::tuple{tk::where(f2 != 0, s2, s1 + s2), f1 | f2};
      });
  tk::store(out + offs, sums);
  (void)flags;
});
// [/snippet]

// [snippet:sort]
// The 4 most likely tokens of a 64-entry row, and where they are: an argsort, then the top 4.
auto top4 = tk::jit("top4", [](tk::ptr<float> probs_out, tk::ptr<std::int32_t> ids_out,
                               tk::ptr<const float> probs) {
  auto ids = tk::arange(0, 64);
  auto [p, id] = tk::sort(tk::load(probs + ids), ids, 0, /*descending=*/true);
  tk::store(probs_out + ids, p, ids < 4);
  tk::store(ids_out + ids, id, ids < 4);
  // Only the values, the same way: tk::topk(tk::load(probs + ids), 4).
});
// [/snippet]

} // namespace

DOC_EXAMPLE("reductions.sort") {
  std::vector<float> probs(64);
  for (std::size_t k = 0; k < probs.size(); ++k)
    probs[k] = float((k * 37) % 64) / 64.0f; // a permutation of 0 .. 63, over 64
  std::vector<float> p(4);
  std::vector<std::int32_t> ids(4);
  top4.interpret(tk::grid(1), p.data(), ids.data(), probs.data());
  for (int k = 0; k < 4; ++k)
    doc::check(p[std::size_t(k)] == float(63 - k) / 64.0f &&
                   probs[std::size_t(ids[std::size_t(k)])] == p[std::size_t(k)],
               "the largest first, with their positions");
}

DOC_EXAMPLE("reductions.welford") {
  const int n = 5;
  const std::vector<float> x = {1, 2, 3, 4, 10};
  float mean = 0, var = 0;
  row_stats.interpret(tk::grid(1), &mean, &var, x.data(), n, 8);
  doc::check_near(mean, 4.0, 1e-6);
  doc::check_near(var, 10.0, 1e-5); // (9 + 4 + 1 + 0 + 36) / 5
}

DOC_EXAMPLE("reductions.indices") {
  std::vector<std::int32_t> in(64);
  for (std::size_t k = 0; k < in.size(); ++k)
    in[k] = std::int32_t(k % 13) * 100'000'000;
  float best = 0;
  std::int32_t where = -1;
  std::int64_t total = 0;
  top.interpret(tk::grid(1), &best, &where, &total, in.data());
  std::int64_t want = 0;
  for (auto v : in)
    want += v;
  doc::check(best == 1.2e9f && where == 12 && total == want, "value, first index, i64 sum");
}

DOC_EXAMPLE("reductions.segmented") {
  const std::vector<float> in(16, 1.0f);
  const std::vector<std::int32_t> starts = {1, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1};
  std::vector<float> out(16);
  segmented.interpret(tk::grid(1), out.data(), in.data(), starts.data());
  const std::vector<float> want = {1, 2, 3, 1, 2, 3, 4, 5, 1, 2, 3, 4, 5, 6, 7, 1};
  doc::check(out == want, "sums restart at each flag");
}

DOC_EXAMPLE("reductions.softmax") {
  const int rows = 3, cols = 100, stride = 128;
  std::vector<float> in(std::size_t(rows * stride)), out(in.size());
  for (std::size_t k = 0; k < in.size(); ++k)
    in[k] = float(k % 7) * 0.25f;
  // [snippet:softmax_launch]
  softmax.interpret(tk::grid(rows), out.data(), in.data(), stride, cols, tk::next_pow2(cols));
  // [/snippet]
  for (int r = 0; r < rows; ++r) {
    double m = -INFINITY, total = 0;
    for (int c = 0; c < cols; ++c)
      m = std::fmax(m, in[std::size_t(r * stride + c)]);
    for (int c = 0; c < cols; ++c)
      total += std::exp(in[std::size_t(r * stride + c)] - m);
    for (int c = 0; c < cols; ++c)
      doc::check_near(out[std::size_t(r * stride + c)],
                      std::exp(in[std::size_t(r * stride + c)] - m) / total, 1e-5);
  }
}

DOC_EXAMPLE("reductions.keep_dims") {
  std::vector<float> p(4 * 8, 2.0f);
  normalize_rows.interpret(tk::grid(1), p.data(), 4, 8);
  for (float v : p)
    doc::check(v == 0.125f, "rows sum to one");
}

DOC_EXAMPLE("reductions.argmax") {
  const std::vector<float> in = {3, 7, 1, 7, -2, 0, -2, 5};
  std::vector<std::int32_t> out(2);
  argmax.interpret(tk::grid(1), out.data(), in.data());
  doc::check(out[0] == 1 && out[1] == 4, "first index on ties");
}

DOC_EXAMPLE("reductions.reduce") {
  std::vector<float> in(16, 1.0f);
  in[11] = -9.0f;
  float out = 0;
  absmax.interpret(tk::grid(1), &out, in.data());
  doc::check(out == 9.0f, "largest magnitude");
}

DOC_EXAMPLE("reductions.scans") {
  const std::vector<float> in = {1, 2, 3, 1, 2, 5, 1, 1};
  std::vector<float> out(32);
  scans.interpret(tk::grid(1), out.data(), in.data());
  const std::vector<float> want = {1,  3,  6,  7,  9,  14, 15, 16, // cumsum
                                   16, 15, 13, 10, 9,  7,  2,  1,  // reverse cumsum
                                   1,  2,  6,  6,  12, 60, 60, 60, // cumprod
                                   1,  2,  3,  3,  3,  5,  5,  5}; // running max
  doc::check(out == want, "scans");
}

DOC_EXAMPLE("reductions.sum_types") {
  std::vector<std::int8_t> p(64, 100);
  sum_types.interpret(tk::grid(1), p.data());
  doc::check(p[0] == std::int8_t(6400 - 100), "6400 - 100, wrapped to i8");
}
