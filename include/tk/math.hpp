/// @file math.hpp
/// Elementwise math, selection and conversions: `exp`, `sqrt`, `maximum`, `where`, `cast`, ...
/// Transcendental functions need floating-point blocks; `exp` may be computed approximately on
/// the GPU, as in Triton.
#pragma once

#include <tk/block.hpp>

namespace tk {
namespace detail {

template <class T> constexpr void check_float(const char *) {
  static_assert(std::is_floating_point_v<T> || std::is_same_v<T, half> ||
                    std::is_same_v<T, bfloat16>,
                "tk: this math function needs a floating-point block (f16, bf16, f32, f64); "
                "convert integers first with tk::cast<float>(x)");
}

template <unop O, class T, int R> block<T, R> unary_op(const block<T, R> &x, loc_t loc) {
  return block<T, R>(unary(O, operand_of(x.v_, loc).v, loc));
}

} // namespace detail

#define TK_FLOAT_FUNCTION(NAME, OP)                                                                \
  template <class T, int R>                                                                        \
  block<T, R> NAME(const block<T, R> &x,                                                           \
                   std::source_location loc = std::source_location::current()) {                   \
    detail::check_float<T>(#NAME);                                                                 \
    return detail::unary_op<detail::unop::OP>(x, loc);                                             \
  }
TK_FLOAT_FUNCTION(exp, exp)
TK_FLOAT_FUNCTION(exp2, exp2)
TK_FLOAT_FUNCTION(log, log)
TK_FLOAT_FUNCTION(log2, log2)
TK_FLOAT_FUNCTION(sqrt, sqrt)
TK_FLOAT_FUNCTION(rsqrt, rsqrt)
TK_FLOAT_FUNCTION(sin, sin)
TK_FLOAT_FUNCTION(cos, cos)
TK_FLOAT_FUNCTION(erf, erf)
TK_FLOAT_FUNCTION(floor, floor)
TK_FLOAT_FUNCTION(ceil, ceil)
#undef TK_FLOAT_FUNCTION

/// |x| for float and signed integer blocks (unsigned blocks are returned unchanged).
template <class T, int R>
block<T, R> abs(const block<T, R> &x, std::source_location loc = std::source_location::current()) {
  static_assert(!std::is_pointer_v<T> && !std::is_same_v<T, bool>, "tk::abs needs a numeric block");
  if constexpr (std::is_unsigned_v<T>)
    return x;
  else
    return detail::unary_op<detail::unop::abs>(x, loc);
}

/// 1 / (1 + exp(-x)).
template <class T, int R>
block<T, R> sigmoid(const block<T, R> &x,
                    std::source_location loc = std::source_location::current()) {
  detail::check_float<T>("sigmoid");
  auto neg = detail::arith_op<detail::binop::sub>(0.0, x, loc);
  auto e = detail::unary_op<detail::unop::exp>(neg, loc);
  return detail::arith_op<detail::binop::div>(
      1.0, detail::arith_op<detail::binop::add>(1.0, e, loc), loc);
}

/// The larger of `a` and `b` elementwise (for floats, a NaN loses to a number).
template <operand A, operand B>
  requires(any_block<A> || any_block<B>)
auto maximum(const A &a, const B &b, std::source_location loc = std::source_location::current()) {
  return detail::arith_op<detail::binop::max>(a, b, loc);
}

template <operand A, operand B>
  requires(any_block<A> || any_block<B>)
auto minimum(const A &a, const B &b, std::source_location loc = std::source_location::current()) {
  return detail::arith_op<detail::binop::min>(a, b, loc);
}

/// `x` limited to [lo, hi].
template <operand X, operand L, operand H>
  requires any_block<X>
auto clamp(const X &x, const L &lo, const H &hi,
           std::source_location loc = std::source_location::current()) {
  using T = detail::element_of<X>;
  constexpr int R = detail::rank_of<X>;
  auto r = detail::arith_op<detail::binop::min>(detail::arith_op<detail::binop::max>(x, lo, loc),
                                                hi, loc);
  static_assert(decltype(r)::rank == R, "tk::clamp: the bounds must not have a higher rank than x");
  return block<T, R>(detail::convert(r.v_, detail::elem_of<T>(), loc));
}

/// a * b + c, rounded once.
template <operand A, operand B, operand C>
  requires(any_block<A> || any_block<B> || any_block<C>)
auto fma(const A &a, const B &b, const C &c,
         std::source_location loc = std::source_location::current()) {
  using AB = detail::promoted<A, B>;
  using T = type_of<promote(dtype_of<AB>, detail::code_of<C>)>;
  detail::check_float<T>("fma");
  constexpr int R = detail::max_rank(detail::result_rank<A, B>, detail::rank_of<C>);
  const auto oa = detail::to_operand(a, loc), ob = detail::to_operand(b, loc),
             oc = detail::to_operand(c, loc);
  const auto shape = detail::broadcast_shape(
      detail::broadcast_shape(oa.shape(), ob.shape(), "tk::fma", loc), oc.shape(), "tk::fma", loc);
  const auto t = detail::elem_of<T>();
  // In order: C++ leaves the order of function arguments unspecified (IR op order).
  const auto ma = detail::materialize(oa, t, shape, loc),
             mb = detail::materialize(ob, t, shape, loc),
             mc = detail::materialize(oc, t, shape, loc);
  return block<T, R>(detail::fma(ma, mb, mc, loc));
}

namespace detail {
template <class A, class B> struct promoted_type {
  using type = promoted<A, B>;
};
} // namespace detail

/// `condition ? a : b` elementwise, broadcasting all three.
template <operand C, operand A, operand B>
auto where(const C &condition, const A &a, const B &b,
           std::source_location loc = std::source_location::current()) {
  static_assert(std::is_same_v<detail::element_of<C>, bool>,
                "tk::where: the condition must be a boolean block, e.g. `x > 0`");
  using EA = detail::element_of<A>;
  using EB = detail::element_of<B>;
  static_assert(std::is_pointer_v<EA> == std::is_pointer_v<EB>,
                "tk::where: cannot choose between a pointer and a number");
  // Lazily: promoted<A, B> has no meaning for pointers.
  using T = typename std::conditional_t<std::is_pointer_v<EA>, std::type_identity<EA>,
                                        detail::promoted_type<A, B>>::type;
  constexpr int R = detail::max_rank(detail::rank_of<C>, detail::result_rank<A, B>);
  return block<T, R>(detail::where(detail::to_operand(condition, loc), detail::to_operand(a, loc),
                                   detail::to_operand(b, loc), loc));
}

/// Division rounding toward negative infinity (`/` on integers rounds toward zero, as in C).
template <operand A, operand B>
  requires(any_block<A> || any_block<B>)
auto floordiv(const A &a, const B &b, std::source_location loc = std::source_location::current()) {
  using T = detail::promoted<A, B>;
  if constexpr (std::is_integral_v<T>) {
    return detail::arith_op<detail::binop::floordiv>(a, b, loc);
  } else {
    auto q = detail::arith_op<detail::binop::div>(a, b, loc);
    return detail::unary_op<detail::unop::floor>(q, loc);
  }
}

/// Ceiling division of integer blocks: (a + b - 1) / b.
template <operand A, operand B>
  requires(any_block<A> || any_block<B>)
auto cdiv(const A &a, const B &b, std::source_location loc = std::source_location::current()) {
  static_assert(std::is_integral_v<detail::promoted<A, B>>, "tk::cdiv needs integer operands");
  auto num =
      detail::arith_op<detail::binop::sub>(detail::arith_op<detail::binop::add>(a, b, loc), 1, loc);
  return detail::arith_op<detail::binop::div>(num, b, loc);
}

/// Converts each element to `U` (float→int truncates toward zero; x→bool is x != 0). A float
/// narrowed to a smaller float type rounds to nearest even, or as `mode` says (Triton's
/// `fp_downcast_rounding`); conversions to f8e4m3 and f8e5m2 saturate at the largest finite value.
template <element U, class T, int R>
block<U, R> cast(const block<T, R> &x, rounding mode,
                 std::source_location loc = std::source_location::current()) {
  static_assert(!std::is_pointer_v<U> || !is_float(dtype_of<T>),
                "tk::cast: a float block cannot become pointers");
  return block<U, R>(
      detail::convert(detail::operand_of(x.v_, loc).v, detail::elem_of<U>(), loc, mode));
}

template <element U, class T, int R>
block<U, R> cast(const block<T, R> &x, std::source_location loc = std::source_location::current()) {
  return cast<U>(x, rounding::rtne, loc);
}

/// Reinterprets each element's bits as `U`, which must have the same size as `T`.
template <element U, class T, int R>
block<U, R> bitcast(const block<T, R> &x,
                    std::source_location loc = std::source_location::current()) {
  static_assert(sizeof(U) == sizeof(T) && !std::is_same_v<U, bool> && !std::is_same_v<T, bool>,
                "tk::bitcast: source and destination types must have the same size; use "
                "tk::cast for value conversions");
  return block<U, R>(detail::bitcast(detail::operand_of(x.v_, loc).v, detail::elem_of<U>(), loc));
}

} // namespace tk
