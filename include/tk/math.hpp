/// @file math.hpp
/// Elementwise math, selection and conversions: `exp`, `sqrt`, `tanh`, `pow`, `maximum`, `where`,
/// `cast`, ..., and `softmax`. Math functions need floating-point blocks; on the GPU they are
/// libdevice's or the hardware's approximations, as in Triton (docs/writing-kernels.md lists
/// their accuracy), while the interpreter rounds the exact result.
#pragma once

#include <tk/block.hpp>
#include <tk/detail/trace/extern_elementwise.hpp>
#include <tk/reduce.hpp>

#include <utility>

#include <limits>

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

/// check_float for the element type of a block operand; literals convert to the other operand's
/// type.
template <class X> constexpr void check_float_operand(const char *what) {
  if constexpr (any_block<X>)
    check_float<element_of<X>>(what);
}

/// libdevice's `stem` of two operands of one float type, promoted and broadcast as arithmetic;
/// `what` names the call in errors ("tk::hypot").
template <operand A, operand B>
auto libdevice_binary(const char *stem, const char *what, const A &a, const B &b, loc_t loc) {
  check_float_operand<A>(stem);
  check_float_operand<B>(stem);
  using T = promoted<A, B>;
  check_float<T>(stem);
  constexpr int R = result_rank<A, B>;
  const auto oa = to_operand(a, loc), ob = to_operand(b, loc);
  const auto shape = broadcast_shape(oa.shape(), ob.shape(), what, loc);
  const auto t = elem_of<T>();
  // In order: C++ leaves the order of function arguments unspecified (IR op order).
  const auto ma = materialize(oa, t, shape, loc), mb = materialize(ob, t, shape, loc);
  return block<T, R>(libdevice_call(stem, {ma, mb}, loc));
}

/// `a op b` for a float-only binary operation `O`, promoting and broadcasting like arithmetic.
template <binop O, operand A, operand B> auto float_binary(const A &a, const B &b, loc_t loc) {
  check_float_operand<A>("");
  check_float_operand<B>("");
  return arith_op<O>(a, b, loc);
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
TK_FLOAT_FUNCTION(log10, log10)
/// log(1 + x), accurate for small x.
TK_FLOAT_FUNCTION(log1p, log1p)
/// exp(x) - 1, accurate for small x.
TK_FLOAT_FUNCTION(expm1, expm1)
/// The square root, which the GPU may approximate (`sqrt.approx` on f32), as Triton's `tl.sqrt`;
/// `tk::sqrt_rn` rounds to nearest.
TK_FLOAT_FUNCTION(sqrt, sqrt)
/// The square root rounded to nearest (IEEE), Triton's `tl.sqrt_rn`.
TK_FLOAT_FUNCTION(sqrt_rn, sqrt_rn)
TK_FLOAT_FUNCTION(rsqrt, rsqrt)
TK_FLOAT_FUNCTION(cbrt, cbrt)
TK_FLOAT_FUNCTION(sin, sin)
TK_FLOAT_FUNCTION(cos, cos)
TK_FLOAT_FUNCTION(tan, tan)
TK_FLOAT_FUNCTION(asin, asin)
TK_FLOAT_FUNCTION(acos, acos)
TK_FLOAT_FUNCTION(atan, atan)
TK_FLOAT_FUNCTION(sinh, sinh)
TK_FLOAT_FUNCTION(cosh, cosh)
TK_FLOAT_FUNCTION(tanh, tanh)
TK_FLOAT_FUNCTION(asinh, asinh)
TK_FLOAT_FUNCTION(acosh, acosh)
TK_FLOAT_FUNCTION(atanh, atanh)
TK_FLOAT_FUNCTION(erf, erf)
/// 1 - erf(x), accurate where erf(x) is close to 1.
TK_FLOAT_FUNCTION(erfc, erfc)
TK_FLOAT_FUNCTION(floor, floor)
TK_FLOAT_FUNCTION(ceil, ceil)
/// Rounds toward zero.
TK_FLOAT_FUNCTION(trunc, trunc)
/// Rounds to the nearest integer, halfway cases away from zero (2.5 -> 3, -2.5 -> -3).
TK_FLOAT_FUNCTION(round, round)
/// Rounds to the nearest integer, halfway cases to even (2.5 -> 2, 3.5 -> 4).
TK_FLOAT_FUNCTION(rint, rint)
#undef TK_FLOAT_FUNCTION

/// 10 to the power x (libdevice's `exp10`: `tk.extern_elementwise`).
template <class T, int R>
block<T, R> exp10(const block<T, R> &x,
                  std::source_location loc = std::source_location::current()) {
  detail::check_float<T>("exp10");
  return block<T, R>(detail::libdevice_call("exp10", {detail::operand_of(x.v_, loc).v}, loc));
}

/// Whether each element is NaN (`arith.cmpf uno`).
template <class T, int R>
block<bool, R> isnan(const block<T, R> &x,
                     std::source_location loc = std::source_location::current()) {
  detail::check_float<T>("isnan");
  const auto v = detail::operand_of(x.v_, loc).v;
  return block<bool, R>(detail::compare(detail::cmpop::uno, v, v, loc));
}

/// Whether each element is +inf or -inf (|x| == inf).
template <class T, int R>
block<bool, R> isinf(const block<T, R> &x,
                     std::source_location loc = std::source_location::current()) {
  detail::check_float<T>("isinf");
  const auto v = detail::operand_of(x.v_, loc).v;
  const auto magnitude = detail::unary(detail::unop::abs, v, loc);
  const auto inf =
      detail::const_value(v->type, v->shape, std::numeric_limits<double>::infinity(), 0, loc);
  return block<bool, R>(detail::compare(detail::cmpop::eq, magnitude, inf, loc));
}

/// Whether each element's sign bit is set: true for -0.0, negative numbers and NaNs with the sign
/// bit (the bits as a signed integer are negative).
template <class T, int R>
block<bool, R> signbit(const block<T, R> &x,
                       std::source_location loc = std::source_location::current()) {
  detail::check_float<T>("signbit");
  const auto v = detail::operand_of(x.v_, loc).v;
  constexpr int width = bit_width(dtype_of<T>);
  const detail::elem_type bits_type{width == 16   ? dtype::i16
                                    : width == 32 ? dtype::i32
                                                  : dtype::i64};
  const auto bits = detail::bitcast(v, bits_type, loc);
  const auto zero = detail::const_value(bits_type, v->shape, 0, 0, loc);
  return block<bool, R>(detail::compare(detail::cmpop::lt, bits, zero, loc));
}

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

/// Whether `tk::maximum`, `tk::minimum` and `tk::clamp` propagate NaNs (Triton's
/// `tl.PropagateNan`): with `none` a NaN loses to a number (`arith.maxnumf`), with `all` a NaN
/// operand makes the result NaN (`arith.maximumf`). Integers have no NaN: both are the same.
enum class propagate_nan : unsigned char { none, all };

/// The larger of `a` and `b` elementwise. For floats a NaN loses to a number; with
/// `propagate_nan::all` a NaN in either gives NaN (and -0.0 is smaller than +0.0).
template <operand A, operand B>
  requires(any_block<A> || any_block<B>)
auto maximum(const A &a, const B &b, propagate_nan nan,
             std::source_location loc = std::source_location::current()) {
  if (nan == propagate_nan::all)
    return detail::arith_op<detail::binop::maximum>(a, b, loc);
  return detail::arith_op<detail::binop::max>(a, b, loc);
}

/// The smaller of `a` and `b` elementwise, NaNs as for `tk::maximum`.
template <operand A, operand B>
  requires(any_block<A> || any_block<B>)
auto minimum(const A &a, const B &b, propagate_nan nan,
             std::source_location loc = std::source_location::current()) {
  if (nan == propagate_nan::all)
    return detail::arith_op<detail::binop::minimum>(a, b, loc);
  return detail::arith_op<detail::binop::min>(a, b, loc);
}

/// The larger of `a` and `b` elementwise (for floats, a NaN loses to a number).
template <operand A, operand B>
  requires(any_block<A> || any_block<B>)
auto maximum(const A &a, const B &b, std::source_location loc = std::source_location::current()) {
  return tk::maximum(a, b, propagate_nan::none, loc);
}

/// The smaller of `a` and `b` elementwise (for floats, a NaN loses to a number).
template <operand A, operand B>
  requires(any_block<A> || any_block<B>)
auto minimum(const A &a, const B &b, std::source_location loc = std::source_location::current()) {
  return tk::minimum(a, b, propagate_nan::none, loc);
}

/// `x` limited to [lo, hi]: minimum(maximum(x, lo, nan), hi, nan), converted back to `x`'s type.
/// With `propagate_nan::all` a NaN in `x` stays NaN; by default it becomes `lo`.
template <operand X, operand L, operand H>
  requires any_block<X>
auto clamp(const X &x, const L &lo, const H &hi, propagate_nan nan,
           std::source_location loc = std::source_location::current()) {
  using T = detail::element_of<X>;
  constexpr int R = detail::rank_of<X>;
  auto r = tk::minimum(tk::maximum(x, lo, nan, loc), hi, nan, loc);
  static_assert(decltype(r)::rank == R, "tk::clamp: the bounds must not have a higher rank than x");
  return block<T, R>(detail::convert(r.v_, detail::elem_of<T>(), loc));
}

/// `x` limited to [lo, hi] (a NaN in `x` becomes `lo`).
template <operand X, operand L, operand H>
  requires any_block<X>
auto clamp(const X &x, const L &lo, const H &hi,
           std::source_location loc = std::source_location::current()) {
  return tk::clamp(x, lo, hi, propagate_nan::none, loc);
}

/// `x` to the power `y`, as C's `pow` (a negative base with an integer exponent is fine; with a
/// non-integer one the result is NaN). Promotes and broadcasts like arithmetic; both operands must
/// be float blocks or literals.
template <operand A, operand B>
  requires(any_block<A> || any_block<B>)
auto pow(const A &x, const B &y, std::source_location loc = std::source_location::current()) {
  return detail::float_binary<detail::binop::pow>(x, y, loc);
}

/// The angle of the point (x, y) in radians, in [-pi, pi]: atan(y / x) in the right quadrant.
template <operand A, operand B>
  requires(any_block<A> || any_block<B>)
auto atan2(const A &y, const B &x, std::source_location loc = std::source_location::current()) {
  return detail::float_binary<detail::binop::atan2>(y, x, loc);
}

/// sqrt(x * x + y * y) without overflow or underflow on the way (libdevice's `hypot`:
/// `tk.extern_elementwise`).
template <operand A, operand B>
  requires(any_block<A> || any_block<B>)
auto hypot(const A &x, const B &y, std::source_location loc = std::source_location::current()) {
  return detail::libdevice_binary("hypot", "tk::hypot", x, y, loc);
}

/// `a / b` for floats, which the GPU may approximate unless `ieee_rounding` (Triton's
/// `tl.math.fdiv`): `div.full.f32` on f32, within 2 ulps. `/` and `tk::div_rn` round to nearest.
template <operand A, operand B>
  requires(any_block<A> || any_block<B>)
auto fdiv(const A &a, const B &b, bool ieee_rounding = false,
          std::source_location loc = std::source_location::current()) {
  if (ieee_rounding)
    return detail::float_binary<detail::binop::div>(a, b, loc);
  return detail::float_binary<detail::binop::fast_div>(a, b, loc);
}

/// `a / b` for floats, rounded to nearest (IEEE), Triton's `tl.div_rn`; the same as `/`.
template <operand A, operand B>
  requires(any_block<A> || any_block<B>)
auto div_rn(const A &a, const B &b, std::source_location loc = std::source_location::current()) {
  return detail::float_binary<detail::binop::div>(a, b, loc);
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
/// `fp_downcast_rounding`); conversions to fp8 types saturate at the largest finite value.
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

/// exp(x - max) / sum(exp(x - max)) along `dim` (Triton's `tl.softmax`): the maximum and the sum
/// keep the reduced axis with `keep` (Triton's `keep_dims`), and the division is
/// `fdiv(num, den, ieee_rounding)`. Without `keep` they broadcast back from the left, which works
/// only along axis 0 (or for a 1-D block); along another axis of a block of rank 2 or more pass
/// `keep` (Triton fails there too, or computes something else for a square block).
template <class T, int R>
auto softmax(const block<T, R> &x, int dim = 0, bool keep = false, bool ieee_rounding = false,
             std::source_location loc = std::source_location::current()) {
  static_assert(R >= 1, "tk::softmax needs a block of rank >= 1, not a scalar");
  detail::check_float<T>("softmax");
  const int axis = detail::normalize_axis(dim, R, "tk::softmax", loc);
  if (keep) {
    const auto z =
        detail::arith_op<detail::binop::sub>(x, tk::max(x, axis, tk::keep_dims, loc), loc);
    const auto num = tk::exp(z, loc);
    return tk::fdiv(num, tk::sum(num, axis, tk::keep_dims, loc), ieee_rounding, loc);
  }
  if (R > 1 && axis != 0)
    detail::fail(loc, "tk::softmax: along axis ", axis, " of a block of rank ", R,
                 " the maximum and the sum must keep their axis to broadcast back: pass keep_dims "
                 "(tk::softmax(x, ",
                 dim, ", tk::keep_dims) or tk::softmax(x, ", dim, ", true))");
  const auto z = detail::arith_op<detail::binop::sub>(x, tk::max(x, axis, loc), loc);
  const auto num = tk::exp(z, loc);
  return tk::fdiv(num, tk::sum(num, axis, loc), ieee_rounding, loc);
}

/// softmax along `dim`, keeping the reduced axis (`tk::softmax(x, 1, tk::keep_dims)`).
template <class T, int R>
auto softmax(const block<T, R> &x, int dim, keep_dims_t, bool ieee_rounding = false,
             std::source_location loc = std::source_location::current()) {
  return tk::softmax(x, dim, true, ieee_rounding, loc);
}

namespace detail {

/// The smaller of two operands: `tk::minimum` for blocks, plain C++ for numbers (swizzle2d works
/// on both).
template <class A, class B> auto min_of(const A &a, const B &b) {
  if constexpr (literal<A> && literal<B>)
    return unwrap_constant(a) < unwrap_constant(b) ? unwrap_constant(a) : unwrap_constant(b);
  else
    return tk::minimum(a, b);
}

} // namespace detail

/// Triton's `tl.swizzle2d`: maps the row-major index (`i`, `j`) of a `size_i` x `size_j` grid to
/// a column-major order within groups of `size_g` rows, so that consecutive program ids share
/// rows of A and columns of B in a matmul (better L2 reuse). Takes and returns numbers or integer
/// blocks: `auto [pid_m, pid_n] = tk::swizzle2d(pid / n, pid % n, m, n, GROUP_M);`.
template <class I, class J, class SI, class SJ, class SG>
auto swizzle2d(const I &i, const J &j, const SI &size_i, const SJ &size_j, const SG &size_g) {
  auto ij = i * size_j + j;                               // the unrolled index
  auto size_gj = size_g * size_j;                         // elements in a group of size_g rows
  auto group = ij / size_gj;                              // the group (i, j) is in
  auto first_row = group * size_g;                        // its first row
  auto rows = detail::min_of(size_i - first_row, size_g); // the last group may be shorter
  auto in_group = ij % size_gj;
  return std::pair{first_row + in_group % rows, in_group / rows};
}

} // namespace tk
