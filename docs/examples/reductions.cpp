/// @file reductions.cpp
/// docs/writing-kernels.md: reductions and scans.
#include "doc_examples.hpp"

#include <cmath>
#include <cstdint>
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

} // namespace

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
