/// @file interpreter_sort.cpp
/// tk::sort (keys alone and keys with values), tk::bitonic_merge, tk::topk and tk::histogram,
/// against std::sort and counting on the host. Built into tk_gpu_numerics too, so the same
/// kernels run on the GPU.
#include "interpreter_support.hpp"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <vector>

namespace {

auto sort_rows =
    tk::jit("sort_rows", [](tk::ptr<float> up, tk::ptr<float> down, tk::ptr<float> cols,
                            tk::ptr<const float> x, tk::constant<int> R, tk::constant<int> C) {
      auto offs = tk::arange(0, R)(tk::_, tk::newaxis) * C + tk::arange(0, C)(tk::newaxis, tk::_);
      auto v = tk::load(x + offs);
      tk::store(up + offs, tk::sort(v));            // each row, ascending
      tk::store(down + offs, tk::sort(v, 1, true)); // each row, descending
      tk::store(cols + offs, tk::sort(v, 0));       // each column, ascending
    });

TEST_CASE("interpreter: tk::sort along rows and columns, ascending and descending",
          "[interpreter][numerics][sort]") {
  TK_TEST_RANDOM(gen);
  const int R = 8, C = GENERATE(2, 64, 256);
  CAPTURE(C);
  auto x = tk_test::integers<float>(gen, std::size_t(R * C), -20, 20); // many equal keys
  std::vector<float> up(x.size()), down(x.size()), cols(x.size());
  tk_test::run(sort_rows, tk::grid(1), up, down, cols, std::as_const(x), tk::constant<int>(R),
               tk::constant<int>(C));
  auto want_up = x, want_down = x, want_cols = x;
  for (int r = 0; r < R; ++r) {
    std::sort(want_up.begin() + r * C, want_up.begin() + (r + 1) * C);
    std::sort(want_down.begin() + r * C, want_down.begin() + (r + 1) * C, std::greater<>());
  }
  for (int c = 0; c < C; ++c) {
    std::vector<float> col;
    for (int r = 0; r < R; ++r)
      col.push_back(x[std::size_t(r * C + c)]);
    std::sort(col.begin(), col.end());
    for (int r = 0; r < R; ++r)
      want_cols[std::size_t(r * C + c)] = col[std::size_t(r)];
  }
  TK_CHECK_EQUAL(up, want_up);
  TK_CHECK_EQUAL(down, want_down);
  TK_CHECK_EQUAL(cols, want_cols);
}

auto argsort = tk::jit("argsort", [](tk::ptr<std::int32_t> keys_out, tk::ptr<std::int32_t> order,
                                     tk::ptr<const std::int32_t> keys, tk::constant<int> N) {
  auto offs = tk::arange(0, N);
  auto [k, v] = tk::sort(tk::load(keys + offs), offs, 0, true); // descending, with indices
  tk::store(keys_out + offs, k);
  tk::store(order + offs, v);
});

TEST_CASE("interpreter: tk::sort carries values with the keys (an argsort)",
          "[interpreter][numerics][sort]") {
  TK_TEST_RANDOM(gen);
  const int n = 512;
  auto keys = tk_test::integers<std::int32_t>(gen, n, -100000, 100000);
  std::vector<std::int32_t> sorted(n), order(n, -1);
  tk_test::run(argsort, tk::grid(1), sorted, order, std::as_const(keys), tk::constant<int>(n));
  auto want = keys;
  std::sort(want.begin(), want.end(), std::greater<>());
  TK_CHECK_EQUAL(sorted, want);
  // The indices are a permutation that reads the keys in their sorted order.
  std::vector<int> seen(n, 0);
  for (int k = 0; k < n; ++k) {
    const auto i = order[std::size_t(k)];
    REQUIRE((i >= 0 && i < n));
    ++seen[std::size_t(i)];
    CHECK(keys[std::size_t(i)] == sorted[std::size_t(k)]);
  }
  CHECK(std::count(seen.begin(), seen.end(), 1) == n);
}

auto top_and_merge =
    tk::jit("top_and_merge", [](tk::ptr<float> top, tk::ptr<float> top_cols, tk::ptr<float> merged,
                                tk::ptr<const float> x, tk::ptr<const float> bitonic,
                                tk::constant<int> R, tk::constant<int> C, tk::constant<int> K) {
      auto r = tk::arange(0, R)(tk::_, tk::newaxis);
      auto c = tk::arange(0, C)(tk::newaxis, tk::_);
      auto v = tk::load(x + r * C + c);
      tk::store(top + r * K + tk::arange(0, K)(tk::newaxis, tk::_), tk::topk(v, K));
      // The top 4 of each column.
      tk::store(top_cols + tk::arange(0, 4)(tk::_, tk::newaxis) * C + c, tk::topk(v, 4, 0));
      auto offs = tk::arange(0, C);
      tk::store(merged + offs, tk::bitonic_merge(tk::load(bitonic + offs)));
    });

TEST_CASE("interpreter: tk::topk of each row and tk::bitonic_merge of a bitonic sequence",
          "[interpreter][numerics][sort]") {
  TK_TEST_RANDOM(gen);
  const int R = 16, C = 128, K = GENERATE(1, 8, 64, 128);
  CAPTURE(K);
  auto x = tk_test::uniform(gen, std::size_t(R * C), -50, 50);
  for (int k = 0; k < R * C; k += 3)
    x[std::size_t(k)] = 7.0f; // ties across the k-th place
  auto bitonic = tk_test::uniform(gen, C, -1, 1);
  std::sort(bitonic.begin(), bitonic.begin() + C / 2);
  std::sort(bitonic.begin() + C / 2, bitonic.end(), std::greater<>());
  std::vector<float> top(std::size_t(R * K)), top_cols(std::size_t(4 * C)), merged(C);
  tk_test::run(top_and_merge, tk::grid(1), top, top_cols, merged, std::as_const(x),
               std::as_const(bitonic), tk::constant<int>(R), tk::constant<int>(C),
               tk::constant<int>(K));
  std::vector<float> want_top;
  for (int r = 0; r < R; ++r) {
    std::vector<float> row(x.begin() + r * C, x.begin() + (r + 1) * C);
    std::sort(row.begin(), row.end(), std::greater<>());
    want_top.insert(want_top.end(), row.begin(), row.begin() + K);
  }
  std::vector<float> want_cols(top_cols.size());
  for (int c = 0; c < C; ++c) {
    std::vector<float> col;
    for (int r = 0; r < R; ++r)
      col.push_back(x[std::size_t(r * C + c)]);
    std::sort(col.begin(), col.end(), std::greater<>());
    for (int k = 0; k < 4; ++k)
      want_cols[std::size_t(k * C + c)] = col[std::size_t(k)];
  }
  auto want_merged = bitonic;
  std::sort(want_merged.begin(), want_merged.end());
  TK_CHECK_EQUAL(top, want_top);
  TK_CHECK_EQUAL(top_cols, want_cols);
  TK_CHECK_EQUAL(merged, want_merged);
}

auto histograms = tk::jit("histograms", [](tk::ptr<std::int32_t> all, tk::ptr<std::int32_t> kept,
                                           tk::ptr<const std::int32_t> x, tk::i32 n,
                                           tk::constant<int> N, tk::constant<int> BINS) {
  auto offs = tk::arange(0, N);
  auto v = tk::load(x + offs);
  tk::store(all + tk::arange(0, BINS), tk::histogram(v, BINS));
  tk::store(kept + tk::arange(0, BINS), tk::histogram(v, BINS, offs < n));
});

TEST_CASE("interpreter: tk::histogram counts values per bin, with and without a mask",
          "[interpreter][numerics][sort]") {
  TK_TEST_RANDOM(gen);
  const int n = 1024, bins = 32, kept_n = 700;
  auto x = tk_test::integers<std::int32_t>(gen, n, -4, bins + 3); // some outside the bins
  for (int k = 0; k < 200; ++k)
    x[std::size_t(k)] = 5; // one heavy bin
  std::vector<std::int32_t> all(bins), kept(bins), want_all(bins, 0), want_kept(bins, 0);
  tk_test::run(histograms, tk::grid(1), all, kept, std::as_const(x), kept_n, tk::constant<int>(n),
               tk::constant<int>(bins));
  for (int k = 0; k < n; ++k) {
    const auto v = x[std::size_t(k)];
    if (v >= 0 && v < bins) {
      ++want_all[std::size_t(v)];
      if (k < kept_n)
        ++want_kept[std::size_t(v)];
    }
  }
  TK_CHECK_EQUAL(all, want_all);
  TK_CHECK_EQUAL(kept, want_kept);
}

} // namespace
