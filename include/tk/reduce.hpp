/// @file reduce.hpp
/// Reductions and scans along an axis: `sum`, `max`, `min`, `argmax`, `argmin`, `reduce` with a
/// user combine function, `cumsum`, `cumprod` and `associative_scan`. Reducing a 1-D block gives a
/// scalar; `tk::keep_dims` keeps the reduced axis with size 1.
#pragma once

#include <tk/detail/config.hpp>

#include <tk/shape.hpp>

namespace tk {

struct keep_dims_t {};
/// Pass as the last argument of a reduction to keep the reduced axis (size 1).
inline constexpr keep_dims_t keep_dims{};

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
TK_DECL std::vector<value_ref> arg_combine_ops(bool greater, const std::vector<value_ref> &lhs,
                                               const std::vector<value_ref> &rhs, loc_t loc);

/// The combine function of argmax (`greater`) and argmin over (value, index) pairs.
struct arg_combine {
  bool greater;
  loc_t loc;
  TK_DECL std::vector<value_ref> operator()(const std::vector<value_ref> &lhs,
                                            const std::vector<value_ref> &rhs) const;
};

template <class T, int R>
value_ref arg_reduce(const block<T, R> &x, int axis, bool greater, const char *what, loc_t loc) {
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
  return reduce({v, idx}, axis, arg_combine{greater, loc}, loc)[1];
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

} // namespace detail

#define TK_REDUCTION(NAME, RESULT, COMBINE)                                                        \
  template <class T, int R>                                                                        \
  block<RESULT, detail::reduced_rank<R>> NAME(const block<T, R> &x, int axis,                      \
                                              std::source_location loc =                           \
                                                  std::source_location::current()) {               \
    return block<RESULT, detail::reduced_rank<R>>(                                                 \
        detail::reduce_axis<RESULT>(x, axis, COMBINE, "tk::" #NAME, loc));                         \
  }                                                                                                \
  template <class T, int R>                                                                        \
  block<RESULT, R> NAME(const block<T, R> &x, int axis, keep_dims_t,                               \
                        std::source_location loc = std::source_location::current()) {              \
    axis = detail::normalize_axis(axis, R, "tk::" #NAME, loc);                                     \
    return block<RESULT, R>(detail::expand_dims(                                                   \
        detail::reduce_axis<RESULT>(x, axis, COMBINE, "tk::" #NAME, loc), axis, loc));             \
  }                                                                                                \
  template <class T, int R>                                                                        \
  scalar<RESULT> NAME(const block<T, R> &x,                                                        \
                      std::source_location loc = std::source_location::current()) {                \
    return scalar<RESULT>(detail::reduce_all<RESULT>(x, COMBINE, "tk::" #NAME, loc));              \
  }

/// The sum along `axis` (integers narrower than 32 bits accumulate in 32 bits).
TK_REDUCTION(sum, detail::sum_t<T>, (detail::binop_combine{detail::binop::add, loc}))
/// The largest element along `axis`. NaNs are ignored, as by Triton's `tl.max` (and
/// `tk::maximum`): the result is NaN only when every element is NaN.
TK_REDUCTION(max, T, (detail::binop_combine{detail::binop::max, loc}))
/// The smallest element along `axis`; NaNs are ignored, as by `tk::max`.
TK_REDUCTION(min, T, (detail::binop_combine{detail::binop::min, loc}))
#undef TK_REDUCTION

/// The index of the largest element along `axis` (the first one on ties), as i32. A NaN counts as
/// the largest (the index of the first NaN), as in torch.argmax.
template <class T, int R>
block<std::int32_t, detail::reduced_rank<R>>
argmax(const block<T, R> &x, int axis, std::source_location loc = std::source_location::current()) {
  return block<std::int32_t, detail::reduced_rank<R>>(
      detail::arg_reduce(x, axis, true, "tk::argmax", loc));
}

/// The index of the smallest element along `axis` (the first one on ties), as i32. A NaN counts as
/// the smallest (the index of the first NaN), as in torch.argmin.
template <class T, int R>
block<std::int32_t, detail::reduced_rank<R>>
argmin(const block<T, R> &x, int axis, std::source_location loc = std::source_location::current()) {
  return block<std::int32_t, detail::reduced_rank<R>>(
      detail::arg_reduce(x, axis, false, "tk::argmin", loc));
}

/// Reduces along `axis` with `combine(tk::scalar<T>, tk::scalar<T>) -> tk::scalar<T>`, which must
/// be associative and commutative.
template <class T, int R, class F>
block<T, detail::reduced_rank<R>>
reduce(const block<T, R> &x, int axis, F combine,
       std::source_location loc = std::source_location::current()) {
  return block<T, detail::reduced_rank<R>>(
      detail::reduce_axis<T>(x, axis, detail::user_combine<T>(combine, loc), "tk::reduce", loc));
}

/// Inclusive prefix sums along `axis` (narrow integers accumulate in 32 bits).
template <class T, int R>
block<detail::sum_t<T>, R> cumsum(const block<T, R> &x, int axis = 0, bool reverse = false,
                                  std::source_location loc = std::source_location::current()) {
  return block<detail::sum_t<T>, R>(detail::scan_axis<detail::sum_t<T>>(
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

} // namespace tk

#if !defined(TK_SEPARATE_COMPILATION)
#include <tk/reduce.ipp>
#endif
