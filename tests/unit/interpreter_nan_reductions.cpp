/// @file interpreter_nan_reductions.cpp
/// Interpreter (and, built with TK_TEST_ON_GPU, GPU) numerics of argmax, argmin, max and min over
/// rows that hold NaN: argmax/argmin take a NaN as the largest/smallest element and return the
/// first NaN's index (as torch does); max/min ignore NaNs (as Triton's tl.max does), so a line of
/// NaNs padded with -inf gives -inf. Neither result may depend on the order lanes are combined in,
/// so the interpreter and the GPU agree whatever their reduction trees.
#include "interpreter_support.hpp"

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace {

// Reduces a [BR, BC] tile along AXIS; the reduced dimension has `rows` or `cols` valid elements,
// the other is full. Masked-off lanes load -inf for argmax/max and +inf for argmin/min.
auto nan_reduce = tk::jit("nan_reduce", [](auto amax, auto amin, auto vmax, auto vmin, auto x,
                                           tk::i32 rows, tk::i32 cols, tk::constant<int> BR,
                                           tk::constant<int> BC, tk::constant<int> AXIS) {
  auto r = tk::arange(0, BR)(tk::_, tk::newaxis);
  auto c = tk::arange(0, BC)(tk::newaxis, tk::_);
  auto mask = (r < rows) & (c < cols);
  auto ptrs = x + r * BC + c;
  auto lo = tk::load(ptrs, mask, -tk::inf<float>());
  auto hi = tk::load(ptrs, mask, tk::inf<float>());
  auto out = tk::arange(0, AXIS == 0 ? int(BC) : int(BR));
  tk::store(amax + out, tk::argmax(lo, AXIS));
  tk::store(amin + out, tk::argmin(hi, AXIS));
  tk::store(vmax + out, tk::max(lo, AXIS));
  tk::store(vmin + out, tk::min(hi, AXIS));
});

constexpr int lines = 8;    // lines reduced, one per pattern below
constexpr int block = 1024; // lanes along the reduced axis
const double nan = std::numeric_limits<double>::quiet_NaN();
const double inf = std::numeric_limits<double>::infinity();

/// Line `l` of the patterns: `n` valid elements along the reduced axis.
std::vector<double> pattern(int l, int n, std::mt19937_64 &gen) {
  std::uniform_int_distribution<int> value(-3, 3), pos(0, n - 1), count(3, 6);
  std::vector<double> x(static_cast<std::size_t>(n));
  for (auto &e : x)
    e = value(gen); // few distinct values: ties for the maximum and minimum
  switch (l) {
  case 0: // no NaN
    break;
  case 1: // one NaN
    x[std::size_t(pos(gen))] = nan;
    break;
  case 2: // several NaNs
    for (int k = count(gen); k > 0; --k)
      x[std::size_t(pos(gen))] = nan;
    break;
  case 3: // every element NaN
    x.assign(x.size(), nan);
    break;
  case 4: // only -inf (ties with the padding)
    x.assign(x.size(), -inf);
    break;
  case 5: // a NaN last, -inf and +inf elsewhere
    x.assign(x.size(), -inf);
    x[std::size_t(pos(gen))] = inf;
    x[std::size_t(n - 1)] = nan;
    break;
  case 6: // a NaN first
    x[0] = nan;
    break;
  default: // NaNs only in the masked tail (filled in by the caller)
    break;
  }
  return x;
}

bool same(double got, double want) { return std::isnan(want) ? std::isnan(got) : got == want; }

template <class T> void check_nan_reductions(std::mt19937_64 &gen, int axis, int n) {
  CAPTURE(axis, n);
  const int BR = axis == 1 ? lines : block, BC = axis == 1 ? block : lines;
  // Memory holds the whole tile; lanes past `n` are masked off and hold NaN there.
  std::vector<T> x(std::size_t(BR * BC), T(float(nan)));
  std::vector<std::vector<double>> line(lines);
  for (int l = 0; l < lines; ++l) {
    line[std::size_t(l)] = pattern(l, n, gen);
    for (int j = 0; j < n; ++j)
      x[std::size_t(axis == 1 ? l * BC + j : j * BC + l)] =
          T(float(line[std::size_t(l)][std::size_t(j)]));
  }
  std::vector<std::int32_t> amax(lines, -1), amin(lines, -1);
  std::vector<T> vmax(lines), vmin(lines);
  tk_test::run(nan_reduce, tk::grid(1), amax, amin, vmax, vmin, std::as_const(x),
               axis == 1 ? lines : n, axis == 1 ? n : lines, tk::constant<int>(BR),
               tk::constant<int>(BC), tk::constant<int>(axis));
  for (int l = 0; l < lines; ++l) {
    CAPTURE(l);
    // The block the kernel reduces: the line, then padding.
    std::vector<double> lo(line[std::size_t(l)]), hi(line[std::size_t(l)]);
    for (auto &e : lo)
      e = double(float(T(float(e))));
    hi = lo;
    lo.resize(block, -inf);
    hi.resize(block, inf);
    auto first_nan = [](const std::vector<double> &v) {
      for (std::size_t k = 0; k < v.size(); ++k)
        if (std::isnan(v[k]))
          return int(k);
      return -1;
    };
    int want_amax = first_nan(lo), want_amin = first_nan(hi);
    double want_max = nan, want_min = nan;
    for (std::size_t k = 0; k < lo.size(); ++k) {
      if (!std::isnan(lo[k]) && !(lo[k] <= want_max))
        want_max = lo[k];
      if (!std::isnan(hi[k]) && !(hi[k] >= want_min))
        want_min = hi[k];
    }
    if (want_amax < 0)
      for (std::size_t k = 0; k < lo.size() && want_amax < 0; ++k)
        if (lo[k] == want_max)
          want_amax = int(k);
    if (want_amin < 0)
      for (std::size_t k = 0; k < hi.size() && want_amin < 0; ++k)
        if (hi[k] == want_min)
          want_amin = int(k);
    CHECK(amax[std::size_t(l)] == want_amax);
    CHECK(amin[std::size_t(l)] == want_amin);
    CHECK(same(double(float(vmax[std::size_t(l)])), want_max));
    CHECK(same(double(float(vmin[std::size_t(l)])), want_min));
  }
}

} // namespace

TEST_CASE("interpreter: argmax, argmin, max and min over lines that hold NaN",
          "[interpreter][numerics]") {
  TK_TEST_RANDOM(gen);
  const int axis = GENERATE(0, 1);
  const int n = GENERATE(1000, 1024); // with and without masked padding
  SECTION("f32") { check_nan_reductions<float>(gen, axis, n); }
  SECTION("f16") { check_nan_reductions<tk::half>(gen, axis, n); }
}
