/// @file sort.hpp
/// Sorting blocks: `sort` (keys alone, or keys with values), `bitonic_merge`, `topk` and
/// `histogram`, Triton's `tl.sort`, `tl.bitonic_merge`, `tl.topk` and `tl.histogram`. They are
/// written with block ops (reshape, xor_sum, where; split to halve top-k's candidates), as Triton
/// writes its own: a bitonic network of log2(n) (log2(n) + 1) / 2 compare-and-swap steps along
/// one dimension, each element meeting its partner through a reduction over the pair.
#pragma once

#include <tk/detail/config.hpp>

#include <tk/creation.hpp>
#include <tk/math.hpp>
#include <tk/reduce.hpp>
#include <tk/shape.hpp>

#include <cstdint>
#include <tuple>
#include <type_traits>
#include <utility>

namespace tk {
namespace detail {

/// The block seen as [outer, n, inner] around dimension `dim`.
struct sort_view {
  std::int64_t outer = 1, n = 1, inner = 1;
};

inline sort_view sort_view_of(const shape_t &shape, int dim) {
  sort_view v;
  for (int d = 0; d < int(shape.size()); ++d)
    (d < dim ? v.outer : d == dim ? v.n : v.inner) *= shape[std::size_t(d)];
  return v;
}

/// The signed integer of T's width, as which the two elements of a pair exchange T's bits
/// (bool: i8).
template <class T>
using pair_bits_t = std::conditional_t<
    sizeof(T) == 1, std::int8_t,
    std::conditional_t<sizeof(T) == 2, std::int16_t,
                       std::conditional_t<sizeof(T) == 4, std::int32_t, std::int64_t>>>;

template <class T, int R> block<pair_bits_t<T>, R> to_pair_bits(const block<T, R> &x, loc_t loc) {
  if constexpr (std::is_same_v<T, bool>)
    return tk::cast<std::int8_t>(x, loc);
  else if constexpr (std::is_same_v<T, pair_bits_t<T>>)
    return x;
  else
    return tk::bitcast<pair_bits_t<T>>(x, loc);
}

template <class T, int R> block<T, R> from_pair_bits(const block<pair_bits_t<T>, R> &i, loc_t loc) {
  if constexpr (std::is_same_v<T, bool>)
    return tk::cast<bool>(i, loc);
  else if constexpr (std::is_same_v<T, pair_bits_t<T>>)
    return i;
  else
    return tk::bitcast<T>(i, loc);
}

/// Each element's partner in the pairs along dimension 1 of a [pairs, 2, width] block: the xor
/// of the pair's bits with its own. A reduction over two elements, which the backend does in
/// registers, or with a warp shuffle where the pair lies in one warp, where moving the halves
/// apart (split, join) would go through shared memory.
template <class T> block<T, 3> pair_partner(const block<T, 3> &x, loc_t loc) {
  const auto i = to_pair_bits(x, loc);
  return from_pair_bits<T>(i ^ tk::xor_sum(i, 1, keep_dims, loc), loc);
}

/// One compare-and-swap step: elements `half` apart along n, in runs of 2 * `half`, are ordered
/// ascending where bit `run_bit` of their position is 0 and descending where it is 1 (all one
/// way when `run_bit` is n), flipped by `descending`. `keys` decide; each of `values` moves
/// with them. All are [outer, n, inner]; `pos` holds each element's position along n, and goes
/// through the same reshapes as the keys, so that what is computed from it is laid out as they
/// are (no layout conversion per step).
template <class K, class... V>
void compare_and_swap(block<K, 3> &keys, block<std::int32_t, 3> &pos,
                      std::tuple<block<V, 3> &...> values, sort_view view, std::int64_t half,
                      std::int64_t run_bit, bool descending, loc_t loc) {
  const std::int64_t pairs = view.outer * (view.n / (2 * half)), width = half * view.inner;
  const std::int64_t pair_shape[3] = {pairs, 2, width}, back[3] = {view.outer, view.n, view.inner};
  // Each element beside its partner, the pair along dimension 1.
  const auto k = tk::reshape(keys, pair_shape, loc);
  const auto p = tk::reshape(pos, pair_shape, loc);
  const auto other = pair_partner(k, loc);
  const auto second = (p & std::int32_t(half)) != 0;
  const auto lo = tk::where(second, other, k, loc), hi = tk::where(second, k, other, loc);
  // A pair's direction: bit run_bit of its position (alike for both, as run_bit > half).
  const auto down = run_bit >= view.n ? tk::full<bool>({pairs, 2, width}, descending, loc)
                                      : ((p & std::int32_t(run_bit)) != 0) != descending;
  // Both elements of a pair decide alike (NaNs too): on a swap each takes its partner.
  const auto swap = tk::where(down, lo < hi, hi < lo, loc);
  keys = tk::reshape(tk::where(swap, other, k, loc), back, loc);
  pos = tk::reshape(p, back, loc);
  std::apply(
      [&](auto &...v) {
        (
            [&](auto &x) {
              const auto y = tk::reshape(x, pair_shape, loc);
              x = tk::reshape(tk::where(swap, pair_partner(y, loc), y, loc), back, loc);
            }(v),
            ...);
      },
      values);
}

/// Each element's position along n of an [outer, n, inner] view.
inline block<std::int32_t, 3> sort_positions(sort_view view, loc_t loc) {
  return tk::broadcast_to(
      tk::expand_dims(tk::expand_dims(tk::arange(0, view.n, loc), 0, loc), 2, loc),
      {view.outer, view.n, view.inner}, loc);
}

/// Checks a sort's block and dimension; returns the dimension, normalized.
template <class T, int R> int sort_dim(const block<T, R> &x, int dim, const char *what, loc_t loc) {
  static_assert(R >= 1, "tk::sort and friends need a block of rank >= 1");
  static_assert(!std::is_pointer_v<T>, "tk::sort and friends need numbers, not pointers");
  dim = normalize_axis(dim, R, what, loc);
  const auto n = operand_of(x.v_, loc).v->shape[std::size_t(dim)];
  if (n < 1 || (n & (n - 1)) != 0)
    fail(loc, what, ": dimension ", dim, " has ", n, " elements, not a power of two");
  return dim;
}

/// Sorts `keys` along `dim`, carrying `values`; `merge_only` runs only the last merge (the
/// input is bitonic along `dim`).
template <class K, int R, class... V>
void bitonic(block<K, R> &keys, std::tuple<block<V, R> &...> values, int dim, bool descending,
             bool merge_only, loc_t loc) {
  const auto &shape = operand_of(keys.v_, loc).v->shape;
  const sort_view view = sort_view_of(shape, dim);
  const std::int64_t as3[3] = {view.outer, view.n, view.inner};
  const shape_t original = shape;
  auto k3 = tk::reshape(keys, as3, loc);
  auto v3 = std::apply([&](auto &...v) { return std::tuple{tk::reshape(v, as3, loc)...}; }, values);
  auto refs = std::apply([](auto &...v) { return std::tie(v...); }, v3);
  auto pos = sort_positions(view, loc);
  for (std::int64_t run = merge_only ? view.n : 2; run <= view.n; run *= 2)
    for (std::int64_t half = run / 2; half >= 1; half /= 2)
      compare_and_swap(k3, pos, refs, view, half, run == view.n ? view.n : run, descending, loc);
  keys = block<K, R>(reshape(operand_of(k3.v_, loc).v, original, loc));
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    ((std::get<I>(values) =
          block<V, R>(reshape(operand_of(std::get<I>(v3).v_, loc).v, original, loc))),
     ...);
  }(std::index_sequence_for<V...>{});
}

} // namespace detail

/// `x` sorted along `dim` (Triton's `tl.sort`; by default the last dimension), ascending or
/// `descending`. The dimension's size must be a power of two. NaNs land where the network leaves
/// them (no order puts them first or last), as in Triton.
template <class T, int R>
block<T, R> sort(const block<T, R> &x, int dim = -1, bool descending = false,
                 std::source_location loc = std::source_location::current()) {
  dim = detail::sort_dim(x, dim, "tk::sort", loc);
  block<T, R> keys = x;
  detail::bitonic(keys, std::tuple<>{}, dim, descending, false, loc);
  return keys;
}

/// `keys` sorted along `dim` with `values` moved alongside: `auto [k, v] = tk::sort(keys,
/// values)` (an argsort, with `values` the indices). Equal keys keep no particular order.
template <class K, int R, class V>
std::pair<block<K, R>, block<V, R>>
sort(const block<K, R> &keys, const block<V, R> &values, int dim = -1, bool descending = false,
     std::source_location loc = std::source_location::current()) {
  dim = detail::sort_dim(keys, dim, "tk::sort", loc);
  if (detail::operand_of(keys.v_, loc).v->shape != detail::operand_of(values.v_, loc).v->shape)
    detail::fail(loc, "tk::sort: the keys and the values must have one shape, got ",
                 detail::to_string(detail::operand_of(keys.v_, loc).v->shape), " and ",
                 detail::to_string(detail::operand_of(values.v_, loc).v->shape));
  block<K, R> k = keys;
  block<V, R> v = values;
  detail::bitonic(k, std::tie(v), dim, descending, false, loc);
  return {k, v};
}

/// Sorts a bitonic `x` (ascending then descending along `dim`, or the reverse) in one merge of
/// log2(n) steps: Triton's `tl.bitonic_merge`.
template <class T, int R>
block<T, R> bitonic_merge(const block<T, R> &x, int dim = -1, bool descending = false,
                          std::source_location loc = std::source_location::current()) {
  dim = detail::sort_dim(x, dim, "tk::bitonic_merge", loc);
  block<T, R> keys = x;
  detail::bitonic(keys, std::tuple<>{}, dim, descending, true, loc);
  return keys;
}

namespace detail {

/// Bitonic top-k (Triton's `tl.topk`): sorts runs of k along `dim`, alternately descending and
/// ascending; then, while more than k remain, keeps the larger of each pair of elements k apart
/// in neighbouring runs (the top k of the two runs, in a bitonic order) and merges each run again.
/// log2(k) (log2(k) + 1) / 2 steps over the whole block, then log2(n / k) rounds of log2(k) + 1
/// steps over halving blocks, instead of a whole sort.
template <class T, int R>
block<T, R> bitonic_topk(const block<T, R> &x, std::int64_t k, int dim, loc_t loc) {
  const shape_t shape = operand_of(x.v_, loc).v->shape;
  sort_view view = sort_view_of(shape, dim);
  const std::int64_t as3[3] = {view.outer, view.n, view.inner};
  auto keys = tk::reshape(x, as3, loc);
  auto pos = sort_positions(view, loc);
  const auto run_bit = [&] { return k >= view.n ? view.n : k; }; // one way once k remain
  for (std::int64_t run = 2; run <= k; run *= 2)
    for (std::int64_t half = run / 2; half >= 1; half /= 2)
      compare_and_swap(keys, pos, std::tuple<>{}, view, half, run == k ? run_bit() : run, true,
                       loc);
  while (view.n > k) {
    const std::int64_t pair_shape[3] = {view.outer * (view.n / (2 * k)), 2, k * view.inner},
                       order[3] = {0, 2, 1};
    auto halves = [&](const auto &y) {
      return tk::split(tk::permute(tk::reshape(y, pair_shape, loc), order, loc), loc);
    };
    auto [a, b] = halves(keys);
    // The first of each pair k apart, at position p, moves to p / (2k) * k + p % k.
    auto [pa, pb] = halves(pos);
    (void)pb;
    view.n /= 2;
    const std::int64_t halved[3] = {view.outer, view.n, view.inner};
    keys = tk::reshape(tk::where(b > a, b, a, loc), halved, loc);
    pos =
        tk::reshape(pa / std::int32_t(2 * k) * std::int32_t(k) + pa % std::int32_t(k), halved, loc);
    for (std::int64_t half = k / 2; half >= 1; half /= 2)
      compare_and_swap(keys, pos, std::tuple<>{}, view, half, run_bit(), true, loc);
  }
  shape_t taken = shape;
  taken[std::size_t(dim)] = k;
  return block<T, R>(reshape(operand_of(keys.v_, loc).v, taken, loc));
}

} // namespace detail

/// The `k` largest elements along `dim` (by default the last), largest first: Triton's
/// `tl.topk`, by the same bitonic top-k. `k` must be a power of two no larger than the dimension.
/// A NaN may or may not be kept, as in Triton.
template <class T, int R>
block<T, R> topk(const block<T, R> &x, std::int64_t k, int dim = -1,
                 std::source_location loc = std::source_location::current()) {
  dim = detail::sort_dim(x, dim, "tk::topk", loc);
  const auto n = detail::operand_of(x.v_, loc).v->shape[std::size_t(dim)];
  if (k < 1 || (k & (k - 1)) != 0 || k > n)
    detail::fail(loc, "tk::topk: k must be a power of two from 1 to ", n,
                 " (the size of dimension ", dim, "), got ", k);
  return detail::bitonic_topk(x, k, dim, loc);
}

namespace detail {

template <class T>
block<std::int32_t, 1> histogram(const block<T, 1> &x, std::int64_t num_bins,
                                 const block<bool, 1> *mask, loc_t loc) {
  static_assert(std::is_integral_v<T> && !std::is_same_v<T, bool>,
                "tk::histogram counts the values of an integer block");
  if (num_bins < 1 || (num_bins & (num_bins - 1)) != 0)
    fail(loc, "tk::histogram: num_bins must be a power of two, got ", num_bins);
  // [n, bins]: true where element i falls in bin b; counted over the elements.
  auto bins = tk::cast<T>(tk::arange(0, num_bins, loc), loc);
  auto hits = tk::expand_dims(x, 1, loc) == tk::expand_dims(bins, 0, loc);
  if (mask)
    hits = hits & tk::expand_dims(*mask, 1, loc);
  return tk::sum(tk::cast<std::int32_t>(hits, loc), 0, loc);
}

} // namespace detail

/// How many elements of the 1-D integer block `x` equal each of 0 .. num_bins - 1 (bins of width
/// 1 from 0, Triton's `tl.histogram`), as i32; elements outside the bins count nowhere.
/// `num_bins` is a power of two.
template <class T>
block<std::int32_t, 1> histogram(const block<T, 1> &x, std::int64_t num_bins,
                                 std::source_location loc = std::source_location::current()) {
  return detail::histogram(x, num_bins, nullptr, loc);
}

/// The same, counting only the lanes `mask` keeps.
template <class T>
block<std::int32_t, 1> histogram(const block<T, 1> &x, std::int64_t num_bins,
                                 const block<bool, 1> &mask,
                                 std::source_location loc = std::source_location::current()) {
  return detail::histogram(x, num_bins, &mask, loc);
}

} // namespace tk
