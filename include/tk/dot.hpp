/// @file dot.hpp
/// `tk::dot(a, b, acc)`: the matrix product of a [M, K] and a [K, N] block added to an [M, N]
/// accumulator (or, batched, of [B, M, K] and [B, K, N] blocks), for f16, bf16, f32 (TF32 by
/// default, like Triton), fp8 (e4m3 and e5m2, which may be mixed) and i8 inputs.
#pragma once

#include <tk/creation.hpp>

#include <optional>

namespace tk {

/// How f32 inputs of `tk::dot` are multiplied (as Triton's `input_precision`). Inputs of other
/// types (f16, bf16, fp8, i8) are multiplied exactly whatever it says: there it has no effect, as
/// in Triton.
enum class input_precision {
  tf32, ///< each input rounded to TF32 (10 fraction bits) toward zero, as the tensor cores read f32
  ieee, ///< full f32 products
  /// three TF32 passes: x = big + small with big = tf32(x), small = tf32(x - big), and a * b as
  /// big_a big_b + big_a small_b + small_a big_b: close to ieee, on tensor cores
  tf32x3,
  /// what TK_F32_DEFAULT says (tf32, ieee or tf32x3, as Triton's TRITON_F32_DEFAULT), else tf32:
  /// the default of tk::dot, as Triton's input_precision=None
  automatic,
};

/// Options of `tk::dot` beyond its operands, as Triton's keyword arguments:
/// `tk::dot(a, b, acc, {.max_num_imprecise_acc = 32})`.
struct dot_options {
  tk::input_precision input_precision = tk::input_precision::automatic;
  /// fp8 inputs with an f32 accumulator: Hopper's tensor cores add fp8 products with fewer bits
  /// than f32; at most this many products along K are added that way before their sum joins
  /// the accumulator in f32 (values up to 32, one instruction's K, give the most precise sum).
  /// No value: no limit, Triton's default on Hopper. Other inputs, other GPUs: no effect.
  std::optional<int> max_num_imprecise_acc = std::nullopt;
};

namespace detail {

template <class A> constexpr bool is_fp8_v = std::is_same_v<A, f8e4m3> || std::is_same_v<A, f8e5m2>;

/// The input types of the tensor cores' products.
template <class A>
constexpr bool is_dot_input_v =
    std::is_same_v<A, half> || std::is_same_v<A, bfloat16> || std::is_same_v<A, float> ||
    is_fp8_v<A> || std::is_same_v<A, std::int8_t>;

/// The default accumulator of products of A: i32 for i8, f32 for the others.
template <class A>
using dot_accumulator_t = std::conditional_t<std::is_same_v<A, std::int8_t>, std::int32_t, float>;

/// Whether C may accumulate products of A: the default type, or f16 for f16 and fp8 inputs.
template <class A, class C>
constexpr bool is_dot_accumulator_v =
    std::is_same_v<C, dot_accumulator_t<A>> ||
    (std::is_same_v<C, half> && (std::is_same_v<A, half> || is_fp8_v<A>));

/// The result type of `tk::dot<Out>(a, b)`: Out, or the default accumulator for void.
template <class A, class Out>
using dot_result_t = std::conditional_t<std::is_void_v<Out>, dot_accumulator_t<A>, Out>;

/// Whether `tk::dot<Out>` takes these operands; check_dot says why not.
template <class A, int RA, class B, int RB, class Out>
constexpr bool is_dot_v = (RA == 2 || RA == 3) && RA == RB && is_dot_input_v<A> &&
                          (std::is_same_v<A, B> || (is_fp8_v<A> && is_fp8_v<B>)) &&
                          (std::is_void_v<Out> || is_dot_accumulator_v<A, Out>);

/// One static_assert for each rule `tk::dot<Out>(a, b)` breaks (the callers do nothing more
/// where one fails, so that the message stands alone).
template <class A, int RA, class B, int RB, class Out = void> constexpr void check_dot() {
  static_assert((RA == 2 || RA == 3) && RA == RB,
                "tk::dot multiplies 2-D blocks [M, K] x [K, N], or 3-D ones [B, M, K] x "
                "[B, K, N] batch by batch; turn a vector into a matrix with "
                "x(tk::_, tk::newaxis) or tk::expand_dims");
  static_assert(is_dot_input_v<A>,
                "tk::dot: inputs must be f16, bf16, f32, f8e4m3, f8e5m2 or i8 blocks");
  static_assert(std::is_same_v<A, B> || (is_fp8_v<A> && is_fp8_v<B>),
                "tk::dot: both inputs must have the same element type (or be two fp8 types); "
                "convert one with tk::cast");
  static_assert(std::is_void_v<Out> || is_dot_accumulator_v<A, Out>,
                "tk::dot<Out>: the result type (Triton's out_dtype) must be float for float "
                "inputs, or half for f16 and fp8 inputs, and std::int32_t for i8 inputs");
}

/// The precision the IR records for inputs of type A: `precision` for f32, ieee for the others
/// (exact products; Triton ignores input_precision for them too).
template <class A> dot_precision precision_for(input_precision precision) {
  if constexpr (!std::is_same_v<A, float>)
    return dot_precision::ieee;
  else
    return precision == input_precision::tf32     ? dot_precision::tf32
           : precision == input_precision::tf32x3 ? dot_precision::tf32x3
           : precision == input_precision::ieee   ? dot_precision::ieee
                                                  : default_f32_precision();
}

/// Checks the shapes of a x b (+ acc), 2-D or batched, and records or computes it; `acc` null
/// for zeros of type `out`.
TK_DECL value_ref dot_impl(const value_ref &a, const value_ref &b, const value_ref &acc,
                           elem_type out, dot_precision precision, const dot_options &options,
                           loc_t loc);

template <class A, class C, int R, class B>
block<C, R> dot_of(const block<A, R> &a, const block<B, R> &b, const block<C, R> *acc,
                   const dot_options &options, loc_t loc) {
  return block<C, R>(dot_impl(operand_of(a.v_, loc).v, operand_of(b.v_, loc).v,
                              acc ? operand_of(acc->v_, loc).v : value_ref{}, elem_of<C>(),
                              precision_for<A>(options.input_precision), options, loc));
}

} // namespace detail

/// a x b, accumulated in f32 (i32 for i8 inputs), or in `Out` (Triton's `out_dtype`: half for
/// f16 and fp8 inputs). 2-D blocks [M, K] x [K, N], or 3-D ones [B, M, K] x [B, K, N]: B
/// products. fp8 products are exact in f32; GPU tensor cores may add them with fewer bits than
/// f32 (docs/writing-kernels.md, "Matrix products"; dot_options::max_num_imprecise_acc).
template <class Out = void, class A, int RA, class B, int RB>
block<detail::dot_result_t<A, Out>, RA>
dot(const block<A, RA> &a, const block<B, RB> &b, dot_options options,
    std::source_location loc = std::source_location::current()) {
  detail::check_dot<A, RA, B, RB, Out>();
  using C = detail::dot_result_t<A, Out>;
  if constexpr (detail::is_dot_v<A, RA, B, RB, Out>)
    return detail::dot_of<A, C, RA>(a, b, nullptr, options, loc);
  else
    return block<C, RA>(detail::value_ref{});
}

/// a x b with `precision` for f32 inputs.
template <class Out = void, class A, int RA, class B, int RB>
block<detail::dot_result_t<A, Out>, RA>
dot(const block<A, RA> &a, const block<B, RB> &b,
    input_precision precision = input_precision::automatic,
    std::source_location loc = std::source_location::current()) {
  return tk::dot<Out>(a, b, dot_options{.input_precision = precision}, loc);
}

/// a x b + acc. The accumulator is f32 (or f16 for f16 and fp8 inputs), i32 for i8 inputs.
template <class A, int RA, class B, int RB, class C, int RC>
block<C, RC> dot(const block<A, RA> &a, const block<B, RB> &b, const block<C, RC> &acc,
                 dot_options options, std::source_location loc = std::source_location::current()) {
  detail::check_dot<A, RA, B, RB>();
  static_assert(RC == RA, "tk::dot: the accumulator must have the inputs' rank");
  static_assert(!detail::is_dot_input_v<A> || detail::is_dot_accumulator_v<A, C>,
                "tk::dot: the accumulator must be f32 for float inputs, fp8 included (or f16 "
                "for f16 and fp8 inputs), and i32 for i8 inputs");
  if constexpr (detail::is_dot_v<A, RA, B, RB, C> && RC == RA)
    return detail::dot_of<A, C, RA>(a, b, &acc, options, loc);
  else
    return block<C, RC>(detail::value_ref{});
}

/// a x b + acc with `precision` for f32 inputs.
template <class A, int RA, class B, int RB, class C, int RC>
block<C, RC> dot(const block<A, RA> &a, const block<B, RB> &b, const block<C, RC> &acc,
                 input_precision precision = input_precision::automatic,
                 std::source_location loc = std::source_location::current()) {
  return tk::dot(a, b, acc, dot_options{.input_precision = precision}, loc);
}

} // namespace tk

#if !defined(TK_SEPARATE_COMPILATION)
#include <tk/dot.ipp>
#endif
