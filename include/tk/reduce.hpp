/// @file reduce.hpp
/// Reductions and scans along an axis: `sum`, `max`, `min`, `xor_sum`, `reduce_or`, `argmax`,
/// `argmin`, `reduce` with a user combine function, `cumsum`, `cumprod` and `associative_scan`.
/// Reducing a 1-D block gives a scalar; `tk::keep_dims` keeps the reduced axis with size 1.
/// `reduce` and `associative_scan` also take a tuple of blocks, combined together (Triton's
/// tuple combine functions: Welford's mean and variance, a (max, sum) pair, a segmented scan).
#pragma once

#include <tk/detail/config.hpp>

#include <tk/shape.hpp>

#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

namespace tk {

struct keep_dims_t {};
/// Pass as the last argument of a reduction to keep the reduced axis (size 1).
inline constexpr keep_dims_t keep_dims{};

/// Which index `argmax`, `argmin` and `max`/`min` with indices return among equal values:
/// the first (`left`, the default, Triton's `tie_break_left=True`), or whichever the reduction
/// meets first (`any`, `tie_break_left=False`: a few instructions fewer per combine step; the
/// interpreter and the GPU may then disagree on ties).
enum class tie_break : unsigned char { left, any };

/// Pass to `tk::max` or `tk::min` to get the indices too (Triton's `return_indices=True`):
/// `auto [value, index] = tk::max(x, 1, tk::return_indices);`.
struct return_indices_t {
  tie_break ties = tie_break::left;
};
inline constexpr return_indices_t return_indices{};

namespace detail {

/// The combine function of a built-in reduction or scan: `lhs op rhs`.
struct binop_combine {
  binop o;
  loc_t loc;
  TK_DECL std::vector<value_ref> operator()(const std::vector<value_ref> &lhs,
                                            const std::vector<value_ref> &rhs) const;
};

/// Wraps a user's combine function over `tk::scalar<T>` values.
template <class T, class F> auto user_combine(F combine, loc_t loc) {
  using result = std::invoke_result_t<F &, scalar<T>, scalar<T>>;
  static_assert(any_block<result> && block_info<std::remove_cvref_t<result>>::rank == 0,
                "tk: a combine function takes two tk::scalar<T> and returns one tk::scalar");
  return
      [combine, loc](const std::vector<value_ref> &lhs, const std::vector<value_ref> &rhs) mutable {
        auto r = combine(scalar<T>(lhs[0]), scalar<T>(rhs[0]));
        return std::vector<value_ref>{convert(operand_of(r.v_, loc).v, elem_of<T>(), loc)};
      };
}

template <class S, class T, int R>
value_ref reduce_axis(const block<T, R> &x, int axis, const combine_fn &combine, const char *what,
                      loc_t loc) {
  static_assert(R >= 1, "tk: a scalar cannot be reduced; reductions need a block of rank >= 1");
  axis = normalize_axis(axis, R, what, loc);
  const auto v = convert(operand_of(x.v_, loc).v, elem_of<S>(), loc);
  return reduce({v}, axis, combine, loc)[0];
}

template <class S, class T, int R>
value_ref reduce_all(const block<T, R> &x, const combine_fn &combine, const char *what, loc_t loc) {
  static_assert(R >= 1, "tk: a scalar cannot be reduced; reductions need a block of rank >= 1");
  auto v = convert(operand_of(x.v_, loc).v, elem_of<S>(), loc);
  if (R > 1)
    v = reshape(v, {v->size()}, loc);
  (void)what;
  return reduce({v}, 0, combine, loc)[0];
}

/// (value, index) pairs: keep the larger value (`greater`) or the smaller, the lower index on ties.
/// A NaN counts as larger than any number for argmax and as smaller for argmin (as in torch), and
/// among NaNs the lower index wins: a total order, so the combine is associative and commutative
/// and the result does not depend on the order the GPU or the interpreter combines lanes in.
/// This function evaluates it directly (interpreter); arg_combine_ops records it as ops.
TK_DECL bool arg_keeps_lhs(bool greater, const value &lv, const value &li, const value &rv,
                           const value &ri);

/// arg_combine's ops, as traced (and run by the GPU).
TK_DECL std::vector<value_ref> arg_combine_ops(bool greater, bool tie_left,
                                               const std::vector<value_ref> &lhs,
                                               const std::vector<value_ref> &rhs, loc_t loc);

/// The combine function of argmax (`greater`) and argmin over (value, index) pairs; with
/// `tie_left` false, equal values keep either index (Triton's `tie_break_left=False`).
struct arg_combine {
  bool greater;
  bool tie_left;
  loc_t loc;
  TK_DECL std::vector<value_ref> operator()(const std::vector<value_ref> &lhs,
                                            const std::vector<value_ref> &rhs) const;
};

/// The (value, index) pair of the largest (`greater`) or smallest element along `axis`.
template <class T, int R>
std::vector<value_ref> arg_reduce(const block<T, R> &x, int axis, bool greater, tie_break ties,
                                  const char *what, loc_t loc) {
  static_assert(R >= 1, "tk: argmax/argmin need a block of rank >= 1");
  static_assert(!std::is_pointer_v<T>, "tk: argmax/argmin need a numeric block");
  axis = normalize_axis(axis, R, what, loc);
  const auto v = operand_of(x.v_, loc).v;
  const auto n = v->shape[std::size_t(axis)];
  auto idx = arange(0, n, loc);
  shape_t along(v->shape.size(), 1);
  along[std::size_t(axis)] = n;
  if (R > 1)
    idx = reshape(idx, along, loc);
  idx = broadcast(idx, v->shape, loc);
  return reduce({v, idx}, axis, arg_combine{greater, ties == tie_break::left, loc}, loc);
}

template <class S, class T, int R>
value_ref scan_axis(const block<T, R> &x, int axis, bool reverse, const combine_fn &combine,
                    const char *what, loc_t loc) {
  static_assert(R >= 1, "tk: scans need a block of rank >= 1");
  axis = normalize_axis(axis, R, what, loc);
  const auto v = convert(operand_of(x.v_, loc).v, elem_of<S>(), loc);
  return scan({v}, axis, reverse, combine, loc)[0];
}

template <class T> using sum_t = type_of<sum_dtype(dtype_of<T>)>;

/// The rank after reducing one axis (0 for a scalar, which reduce_axis rejects with a clear
/// static_assert rather than a block of rank -1).
template <int R> inline constexpr int reduced_rank = R > 0 ? R - 1 : 0;

/// What `reduce` and `associative_scan` know of a tuple of blocks (`std::tuple{a, b}`,
/// `std::tie(a, b)`, `std::pair`): the element types, and the rank they must share.
template <class X> struct block_tuple {
  static constexpr bool valid = false;
};
template <class... Xs> struct block_tuple<std::tuple<Xs...>> {
  static constexpr bool valid =
      sizeof...(Xs) >= 1 && (any_block<Xs> && ...) &&
      ((block_info<std::remove_cvref_t<Xs>>::rank ==
        block_info<std::remove_cvref_t<std::tuple_element_t<0, std::tuple<Xs...>>>>::rank) &&
       ...);
  static constexpr std::size_t size = sizeof...(Xs);
  static constexpr int rank =
      block_info<std::remove_cvref_t<std::tuple_element_t<0, std::tuple<Xs...>>>>::rank;
  using scalars = std::tuple<scalar<typename block_info<std::remove_cvref_t<Xs>>::element_type>...>;
  template <int R>
  using blocks =
      std::tuple<block<typename block_info<std::remove_cvref_t<Xs>>::element_type, R>...>;
};
template <class A, class B> struct block_tuple<std::pair<A, B>> : block_tuple<std::tuple<A, B>> {};

template <class X>
concept tuple_of_blocks = block_tuple<std::remove_cvref_t<X>>::valid;

/// The operands of a tuple reduction or scan, checked to share one shape.
template <class X> std::vector<value_ref> tuple_operands(const X &xs, const char *what, loc_t loc) {
  std::vector<value_ref> vs;
  std::apply([&](const auto &...x) { (vs.push_back(operand_of(x.v_, loc).v), ...); }, xs);
  for (std::size_t k = 1; k < vs.size(); ++k)
    if (vs[k]->shape != vs[0]->shape)
      fail(loc, what, ": the blocks of the tuple must have one shape; block 0 has shape ",
           to_string(vs[0]->shape), " and block ", k, " has shape ", to_string(vs[k]->shape),
           " (broadcast them first: tk::broadcast_to or tk::broadcast)");
  return vs;
}

/// The results of a tuple reduction or scan, as the tuple of blocks `Tuple`.
template <class Tuple, std::size_t... K>
Tuple tuple_results(const std::vector<value_ref> &vs, std::index_sequence<K...>) {
  return Tuple(std::tuple_element_t<K, Tuple>(vs[K])...);
}

/// Scalars of the types of `Scalars` holding `vs`.
template <class Scalars, std::size_t... K>
Scalars tuple_scalars(const std::vector<value_ref> &vs, std::size_t first,
                      std::index_sequence<K...>) {
  return Scalars(std::tuple_element_t<K, Scalars>(vs[first + K])...);
}

template <class R> struct is_tuple_like : std::false_type {};
template <class... Ts> struct is_tuple_like<std::tuple<Ts...>> : std::true_type {};
template <class A, class B> struct is_tuple_like<std::pair<A, B>> : std::true_type {};

/// Whether `F` takes the scalars of a tuple as Triton passes them: the left values, then the
/// right values.
template <class Scalars, class F>
inline constexpr bool flat_combine = []<std::size_t... K>(std::index_sequence<K...>) {
  return std::is_invocable_v<F &, std::tuple_element_t<K, Scalars>...,
                             std::tuple_element_t<K, Scalars>...>;
}(std::make_index_sequence<std::tuple_size_v<Scalars>>{});

/// Whether `F` can combine the scalars of a tuple, flat or as two tuples (tried in that order:
/// a generic lambda is instantiated only with the arguments it can take).
template <class Scalars, class F>
inline constexpr bool combines_tuple =
    std::disjunction_v<std::bool_constant<flat_combine<Scalars, F>>,
                       std::is_invocable<F &, Scalars, Scalars>>;

/// Wraps a user's combine function over a tuple of scalars. It is called as Triton calls one,
/// with the left values and then the right values (`combine(m1, s1, m2, s2)`), or else with two
/// tuples (`combine(std::tuple{m1, s1}, std::tuple{m2, s2})`); it returns a tuple (or a pair) of
/// scalars, converted to the operands' types.
template <class Scalars, class F> auto tuple_combine(F &combine, loc_t loc) {
  return [&combine, loc](const std::vector<value_ref> &lhs, const std::vector<value_ref> &rhs) {
    constexpr std::size_t n = std::tuple_size_v<Scalars>;
    const auto seq = std::make_index_sequence<n>{};
    Scalars l = tuple_scalars<Scalars>(lhs, 0, seq), r = tuple_scalars<Scalars>(rhs, 0, seq);
    auto out = [&] {
      if constexpr (flat_combine<Scalars, F>)
        return std::apply(
            [&](const auto &...ls) {
              return std::apply([&](const auto &...rs) { return combine(ls..., rs...); }, r);
            },
            l);
      else
        return combine(l, r);
    }();
    using result = std::remove_cvref_t<decltype(out)>;
    std::vector<value_ref> values;
    if constexpr (is_tuple_like<result>::value && std::tuple_size_v<result> != n) {
      static_assert(std::tuple_size_v<result> == n,
                    "tk: the combine function must return as many values as the tuple has blocks");
    } else if constexpr (is_tuple_like<result>::value) {
      [&]<std::size_t... K>(std::index_sequence<K...>) {
        (values.push_back(
             convert(operand_of(std::get<K>(out).v_, loc).v,
                     elem_of<typename std::tuple_element_t<K, Scalars>::element_type>(), loc)),
         ...);
      }(seq);
    } else {
      static_assert(n == 1 && any_block<result>,
                    "tk: the combine function of a tuple must return a std::tuple (or std::pair) "
                    "of tk::scalar values");
      values.push_back(convert(operand_of(out.v_, loc).v,
                               elem_of<typename std::tuple_element_t<0, Scalars>::element_type>(),
                               loc));
    }
    return values;
  };
}

} // namespace detail

#define TK_REDUCTION(NAME, RESULT, COMBINE, CHECK)                                                 \
  template <class T, int R>                                                                        \
  block<RESULT, detail::reduced_rank<R>> NAME(const block<T, R> &x, int axis,                      \
                                              std::source_location loc =                           \
                                                  std::source_location::current()) {               \
    CHECK;                                                                                         \
    return block<RESULT, detail::reduced_rank<R>>(                                                 \
        detail::reduce_axis<RESULT>(x, axis, COMBINE, "tk::" #NAME, loc));                         \
  }                                                                                                \
  template <class T, int R>                                                                        \
  block<RESULT, R> NAME(const block<T, R> &x, int axis, keep_dims_t,                               \
                        std::source_location loc = std::source_location::current()) {              \
    CHECK;                                                                                         \
    axis = detail::normalize_axis(axis, R, "tk::" #NAME, loc);                                     \
    return block<RESULT, R>(detail::expand_dims(                                                   \
        detail::reduce_axis<RESULT>(x, axis, COMBINE, "tk::" #NAME, loc), axis, loc));             \
  }                                                                                                \
  template <class T, int R>                                                                        \
  scalar<RESULT> NAME(const block<T, R> &x,                                                        \
                      std::source_location loc = std::source_location::current()) {                \
    CHECK;                                                                                         \
    return scalar<RESULT>(detail::reduce_all<RESULT>(x, COMBINE, "tk::" #NAME, loc));              \
  }

#define TK_INTEGER_ONLY(NAME)                                                                      \
  static_assert(std::is_integral_v<T>, "tk::" #NAME " needs an integer (or bool) block")

/// The largest element along `axis`. NaNs are ignored, as by Triton's `tl.max` (and
/// `tk::maximum`): the result is NaN only when every element is NaN.
TK_REDUCTION(max, T, (detail::binop_combine{detail::binop::max, loc}), (void)0)
/// The smallest element along `axis`; NaNs are ignored, as by `tk::max`.
TK_REDUCTION(min, T, (detail::binop_combine{detail::binop::min, loc}), (void)0)
/// The bitwise xor of the elements along `axis` (Triton's `tl.xor_sum`); integers only.
TK_REDUCTION(xor_sum, T, (detail::binop_combine{detail::binop::bit_xor, loc}),
             TK_INTEGER_ONLY(xor_sum))
/// The bitwise or of the elements along `axis` (Triton's `tl.reduce_or`); integers only.
TK_REDUCTION(reduce_or, T, (detail::binop_combine{detail::binop::bit_or, loc}),
             TK_INTEGER_ONLY(reduce_or))
#undef TK_INTEGER_ONLY
#undef TK_REDUCTION

namespace detail {

/// `sum`'s and `cumsum`'s accumulator: `Acc` where the caller names one (Triton's `dtype=`), else
/// the element type widened as Triton widens it.
template <class Acc, class T>
using accumulator_t = std::conditional_t<std::is_void_v<Acc>, sum_t<T>, Acc>;

} // namespace detail

/// The sum along `axis`. Integers narrower than 32 bits accumulate in 32 bits; `tk::sum<Acc>`
/// converts the elements to `Acc` first and sums in it (Triton's `dtype=`):
/// `tk::sum<float>(halves, 1)`, `tk::sum<std::int64_t>(counts, 0)`.
template <class Acc = void, class T, int R>
block<detail::accumulator_t<Acc, T>, detail::reduced_rank<R>>
sum(const block<T, R> &x, int axis, std::source_location loc = std::source_location::current()) {
  using S = detail::accumulator_t<Acc, T>;
  return block<S, detail::reduced_rank<R>>(detail::reduce_axis<S>(
      x, axis, detail::binop_combine{detail::binop::add, loc}, "tk::sum", loc));
}
template <class Acc = void, class T, int R>
block<detail::accumulator_t<Acc, T>, R>
sum(const block<T, R> &x, int axis, keep_dims_t,
    std::source_location loc = std::source_location::current()) {
  using S = detail::accumulator_t<Acc, T>;
  axis = detail::normalize_axis(axis, R, "tk::sum", loc);
  return block<S, R>(detail::expand_dims(
      detail::reduce_axis<S>(x, axis, detail::binop_combine{detail::binop::add, loc}, "tk::sum",
                             loc),
      axis, loc));
}
template <class Acc = void, class T, int R>
scalar<detail::accumulator_t<Acc, T>>
sum(const block<T, R> &x, std::source_location loc = std::source_location::current()) {
  using S = detail::accumulator_t<Acc, T>;
  return scalar<S>(
      detail::reduce_all<S>(x, detail::binop_combine{detail::binop::add, loc}, "tk::sum", loc));
}

#define TK_ARG_REDUCTION(NAME, GREATER, WHICH)                                                     \
  template <class T, int R>                                                                        \
  block<std::int32_t, detail::reduced_rank<R>> NAME(                                               \
      const block<T, R> &x, int axis, tie_break ties = tie_break::left,                            \
      std::source_location loc = std::source_location::current()) {                                \
    return block<std::int32_t, detail::reduced_rank<R>>(                                           \
        detail::arg_reduce(x, axis, GREATER, ties, "tk::" #NAME, loc)[1]);                         \
  }                                                                                                \
  template <class T, int R>                                                                        \
  block<std::int32_t, R> NAME(const block<T, R> &x, int axis, keep_dims_t,                         \
                              std::source_location loc = std::source_location::current()) {        \
    axis = detail::normalize_axis(axis, R, "tk::" #NAME, loc);                                     \
    return block<std::int32_t, R>(detail::expand_dims(                                             \
        detail::arg_reduce(x, axis, GREATER, tie_break::left, "tk::" #NAME, loc)[1], axis, loc));  \
  }                                                                                                \
  template <class T, int R>                                                                        \
  block<std::int32_t, R> NAME(const block<T, R> &x, int axis, tie_break ties, keep_dims_t,         \
                              std::source_location loc = std::source_location::current()) {        \
    axis = detail::normalize_axis(axis, R, "tk::" #NAME, loc);                                     \
    return block<std::int32_t, R>(detail::expand_dims(                                             \
        detail::arg_reduce(x, axis, GREATER, ties, "tk::" #NAME, loc)[1], axis, loc));             \
  }                                                                                                \
  /** The WHICH element along `axis` and its i32 index, as `auto [value, index] = ...`. */         \
  template <class T, int R>                                                                        \
  std::pair<block<T, detail::reduced_rank<R>>, block<std::int32_t, detail::reduced_rank<R>>>       \
  WHICH(const block<T, R> &x, int axis, return_indices_t with,                                     \
        std::source_location loc = std::source_location::current()) {                              \
    auto r = detail::arg_reduce(x, axis, GREATER, with.ties, "tk::" #WHICH, loc);                  \
    return {block<T, detail::reduced_rank<R>>(r[0]),                                               \
            block<std::int32_t, detail::reduced_rank<R>>(r[1])};                                   \
  }                                                                                                \
  template <class T, int R>                                                                        \
  std::pair<block<T, R>, block<std::int32_t, R>> WHICH(                                            \
      const block<T, R> &x, int axis, return_indices_t with, keep_dims_t,                          \
      std::source_location loc = std::source_location::current()) {                                \
    axis = detail::normalize_axis(axis, R, "tk::" #WHICH, loc);                                    \
    auto r = detail::arg_reduce(x, axis, GREATER, with.ties, "tk::" #WHICH, loc);                  \
    return {block<T, R>(detail::expand_dims(r[0], axis, loc)),                                     \
            block<std::int32_t, R>(detail::expand_dims(r[1], axis, loc))};                         \
  }

/// The index of the largest element along `axis` (the first one on ties, unless
/// `tk::tie_break::any`), as i32. A NaN counts as the largest (the index of the first NaN), as
/// in torch.argmax. `tk::max(x, axis, tk::return_indices)` gives the value with it, by the same
/// rule: with indices, a NaN is the maximum (Triton's `tl.max(..., return_indices=True)` is its
/// `tl.argmax`).
TK_ARG_REDUCTION(argmax, true, max)
/// The index of the smallest element along `axis` (the first one on ties), as i32. A NaN counts
/// as the smallest, as in torch.argmin; `tk::min(x, axis, tk::return_indices)` gives the value.
TK_ARG_REDUCTION(argmin, false, min)
#undef TK_ARG_REDUCTION

/// Reduces along `axis` with `combine(tk::scalar<T>, tk::scalar<T>) -> tk::scalar<T>`, which must
/// be associative and commutative.
template <class T, int R, class F>
  requires(!std::is_same_v<F, keep_dims_t>)
block<T, detail::reduced_rank<R>>
reduce(const block<T, R> &x, int axis, F combine,
       std::source_location loc = std::source_location::current()) {
  return block<T, detail::reduced_rank<R>>(
      detail::reduce_axis<T>(x, axis, detail::user_combine<T>(combine, loc), "tk::reduce", loc));
}
/// The same, keeping the reduced axis with size 1.
template <class T, int R, class F>
block<T, R> reduce(const block<T, R> &x, int axis, F combine, keep_dims_t,
                   std::source_location loc = std::source_location::current()) {
  axis = detail::normalize_axis(axis, R, "tk::reduce", loc);
  return block<T, R>(detail::expand_dims(
      detail::reduce_axis<T>(x, axis, detail::user_combine<T>(combine, loc), "tk::reduce", loc),
      axis, loc));
}

namespace detail {

template <class X, class F>
std::vector<value_ref> reduce_tuple(const X &xs, int axis, F &combine, loc_t loc) {
  using info = block_tuple<std::remove_cvref_t<X>>;
  static_assert(info::rank >= 1, "tk::reduce: a tuple of scalars cannot be reduced");
  static_assert(combines_tuple<typename info::scalars, F>,
                "tk::reduce: the combine function of a tuple of N blocks takes the N left values "
                "and then the N right values, as tk::scalar (Triton's order), or two std::tuple "
                "of them; it returns a std::tuple of N scalars");
  if constexpr (combines_tuple<typename info::scalars, F>) {
    axis = normalize_axis(axis, info::rank, "tk::reduce", loc);
    auto vs = tuple_operands(xs, "tk::reduce", loc);
    return reduce(vs, axis, tuple_combine<typename info::scalars>(combine, loc), loc);
  } else {
    return std::vector<value_ref>(info::size);
  }
}

} // namespace detail

/// Reduces a tuple of blocks of one shape together along `axis`, Triton's tuple `tl.reduce`:
/// `combine(l0, l1, ..., r0, r1, ...)` takes the left and the right values as `tk::scalar`s (or
/// two `std::tuple`s of them) and returns a `std::tuple` of scalars, one per block; it must be
/// associative and commutative. Returns a `std::tuple` of the reduced blocks:
/// `auto [mean, m2, n] = tk::reduce(std::tuple{x, zero, one}, 0, welford);`.
template <detail::tuple_of_blocks X, class F>
  requires(!std::is_same_v<F, keep_dims_t>)
auto reduce(const X &xs, int axis, F combine,
            std::source_location loc = std::source_location::current()) {
  using info = detail::block_tuple<std::remove_cvref_t<X>>;
  using result = typename info::template blocks<detail::reduced_rank<info::rank>>;
  return detail::tuple_results<result>(detail::reduce_tuple(xs, axis, combine, loc),
                                       std::make_index_sequence<info::size>{});
}
/// The same, keeping the reduced axis with size 1.
template <detail::tuple_of_blocks X, class F>
auto reduce(const X &xs, int axis, F combine, keep_dims_t,
            std::source_location loc = std::source_location::current()) {
  using info = detail::block_tuple<std::remove_cvref_t<X>>;
  axis = detail::normalize_axis(axis, info::rank, "tk::reduce", loc);
  auto vs = detail::reduce_tuple(xs, axis, combine, loc);
  for (auto &v : vs)
    v = detail::expand_dims(v, axis, loc);
  return detail::tuple_results<typename info::template blocks<info::rank>>(
      vs, std::make_index_sequence<info::size>{});
}

/// Inclusive prefix sums along `axis` (narrow integers accumulate in 32 bits; `tk::cumsum<Acc>`
/// sums in `Acc`, Triton's `dtype=`).
template <class Acc = void, class T, int R>
block<detail::accumulator_t<Acc, T>, R>
cumsum(const block<T, R> &x, int axis = 0, bool reverse = false,
       std::source_location loc = std::source_location::current()) {
  using S = detail::accumulator_t<Acc, T>;
  return block<S, R>(detail::scan_axis<S>(
      x, axis, reverse, detail::binop_combine{detail::binop::add, loc}, "tk::cumsum", loc));
}

/// Inclusive prefix products along `axis`.
template <class T, int R>
block<detail::sum_t<T>, R> cumprod(const block<T, R> &x, int axis = 0, bool reverse = false,
                                   std::source_location loc = std::source_location::current()) {
  return block<detail::sum_t<T>, R>(detail::scan_axis<detail::sum_t<T>>(
      x, axis, reverse, detail::binop_combine{detail::binop::mul, loc}, "tk::cumprod", loc));
}

/// Inclusive scan along `axis` with an associative `combine(tk::scalar<T>, tk::scalar<T>)`.
template <class T, int R, class F>
block<T, R> associative_scan(const block<T, R> &x, int axis, F combine, bool reverse = false,
                             std::source_location loc = std::source_location::current()) {
  return block<T, R>(detail::scan_axis<T>(x, axis, reverse, detail::user_combine<T>(combine, loc),
                                          "tk::associative_scan", loc));
}

/// Inclusive scan of a tuple of blocks of one shape along `axis`, combined together (Triton's
/// tuple `tl.associative_scan`): `combine` as for a tuple `tk::reduce`, associative (it need not
/// commute: the left values come first). A segmented sum scans (value, flag) pairs.
template <detail::tuple_of_blocks X, class F>
auto associative_scan(const X &xs, int axis, F combine, bool reverse = false,
                      std::source_location loc = std::source_location::current()) {
  using info = detail::block_tuple<std::remove_cvref_t<X>>;
  static_assert(info::rank >= 1, "tk::associative_scan: scans need blocks of rank >= 1");
  static_assert(detail::combines_tuple<typename info::scalars, F>,
                "tk::associative_scan: the combine function of a tuple of N blocks takes the N "
                "left values and then the N right values, as tk::scalar (Triton's order), or two "
                "std::tuple of them; it returns a std::tuple of N scalars");
  std::vector<detail::value_ref> results(info::size);
  if constexpr (detail::combines_tuple<typename info::scalars, F>) {
    axis = detail::normalize_axis(axis, info::rank, "tk::associative_scan", loc);
    auto vs = detail::tuple_operands(xs, "tk::associative_scan", loc);
    results = detail::scan(vs, axis, reverse,
                           detail::tuple_combine<typename info::scalars>(combine, loc), loc);
  }
  return detail::tuple_results<typename info::template blocks<info::rank>>(
      results, std::make_index_sequence<info::size>{});
}

} // namespace tk

#if !defined(TK_SEPARATE_COMPILATION)
#include <tk/reduce.ipp>
#endif
